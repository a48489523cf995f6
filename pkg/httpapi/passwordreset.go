package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// AuthOptions tells the sign-in page which self-service features are available.
type AuthOptions struct {
	PasswordReset bool `json:"passwordReset" doc:"true when e-mail is switched on, so that a forgotten password can be reset by e-mail"`
}

// PasswordResetAccepted is the one answer to a password-reset request, whether or not
// an e-mail was sent, so that nobody can find out which accounts exist.
type PasswordResetAccepted struct {
	Message string `json:"message"`
}

type passwordResetRequestInput struct {
	Body struct {
		Login string `json:"login" minLength:"1" maxLength:"254" doc:"Username or e-mail address"`
	}
}

type passwordResetConfirmInput struct {
	Body struct {
		Token    string `json:"token" minLength:"1" maxLength:"200" doc:"The token from the e-mailed link"`
		Password string `json:"password" minLength:"1" maxLength:"1024" doc:"The new password, under the password policy"`
	}
}

type authOptionsOutput struct {
	CacheControl string `header:"Cache-Control"`
	Body         AuthOptions
}

func (s *Server) registerPasswordReset() {
	tags := []string{"Authentication"}
	register(s, Op{Permission: assess.PermPublic, Operation: huma.Operation{
		OperationID: "getAuthOptions", Method: http.MethodGet, Path: "/api/v1/auth/options",
		Summary: "Sign-in options", Tags: tags,
		Description: "What the sign-in page offers besides signing in: `passwordReset` is true while e-mail is switched " +
			"on (SMTP_ENABLED or the stored setting, with a host), so the page can link to the forgotten-password " +
			"form. Read it when showing the page; it follows the e-mail settings without a restart.",
	}}, func(ctx context.Context, _ *struct{}) (*authOptionsOutput, error) {
		st, err := s.dep.Email.ChannelStatus(ctx)
		if err != nil {
			return nil, err
		}
		return &authOptionsOutput{CacheControl: "no-store", Body: AuthOptions{PasswordReset: st.Email}}, nil
	})
	register(s, Op{Permission: assess.PermPublic, Operation: huma.Operation{
		OperationID: "requestPasswordReset", Method: http.MethodPost, Path: "/api/v1/auth/password-reset", DefaultStatus: http.StatusAccepted,
		Summary: "Ask for a password-reset e-mail", Tags: tags,
		Description: "When `login` (a username or e-mail address) names an active account with an e-mail address and " +
			"e-mail is switched on, a single-use link valid for PASSWORD_RESET_TTL_MINUTES is e-mailed to it; an " +
			"earlier unused link of the account stops working. The answer is the same 202 in every case. Counts " +
			"towards the sign-in limit per address.",
	}}, func(ctx context.Context, in *passwordResetRequestInput) (*struct{ Body PasswordResetAccepted }, error) {
		if err := s.dep.PasswordReset.RequestPasswordReset(ctx, in.Body.Login, requestActor(ctx)); err != nil {
			return nil, err
		}
		return &struct{ Body PasswordResetAccepted }{Body: PasswordResetAccepted{
			Message: "If this account exists and has an e-mail address, a link to choose a new password is on its way."}}, nil
	})
	register(s, Op{Permission: assess.PermPublic, Operation: huma.Operation{
		OperationID: "confirmPasswordReset", Method: http.MethodPost, Path: "/api/v1/auth/password-reset/confirm",
		DefaultStatus: http.StatusNoContent, Summary: "Choose a new password with a reset link", Tags: tags,
		Errors: []int{http.StatusUnprocessableEntity},
		Description: "Sets the password (under the password policy), clears a lockout, ends every session of the " +
			"account and consumes the token. An unknown, used or expired token answers 422 business_rule_violation " +
			"(detail code invalid_token). Counts towards the sign-in limit per address.",
	}}, func(ctx context.Context, in *passwordResetConfirmInput) (*struct{}, error) {
		return nil, s.dep.PasswordReset.ConfirmPasswordReset(ctx, in.Body.Token, in.Body.Password, requestActor(ctx))
	})
}
