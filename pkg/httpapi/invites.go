package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// CreatedInvite is the answer to an invite creation: the only time the token is shown.
type CreatedInvite struct {
	assess.Invite
	Token string `json:"token" doc:"Plaintext token, shown only in this response; only its SHA-256 is stored"`
}

// InvitePage is one page of invites.
type InvitePage struct {
	Items      []assess.Invite `json:"items"`
	NextCursor string          `json:"nextCursor,omitempty"`
	HasMore    bool            `json:"hasMore"`
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

func (s *Server) registerInvites() {
	tags := []string{"Invites"}
	register(s, Op{Permission: assess.PermAdminUsers, Operation: huma.Operation{
		OperationID: "createInvite", Method: http.MethodPost, Path: "/api/v1/admin/invites", DefaultStatus: http.StatusCreated,
		Summary: "Invite someone", Tags: tags,
		Description: "Creates an invite for a role (and optionally one e-mail address), valid for expiresInHours (default 168).",
	}}, func(ctx context.Context, in *struct{ Body assess.NewInvite }) (*createdInviteOutput, error) {
		inv, token, err := s.dep.Invites.CreateInvite(ctx, in.Body, requestActor(ctx))
		if err != nil {
			return nil, err
		}
		return &createdInviteOutput{OneTimeSecret: "true", CacheControl: "no-store", Body: CreatedInvite{Invite: inv, Token: token}}, nil
	})
	register(s, Op{Permission: assess.PermAdminUsers, Operation: huma.Operation{
		OperationID: "listInvites", Method: http.MethodGet, Path: "/api/v1/admin/invites", Summary: "List invites", Tags: tags,
		Description: "Newest first, with the derived status: unused, consumed, revoked or expired.",
	}}, func(ctx context.Context, in *listInput) (*struct{ Body InvitePage }, error) {
		invites, next, err := s.dep.Invites.FindInvites(ctx, in.Cursor, in.Limit)
		if err != nil {
			return nil, err
		}
		if invites == nil {
			invites = []assess.Invite{}
		}
		return &struct{ Body InvitePage }{Body: InvitePage{Items: invites, NextCursor: next, HasMore: next != ""}}, nil
	})
	register(s, Op{Permission: assess.PermAdminUsers, Operation: huma.Operation{
		OperationID: "revokeInvite", Method: http.MethodDelete, Path: "/api/v1/admin/invites/{id}", DefaultStatus: http.StatusNoContent,
		Summary: "Revoke an invite", Tags: tags,
		Description: "Ends an unused invite (204; again on a revoked one). A consumed or expired invite answers 409 invalid_state_transition.",
		Errors:      []int{http.StatusNotFound, http.StatusConflict},
	}}, func(ctx context.Context, in *struct {
		ID string `path:"id" maxLength:"64"`
	}) (*struct{}, error) {
		return nil, s.dep.Invites.RevokeInvite(ctx, in.ID, requestActor(ctx))
	})
	register(s, Op{Permission: assess.PermPublic, Operation: huma.Operation{
		OperationID: "register", Method: http.MethodPost, Path: "/api/v1/auth/register", DefaultStatus: http.StatusAccepted,
		Summary: "Register an account", Tags: []string{"Authentication"},
		Description: "Follows REGISTRATION_MODE: disabled refuses (403 registration_closed); invite_only needs a valid " +
			"unused invite token; open accepts any well-formed registration with the assessee role. The answer is the " +
			"same 202 whether an account was created or the username or e-mail was already taken.",
		Errors: []int{http.StatusForbidden},
	}}, func(ctx context.Context, in *struct{ Body assess.Registration }) (*struct{ Body RegistrationAccepted }, error) {
		if err := s.dep.Invites.Register(ctx, s.cfg.RegistrationMode, in.Body, requestActor(ctx)); err != nil {
			return nil, err
		}
		return &struct{ Body RegistrationAccepted }{Body: RegistrationAccepted{
			Message: "If this account does not exist yet, it has been created: sign in with the credentials you chose."}}, nil
	})
}
