package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagUsers = []string{"Users"}

var docUserList = huma.Operation{OperationID: "listUsers", Summary: "List users", Tags: tagUsers,
	Description: "Search (q), filter by active state and role, ordered by username or newest first, cursor-paginated."}

func (s *Server) handleUserList(ctx context.Context, in *assess.UserFilter) (*body[assess.Page[assess.User]], error) {
	page, err := s.dep.Users.FindUsers(ctx, *in)
	return reply(page), err
}

var docPeopleList = huma.Operation{OperationID: "listPeople", Summary: "Search people", Tags: tagUsers,
	Description: "The directory of active users for the pickers of assessment work (team members, reviewers, " +
		"mentions): id, username and display name only, by username, at most 50. Open to everyone who may see " +
		"assessments; the full user administration is GET /users (admin.users)."}

func (s *Server) handlePeopleList(ctx context.Context, in *assess.PeopleFilter) (*body[assess.PeopleList], error) {
	people, err := s.dep.People.FindPeople(ctx, *in)
	return reply(people), err
}

var docUserCreate = huma.Operation{OperationID: "createUser", Summary: "Create a user", Tags: tagUsers,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusConflict},
	Description: "Administrators can always create users, whatever REGISTRATION_MODE says. Roles default to assessee."}

func (s *Server) handleUserCreate(ctx context.Context, in *body[assess.NewUser]) (*body[assess.User], error) {
	u, err := s.dep.Users.CreateUser(ctx, in.Body, requestActor(ctx))
	return reply(u), err
}

var docUserGet = huma.Operation{OperationID: "getUser", Summary: "Get a user", Tags: tagUsers,
	Errors: []int{http.StatusNotFound}}

func (s *Server) handleUserGet(ctx context.Context, in *idInput) (*body[assess.User], error) {
	u, err := s.dep.Users.FindUser(ctx, in.ID)
	return reply(u), err
}

var docUserUpdate = huma.Operation{OperationID: "updateUser", Summary: "Update a user", Tags: tagUsers,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Change e-mail, display name, active state or the role set. Send the version last read; a stale " +
		"one gets 409 version_conflict. Deactivation ends the user's sessions and stops their API keys at once."}

func (s *Server) handleUserUpdate(ctx context.Context, in *idBody[assess.UserUpdate]) (*body[assess.User], error) {
	u, err := s.dep.Users.UpdateUser(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(u), err
}

var docUserPasswordReset = huma.Operation{OperationID: "resetUserPassword", Summary: "Set a user's password", Tags: tagUsers,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound},
	Description: "Sets a new password under the password policy, clears a lockout and ends the user's sessions."}

// resetUserPasswordRequest is the body that sets a password (named as the OpenAPI document has always named it).
type resetUserPasswordRequest struct {
	Password string `json:"password" minLength:"1" maxLength:"1024"`
}

func (s *Server) handleUserPasswordReset(ctx context.Context, in *idBody[resetUserPasswordRequest]) (*struct{}, error) {
	return nil, s.dep.Users.ResetPassword(ctx, in.ID, in.Body.Password, requestActor(ctx))
}
