package work

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/jsf"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Signing keys held by the service (docs/attestations.md, "Keys held by the service"):
// rows of user_signing_keys with held = true, the private key as PKCS#8 PEM sealed through
// the keyring under postgres.HeldSigningKeyField, so they are never written in plaintext
// (generation is refused in passthrough mode). The private key leaves the store only as a
// signature over a frozen statement, for its owner, after their password was checked
// again. A revocation destroys it and keeps the row with the time, which verification
// reads (RevokedSigningKeys).

// GenerateHeldSigningKey implements assess.AttestationService.
func (s *AttestationService) GenerateHeldSigningKey(ctx context.Context, n assess.NewHeldSigningKey, actor assess.Actor) (assess.SigningKey, error) {
	var out assess.SigningKey
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := n.Validate(); err != nil {
			return err
		}
		if s.db.Keys.Passthrough() {
			return assess.ErrHeldKeyNeedsEncryption
		}
		priv, err := newHeldKey(n.Algorithm)
		if err != nil {
			return err
		}
		der, err := x509.MarshalPKCS8PrivateKey(priv)
		if err != nil {
			return err
		}
		jwk, err := jsf.NewJWK(priv.Public())
		if err != nil {
			return err
		}
		id := assess.NewID(assess.PrefixSigningKey, tx.Now)
		plain := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
		sealed, err := s.db.Keys.Seal(ctx, postgres.HeldSigningKeyField.AAD(id), plain)
		clear(plain)
		clear(der)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO user_signing_keys (id, user_id, label, algorithm, key_id, public_jwk, created_at, held, private_key)
			VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8)`, id, actor.ID, n.Label, n.Algorithm, jsf.Thumbprint(jwk), jwk, tx.Now, sealed); err != nil {
			return err
		}
		if out, err = scanSigningKey(tx.QueryRow(ctx, signingKeySelect+" WHERE id = $1", id)); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeSigningKeyGenerated, postgres.Target{Type: "user", ID: actor.ID},
			map[string]any{"keyId": out.KeyID, "algorithm": out.Algorithm, "signingKey": id}, assess.NewEvent{})
	})
	return out, err
}

// newHeldKey generates a private key for algorithm (one of assess.HeldKeyAlgorithms).
func newHeldKey(algorithm string) (crypto.Signer, error) {
	switch algorithm {
	case "Ed25519":
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		return priv, err
	case "ES256":
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	return nil, fmt.Errorf("held key: unsupported algorithm %q", algorithm)
}

// RevokeSigningKey implements assess.AttestationService: one's own held keys only (404 for
// another user's, 409 for a public key of one's own or a key revoked already). The
// revocation time is never earlier than a signature the key made: a signature that
// committed while the revocation waited for the key stays valid.
func (s *AttestationService) RevokeSigningKey(ctx context.Context, id string, actor assess.Actor) (assess.SigningKey, error) {
	var out assess.SigningKey
	if !assess.ValidID(assess.PrefixSigningKey, id) {
		return out, errSigningKeyNotFound
	}
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		var held bool
		var revokedAt *time.Time
		var keyID string
		err := tx.QueryRow(ctx, "SELECT held, revoked_at, key_id FROM user_signing_keys WHERE id = $1 AND user_id = $2 FOR UPDATE",
			id, actor.ID).Scan(&held, &revokedAt, &keyID)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return errSigningKeyNotFound
		case err != nil:
			return err
		case !held:
			return assess.ErrNotHeldKey
		case revokedAt != nil:
			return assess.ErrHeldKeyRevoked
		}
		// A statement of its own, after the lock: it sees signatures committed meanwhile.
		if _, err := tx.Exec(ctx, `UPDATE user_signing_keys SET private_key = NULL, revoked_by = $2,
			revoked_at = greatest($3::timestamptz, (SELECT max(signed_at) FROM attestation_signatories WHERE key_id = $4 AND signed_by = $2))
			WHERE id = $1`, id, actor.ID, tx.Now, keyID); err != nil {
			return err
		}
		if out, err = scanSigningKey(tx.QueryRow(ctx, signingKeySelect+" WHERE id = $1", id)); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeSigningKeyRevoked, postgres.Target{Type: "user", ID: actor.ID},
			map[string]any{"keyId": keyID, "signingKey": id, "revokedAt": out.RevokedAt}, assess.NewEvent{})
	})
	return out, err
}

// confirmHeldKeyPassword checks the signer's password again before a signature with a
// key the service holds, outside any transaction (the hash is slow).
func (s *AttestationService) confirmHeldKeyPassword(ctx context.Context, r *assess.SignRequest, actor assess.Actor) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if r.Kind != assess.SignatureDigital || r.Digital.HeldKeyID == "" {
		return nil
	}
	if s.cfg.ConfirmPasswordFunc == nil {
		return errors.New("held key signature: no password check is configured")
	}
	return s.cfg.ConfirmPasswordFunc(ctx, actor.ID, r.Digital.Password, actor)
}

var errHeldKeyNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Signing key not found.",
	Details: []assess.Detail{{Field: "digital.heldKeyId", Code: "not_found"}}}

// heldKeySignerObject signs the frozen statement with the actor's held key id: the signer
// object a digital signatory would send, made on the server. The key's row is shared-locked
// until the transaction ends, so a revocation waits for the signature.
func heldKeySignerObject(ctx context.Context, db *postgres.DB, tx *postgres.Tx, id string, frozen []byte) (*jsf.Object, error) {
	if !assess.ValidID(assess.PrefixSigningKey, id) {
		return nil, errHeldKeyNotFound
	}
	var held bool
	var revokedAt *time.Time
	var algorithm string
	var stored *string
	err := tx.QueryRow(ctx, `SELECT held, revoked_at, algorithm, private_key FROM user_signing_keys
		WHERE id = $1 AND user_id = $2 FOR SHARE`, id, tx.Actor.ID).Scan(&held, &revokedAt, &algorithm, &stored)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, errHeldKeyNotFound
	case err != nil:
		return nil, err
	case !held:
		return nil, &assess.Error{Code: assess.ECodeConflict, Message: assess.ErrNotHeldKey.Message,
			Details: []assess.Detail{{Field: "digital.heldKeyId", Code: "not_held"}}}
	case revokedAt != nil || stored == nil:
		return nil, assess.ErrHeldKeyRevoked
	}
	signer, err := openHeldKey(ctx, db, id, algorithm, *stored)
	if err != nil {
		return nil, err
	}
	obj, err := attest.SignStatement(frozen, signer)
	if err != nil {
		return nil, assess.ErrBadSignature(err.Error())
	}
	return obj, nil
}

// openHeldKey unseals a held key and returns a JSF signer embedding its public key, as
// the browser's signer does.
func openHeldKey(ctx context.Context, db *postgres.DB, id, algorithm, stored string) (*jsf.Signer, error) {
	plain, err := db.Keys.Open(ctx, postgres.HeldSigningKeyField.AAD(id), stored)
	if err != nil {
		return nil, err
	}
	defer clear(plain)
	block, _ := pem.Decode(plain)
	if block == nil {
		return nil, fmt.Errorf("held key %s: no PEM block", id)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	clear(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("held key %s: %w", id, err)
	}
	key, ok := parsed.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("held key %s: not a signing key", id)
	}
	return jsf.NewSigner(key, algorithm)
}

// RevokedSigningKeys implements assess.PlatformKeyService.
func (s *PlatformKeyService) RevokedSigningKeys(ctx context.Context) ([]assess.KeyRevocation, error) {
	return revokedSigningKeys(ctx, s.db.Pool)
}

func revokedSigningKeys(ctx context.Context, q postgres.Querier) ([]assess.KeyRevocation, error) {
	rows, err := q.Query(ctx, `SELECT key_id, revoked_at FROM user_signing_keys WHERE revoked_at IS NOT NULL
		ORDER BY revoked_at, key_id`)
	if err != nil {
		return nil, postgres.DBError(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.KeyRevocation, error) {
		var k assess.KeyRevocation
		err := r.Scan(&k.KeyID, &k.RevokedAt)
		k.RevokedAt = k.RevokedAt.UTC()
		return k, err
	})
	return out, postgres.DBError(err)
}
