package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// CreatedAPIKey is the answer to a key creation: the only time the token is shown.
type CreatedAPIKey struct {
	APIKey assess.APIKey `json:"apiKey"`
	Token  string        `json:"token" doc:"The key itself. Shown only in this response; store it now. Send it as 'Authorization: Bearer <token>' or 'X-Api-Key: <token>'."`
}

// APIKeyPage is one page of API keys.
type APIKeyPage struct {
	Items      []assess.APIKey `json:"items"`
	NextCursor string          `json:"nextCursor,omitempty"`
	HasMore    bool            `json:"hasMore"`
}

type createdAPIKeyOutput struct {
	OneTimeSecret string `header:"X-One-Time-Secret" doc:"true: the body holds a secret shown only in this response; an idempotent retry answers 409 instead of repeating it"`
	CacheControl  string `header:"Cache-Control"`
	Body          CreatedAPIKey
}

type listInput struct {
	Cursor string `query:"cursor" maxLength:"200" doc:"nextCursor of the previous page"`
	Limit  int    `query:"limit" minimum:"1" maximum:"200" default:"50"`
}

type keyIDInput struct {
	ID string `path:"id" maxLength:"64"`
}

func (s *Server) registerAPIKeys() {
	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "createMyAPIKey", Method: http.MethodPost, Path: "/api/v1/me/api-keys", DefaultStatus: http.StatusCreated,
		Summary: "Create an API key", Tags: []string{"API keys"},
		Description: "Creates a key acting as the caller, with the caller's roles at the time of each request. The token is " +
			"returned once and only its hash is stored (encrypted at rest).",
	}}, func(ctx context.Context, in *struct{ Body assess.NewAPIKey }) (*createdAPIKeyOutput, error) {
		p := assess.PrincipalFrom(ctx)
		key, token, err := s.dep.APIKeys.CreateAPIKey(ctx, p.User.ID, in.Body, requestActor(ctx))
		if err != nil {
			return nil, err
		}
		return &createdAPIKeyOutput{OneTimeSecret: "true", CacheControl: "no-store", Body: CreatedAPIKey{APIKey: key, Token: token}}, nil
	})

	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "listMyAPIKeys", Method: http.MethodGet, Path: "/api/v1/me/api-keys",
		Summary: "List one's API keys", Tags: []string{"API keys"}, Description: "Newest first, with last-use times; never the secrets.",
	}}, func(ctx context.Context, in *listInput) (*struct{ Body APIKeyPage }, error) {
		keys, next, err := s.dep.APIKeys.ListAPIKeys(ctx, assess.PrincipalFrom(ctx).User.ID, in.Cursor, in.Limit)
		if err != nil {
			return nil, err
		}
		if keys == nil {
			keys = []assess.APIKey{}
		}
		return &struct{ Body APIKeyPage }{Body: APIKeyPage{Items: keys, NextCursor: next, HasMore: next != ""}}, nil
	})

	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "revokeMyAPIKey", Method: http.MethodDelete, Path: "/api/v1/me/api-keys/{id}", DefaultStatus: http.StatusNoContent,
		Summary: "Revoke one of one's API keys", Tags: []string{"API keys"},
		Description: "Effective at once. Revoking a revoked key again succeeds; another user's key is a 404.",
		Errors:      []int{http.StatusNotFound},
	}}, func(ctx context.Context, in *keyIDInput) (*struct{}, error) {
		if !assess.ValidID(assess.PrefixAPIKey, in.ID) {
			return nil, assess.Errorf(assess.ECodeNotFound, "No such API key.")
		}
		return nil, s.dep.APIKeys.RevokeAPIKey(ctx, assess.PrincipalFrom(ctx).User.ID, in.ID, requestActor(ctx))
	})
}

// registerUserAPIKeys lets administrators manage any user's API keys (for service accounts
// and for revoking a leaked key without the owner).
func (s *Server) registerUserAPIKeys() {
	tags := []string{"API keys"}
	register(s, Op{Permission: assess.PermAdminSettings, Operation: huma.Operation{
		OperationID: "listUserAPIKeys", Method: http.MethodGet, Path: "/api/v1/users/{id}/api-keys",
		Summary: "List a user's API keys", Tags: tags, Errors: []int{http.StatusNotFound},
	}}, func(ctx context.Context, in *struct {
		ID     string `path:"id" maxLength:"64"`
		Cursor string `query:"cursor" maxLength:"200"`
		Limit  int    `query:"limit" minimum:"1" maximum:"200" default:"50"`
	}) (*struct{ Body APIKeyPage }, error) {
		if _, err := s.dep.Users.FindUser(ctx, in.ID); err != nil {
			return nil, err
		}
		keys, next, err := s.dep.APIKeys.ListAPIKeys(ctx, in.ID, in.Cursor, in.Limit)
		if err != nil {
			return nil, err
		}
		if keys == nil {
			keys = []assess.APIKey{}
		}
		return &struct{ Body APIKeyPage }{Body: APIKeyPage{Items: keys, NextCursor: next, HasMore: next != ""}}, nil
	})
	register(s, Op{Permission: assess.PermAdminSettings, Operation: huma.Operation{
		OperationID: "createUserAPIKey", Method: http.MethodPost, Path: "/api/v1/users/{id}/api-keys", DefaultStatus: http.StatusCreated,
		Summary: "Create an API key for a user", Tags: tags, Errors: []int{http.StatusNotFound},
		Description: "The key acts as that user, with their roles at each request; the token is shown once.",
	}}, func(ctx context.Context, in *struct {
		ID   string `path:"id" maxLength:"64"`
		Body assess.NewAPIKey
	}) (*createdAPIKeyOutput, error) {
		if _, err := s.dep.Users.FindUser(ctx, in.ID); err != nil {
			return nil, err
		}
		key, token, err := s.dep.APIKeys.CreateAPIKey(ctx, in.ID, in.Body, requestActor(ctx))
		if err != nil {
			return nil, err
		}
		return &createdAPIKeyOutput{OneTimeSecret: "true", CacheControl: "no-store", Body: CreatedAPIKey{APIKey: key, Token: token}}, nil
	})
	register(s, Op{Permission: assess.PermAdminSettings, Operation: huma.Operation{
		OperationID: "revokeUserAPIKey", Method: http.MethodDelete, Path: "/api/v1/users/{id}/api-keys/{keyId}", DefaultStatus: http.StatusNoContent,
		Summary: "Revoke a user's API key", Tags: tags, Errors: []int{http.StatusNotFound},
	}}, func(ctx context.Context, in *struct {
		ID    string `path:"id" maxLength:"64"`
		KeyID string `path:"keyId" maxLength:"64"`
	}) (*struct{}, error) {
		if !assess.ValidID(assess.PrefixAPIKey, in.KeyID) {
			return nil, assess.Errorf(assess.ECodeNotFound, "No such API key.")
		}
		return nil, s.dep.APIKeys.RevokeAPIKey(ctx, in.ID, in.KeyID, requestActor(ctx))
	})
}
