package postgres

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
)

// apiKeyPrefix starts every API key token, so leaked keys are easy to recognise (and to
// scan for); the id part after it is the non-secret lookup id.
const apiKeyPrefix = "assay_"

var apiKeyField = EncryptedFields[1]

func hashAPISecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// CreateAPIKey implements assess.APIKeyService.
func (db *DB) CreateAPIKey(ctx context.Context, userID string, k assess.NewAPIKey, actor assess.Actor) (assess.APIKey, string, error) {
	now := db.now()
	if err := k.Validate(now); err != nil {
		return assess.APIKey{}, "", err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return assess.APIKey{}, "", err
	}
	secret := base64.RawURLEncoding.EncodeToString(raw)
	key := assess.APIKey{ID: assess.NewID(assess.PrefixAPIKey, now), UserID: userID, Name: k.Name, CreatedAt: now.UTC(), ExpiresAt: k.ExpiresAt}
	sealed, err := db.keys.Seal(ctx, apiKeyField.AAD(key.ID), []byte(hashAPISecret(secret)))
	if err != nil {
		return assess.APIKey{}, "", err
	}
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO api_keys (id, user_id, name, secret_hash, created_by, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, key.ID, userID, key.Name, sealed, actor.ID, now, key.ExpiresAt); err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "apikey.created", TargetType: "api_key", TargetID: key.ID,
			Details: map[string]any{"owner": userID, "name": key.Name}}); err != nil {
			return err
		}
		_, err := db.emit(ctx, tx, actor, withType(assess.EventAPIKeyCreated, apiKeyEvent(key)))
		return err
	})
	if err != nil {
		return assess.APIKey{}, "", err
	}
	return key, apiKeyPrefix + strings.TrimPrefix(key.ID, assess.PrefixAPIKey) + "_" + secret, nil
}

// ListAPIKeys implements assess.APIKeyService (keyset pagination on the id, newest first).
func (db *DB) ListAPIKeys(ctx context.Context, userID, cursor string, limit int) ([]assess.APIKey, string, error) {
	if cursor == "" {
		cursor = "ak_~" // sorts after every id
	}
	rows, err := db.pool.Query(ctx, `SELECT id, user_id, name, created_at, expires_at, last_used_at, revoked_at
		FROM api_keys WHERE user_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, userID, cursor, limit+1)
	if err != nil {
		return nil, "", err
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.APIKey, error) {
		var k assess.APIKey
		return k, r.Scan(&k.ID, &k.UserID, &k.Name, &k.CreatedAt, &k.ExpiresAt, &k.LastUsedAt, &k.RevokedAt)
	})
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(keys) > limit {
		keys, next = keys[:limit], keys[limit-1].ID
	}
	return keys, next, nil
}

// RevokeAPIKey implements assess.APIKeyService. Revoking an already revoked key is a
// no-op (audited, but no event).
func (db *DB) RevokeAPIKey(ctx context.Context, userID, keyID string, actor assess.Actor) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var wasRevoked bool
		err := tx.QueryRow(ctx, `SELECT revoked_at IS NOT NULL FROM api_keys WHERE id = $1 AND user_id = $2 FOR UPDATE`, keyID, userID).Scan(&wasRevoked)
		if errors.Is(err, pgx.ErrNoRows) {
			return assess.Errorf(assess.ECodeNotFound, "No such API key.")
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1`, keyID, db.now()); err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "apikey.revoked", TargetType: "api_key", TargetID: keyID,
			Details: map[string]any{"owner": userID}}); err != nil || wasRevoked {
			return err
		}
		var k assess.APIKey
		if err := tx.QueryRow(ctx, `SELECT id, user_id, name, created_at, expires_at, last_used_at, revoked_at FROM api_keys WHERE id = $1`, keyID).
			Scan(&k.ID, &k.UserID, &k.Name, &k.CreatedAt, &k.ExpiresAt, &k.LastUsedAt, &k.RevokedAt); err != nil {
			return err
		}
		_, err = db.emit(ctx, tx, actor, withType(assess.EventAPIKeyRevoked, apiKeyEvent(k)))
		return err
	})
}

var errBadAPIKey = &assess.Error{Code: assess.ECodeUnauthenticated, Message: "The API key is invalid, expired or revoked."}

// APIKeyPrincipal implements assess.APIKeyService: one indexed lookup by the id inside the
// token, then a constant-time comparison of the secret's hash.
func (db *DB) APIKeyPrincipal(ctx context.Context, token string) (*assess.Principal, error) {
	rest, ok := strings.CutPrefix(token, apiKeyPrefix)
	idPart, secret, ok2 := strings.Cut(rest, "_")
	id := assess.PrefixAPIKey + idPart
	if !ok || !ok2 || !assess.ValidID(assess.PrefixAPIKey, id) || secret == "" {
		return nil, errBadAPIKey
	}
	p := &assess.Principal{APIKeyID: id}
	u := &p.User
	var sealed string
	var lastUsed *time.Time
	now := db.now()
	err := db.pool.QueryRow(ctx, `SELECT k.secret_hash, k.last_used_at, u.id, u.username, u.email, u.display_name, u.active, u.version, u.created_at, u.last_login_at
		FROM api_keys k JOIN users u ON u.id = k.user_id
		WHERE k.id = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $2) AND u.active`, id, now).
		Scan(&sealed, &lastUsed, &u.ID, &u.Username, &u.Email, &u.DisplayName, &u.Active, &u.Version, &u.CreatedAt, &u.LastLoginAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, errBadAPIKey
	}
	if err != nil {
		return nil, err
	}
	want, err := db.keys.Open(ctx, apiKeyField.AAD(id), sealed)
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(hashAPISecret(secret)), want) != 1 {
		return nil, errBadAPIKey
	}
	// Last use is recorded at most once a minute, so busy keys cost no write per request.
	if lastUsed == nil || now.Sub(*lastUsed) > time.Minute {
		if _, err := db.pool.Exec(ctx, `UPDATE api_keys SET last_used_at = $2 WHERE id = $1`, id, now); err != nil {
			return nil, err
		}
	}
	return p, db.fillPermissions(ctx, p)
}

var _ assess.APIKeyService = (*DB)(nil)
