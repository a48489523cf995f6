package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagInvites = []string{"Invites"}

// CreatedInvite is the answer to an invite creation: the only time the token is shown.
type CreatedInvite struct {
	assess.Invite
	Token string `json:"token" doc:"Plaintext token, shown only in this response; only its SHA-256 is stored"`
}

type createdInviteOutput struct {
	OneTimeSecret string `header:"X-One-Time-Secret" doc:"true: the body holds a secret shown only in this response"`
	CacheControl  string `header:"Cache-Control"`
	Body          CreatedInvite
}

// RegistrationAccepted is the one answer to a registration, whether or not an account was
// created, so that nobody can find out which usernames or addresses exist.
type RegistrationAccepted struct {
	Message string `json:"message"`
}

var docInviteCreate = huma.Operation{OperationID: "createInvite", Summary: "Invite someone", Tags: tagInvites,
	DefaultStatus: http.StatusCreated,
	Description:   "Creates an invite for a role (and optionally one e-mail address), valid for expiresInHours (default 168)."}

func (s *Server) handleInviteCreate(ctx context.Context, in *body[assess.NewInvite]) (*createdInviteOutput, error) {
	inv, token, err := s.dep.Invites.CreateInvite(ctx, in.Body, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return &createdInviteOutput{OneTimeSecret: "true", CacheControl: "no-store", Body: CreatedInvite{Invite: inv, Token: token}}, nil
}

var docInviteList = huma.Operation{OperationID: "listInvites", Summary: "List invites", Tags: tagInvites,
	Description: "Newest first, with the derived status: unused, consumed, revoked or expired."}

func (s *Server) handleInviteList(ctx context.Context, in *assess.InviteFilter) (*body[assess.Page[assess.Invite]], error) {
	page, err := s.dep.Invites.FindInvites(ctx, *in)
	return reply(page), err
}

var docInviteRevoke = huma.Operation{OperationID: "revokeInvite", Summary: "Revoke an invite", Tags: tagInvites,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Ends an unused invite (204; again on a revoked one). A consumed or expired invite answers 409 invalid_state_transition."}

func (s *Server) handleInviteRevoke(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Invites.RevokeInvite(ctx, in.ID, requestActor(ctx))
}

var docRegistrationCreate = huma.Operation{OperationID: "register", Summary: "Register an account", Tags: tagAuthentication,
	DefaultStatus: http.StatusAccepted, Errors: []int{http.StatusForbidden},
	Description: "Follows REGISTRATION_MODE: disabled refuses (403 registration_closed); invite_only needs a valid " +
		"unused invite token; open accepts any well-formed registration with the assessee role. The answer is the " +
		"same 202 whether an account was created or the username or e-mail was already taken."}

func (s *Server) handleRegistrationCreate(ctx context.Context, in *body[assess.Registration]) (*body[RegistrationAccepted], error) {
	if err := s.dep.Invites.Register(ctx, s.cfg.RegistrationMode, in.Body, requestActor(ctx)); err != nil {
		return nil, err
	}
	return reply(RegistrationAccepted{
		Message: "If this account does not exist yet, it has been created: sign in with the credentials you chose."}), nil
}
