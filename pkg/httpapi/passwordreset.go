package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
)

// AuthOptions tells the sign-in page which self-service features are available.
type AuthOptions struct {
	PasswordReset bool `json:"passwordReset" doc:"true when e-mail is switched on, so that a forgotten password can be reset by e-mail"`
	// RegistrationMode lets the sign-in page offer registration only where it can work, and
	// the invites page warn when invites cannot be redeemed.
	RegistrationMode string `json:"registrationMode" enum:"disabled,invite_only,open" doc:"REGISTRATION_MODE: 'disabled' (nobody registers, so invites cannot be redeemed), 'invite_only' (only with an invite token) or 'open' (anyone)"`
}

// PasswordResetAccepted is the one answer to a password-reset request, whether or not
// an e-mail was sent, so that nobody can find out which accounts exist.
type PasswordResetAccepted struct {
	Message string `json:"message"`
}

// passwordResetRequestInputBody and passwordResetConfirmInputBody are the request bodies,
// named as the OpenAPI document has always named them.
type passwordResetRequestInputBody struct {
	Login string `json:"login" minLength:"1" maxLength:"254" doc:"Username or e-mail address"`
}

type passwordResetConfirmInputBody struct {
	Token    string `json:"token" minLength:"1" maxLength:"200" doc:"The token from the e-mailed link"`
	Password string `json:"password" minLength:"1" maxLength:"1024" doc:"The new password, under the password policy"`
}

type authOptionsOutput struct {
	CacheControl string `header:"Cache-Control"`
	Body         AuthOptions
}

var docAuthOptions = huma.Operation{OperationID: "getAuthOptions", Summary: "Sign-in options", Tags: tagAuthentication,
	Description: "What the sign-in page offers besides signing in: `passwordReset` is true while e-mail is switched " +
		"on (SMTP_ENABLED or the stored setting, with a host), so the page can link to the forgotten-password " +
		"form. `registrationMode` is REGISTRATION_MODE (configuration, changed only by a restart): the page offers " +
		"registration only when it is `open` or `invite_only`. Read it when showing the page; it follows the " +
		"e-mail settings without a restart."}

func (s *Server) handleAuthOptions(ctx context.Context, _ *struct{}) (*authOptionsOutput, error) {
	st, err := s.dep.Email.ChannelStatus(ctx)
	if err != nil {
		return nil, err
	}
	return &authOptionsOutput{CacheControl: "no-store", Body: AuthOptions{PasswordReset: st.Email, RegistrationMode: s.registrationMode()}}, nil
}

// registrationMode is REGISTRATION_MODE as the API reports it; an unset mode (a server
// assembled without configuration, as in tests) is the default, disabled.
func (s *Server) registrationMode() string {
	if s.cfg.RegistrationMode == "" {
		return "disabled"
	}
	return s.cfg.RegistrationMode
}

var docPasswordResetRequest = huma.Operation{OperationID: "requestPasswordReset", Summary: "Ask for a password-reset e-mail",
	Tags: tagAuthentication, DefaultStatus: http.StatusAccepted,
	Description: "When `login` (a username or e-mail address) names an active account with an e-mail address and " +
		"e-mail is switched on, a single-use link valid for PASSWORD_RESET_TTL_MINUTES is e-mailed to it; an " +
		"earlier unused link of the account stops working. The answer is the same 202 in every case. Counts " +
		"towards the sign-in limit per address."}

func (s *Server) handlePasswordResetRequest(ctx context.Context, in *body[passwordResetRequestInputBody]) (*body[PasswordResetAccepted], error) {
	if err := s.dep.PasswordReset.RequestPasswordReset(ctx, in.Body.Login, requestActor(ctx)); err != nil {
		return nil, err
	}
	return reply(PasswordResetAccepted{
		Message: "If this account exists and has an e-mail address, a link to choose a new password is on its way."}), nil
}

var docPasswordResetConfirm = huma.Operation{OperationID: "confirmPasswordReset", Summary: "Choose a new password with a reset link",
	Tags: tagAuthentication, DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusUnprocessableEntity},
	Description: "Sets the password (under the password policy), clears a lockout, ends every session of the " +
		"account and consumes the token. An unknown, used or expired token answers 422 business_rule_violation " +
		"(detail code invalid_token). Counts towards the sign-in limit per address."}

func (s *Server) handlePasswordResetConfirm(ctx context.Context, in *body[passwordResetConfirmInputBody]) (*struct{}, error) {
	return nil, s.dep.PasswordReset.ConfirmPasswordReset(ctx, in.Body.Token, in.Body.Password, requestActor(ctx))
}
