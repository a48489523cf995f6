package assess

import (
	"context"
	"strings"
	"time"
)

// APIKey describes an API key; the secret itself is shown only once, at creation.
type APIKey struct {
	ID         string     `json:"id"`
	UserID     string     `json:"userId"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	ExpiresAt  *time.Time `json:"expiresAt,omitempty"`
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty"`
	RevokedAt  *time.Time `json:"revokedAt,omitempty"`
}

// NewAPIKey is a request to create an API key.
type NewAPIKey struct {
	Name      string     `json:"name" minLength:"1" maxLength:"100"`
	ExpiresAt *time.Time `json:"expiresAt,omitempty" doc:"Optional expiry; the key is refused afterwards"`
}

// Validate checks the request at time now.
func (k *NewAPIKey) Validate(now time.Time) error {
	k.Name = strings.TrimSpace(k.Name)
	if k.Name == "" {
		return &Error{Code: ECodeValidation, Message: "The key needs a name.", Details: []Detail{{Field: "name", Code: "required", Message: "A name is required."}}}
	}
	if k.ExpiresAt != nil && !k.ExpiresAt.After(now) {
		return &Error{Code: ECodeValidation, Message: "The expiry must be in the future.", Details: []Detail{{Field: "expiresAt", Code: "in_past", Message: "Choose a time in the future."}}}
	}
	return nil
}

// APIKeyFilter selects the API keys of one user, newest first.
type APIKeyFilter struct {
	// UserID is the owner: the caller for their own keys, or the user an administrator
	// names. It is required; there is no list of every user's keys.
	UserID string
	PageRequest
}

// APIKeyService manages API keys.
type APIKeyService interface {
	// CreateAPIKey creates a key for userID and returns it with its plaintext token.
	CreateAPIKey(ctx context.Context, userID string, k NewAPIKey, actor Actor) (APIKey, string, error)
	// FindAPIKeys returns one page of the keys of f.UserID, newest first; never the secrets.
	FindAPIKeys(ctx context.Context, f APIKeyFilter) (Page[APIKey], error)
	// RevokeAPIKey revokes a key of userID; not_found when it is not theirs.
	RevokeAPIKey(ctx context.Context, userID, keyID string, actor Actor) error
	// APIKeyPrincipal resolves a presented token to its owner with the owner's current
	// permissions; unauthenticated for unknown, revoked or expired keys.
	APIKeyPrincipal(ctx context.Context, token string) (*Principal, error)
}
