package identity

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// apiKeyPrefix starts every API key token, so leaked keys are easy to recognise (and to
// scan for); the id part after it is the non-secret lookup id.
const apiKeyPrefix = "assay_"

var apiKeyField = postgres.EncryptedFields[1]

var errAPIKeyNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such API key."}

func hashAPISecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

const apiKeyColumns = `k.id, k.user_id, k.name, k.created_at, k.expires_at, k.last_used_at, k.revoked_at`

func scanAPIKey(r pgx.Row) (assess.APIKey, error) {
	var k assess.APIKey
	err := r.Scan(&k.ID, &k.UserID, &k.Name, &k.CreatedAt, &k.ExpiresAt, &k.LastUsedAt, &k.RevokedAt)
	return k, err
}

// apiKeyTarget names an API key in the audit log.
func apiKeyTarget(id string) postgres.Target { return postgres.Target{Type: "api_key", ID: id} }

// CreateAPIKey implements assess.APIKeyService. Only the secret's hash is stored, sealed
// under the keyring; the token is returned once.
func (s *APIKeyService) CreateAPIKey(ctx context.Context, userID string, k assess.NewAPIKey, actor assess.Actor) (assess.APIKey, string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return assess.APIKey{}, "", err
	}
	secret := base64.RawURLEncoding.EncodeToString(raw)
	var key assess.APIKey
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := k.Validate(tx.Now); err != nil {
			return err
		}
		key = assess.APIKey{ID: assess.NewID(assess.PrefixAPIKey, tx.Now), UserID: userID, Name: k.Name, CreatedAt: tx.Now.UTC(), ExpiresAt: k.ExpiresAt}
		sealed, err := s.db.Keys.Seal(ctx, apiKeyField.AAD(key.ID), []byte(hashAPISecret(secret)))
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO api_keys (id, user_id, name, secret_hash, created_by, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, key.ID, userID, key.Name, sealed, tx.Actor.ID, tx.Now, key.ExpiresAt); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeAPIKeyCreated, apiKeyTarget(key.ID),
			map[string]any{"owner": userID, "name": key.Name}, postgres.APIKeyEvent(key))
	})
	if err != nil {
		return assess.APIKey{}, "", err
	}
	return key, apiKeyPrefix + strings.TrimPrefix(key.ID, assess.PrefixAPIKey) + "_" + secret, nil
}

// FindAPIKeys implements assess.APIKeyService: the keys of one user, newest first, keyset
// paginated on the (user_id, id) index.
func (s *APIKeyService) FindAPIKeys(ctx context.Context, f assess.APIKeyFilter) (assess.Page[assess.APIKey], error) {
	l := postgres.NewList("api_keys", "SELECT "+apiKeyColumns+" FROM api_keys k", postgres.NewestFirst("k.id"))
	l.Where("k.user_id = " + l.Arg(f.UserID))
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanAPIKey, func(k assess.APIKey) []any { return []any{k.ID} })
}

// RevokeAPIKey implements assess.APIKeyService. Revoking an already revoked key changes
// nothing: it is audited again, but not announced again.
func (s *APIKeyService) RevokeAPIKey(ctx context.Context, userID, keyID string, actor assess.Actor) error {
	if !assess.ValidID(assess.PrefixAPIKey, keyID) {
		return errAPIKeyNotFound
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		// api_keys has no version to compare: the row lock makes concurrent revocations of
		// one key announce it once.
		k, err := scanAPIKey(tx.QueryRow(ctx, "SELECT "+apiKeyColumns+" FROM api_keys k WHERE k.id = $1 AND k.user_id = $2 FOR UPDATE", keyID, userID))
		if errors.Is(err, pgx.ErrNoRows) {
			return errAPIKeyNotFound
		}
		if err != nil {
			return err
		}
		details := map[string]any{"owner": userID}
		if k.RevokedAt != nil {
			return tx.Record(ctx, assess.Change{Action: assess.ChangeAPIKeyRevoked.Action}, apiKeyTarget(keyID), details, assess.NewEvent{})
		}
		if _, err := tx.Exec(ctx, `UPDATE api_keys SET revoked_at = $2 WHERE id = $1`, keyID, tx.Now); err != nil {
			return err
		}
		if err := tx.Invalidate(ctx, postgres.APIKeyCredential(keyID)); err != nil {
			return err
		}
		if k, err = scanAPIKey(tx.QueryRow(ctx, "SELECT "+apiKeyColumns+" FROM api_keys k WHERE k.id = $1", keyID)); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeAPIKeyRevoked, apiKeyTarget(keyID), details, postgres.APIKeyEvent(k))
	})
}

var errBadAPIKey = &assess.Error{Code: assess.ECodeUnauthenticated, Message: "The API key is invalid, expired or revoked."}

// APIKeyPrincipal implements assess.APIKeyService: one indexed lookup by the id inside the
// token, then a constant-time comparison of the secret's hash.
func (s *APIKeyService) APIKeyPrincipal(ctx context.Context, token string) (*assess.Principal, error) {
	key := postgres.TokenCacheKey(token)
	cached, e, gen, ok := s.db.Creds.Get(key)
	if ok {
		if now := s.db.Now(); now.Sub(e.Touched) > time.Minute {
			if err := s.touchAPIKey(ctx, cached.APIKeyID); err != nil {
				return nil, err
			}
			s.db.Creds.Touch(key, now)
		}
		return cached, nil
	}
	p, validUntil, touched, err := s.resolveAPIKey(ctx, token)
	if err != nil {
		return nil, err
	}
	s.db.Creds.Put(key, gen, p, validUntil, touched)
	return p, nil
}

// resolveAPIKey reads the key and its owner and checks the secret; it returns when the
// key expires (zero: never) and when its last use was written.
func (s *APIKeyService) resolveAPIKey(ctx context.Context, token string) (*assess.Principal, time.Time, time.Time, error) {
	rest, ok := strings.CutPrefix(token, apiKeyPrefix)
	idPart, secret, ok2 := strings.Cut(rest, "_")
	id := assess.PrefixAPIKey + idPart
	if !ok || !ok2 || !assess.ValidID(assess.PrefixAPIKey, id) || secret == "" {
		return nil, time.Time{}, time.Time{}, errBadAPIKey
	}
	p := &assess.Principal{APIKeyID: id}
	u := &p.User
	var sealed string
	var lastUsed, expires *time.Time
	now := s.db.Now()
	err := s.db.Pool.QueryRow(ctx, `SELECT k.secret_hash, k.last_used_at, k.expires_at, u.id, u.username, u.email, u.display_name, u.active, u.version, u.created_at, u.last_login_at
		FROM api_keys k JOIN users u ON u.id = k.user_id
		WHERE k.id = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $2) AND u.active`, id, now).
		Scan(&sealed, &lastUsed, &expires, &u.ID, &u.Username, &u.Email, &u.DisplayName, &u.Active, &u.Version, &u.CreatedAt, &u.LastLoginAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, time.Time{}, time.Time{}, errBadAPIKey
	}
	if err != nil {
		return nil, time.Time{}, time.Time{}, postgres.DBError(err)
	}
	want, err := s.db.Keys.Open(ctx, apiKeyField.AAD(id), sealed)
	if err != nil {
		return nil, time.Time{}, time.Time{}, err
	}
	if subtle.ConstantTimeCompare([]byte(hashAPISecret(secret)), want) != 1 {
		return nil, time.Time{}, time.Time{}, errBadAPIKey
	}
	// Last use is recorded at most once a minute, so busy keys cost no write per request.
	touched := now
	if lastUsed != nil && now.Sub(*lastUsed) <= time.Minute {
		touched = *lastUsed
	} else if err := s.touchAPIKey(ctx, id); err != nil {
		return nil, time.Time{}, time.Time{}, err
	}
	var validUntil time.Time
	if expires != nil {
		validUntil = *expires
	}
	return p, validUntil, touched, postgres.DBError(fillPermissions(ctx, s.db.Pool, p))
}

// touchAPIKey records the last use of a key, as the system (bookkeeping, not audited).
func (s *APIKeyService) touchAPIKey(ctx context.Context, id string) error {
	return s.db.Change(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE api_keys SET last_used_at = $2 WHERE id = $1`, id, tx.Now)
		return err
	})
}

var _ assess.APIKeyService = (*APIKeyService)(nil)
