package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Permissions guarding user and role administration.
const (
	PermissionAdminUsers = "admin.users"
	PermissionAdminRoles = "admin.roles"
)

// UserPage is one page of users.
type UserPage struct {
	Items      []assess.User `json:"items"`
	NextCursor string        `json:"nextCursor,omitempty"`
	HasMore    bool          `json:"hasMore"`
}

// RoleList lists every role.
type RoleList struct {
	Items []assess.Role `json:"items"`
}

// PermissionList is the permission catalogue.
type PermissionList struct {
	Items []assess.Permission `json:"items"`
}

type userIDInput struct {
	ID string `path:"id" maxLength:"64"`
}

type roleIDInput struct {
	ID string `path:"id" maxLength:"64"`
}

func (s *Server) registerUsers() {
	tags := []string{"Users"}
	register(s, Op{Permission: PermissionAdminUsers, Operation: huma.Operation{
		OperationID: "listUsers", Method: http.MethodGet, Path: "/api/v1/users", Summary: "List users", Tags: tags,
		Description: "Search (q), filter by active state and role, ordered by username, cursor-paginated.",
	}}, func(ctx context.Context, in *assess.UserFilter) (*struct{ Body UserPage }, error) {
		users, next, err := s.dep.Admin.FindUsers(ctx, *in)
		if err != nil {
			return nil, err
		}
		if users == nil {
			users = []assess.User{}
		}
		return &struct{ Body UserPage }{Body: UserPage{Items: users, NextCursor: next, HasMore: next != ""}}, nil
	})
	register(s, Op{Permission: PermissionAdminUsers, Operation: huma.Operation{
		OperationID: "createUser", Method: http.MethodPost, Path: "/api/v1/users", DefaultStatus: http.StatusCreated,
		Summary: "Create a user", Tags: tags, Errors: []int{http.StatusConflict},
		Description: "Administrators can always create users, whatever REGISTRATION_MODE says. Roles default to assessee.",
	}}, func(ctx context.Context, in *struct{ Body assess.NewUser }) (*struct{ Body assess.User }, error) {
		u, err := s.dep.Admin.CreateUser(ctx, in.Body, requestActor(ctx))
		return &struct{ Body assess.User }{Body: u}, err
	})
	register(s, Op{Permission: PermissionAdminUsers, Operation: huma.Operation{
		OperationID: "getUser", Method: http.MethodGet, Path: "/api/v1/users/{id}", Summary: "Get a user", Tags: tags,
		Errors: []int{http.StatusNotFound},
	}}, func(ctx context.Context, in *userIDInput) (*struct{ Body assess.User }, error) {
		u, err := s.dep.Admin.FindUser(ctx, in.ID)
		return &struct{ Body assess.User }{Body: u}, err
	})
	register(s, Op{Permission: PermissionAdminUsers, Operation: huma.Operation{
		OperationID: "updateUser", Method: http.MethodPatch, Path: "/api/v1/users/{id}", Summary: "Update a user", Tags: tags,
		Description: "Change e-mail, display name, active state or the role set. Send the version last read; a stale " +
			"one gets 409 version_conflict. Deactivation ends the user's sessions and stops their API keys at once.",
		Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}}, func(ctx context.Context, in *struct {
		ID   string `path:"id" maxLength:"64"`
		Body assess.UserUpdate
	}) (*struct{ Body assess.User }, error) {
		u, err := s.dep.Admin.UpdateUser(ctx, in.ID, in.Body, requestActor(ctx))
		return &struct{ Body assess.User }{Body: u}, err
	})
	register(s, Op{Permission: PermissionAdminUsers, Operation: huma.Operation{
		OperationID: "resetUserPassword", Method: http.MethodPost, Path: "/api/v1/users/{id}/password", DefaultStatus: http.StatusNoContent,
		Summary: "Set a user's password", Tags: tags, Errors: []int{http.StatusNotFound},
		Description: "Sets a new password under the password policy, clears a lockout and ends the user's sessions.",
	}}, func(ctx context.Context, in *struct {
		ID   string `path:"id" maxLength:"64"`
		Body struct {
			Password string `json:"password" minLength:"1" maxLength:"1024"`
		}
	}) (*struct{}, error) {
		return nil, s.dep.Admin.ResetPassword(ctx, in.ID, in.Body.Password, requestActor(ctx))
	})
}

func (s *Server) registerRoles() {
	tags := []string{"Roles"}
	register(s, Op{Permission: assess.PermissionAuthenticated, Operation: huma.Operation{
		OperationID: "listPermissions", Method: http.MethodGet, Path: "/api/v1/permissions", Summary: "The permission catalogue", Tags: tags,
	}}, func(context.Context, *struct{}) (*struct{ Body PermissionList }, error) {
		return &struct{ Body PermissionList }{Body: PermissionList{Items: assess.Permissions}}, nil
	})
	register(s, Op{Permission: assess.PermissionAuthenticated, Operation: huma.Operation{
		OperationID: "listRoles", Method: http.MethodGet, Path: "/api/v1/roles", Summary: "List roles", Tags: tags,
		Description: "Every role with its permissions, built-in roles first.",
	}}, func(ctx context.Context, _ *struct{}) (*struct{ Body RoleList }, error) {
		roles, err := s.dep.Admin.FindRoles(ctx)
		return &struct{ Body RoleList }{Body: RoleList{Items: roles}}, err
	})
	register(s, Op{Permission: PermissionAdminRoles, Operation: huma.Operation{
		OperationID: "createRole", Method: http.MethodPost, Path: "/api/v1/roles", DefaultStatus: http.StatusCreated,
		Summary: "Create a custom role", Tags: tags, Errors: []int{http.StatusConflict},
	}}, func(ctx context.Context, in *struct{ Body assess.NewRole }) (*struct{ Body assess.Role }, error) {
		r, err := s.dep.Admin.CreateRole(ctx, in.Body, requestActor(ctx))
		return &struct{ Body assess.Role }{Body: r}, err
	})
	register(s, Op{Permission: PermissionAdminRoles, Operation: huma.Operation{
		OperationID: "updateRole", Method: http.MethodPatch, Path: "/api/v1/roles/{id}", Summary: "Update a custom role", Tags: tags,
		Description: "Holders gain or lose permissions at their next request. Built-in roles answer 422.",
		Errors:      []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}}, func(ctx context.Context, in *struct {
		ID   string `path:"id" maxLength:"64"`
		Body assess.RoleUpdate
	}) (*struct{ Body assess.Role }, error) {
		r, err := s.dep.Admin.UpdateRole(ctx, in.ID, in.Body, requestActor(ctx))
		return &struct{ Body assess.Role }{Body: r}, err
	})
	register(s, Op{Permission: PermissionAdminRoles, Operation: huma.Operation{
		OperationID: "deleteRole", Method: http.MethodDelete, Path: "/api/v1/roles/{id}", DefaultStatus: http.StatusNoContent,
		Summary: "Delete a custom role", Tags: tags, Description: "Refused with 409 while users hold it, 422 for built-in roles.",
		Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}}, func(ctx context.Context, in *roleIDInput) (*struct{}, error) {
		return nil, s.dep.Admin.DeleteRole(ctx, in.ID, requestActor(ctx))
	})
}
