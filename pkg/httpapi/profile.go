package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

func (s *Server) registerProfile() {
	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "updateMe", Method: http.MethodPatch, Path: "/api/v1/auth/me",
		Summary: "Update one's own profile", Tags: []string{"Authentication"},
		Description: "Changes the caller's display name and e-mail address. Send the version last read; a stale one " +
			"gets 409 version_conflict. Roles and the active state are changed by administrators only.",
		Errors: []int{http.StatusConflict},
	}}, func(ctx context.Context, in *struct{ Body assess.ProfileUpdate }) (*meOutput, error) {
		p := assess.PrincipalFrom(ctx)
		u, err := s.dep.Users.UpdateUser(ctx, p.User.ID, assess.UserUpdate{
			Version: in.Body.Version, Email: in.Body.Email, DisplayName: in.Body.DisplayName,
		}, requestActor(ctx))
		if err != nil {
			return nil, err
		}
		return &meOutput{CacheControl: "no-store", Body: Me{User: u, Permissions: p.Permissions}}, nil
	})
}
