package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var docMeUpdate = huma.Operation{OperationID: "updateMe", Summary: "Update one's own profile", Tags: tagAuthentication,
	Errors: []int{http.StatusConflict},
	Description: "Changes the caller's display name and e-mail address. Send the version last read; a stale one " +
		"gets 409 version_conflict. Roles and the active state are changed by administrators only."}

func (s *Server) handleMeUpdate(ctx context.Context, in *body[assess.ProfileUpdate]) (*meOutput, error) {
	p := assess.PrincipalFrom(ctx)
	u, err := s.dep.Identity.UpdateProfile(ctx, p.User.ID, in.Body, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return &meOutput{CacheControl: "no-store", Body: Me{User: u, Permissions: p.Permissions}}, nil
}
