package app_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/cyclonedx/cdxtest"
	"github.com/assay-dev/assay/pkg/jsf"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// sealedStatement builds a small attestation document and seals it with a fresh platform key
// (frozen, then sealed, as the service does), returning the document and the key.
func sealedStatement(t testing.TB) ([]byte, jsf.JWK) {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	signer, err := jsf.NewSigner(key, "Ed25519", jsf.WithPublicKey())
	require.NoError(t, err)
	score := 1.0
	content := assess.AttestationContent{
		Attestation: assess.Attestation{ID: "at_1", Summary: "Shop", Statement: "We affirm.", EntityID: "en_1", EntityName: "Shop"},
		EntityType:  assess.EntityTypeProduct,
		Standards: []assess.StandardContent{{Standard: assess.Standard{ID: "st_1", Name: "Std", StandardVersion: "1"},
			Requirements: []assess.Requirement{{ID: "rq_1", Identifier: "R1", Name: "One"}}}},
		Requirements:    []assess.AttestationRequirement{{ID: "ar_1", Result: "yes", Score: &score, Rationale: "Done."}},
		RequirementRefs: map[string]string{"ar_1": "rq_1"},
	}
	statement, err := cyclonedx.BuildAttestation(cyclonedx.AttestationSpec, content, "urn:uuid:00000000-0000-4000-8000-00000000000a", time.Now(), "test")
	require.NoError(t, err)
	frozen, err := attest.Freeze(statement, signer)
	require.NoError(t, err)
	sealed, err := attest.Seal(frozen, signer)
	require.NoError(t, err)
	return sealed, signer.PublicKey()
}

// TestJudgeSignatures: the document's verdict is the worst of its signatures — valid with a
// trusted key, untrusted without, invalid once a byte changed, absent with placeholders only.
func TestJudgeSignatures(t *testing.T) {
	doc, key := sealedStatement(t)
	plan, err := cyclonedx.ParseAttestation(doc)
	require.NoError(t, err)
	require.Empty(t, plan.Placeholders)

	valid := app.JudgeSignatures(doc, plan.Placeholders, []jsf.JWK{key})
	require.Equal(t, assess.SignaturesValid, valid.State)
	require.True(t, valid.Sealed)
	require.NotEmpty(t, valid.Checks)

	require.Equal(t, assess.SignaturesUntrusted, app.JudgeSignatures(doc, plan.Placeholders, nil).State)

	tampered := bytes.Replace(doc, []byte(`"Done."`), []byte(`"Done!"`), 1)
	require.NotEqual(t, doc, tampered)
	require.Equal(t, assess.SignaturesInvalid, app.JudgeSignatures(tampered, plan.Placeholders, []jsf.JWK{key}).State)

	example, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "cyclonedx", "examples", "valid-attestation-1.7.json"))
	require.NoError(t, err)
	explan, err := cyclonedx.ParseAttestation(example)
	require.NoError(t, err)
	absent := app.JudgeSignatures(example, explan.Placeholders, []jsf.JWK{key})
	require.Equal(t, assess.SignaturesAbsent, absent.State)
	require.False(t, absent.Sealed)
	for _, c := range absent.Checks {
		require.Equal(t, assess.SignaturesAbsent, c.Status, c.Object)
	}
}

// keySet is a fixed key set for the imports (no platform key of the store's own).
type keySet []byte

func (k keySet) PublicKeySet(context.Context) ([]byte, error) { return k, nil }

// TestImportRefusesForeignKeysThatAreNotAKeySet: trusted keys that are not a JWKS are a 400
// on field jwks, before anything is read or written.
func TestImportRefusesForeignKeysThatAreNotAKeySet(t *testing.T) {
	imports := app.NewAttestationImports(nil, keySet(`{"keys":[]}`), nil, 0)
	_, err := imports.Import(context.Background(), app.AttestationImportRequest{Document: []byte(`{}`), TrustedKeys: []byte(`{"nope":1}`)}, assess.SystemActor)
	requireCode(t, err, assess.ECodeValidation)
	_, err = imports.Import(context.Background(), app.AttestationImportRequest{URL: "https://example.com/a.json"}, assess.SystemActor)
	requireCode(t, err, assess.ECodeUnavailable)
}

// TestImportRefusesDocumentsReadTwoWays: a document the signature verifier does not read is
// refused before anything is read or written (the store is nil: reaching it would panic) —
// 422 ambiguous_json where readers would disagree, invalid_json where it is not JSON —
// naming the byte; the same document written strictly goes on to the schema check.
func TestImportRefusesDocumentsReadTwoWays(t *testing.T) {
	imports := app.NewAttestationImports(nil, keySet(`{"keys":[]}`), nil, 0)
	const head = `{"bomFormat":"CycloneDX","specVersion":"1.6","version":1,"declarations":{"attestations":[{"summary":`
	for _, c := range []struct{ doc, code, says string }{
		{head + `"a"}]},"version":2}`, "ambiguous_json", "duplicate object key"},
		{head + `"a","summary":"b"}]}}`, "ambiguous_json", "duplicate object key"},
		{head + `"\ud800"}]}}`, "ambiguous_json", "lone surrogate"},
		{head + "\"\xff\"}]}}", "ambiguous_json", "invalid UTF-8"},
		{head + `"a"}]},"x":1e400}`, "ambiguous_json", "finite"},
		{"\ufeff" + head + `"a"}]}}`, "invalid_json", "byte order mark"},
		{" \n", "invalid_json", "empty"},
		{strings.Repeat("[", 1001) + strings.Repeat("]", 1001), "invalid_json", "more than 1000 levels"},
		{head + `"a"}]}} {}`, "invalid_json", "data after"},
	} {
		_, err := imports.Import(context.Background(), app.AttestationImportRequest{Document: []byte(c.doc)}, assess.SystemActor)
		var e *assess.Error
		require.ErrorAs(t, err, &e, c.doc)
		require.Equal(t, assess.ECodeBusinessRule, e.Code, c.doc)
		require.Len(t, e.Details, 1)
		require.Equal(t, c.code, e.Details[0].Code, c.doc)
		require.Equal(t, "/", e.Details[0].Field)
		require.Contains(t, e.Message, c.says, c.doc)
		if c.code == "ambiguous_json" {
			require.Contains(t, e.Message, "at byte", c.doc)
		}
	}
	_, err := imports.Import(context.Background(), app.AttestationImportRequest{Document: []byte(head + `7}]}}`)}, assess.SystemActor)
	var e *assess.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, "schema_invalid", e.Details[0].Code, "strict JSON goes on to the schema check")
}

// BenchmarkAttestationImport measures importing the specification's example attestation
// (schema check, reading, signature verdict and the one transaction that writes 12 records),
// each iteration a new serial number; and the dry run of the same (rolled back).
// make bench-attestations runs it.
func BenchmarkAttestationImport(b *testing.B) {
	ctx := context.Background()
	pool, err := postgres.OpenPool(ctx, pgtest.NewDatabase(b), postgres.PoolConfig{MaxConns: 4, ApplicationName: "bench"})
	require.NoError(b, err)
	b.Cleanup(pool.Close)
	db := postgres.New(pool, nil)
	user := assess.NewID(assess.PrefixUser, time.Now())
	_, err = pool.Exec(ctx, `INSERT INTO users (id, username, email, display_name) VALUES ($1, 'importer', 'importer@example.com', 'Importer')`, user)
	require.NoError(b, err)
	actor := assess.Actor{ID: user, Principal: &assess.Principal{User: assess.User{ID: user, Username: "importer", Active: true},
		Permissions: []string{string(assess.PermAdminImport), string(assess.PermAssessmentsViewAll)}}}
	doc, err := os.ReadFile(filepath.Join(cdxtest.SharedData(b), "cyclonedx", "examples", "valid-attestation-1.6.json"))
	require.NoError(b, err)
	var parsed map[string]any
	require.NoError(b, json.Unmarshal(doc, &parsed))
	imports := app.NewAttestationImports(services.New(db).AttestationImports, keySet(`{"keys":[]}`), nil, 0)
	for _, dry := range []bool{false, true} {
		b.Run(map[bool]string{false: "import", true: "dry-run"}[dry], func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				parsed["serialNumber"] = fmt.Sprintf("urn:uuid:00000000-0000-4000-8000-%012d", i+map[bool]int{false: 0, true: 1 << 30}[dry])
				data, err := json.Marshal(parsed)
				require.NoError(b, err)
				res, err := imports.Import(ctx, app.AttestationImportRequest{Document: data, DryRun: dry}, actor)
				require.NoError(b, err)
				require.Equal(b, 3, res.Created.Evidence)
			}
		})
	}
}
