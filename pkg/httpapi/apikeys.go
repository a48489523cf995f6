package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagAPIKeys = []string{"API keys"}

// CreatedAPIKey is the answer to a key creation: the only time the token is shown.
type CreatedAPIKey struct {
	APIKey assess.APIKey `json:"apiKey"`
	Token  string        `json:"token" doc:"The key itself. Shown only in this response; store it now. Send it as 'Authorization: Bearer <token>' or 'X-Api-Key: <token>'."`
}

type createdAPIKeyOutput struct {
	OneTimeSecret string `header:"X-One-Time-Secret" doc:"true: the body holds a secret shown only in this response; an idempotent retry answers 409 instead of repeating it"`
	CacheControl  string `header:"Cache-Control"`
	Body          CreatedAPIKey
}

// createdAPIKey answers a creation: the key with its token, marked as a one-time secret.
func createdAPIKey(key assess.APIKey, token string) *createdAPIKeyOutput {
	return &createdAPIKeyOutput{OneTimeSecret: "true", CacheControl: "no-store", Body: CreatedAPIKey{APIKey: key, Token: token}}
}

// userAPIKeyListInput names a user and a page of their keys.
type userAPIKeyListInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.PageRequest
}

// userAPIKeyInput names one key of a user.
type userAPIKeyInput struct {
	ID    string `path:"id" maxLength:"64"`
	KeyID string `path:"keyId" maxLength:"64"`
}

var docMyAPIKeyCreate = huma.Operation{OperationID: "createMyAPIKey", Summary: "Create an API key", Tags: tagAPIKeys,
	DefaultStatus: http.StatusCreated,
	Description: "Creates a key acting as the caller, with the caller's roles at the time of each request. The token is " +
		"returned once and only its hash is stored (encrypted at rest)."}

func (s *Server) handleMyAPIKeyCreate(ctx context.Context, in *body[assess.NewAPIKey]) (*createdAPIKeyOutput, error) {
	key, token, err := s.dep.APIKeys.CreateAPIKey(ctx, assess.PrincipalFrom(ctx).User.ID, in.Body, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return createdAPIKey(key, token), nil
}

var docMyAPIKeyList = huma.Operation{OperationID: "listMyAPIKeys", Summary: "List one's API keys", Tags: tagAPIKeys,
	Description: "Newest first, with last-use times; never the secrets."}

func (s *Server) handleMyAPIKeyList(ctx context.Context, in *assess.PageRequest) (*body[assess.Page[assess.APIKey]], error) {
	page, err := s.dep.APIKeys.FindAPIKeys(ctx, assess.APIKeyFilter{UserID: assess.PrincipalFrom(ctx).User.ID, PageRequest: *in})
	return reply(page), err
}

var docMyAPIKeyRevoke = huma.Operation{OperationID: "revokeMyAPIKey", Summary: "Revoke one of one's API keys", Tags: tagAPIKeys,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound},
	Description: "Effective at once. Revoking a revoked key again succeeds; another user's key is a 404."}

func (s *Server) handleMyAPIKeyRevoke(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.APIKeys.RevokeAPIKey(ctx, assess.PrincipalFrom(ctx).User.ID, in.ID, requestActor(ctx))
}

// Administrators manage any user's API keys: for service accounts, and to revoke a leaked
// key without its owner.

var docUserAPIKeyList = huma.Operation{OperationID: "listUserAPIKeys", Summary: "List a user's API keys", Tags: tagAPIKeys,
	Errors: []int{http.StatusNotFound}}

func (s *Server) handleUserAPIKeyList(ctx context.Context, in *userAPIKeyListInput) (*body[assess.Page[assess.APIKey]], error) {
	if _, err := s.dep.Users.FindUser(ctx, in.ID); err != nil {
		return nil, err
	}
	page, err := s.dep.APIKeys.FindAPIKeys(ctx, assess.APIKeyFilter{UserID: in.ID, PageRequest: in.PageRequest})
	return reply(page), err
}

var docUserAPIKeyCreate = huma.Operation{OperationID: "createUserAPIKey", Summary: "Create an API key for a user", Tags: tagAPIKeys,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound},
	Description: "The key acts as that user, with their roles at each request; the token is shown once."}

func (s *Server) handleUserAPIKeyCreate(ctx context.Context, in *idBody[assess.NewAPIKey]) (*createdAPIKeyOutput, error) {
	if _, err := s.dep.Users.FindUser(ctx, in.ID); err != nil {
		return nil, err
	}
	key, token, err := s.dep.APIKeys.CreateAPIKey(ctx, in.ID, in.Body, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return createdAPIKey(key, token), nil
}

var docUserAPIKeyRevoke = huma.Operation{OperationID: "revokeUserAPIKey", Summary: "Revoke a user's API key", Tags: tagAPIKeys,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound}}

func (s *Server) handleUserAPIKeyRevoke(ctx context.Context, in *userAPIKeyInput) (*struct{}, error) {
	return nil, s.dep.APIKeys.RevokeAPIKey(ctx, in.ID, in.KeyID, requestActor(ctx))
}
