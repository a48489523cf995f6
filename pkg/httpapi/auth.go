package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
)

// credentialAuthorizer authenticates the session cookie (API keys come next) and checks
// the operation's permission against the caller's current permissions.
type credentialAuthorizer struct {
	identity assess.IdentityService
	apiKeys  assess.APIKeyService
	signer   sessionSigner
	origins  []string // accepted Origin values for cookie-authenticated writes
}

// Authorize implements Authorizer.
func (a *credentialAuthorizer) Authorize(r *http.Request, permission assess.Perm) (context.Context, error) {
	ctx := r.Context()
	p, err := a.authenticate(r)
	if err != nil {
		return nil, err
	}
	actor := assess.Actor{ID: p.User.ID, IP: ClientFrom(ctx).IP, RequestID: logging.RequestID(ctx), Principal: p}
	if p.SessionID != "" && isUnsafe(r.Method) && !a.sameOrigin(r) {
		return nil, assess.Errorf(assess.ECodePermissionDenied, "Cross-site request refused: a cookie-authenticated change must come from this application's origin.")
	}
	if permission != assess.PermAuthenticated && !p.Can(permission) {
		_ = a.identity.Audit(ctx, assess.AuditEntry{Actor: actor, Action: assess.ChangeAuthPermissionDenied.Action, TargetType: "operation",
			TargetID: r.Method + " " + r.URL.Path, Details: map[string]any{"permission": permission}})
		return nil, assess.Errorf(assess.ECodePermissionDenied, "This action requires the permission %s.", permission)
	}
	return assess.WithActor(assess.WithPrincipal(ctx, p), actor), nil
}

// apiKeyFrom returns an API key sent as `Authorization: Bearer <key>` (the scheme is
// case-insensitive, RFC 9110 §11.1) or `X-Api-Key`.
func apiKeyFrom(r *http.Request) string {
	if k := r.Header.Get("X-Api-Key"); k != "" {
		return k
	}
	return bearerToken(r.Header.Get("Authorization"))
}

// bearerToken returns the token of an Authorization value with the Bearer scheme, in any
// letter case, or "".
func bearerToken(authorization string) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(authorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// identified is the outcome of authenticating a request's credential, done once per
// request by identify.
type identified struct {
	principal *assess.Principal
	err       error
}

type identifiedKey struct{}

// identify authenticates the credential a request presents, once, before the rate
// limiter: the limiter then counts an unknown or invalid credential against the client's
// address (a made-up key buys no budget of its own), and the authorizer reuses the
// outcome instead of looking the credential up again.
func (a *credentialAuthorizer) identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if presentedCredential(r) == "" {
			next.ServeHTTP(w, r)
			return
		}
		p, err := a.lookUp(r)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), identifiedKey{}, &identified{p, err})))
	})
}

// credentialValid reports whether identify found the request's credential valid; true
// when identify did not run (the limiter alone, as in its tests).
func credentialValid(r *http.Request) bool {
	id, ok := r.Context().Value(identifiedKey{}).(*identified)
	return !ok || id.err == nil
}

// authenticate resolves the request's credential: an API key when one is sent (it acts
// with its owner's current roles), otherwise the session cookie. The outcome of identify
// is used when it ran.
func (a *credentialAuthorizer) authenticate(r *http.Request) (*assess.Principal, error) {
	if id, ok := r.Context().Value(identifiedKey{}).(*identified); ok {
		return id.principal, id.err
	}
	return a.lookUp(r)
}

func (a *credentialAuthorizer) lookUp(r *http.Request) (*assess.Principal, error) {
	if key := apiKeyFrom(r); key != "" {
		if a.apiKeys == nil {
			return nil, assess.Errorf(assess.ECodeUnauthenticated, "API keys are not accepted by this server.")
		}
		return a.apiKeys.APIKeyPrincipal(r.Context(), key)
	}
	c, err := r.Cookie(SessionCookieName)
	if err != nil || c.Value == "" {
		return nil, assess.Errorf(assess.ECodeUnauthenticated, "Authentication is required: sign in, or send an API key.")
	}
	sid, err := a.signer.verify(c.Value)
	if err != nil {
		return nil, assess.Errorf(assess.ECodeUnauthenticated, "The session is invalid or has expired; sign in again.")
	}
	return a.identity.SessionPrincipal(r.Context(), sid)
}

func isUnsafe(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// sameOrigin accepts a write when its Origin (or, lacking it, its Referer) is this
// service's own origin or one of the configured ones. Browsers always send one of them on
// cross-site writes, so a forged form or fetch from another site is refused.
func (a *credentialAuthorizer) sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		ref, err := url.Parse(r.Header.Get("Referer"))
		if err != nil || ref.Host == "" {
			return false
		}
		origin = ref.Scheme + "://" + ref.Host
	}
	c := ClientFrom(r.Context())
	if strings.EqualFold(origin, c.Scheme+"://"+c.Host) {
		return true
	}
	return slices.ContainsFunc(a.origins, func(o string) bool { return strings.EqualFold(o, origin) })
}
