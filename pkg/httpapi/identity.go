package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
)

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

type loginInput struct {
	Body struct {
		Username string `json:"username" minLength:"1" maxLength:"254" doc:"Username or e-mail address"`
		Password string `json:"password" minLength:"1" maxLength:"1024"`
	}
}

type setupInput struct {
	Body assess.NewAccount
}

type passwordInput struct {
	Body struct {
		CurrentPassword string `json:"currentPassword" minLength:"1" maxLength:"1024"`
		NewPassword     string `json:"newPassword" minLength:"1" maxLength:"1024"`
	}
}

type logoutOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie"`
}

func requestActor(ctx context.Context) assess.Actor {
	a := assess.ActorFrom(ctx)
	a.IP, a.RequestID = ClientFrom(ctx).IP, logging.RequestID(ctx)
	return a
}

func (s *Server) registerIdentity() {
	register(s, Op{Permission: assess.PermPublic, Operation: huma.Operation{
		OperationID: "completeSetup", Method: http.MethodPost, Path: "/api/v1/setup", DefaultStatus: http.StatusCreated,
		Summary: "Create the first administrator", Tags: []string{"Setup"},
		Description: "Creates the first administrator and signs them in (sets the session cookie). Refused with 409 " +
			"once any user exists. No environment variable seeds an administrator.",
		Errors: []int{http.StatusConflict},
	}}, func(ctx context.Context, in *setupInput) (*sessionOutput, error) {
		u, err := s.dep.Identity.CreateFirstAdmin(ctx, in.Body, requestActor(ctx))
		if err != nil {
			return nil, err
		}
		return s.startSession(ctx, u)
	})

	register(s, Op{Permission: assess.PermPublic, Operation: huma.Operation{
		OperationID: "login", Method: http.MethodPost, Path: "/api/v1/auth/login",
		Summary: "Sign in", Tags: []string{"Authentication"},
		Description: "Checks a username (or e-mail) and password and sets the session cookie. Every failure — unknown " +
			"user, wrong password, locked or inactive account — is the same 401.",
	}}, func(ctx context.Context, in *loginInput) (*sessionOutput, error) {
		u, err := s.dep.Identity.Authenticate(ctx, in.Body.Username, in.Body.Password, requestActor(ctx))
		if err != nil {
			return nil, err
		}
		return s.startSession(ctx, u)
	})

	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "logout", Method: http.MethodPost, Path: "/api/v1/auth/logout", DefaultStatus: http.StatusNoContent,
		Summary: "Sign out", Tags: []string{"Authentication"}, Description: "Ends the current session at once and clears the cookie.",
	}}, func(ctx context.Context, _ *struct{}) (*logoutOutput, error) {
		p := assess.PrincipalFrom(ctx)
		if p.SessionID != "" {
			if err := s.dep.Identity.RevokeSession(ctx, p.SessionID, requestActor(ctx)); err != nil {
				return nil, err
			}
		}
		return &logoutOutput{SetCookie: s.sessionCookie(ctx, "", -1)}, nil
	})

	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "getMe", Method: http.MethodGet, Path: "/api/v1/auth/me",
		Summary: "The signed-in user", Tags: []string{"Authentication"},
		Description: "The caller's account and current permissions (roles are read at each request).",
	}}, func(ctx context.Context, _ *struct{}) (*meOutput, error) {
		p := assess.PrincipalFrom(ctx)
		return &meOutput{CacheControl: "no-store", Body: Me{User: p.User, Permissions: p.Permissions}}, nil
	})

	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "changePassword", Method: http.MethodPost, Path: "/api/v1/auth/password", DefaultStatus: http.StatusNoContent,
		Summary: "Change one's own password", Tags: []string{"Authentication"},
		Description: "Needs the current password; the new one must meet the password policy. Ends the caller's other sessions.",
	}}, func(ctx context.Context, in *passwordInput) (*struct{}, error) {
		return nil, s.dep.Identity.ChangePassword(ctx, assess.PrincipalFrom(ctx), in.Body.CurrentPassword, in.Body.NewPassword, requestActor(ctx))
	})
}

// startSession creates a session for u and answers with the cookie and the user.
func (s *Server) startSession(ctx context.Context, u assess.User) (*sessionOutput, error) {
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
