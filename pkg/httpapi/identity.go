package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
)

var tagAuthentication = []string{"Authentication"}

// Me is the signed-in user with their effective permissions.
type Me struct {
	User        assess.User `json:"user"`
	Permissions []string    `json:"permissions" doc:"Union of the permissions of the user's roles"`
}

// meOutput answers with the caller's account; sessionOutput also sets the session
// cookie (huma writes a header for a zero cookie too, so they are separate types).
type meOutput struct {
	CacheControl string `header:"Cache-Control"`
	Body         Me
}

type sessionOutput struct {
	SetCookie    http.Cookie `header:"Set-Cookie"`
	CacheControl string      `header:"Cache-Control"`
	Body         Me
}

type logoutOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie"`
}

// loginInputBody is the sign-in request (named as the OpenAPI document has always named it).
type loginInputBody struct {
	Username string `json:"username" minLength:"1" maxLength:"254" doc:"Username or e-mail address"`
	Password string `json:"password" minLength:"1" maxLength:"1024"`
}

// passwordInputBody is assess.PasswordChange under the name the OpenAPI document has
// always given it.
type passwordInputBody assess.PasswordChange

// requestActor is the caller of the request as store methods take it: who (with their
// permissions, when signed in), from which address, in which request.
func requestActor(ctx context.Context) assess.Actor {
	a := assess.ActorFrom(ctx)
	a.IP, a.RequestID = ClientFrom(ctx).IP, logging.RequestID(ctx)
	a.Principal = assess.PrincipalFrom(ctx)
	return a
}

var docAuthLogin = huma.Operation{OperationID: "login", Summary: "Sign in", Tags: tagAuthentication,
	Errors: []int{http.StatusUnauthorized},
	Description: "Checks a username (or e-mail) and password and sets the session cookie. Every failure — unknown " +
		"user, wrong password, locked or inactive account — is the same 401."}

func (s *Server) handleAuthLogin(ctx context.Context, in *body[loginInputBody]) (*sessionOutput, error) {
	if err := s.sessionsAvailable(); err != nil {
		return nil, err
	}
	u, err := s.dep.Identity.Authenticate(ctx, in.Body.Username, in.Body.Password, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return s.startSession(ctx, u)
}

var docAuthLogout = huma.Operation{OperationID: "logout", Summary: "Sign out", Tags: tagAuthentication,
	DefaultStatus: http.StatusNoContent, Description: "Ends the current session at once and clears the cookie."}

func (s *Server) handleAuthLogout(ctx context.Context, _ *struct{}) (*logoutOutput, error) {
	if p := assess.PrincipalFrom(ctx); p.SessionID != "" {
		if err := s.dep.Identity.RevokeSession(ctx, p.SessionID, requestActor(ctx)); err != nil {
			return nil, err
		}
	}
	return &logoutOutput{SetCookie: s.sessionCookie(ctx, "", -1)}, nil
}

var docMeGet = huma.Operation{OperationID: "getMe", Summary: "The signed-in user", Tags: tagAuthentication,
	Description: "The caller's account and current permissions (roles are read at each request)."}

func (s *Server) handleMeGet(ctx context.Context, _ *struct{}) (*meOutput, error) {
	p := assess.PrincipalFrom(ctx)
	return &meOutput{CacheControl: "no-store", Body: Me{User: p.User, Permissions: p.Permissions}}, nil
}

var docMePasswordChange = huma.Operation{OperationID: "changePassword", Summary: "Change one's own password",
	Tags: tagAuthentication, DefaultStatus: http.StatusNoContent,
	Description: "Needs the current password; the new one must meet the password policy. Ends the caller's other sessions."}

func (s *Server) handleMePasswordChange(ctx context.Context, in *body[passwordInputBody]) (*struct{}, error) {
	return nil, s.dep.Identity.ChangePassword(ctx, assess.PrincipalFrom(ctx), assess.PasswordChange(in.Body), requestActor(ctx))
}

// errNoSessionKey answers a sign-in while the server has no key to sign sessions with: the
// stored secret is encrypted under a key the configured master key cannot open (cmd/server
// logs it at start). A session started anyway would set a cookie that no request accepts.
var errNoSessionKey = &assess.Error{Code: assess.ECodeKeyUnavailable,
	Message: "Sign-in is unavailable: the server cannot read its session-signing secret with the configured " +
		"MASTER_ENCRYPTION_KEY. An administrator must restore the master key it was stored under, or set JWT_SECRET."}

// sessionsAvailable says whether sessions can be signed (errNoSessionKey when not).
func (s *Server) sessionsAvailable() error {
	if len(s.cfg.SessionKey) == 0 {
		return errNoSessionKey
	}
	return nil
}

// startSession creates a session for u and answers with the cookie and the user.
func (s *Server) startSession(ctx context.Context, u assess.User) (*sessionOutput, error) {
	if err := s.sessionsAvailable(); err != nil {
		return nil, err
	}
	sess, err := s.dep.Identity.CreateSession(ctx, u.ID, s.cfg.SessionLifetime, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	token, err := s.signer.sign(u.ID, sess.ID, sess.ExpiresAt)
	if err != nil {
		return nil, err
	}
	p, err := s.dep.Identity.SessionPrincipal(ctx, sess.ID)
	if err != nil {
		return nil, err
	}
	return &sessionOutput{SetCookie: s.sessionCookie(ctx, token, int(time.Until(sess.ExpiresAt).Seconds())), CacheControl: "no-store",
		Body: Me{User: p.User, Permissions: p.Permissions}}, nil
}

// sessionCookie builds the session cookie; maxAge < 0 deletes it.
func (s *Server) sessionCookie(ctx context.Context, value string, maxAge int) http.Cookie {
	secure := false
	if s.cfg.SecureCookie != nil {
		secure = s.cfg.SecureCookie(ClientFrom(ctx).Scheme == "https")
	}
	return http.Cookie{Name: SessionCookieName, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true,
		Secure: secure, SameSite: http.SameSiteLaxMode}
}
