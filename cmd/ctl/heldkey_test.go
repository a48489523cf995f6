package main

import (
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/identity"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/secret"
)

const heldKeyPassword = "correct horse battery staple"

// heldKeyWorld is a database with a complete assessment and a user, Sam, who may attest
// it, manage his signing keys and sign, signing in with heldKeyPassword.
type heldKeyWorld struct {
	t            *testing.T
	ctx          context.Context
	pool         *pgxpool.Pool
	sam          assess.Actor
	assessmentID string
}

func newHeldKeyWorld(t *testing.T, dsn string) *heldKeyWorld {
	t.Helper()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dsn)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	w := &heldKeyWorld{t: t, ctx: ctx, pool: pool}
	now := time.Now()
	user, role := assess.NewID(assess.PrefixUser, now), assess.NewID(assess.PrefixRole, now)
	entity, standard, req := assess.NewID(assess.PrefixEntity, now), assess.NewID(assess.PrefixStandard, now), assess.NewID(assess.PrefixRequirement, now)
	w.assessmentID = assess.NewID(assess.PrefixAssessment, now)
	hash, err := fastHasher().Hash(ctx, heldKeyPassword)
	require.NoError(t, err)
	perms := []assess.Perm{assess.PermAssessmentsView, assess.PermAttestationsView, assess.PermAttestationsCreate, assess.PermAttestationsEdit,
		assess.PermAffirmationsManage, assess.PermSignaturesSign, assess.PermSignaturesManage}
	w.exec(`INSERT INTO users (id, username, email, password_hash) VALUES ($1, 'sam', 'sam@example.com', $2)`, user, hash)
	w.exec(`INSERT INTO roles (id, name) VALUES ($1, 'signer')`, role)
	w.exec(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, user, role)
	var keys []string
	for _, p := range perms {
		w.exec(`INSERT INTO role_permissions (role_id, permission) VALUES ($1, $2)`, role, string(p))
		keys = append(keys, string(p))
	}
	w.sam = assess.Actor{ID: user, Principal: &assess.Principal{User: assess.User{ID: user, Username: "sam", Active: true}, Permissions: keys}}
	w.exec(`INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Shop', 'product')`, entity)
	w.exec(`INSERT INTO standards (id, identifier, name, state) VALUES ($1, 'std', 'Standard', 'published')`, standard)
	w.exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key, position) VALUES ($1, $2, 'R1', 'R1', 1)`, req, standard)
	w.exec(`INSERT INTO assessments (id, title, entity_id, state, started_at) VALUES ($1, 'Shop review', $2, 'complete', now())`, w.assessmentID, entity)
	w.exec(`INSERT INTO assessment_standards (assessment_id, standard_id) VALUES ($1, $2)`, w.assessmentID, standard)
	w.exec(`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, 'assessor')`, w.assessmentID, user)
	w.exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id, result, rationale)
		VALUES ($1, $2, $3, $4, 'yes', 'Checked in the weekly scan of every host.')`,
		assess.NewID(assess.PrefixAssessmentRequirement, now), w.assessmentID, req, standard)
	return w
}

func (w *heldKeyWorld) exec(sql string, args ...any) {
	w.t.Helper()
	_, err := w.pool.Exec(w.ctx, sql, args...)
	require.NoError(w.t, err, sql)
}

func fastHasher() *secret.Hasher {
	return secret.NewHasher(secret.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}, 2)
}

// store is the service's store as a process started with the master key masterHex would
// have it.
func (w *heldKeyWorld) store(masterHex string) *services.Services {
	w.t.Helper()
	master, err := hex.DecodeString(masterHex)
	require.NoError(w.t, err)
	db := postgres.New(w.pool, nil)
	_, err = db.LoadKeyring(w.ctx, master, assess.SystemActor)
	require.NoError(w.t, err)
	cfg := services.DefaultConfig()
	cfg.Identity = identity.DefaultConfig()
	cfg.Identity.Hasher = fastHasher()
	return services.NewWith(db, cfg)
}

// signAndSeal attests the assessment with one slot that Sam signs with the held key,
// seals it and returns the document.
func (w *heldKeyWorld) signAndSeal(svc *services.Services, heldKeyID string) []byte {
	w.t.Helper()
	at, err := svc.Attestations.CreateAttestation(w.ctx, assess.NewAttestation{AssessmentID: w.assessmentID}, w.sam)
	require.NoError(w.t, err)
	at, err = svc.Attestations.AddSignatory(w.ctx, at.ID, assess.NewSignatory{Title: "Lead"}, w.sam)
	require.NoError(w.t, err)
	_, err = svc.Attestations.Sign(w.ctx, at.ID, at.Signatories[0].ID, assess.SignRequest{Kind: assess.SignatureDigital,
		Digital: &assess.DigitalSignature{HeldKeyID: heldKeyID, Password: heldKeyPassword}}, w.sam)
	require.NoError(w.t, err)
	_, err = svc.Attestations.Seal(w.ctx, at.ID, w.sam)
	require.NoError(w.t, err)
	doc, err := svc.Attestations.AttestationDocument(w.ctx, at.ID, w.sam)
	require.NoError(w.t, err)
	return doc.Bytes
}

// TestHeldKeyThroughTheEncryptionCommands: a signing key the service holds is counted by
// encryption-status, left alone by encrypt-secrets (it was sealed from the start),
// rewrapped by rotate-encryption-key and still signs after rekey-master moved the ledger
// to a new master key. Its signatures verify with assay-ctl verify and with the
// independent Node verifier (tools/interop), which finds the held key's thumbprint.
func TestHeldKeyThroughTheEncryptionCommands(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	w := newHeldKeyWorld(t, dsn)
	base := []string{"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + dsn}
	withA := append(base, "MASTER_ENCRYPTION_KEY="+keyA)

	svcA := w.store(keyA)
	k, err := svcA.Attestations.GenerateHeldSigningKey(w.ctx, assess.NewHeldSigningKey{Label: "Office", Algorithm: "ES256"}, w.sam)
	require.NoError(t, err)
	first := w.signAndSeal(svcA, k.ID)
	held := func() assess.EncryptedFieldCount {
		for _, c := range status(t, withA).Fields {
			if c.Kind == "held_signing_key" {
				return c
			}
		}
		t.Fatal("encryption-status does not count held_signing_key")
		return assess.EncryptedFieldCount{}
	}
	require.Equal(t, assess.EncryptedFieldCount{Kind: "held_signing_key", Encrypted: 1}, held())
	out, err := execute(t, withA, "encrypt-secrets")
	require.NoError(t, err)
	require.Contains(t, out, "encrypted 0 plaintext secrets; 2 were already encrypted", "the platform key and the held key")
	out, err = execute(t, withA, "rotate-encryption-key")
	require.NoError(t, err)
	require.Contains(t, out, "2 data keys rewrapped")
	var stored string
	require.NoError(t, w.pool.QueryRow(w.ctx, "SELECT private_key FROM user_signing_keys WHERE id = $1", k.ID).Scan(&stored))
	v, err := secret.ParseVersion(stored)
	require.NoError(t, err)
	require.Equal(t, 2, v, "rewrapped under the new key version")

	out, err = execute(t, append(base, "MASTER_ENCRYPTION_KEY="+keyB, "OLD_MASTER_ENCRYPTION_KEY="+keyA), "rekey-master")
	require.NoError(t, err)
	require.Contains(t, out, "rekeyed 2 key versions")
	second := w.signAndSeal(w.store(keyB), k.ID)

	dir := t.TempDir()
	jwks, err := w.store(keyB).PlatformKeys.PublicKeySet(w.ctx)
	require.NoError(t, err)
	jwksPath := filepath.Join(dir, "jwks.json")
	require.NoError(t, os.WriteFile(jwksPath, jwks, 0o600))
	for i, doc := range [][]byte{first, second} {
		path := filepath.Join(dir, "held-"+string(rune('a'+i))+".cdx.json")
		require.NoError(t, os.WriteFile(path, doc, 0o600))
		out, err := execute(t, nil, "verify", path, "--jwks", jwksPath)
		require.NoError(t, err, out)
		keys, err := attest.ParseJWKS(jwks)
		require.NoError(t, err)
		report := attest.Verify(doc, attest.Options{PlatformKeys: keys})
		require.True(t, report.OK, "%+v", report)

		results, code := nodeVerify(t, path)
		require.Equal(t, 0, code, "%+v", results)
		var signatory []string
		for _, r := range results {
			require.True(t, r.Valid, "%+v", r)
			if r.Pointer == "/declarations" {
				signatory = append(signatory, r.Thumbprint)
			}
		}
		require.Equal(t, []string{k.KeyID}, signatory, "the held key signed the declarations")
	}
}
