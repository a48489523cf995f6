package work

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/jsf"
	"github.com/assay-dev/assay/pkg/postgres"
)

// A user's public signing keys: recorded when a digital signature with the key is
// accepted (recordSigningKey), or added on the profile. Only public keys: the private
// key never reaches the service.

var errSigningKeyNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Signing key not found."}

const signingKeySelect = `SELECT id, label, algorithm, key_id, public_jwk, created_at, held, revoked_at FROM user_signing_keys`

func scanSigningKey(row pgx.Row) (assess.SigningKey, error) {
	var k assess.SigningKey
	err := row.Scan(&k.ID, &k.Label, &k.Algorithm, &k.KeyID, &k.PublicKey, &k.CreatedAt, &k.Held, &k.RevokedAt)
	k.CreatedAt = k.CreatedAt.UTC()
	if k.RevokedAt != nil {
		u := k.RevokedAt.UTC()
		k.RevokedAt = &u
	}
	return k, err
}

// FindSigningKeys implements assess.AttestationService.
func (s *AttestationService) FindSigningKeys(ctx context.Context, actor assess.Actor) (assess.SigningKeyList, error) {
	rows, err := s.db.Pool.Query(ctx, signingKeySelect+" WHERE user_id = $1 ORDER BY id DESC", actor.ID)
	if err != nil {
		return assess.SigningKeyList{}, postgres.DBError(err)
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.SigningKey, error) { return scanSigningKey(r) })
	if keys == nil {
		keys = []assess.SigningKey{}
	}
	return assess.SigningKeyList{Items: keys}, postgres.DBError(err)
}

// AddSigningKey implements assess.AttestationService: the JWK must be a public key of a
// supported kind (422 otherwise); the same key twice is 409.
func (s *AttestationService) AddSigningKey(ctx context.Context, n assess.NewSigningKey, actor assess.Actor) (assess.SigningKey, error) {
	var out assess.SigningKey
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := n.Validate(); err != nil {
			return err
		}
		raw, _ := json.Marshal(n.PublicKey)
		var jwk jsf.JWK
		if err := json.Unmarshal(raw, &jwk); err != nil {
			return invalidIDs("publicKey", "The public key is not a JWK.")
		}
		if _, err := jwk.PublicKey(); err != nil || jsf.Thumbprint(jwk) == "" {
			return invalidIDs("publicKey", "The public key is not a supported JWK (Ed25519, EC P-256/384/521, RSA ≥ 2048 bits).")
		}
		id := assess.NewID(assess.PrefixSigningKey, tx.Now)
		tag, err := tx.Exec(ctx, `INSERT INTO user_signing_keys (id, user_id, label, algorithm, key_id, public_jwk, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, key_id) DO NOTHING`,
			id, actor.ID, n.Label, n.Algorithm, jsf.Thumbprint(jwk), jwk, tx.Now)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return &assess.Error{Code: assess.ECodeAlreadyExists, Message: "This key is on your profile already.",
				Details: []assess.Detail{{Field: "publicKey", Code: "already_exists"}}}
		}
		if out, err = scanSigningKey(tx.QueryRow(ctx, signingKeySelect+" WHERE id = $1", id)); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeSigningKeyRecorded, postgres.Target{Type: "user", ID: actor.ID}, map[string]any{"keyId": out.KeyID}, assess.NewEvent{})
	})
	return out, err
}

// DeleteSigningKey implements assess.AttestationService: one's own keys only (404 for
// another user's); a key held by the service is revoked instead (409).
func (s *AttestationService) DeleteSigningKey(ctx context.Context, id string, actor assess.Actor) error {
	if !assess.ValidID(assess.PrefixSigningKey, id) {
		return errSigningKeyNotFound
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		var keyID string
		err := tx.QueryRow(ctx, "DELETE FROM user_signing_keys WHERE id = $1 AND user_id = $2 AND NOT held RETURNING key_id", id, actor.ID).Scan(&keyID)
		if errors.Is(err, pgx.ErrNoRows) {
			var held bool
			if err := tx.QueryRow(ctx, "SELECT held FROM user_signing_keys WHERE id = $1 AND user_id = $2", id, actor.ID).Scan(&held); err == nil && held {
				return assess.ErrHeldKeyDelete
			}
			return errSigningKeyNotFound
		}
		if err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeSigningKeyDeleted, postgres.Target{Type: "user", ID: actor.ID}, map[string]any{"keyId": keyID}, assess.NewEvent{})
	})
}

var errNoSignatureImage = &assess.Error{Code: assess.ECodeNotFound, Message: "No signature image is kept on your profile."}

// ProfileSignatureImage implements assess.AttestationService.
func (s *AttestationService) ProfileSignatureImage(ctx context.Context, actor assess.Actor) ([]byte, error) {
	var png []byte
	err := s.db.Pool.QueryRow(ctx, "SELECT png FROM user_signature_images WHERE user_id = $1", actor.ID).Scan(&png)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, errNoSignatureImage
	}
	return png, postgres.DBError(err)
}

// SetProfileSignatureImage implements assess.AttestationService: the image is decoded and
// encoded again as PNG (nothing but pixels is kept), with the limits of a signing image.
func (s *AttestationService) SetProfileSignatureImage(ctx context.Context, img assess.SignatureImage, actor assess.Actor) error {
	png, err := reencodeSignatureImage(img.Image)
	if err != nil {
		return err
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO user_signature_images (user_id, png, updated_at) VALUES ($1, $2, $3)
			ON CONFLICT (user_id) DO UPDATE SET png = EXCLUDED.png, updated_at = EXCLUDED.updated_at`, actor.ID, png, tx.Now); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeSignatureImageSet, postgres.Target{Type: "user", ID: actor.ID}, nil, assess.NewEvent{})
	})
}

// DeleteProfileSignatureImage implements assess.AttestationService.
func (s *AttestationService) DeleteProfileSignatureImage(ctx context.Context, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM user_signature_images WHERE user_id = $1", actor.ID)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return errNoSignatureImage
		}
		return tx.Record(ctx, assess.ChangeSignatureImageDeleted, postgres.Target{Type: "user", ID: actor.ID}, nil, assess.NewEvent{})
	})
}
