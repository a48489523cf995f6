package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagRoles = []string{"Roles"}

// RoleList lists every role.
type RoleList struct {
	Items []assess.Role `json:"items"`
}

// PermissionList is the permission catalogue.
type PermissionList struct {
	Items []assess.Permission `json:"items"`
}

var docPermissionList = huma.Operation{OperationID: "listPermissions", Summary: "The permission catalogue", Tags: tagRoles}

func (s *Server) handlePermissionList(context.Context, *struct{}) (*body[PermissionList], error) {
	return reply(PermissionList{Items: assess.GrantablePermissions()}), nil
}

var docRoleList = huma.Operation{OperationID: "listRoles", Summary: "List roles", Tags: tagRoles,
	Description: "Every role with its permissions, built-in roles first."}

func (s *Server) handleRoleList(ctx context.Context, _ *struct{}) (*body[RoleList], error) {
	roles, err := s.dep.Roles.FindRoles(ctx)
	return reply(RoleList{Items: roles}), err
}

var docRoleCreate = huma.Operation{OperationID: "createRole", Summary: "Create a custom role", Tags: tagRoles,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusConflict}}

func (s *Server) handleRoleCreate(ctx context.Context, in *body[assess.NewRole]) (*body[assess.Role], error) {
	r, err := s.dep.Roles.CreateRole(ctx, in.Body, requestActor(ctx))
	return reply(r), err
}

var docRoleUpdate = huma.Operation{OperationID: "updateRole", Summary: "Update a custom role", Tags: tagRoles,
	Description: "Holders gain or lose permissions at their next request. Built-in roles answer 422.",
	Errors:      []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity}}

func (s *Server) handleRoleUpdate(ctx context.Context, in *idBody[assess.RoleUpdate]) (*body[assess.Role], error) {
	r, err := s.dep.Roles.UpdateRole(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(r), err
}

var docRoleDelete = huma.Operation{OperationID: "deleteRole", Summary: "Delete a custom role", Tags: tagRoles,
	DefaultStatus: http.StatusNoContent, Description: "Refused with 409 while users hold it, 422 for built-in roles.",
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity}}

func (s *Server) handleRoleDelete(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Roles.DeleteRole(ctx, in.ID, requestActor(ctx))
}
