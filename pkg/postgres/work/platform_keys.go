package work

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/jsf"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The platform's signing keys (docs/attestations.md, "The platform key"): Ed25519, the
// private key as PKCS#8 PEM sealed through the keyring under platformKeyField, exactly one
// active. The first signature the platform makes creates the first key; a rotation retires
// the active key and creates the next. Retired keys stay: the public key set lists them so
// documents they signed still verify.

const platformKeySelect = `SELECT id, algorithm, key_id, public_jwk, active, created_at, retired_at, coalesce(created_by, '')
	FROM platform_keys`

func scanPlatformKey(row pgx.Row) (assess.PlatformKey, error) {
	var k assess.PlatformKey
	err := row.Scan(&k.ID, &k.Algorithm, &k.KeyID, &k.PublicKey, &k.Active, &k.CreatedAt, &k.RetiredAt, &k.CreatedBy)
	k.CreatedAt = k.CreatedAt.UTC()
	if k.RetiredAt != nil {
		u := k.RetiredAt.UTC()
		k.RetiredAt = &u
	}
	return k, err
}

// FindPlatformKeys implements assess.PlatformKeyService: newest first.
func (s *PlatformKeyService) FindPlatformKeys(ctx context.Context) (assess.PlatformKeyList, error) {
	rows, err := s.db.Pool.Query(ctx, platformKeySelect+" ORDER BY created_at DESC, id DESC")
	if err != nil {
		return assess.PlatformKeyList{}, postgres.DBError(err)
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.PlatformKey, error) { return scanPlatformKey(r) })
	if keys == nil {
		keys = []assess.PlatformKey{}
	}
	return assess.PlatformKeyList{Items: keys}, postgres.DBError(err)
}

// RotatePlatformKey implements assess.PlatformKeyService. Concurrent rotations serialise
// on the active key's row lock; each retires the key active when it runs.
func (s *PlatformKeyService) RotatePlatformKey(ctx context.Context, actor assess.Actor) (assess.PlatformKey, error) {
	var out assess.PlatformKey
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		old, err := scanPlatformKey(tx.QueryRow(ctx, platformKeySelect+" WHERE active FOR UPDATE"))
		if errors.Is(err, pgx.ErrNoRows) {
			if _, err := activePlatformKey(ctx, s.db, tx); err != nil {
				return err
			}
			old, err = scanPlatformKey(tx.QueryRow(ctx, platformKeySelect+" WHERE active FOR UPDATE"))
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE platform_keys SET active = false, retired_at = $2 WHERE id = $1", old.ID, tx.Now); err != nil {
			return err
		}
		if out, err = createPlatformKey(ctx, s.db, tx); err != nil {
			return err
		}
		old.Active, old.RetiredAt = false, &tx.Now
		return tx.Record(ctx, assess.ChangePlatformKeyRotated, postgres.Target{Type: "platform_key", ID: out.ID},
			map[string]any{"keyId": out.KeyID, "retiredKeyId": old.KeyID},
			assess.NewEvent{Data: assess.PlatformKeyEvent{Active: out, Retired: old}, Summary: out.KeyID, Link: "/admin/platform-keys"})
	})
	return out, err
}

// createPlatformKey generates an Ed25519 key and stores it as the active one.
func createPlatformKey(ctx context.Context, db *postgres.DB, tx *postgres.Tx) (assess.PlatformKey, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return assess.PlatformKey{}, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return assess.PlatformKey{}, err
	}
	jwk, err := jsf.NewJWK(pub)
	if err != nil {
		return assess.PlatformKey{}, err
	}
	id := assess.NewID(assess.PrefixPlatformKey, tx.Now)
	sealed, err := db.Keys.Seal(ctx, postgres.PlatformKeyField.AAD(id), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	if err != nil {
		return assess.PlatformKey{}, err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO platform_keys (id, algorithm, key_id, public_jwk, private_key, active, created_by, created_at)
		VALUES ($1, 'Ed25519', $2, $3, $4, true, $5, $6)`, id, jsf.Thumbprint(jwk), jwk, sealed, postgres.Nullable(userIDOf(tx.Actor)), tx.Now); err != nil {
		return assess.PlatformKey{}, err
	}
	return scanPlatformKey(tx.QueryRow(ctx, platformKeySelect+" WHERE id = $1", id))
}

// activePlatformKey returns the active key, creating the first one when there is none.
// Two transactions creating it at once both wait on the unique index of the active key;
// the loser's change is retried (serialisation) and finds the winner's key.
func activePlatformKey(ctx context.Context, db *postgres.DB, tx *postgres.Tx) (assess.PlatformKey, error) {
	k, err := scanPlatformKey(tx.QueryRow(ctx, platformKeySelect+" WHERE active"))
	if errors.Is(err, pgx.ErrNoRows) {
		if k, err = createPlatformKey(ctx, db, tx); err == nil {
			err = tx.Record(ctx, assess.ChangePlatformKeyCreated, postgres.Target{Type: "platform_key", ID: k.ID}, map[string]any{"keyId": k.KeyID}, assess.NewEvent{})
		}
	}
	return k, err
}

// platformSigner is a JSF signer with the active platform key (created when there is
// none), naming the key by its thumbprint and embedding it.
func platformSigner(ctx context.Context, db *postgres.DB, tx *postgres.Tx) (*jsf.Signer, assess.PlatformKey, error) {
	k, err := activePlatformKey(ctx, db, tx)
	if err != nil {
		return nil, k, err
	}
	var stored string
	if err := tx.QueryRow(ctx, "SELECT private_key FROM platform_keys WHERE id = $1", k.ID).Scan(&stored); err != nil {
		return nil, k, err
	}
	plain, err := db.Keys.Open(ctx, postgres.PlatformKeyField.AAD(k.ID), stored)
	if err != nil {
		return nil, k, err
	}
	block, _ := pem.Decode(plain)
	if block == nil {
		return nil, k, fmt.Errorf("platform key %s: no PEM block", k.ID)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, k, fmt.Errorf("platform key %s: %w", k.ID, err)
	}
	signer, ok := parsed.(crypto.Signer)
	if !ok {
		return nil, k, fmt.Errorf("platform key %s: not a signing key", k.ID)
	}
	s, err := jsf.NewSigner(signer, k.Algorithm, jsf.WithKeyID(k.KeyID), jsf.WithPublicKey())
	return s, k, err
}

// PublicKeySet implements assess.PlatformKeyService: every key, active first.
func (s *PlatformKeyService) PublicKeySet(ctx context.Context) ([]byte, error) {
	list, err := s.FindPlatformKeys(ctx)
	if err != nil {
		return nil, err
	}
	set := attest.JWKS{Keys: []attest.JWKSKey{}}
	for _, k := range list.Items {
		raw, _ := json.Marshal(k.PublicKey)
		var jwk jsf.JWK
		if err := json.Unmarshal(raw, &jwk); err != nil {
			return nil, err
		}
		status := "retired"
		if k.Active {
			status = "active"
		}
		set.Keys = append(set.Keys, attest.JWKSKey{JWK: jwk, Kid: k.KeyID, Alg: k.Algorithm, Use: "sig", Status: status,
			Created: k.CreatedAt, Retired: k.RetiredAt})
	}
	return json.MarshalIndent(set, "", "  ")
}

// RescissionList implements assess.PlatformKeyService: every rescinded attestation,
// signed with the active platform key (created when there is none).
func (s *PlatformKeyService) RescissionList(ctx context.Context) ([]byte, error) {
	var out []byte
	err := s.db.Change(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
		rows, err := tx.Query(ctx, `SELECT serial_number, id, rescinded_at, rescind_reason FROM attestations
			WHERE state = 'rescinded' ORDER BY rescinded_at, id`)
		if err != nil {
			return err
		}
		items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (attest.Rescission, error) {
			var x attest.Rescission
			err := r.Scan(&x.SerialNumber, &x.AttestationID, &x.RescindedAt, &x.Reason)
			x.RescindedAt = x.RescindedAt.UTC()
			return x, err
		})
		if err != nil {
			return err
		}
		revoked, err := revokedSigningKeys(ctx, tx)
		if err != nil {
			return err
		}
		signer, _, err := platformSigner(ctx, s.db, tx)
		if err != nil {
			return err
		}
		out, err = attest.SignRescissions(attest.RescissionList{Issuer: "assay", Updated: tx.Now.UTC(), Rescissions: items,
			RevokedKeys: revoked}, signer)
		return err
	})
	return out, err
}

// FindRescission implements assess.PlatformKeyService.
func (s *PlatformKeyService) FindRescission(ctx context.Context, serial string) (*assess.Rescission, error) {
	var r assess.Rescission
	err := s.db.Pool.QueryRow(ctx, `SELECT serial_number, id, rescinded_at, rescind_reason FROM attestations
		WHERE serial_number = $1 AND state = 'rescinded'`, serial).Scan(&r.SerialNumber, &r.AttestationID, &r.RescindedAt, &r.Reason)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	r.RescindedAt = r.RescindedAt.UTC()
	return &r, postgres.DBError(err)
}

var _ assess.PlatformKeyService = (*PlatformKeyService)(nil)
