package postgres_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/secret"
)

const heldKeyPassword = "correct horse battery staple"

// heldKeyStore is the attestation fixture on a store with a master key, the signer able
// to manage their keys and signing in with heldKeyPassword.
type heldKeyStore struct {
	*attestationStore
	enc *services.Services // the services with encryption at rest
}

func newHeldKeyStore(t *testing.T) *heldKeyStore {
	t.Helper()
	s := &heldKeyStore{attestationStore: newAttestationStore(t)}
	db := postgres.New(s.pool, nil)
	_, err := db.LoadKeyring(s.ctx, []byte(strings.Repeat("k", 32)), assess.SystemActor)
	require.NoError(t, err)
	s.enc = testServices(db)
	hash, err := testHasher().Hash(s.ctx, heldKeyPassword)
	require.NoError(t, err)
	s.exec("UPDATE users SET password_hash = $2 WHERE id = $1", s.signer.ID, hash)
	s.exec(`INSERT INTO role_permissions (role_id, permission) SELECT role_id, 'signatures.manage' FROM user_roles WHERE user_id = $1`, s.signer.ID)
	s.signer.Principal.Permissions = append(s.signer.Principal.Permissions, string(assess.PermSignaturesManage))
	return s
}

// signWithHeldKey signs the one slot of a new draft with the held key keyID.
func (s *heldKeyStore) signWithHeldKey(keyID, password string) (assess.Attestation, error) {
	draft := s.draftWithOneSlot()
	return s.enc.Attestations.Sign(s.ctx, draft.ID, draft.Signatories[0].ID, assess.SignRequest{Kind: assess.SignatureDigital,
		Digital: &assess.DigitalSignature{HeldKeyID: keyID, Password: password}}, s.signer)
}

func (s *heldKeyStore) verify(id string) attest.Report {
	s.t.Helper()
	doc, err := s.enc.Attestations.AttestationDocument(s.ctx, id, s.assessor)
	require.NoError(s.t, err)
	set, err := s.enc.PlatformKeys.PublicKeySet(s.ctx)
	require.NoError(s.t, err)
	keys, err := attest.ParseJWKS(set)
	require.NoError(s.t, err)
	revoked, err := s.enc.PlatformKeys.RevokedSigningKeys(s.ctx)
	require.NoError(s.t, err)
	return attest.Verify(doc.Bytes, attest.Options{PlatformKeys: keys, RevokedKeys: revoked})
}

// TestHeldKeySigns: a key generated for the signer (Ed25519 and ES256) is listed as held,
// its private key sealed at rest and in no answer; it signs a slot when the password is
// given again, and the sealed document verifies with the platform's key set, the
// signature naming the held key's thumbprint.
func TestHeldKeySigns(t *testing.T) {
	t.Parallel()
	s := newHeldKeyStore(t)
	for _, algorithm := range assess.HeldKeyAlgorithms {
		k, err := s.enc.Attestations.GenerateHeldSigningKey(s.ctx, assess.NewHeldSigningKey{Label: " Office " + algorithm, Algorithm: algorithm}, s.signer)
		require.NoError(t, err)
		require.True(t, k.Held)
		require.Nil(t, k.RevokedAt)
		require.Equal(t, "Office "+algorithm, k.Label)
		require.Equal(t, algorithm, k.Algorithm)
		answer, err := json.Marshal(k)
		require.NoError(t, err)
		require.NotContains(t, string(answer), `"d"`, "no private member in the answer")
		var stored string
		require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT private_key FROM user_signing_keys WHERE id = $1", k.ID).Scan(&stored))
		require.True(t, secret.IsEncrypted(stored), "sealed at rest")

		signed, err := s.signWithHeldKey(k.ID, heldKeyPassword)
		require.NoError(t, err)
		require.Equal(t, "digital", signed.Signatories[0].Kind)
		require.Equal(t, k.KeyID, signed.Signatories[0].KeyID)
		_, err = s.enc.Attestations.Seal(s.ctx, signed.ID, s.assessor)
		require.NoError(t, err)
		r := s.verify(signed.ID)
		require.True(t, r.OK, "%+v", r)
		require.Contains(t, thumbprintsOf(r, "signatory"), k.KeyID)
	}
	list, err := s.enc.Attestations.FindSigningKeys(s.ctx, s.signer)
	require.NoError(t, err)
	require.Len(t, list.Items, 2, "listed once each with the signer's other keys")
}

func thumbprintsOf(r attest.Report, signer string) []string {
	var out []string
	for _, c := range r.Checks {
		if c.Signer == signer {
			out = append(out, c.Thumbprint)
		}
	}
	return out
}

// TestHeldKeyNeedsAMasterKey: in passthrough mode no key is generated (409
// encryption_required) and nothing is stored.
func TestHeldKeyNeedsAMasterKey(t *testing.T) {
	t.Parallel()
	s := newAttestationStore(t)
	_, err := s.svc.Attestations.GenerateHeldSigningKey(s.ctx, assess.NewHeldSigningKey{Label: "Office", Algorithm: "Ed25519"}, s.signer)
	requireCode(t, err, assess.ECodeConflict, "encryption_required")
	var n int
	require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT count(*) FROM user_signing_keys").Scan(&n))
	require.Zero(t, n)
	_, err = s.svc.Attestations.GenerateHeldSigningKey(s.ctx, assess.NewHeldSigningKey{Label: "Office", Algorithm: "RS256"}, s.signer)
	requireCode(t, err, assess.ECodeValidation, "invalid")
}

// TestHeldKeyPassword: a wrong password signs nothing and counts as a failed sign-in;
// at the limit the account is locked and even the right password is refused.
func TestHeldKeyPassword(t *testing.T) {
	t.Parallel()
	s := newHeldKeyStore(t)
	k, err := s.enc.Attestations.GenerateHeldSigningKey(s.ctx, assess.NewHeldSigningKey{Label: "Office", Algorithm: "ES256"}, s.signer)
	require.NoError(t, err)
	draft := s.draftWithOneSlot()
	sign := func(password string) error {
		_, err := s.enc.Attestations.Sign(s.ctx, draft.ID, draft.Signatories[0].ID, assess.SignRequest{Kind: assess.SignatureDigital,
			Digital: &assess.DigitalSignature{HeldKeyID: k.ID, Password: password}}, s.signer)
		return err
	}
	requireCode(t, sign(""), assess.ECodeValidation, "required")
	requireCode(t, sign("wrong password 1"), assess.ECodeValidation, "incorrect")
	var failed int
	require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT failed_logins FROM users WHERE id = $1", s.signer.ID).Scan(&failed))
	require.Equal(t, 1, failed, "counted with the failed sign-ins")
	got, err := s.enc.Attestations.FindAttestation(s.ctx, draft.ID, s.assessor)
	require.NoError(t, err)
	require.Equal(t, assess.AttestationDraft, got.State, "nothing signed, nothing frozen")
	requireCode(t, sign("wrong password 2"), assess.ECodeValidation, "incorrect")
	requireCode(t, sign("wrong password 3"), assess.ECodeValidation, "incorrect")
	requireCode(t, sign(heldKeyPassword), assess.ECodeRateLimited, "locked")
	var actions []string
	rows, err := s.pool.Query(s.ctx, "SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id", s.signer.ID)
	require.NoError(t, err)
	for rows.Next() {
		var a string
		require.NoError(t, rows.Scan(&a))
		actions = append(actions, a)
	}
	require.Contains(t, actions, "auth.lockout")
	require.Contains(t, actions, "signing_key.generated")
}

// TestHeldKeyPasswordRightOneClearsTheCount: the right password clears the wrong ones
// counted before it, as a sign-in does, so mistakes a user made on other days do not add up
// to a lockout.
func TestHeldKeyPasswordRightOneClearsTheCount(t *testing.T) {
	t.Parallel()
	s := newHeldKeyStore(t)
	k, err := s.enc.Attestations.GenerateHeldSigningKey(s.ctx, assess.NewHeldSigningKey{Label: "Office", Algorithm: "ES256"}, s.signer)
	require.NoError(t, err)
	draft := s.draftWithOneSlot()
	sign := func(password string) error {
		_, err := s.enc.Attestations.Sign(s.ctx, draft.ID, draft.Signatories[0].ID, assess.SignRequest{Kind: assess.SignatureDigital,
			Digital: &assess.DigitalSignature{HeldKeyID: k.ID, Password: password}}, s.signer)
		return err
	}
	failed := func() int {
		var n int
		require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT failed_logins FROM users WHERE id = $1", s.signer.ID).Scan(&n))
		return n
	}
	requireCode(t, sign("wrong password 1"), assess.ECodeValidation, "incorrect")
	requireCode(t, sign("wrong password 2"), assess.ECodeValidation, "incorrect")
	require.Equal(t, 2, failed())
	require.NoError(t, sign(heldKeyPassword))
	require.Zero(t, failed(), "the right password clears the count")
}

// TestHeldKeyRevocation: a revoked key's private key is gone and it signs nothing more;
// the signature it made before stays valid, also in the published rescission list; a
// signature whose record is later than the revocation is invalid. Only one's own held
// keys are revoked, once; a held key is not deleted.
func TestHeldKeyRevocation(t *testing.T) {
	t.Parallel()
	s := newHeldKeyStore(t)
	svc := s.enc.Attestations
	k, err := svc.GenerateHeldSigningKey(s.ctx, assess.NewHeldSigningKey{Label: "Office", Algorithm: "Ed25519"}, s.signer)
	require.NoError(t, err)
	before, err := s.signWithHeldKey(k.ID, heldKeyPassword)
	require.NoError(t, err)
	_, err = svc.Seal(s.ctx, before.ID, s.assessor)
	require.NoError(t, err)

	_, err = svc.RevokeSigningKey(s.ctx, k.ID, s.assessor)
	requireCode(t, err, assess.ECodeNotFound, "")
	requireCode(t, svc.DeleteSigningKey(s.ctx, k.ID, s.signer), assess.ECodeConflict, "held_key")
	revoked, err := svc.RevokeSigningKey(s.ctx, k.ID, s.signer)
	require.NoError(t, err)
	require.NotNil(t, revoked.RevokedAt)
	require.False(t, revoked.RevokedAt.Before(*before.Signatories[0].SignedAt), "never before a signature it made")
	var destroyed bool
	require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT private_key IS NULL FROM user_signing_keys WHERE id = $1", k.ID).Scan(&destroyed))
	require.True(t, destroyed, "the private key is destroyed")
	_, err = svc.RevokeSigningKey(s.ctx, k.ID, s.signer)
	requireCode(t, err, assess.ECodeConflict, "revoked")
	_, err = s.signWithHeldKey(k.ID, heldKeyPassword)
	requireCode(t, err, assess.ECodeConflict, "revoked")

	r := s.verify(before.ID)
	require.True(t, r.OK, "signed before the revocation: still valid: %+v", r)
	list, err := s.enc.PlatformKeys.RescissionList(s.ctx)
	require.NoError(t, err)
	require.Contains(t, string(list), k.KeyID, "the revocation is published")

	// The signature's record said it was made after the revocation: a stolen key's work.
	s.exec("UPDATE user_signing_keys SET revoked_at = $2 WHERE id = $1", k.ID, before.Signatories[0].SignedAt.Add(-2*time.Second))
	r = s.verify(before.ID)
	require.False(t, r.OK)
	for _, c := range r.Checks {
		if c.Signer == "signatory" {
			require.Equal(t, attest.StatusInvalid, c.Status)
			require.Contains(t, c.Reason, "revoked")
		}
	}

	public, err := svc.AddSigningKey(s.ctx, assess.NewSigningKey{Label: "Laptop", Algorithm: "Ed25519", PublicKey: map[string]any{
		"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}}, s.signer)
	require.NoError(t, err)
	_, err = svc.RevokeSigningKey(s.ctx, public.ID, s.signer)
	requireCode(t, err, assess.ECodeConflict, "not_held")
	_, err = s.signWithHeldKey(public.ID, heldKeyPassword)
	requireCode(t, err, assess.ECodeConflict, "not_held")
	_, err = svc.RevokeSigningKey(s.ctx, "uk_\x00", s.signer)
	requireCode(t, err, assess.ECodeNotFound, "")
}

// TestHeldKeyIsTheOwnersOnly: another user can neither sign with nor revoke the key.
func TestHeldKeyIsTheOwnersOnly(t *testing.T) {
	t.Parallel()
	s := newHeldKeyStore(t)
	k, err := s.enc.Attestations.GenerateHeldSigningKey(s.ctx, assess.NewHeldSigningKey{Label: "Office", Algorithm: "Ed25519"}, s.assessor)
	require.NoError(t, err)
	_, err = s.signWithHeldKey(k.ID, heldKeyPassword)
	requireCode(t, err, assess.ECodeNotFound, "not_found")
	_, err = s.enc.Attestations.RevokeSigningKey(s.ctx, k.ID, s.signer)
	requireCode(t, err, assess.ECodeNotFound, "")
}
