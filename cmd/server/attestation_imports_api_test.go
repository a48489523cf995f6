package main

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx/cdxtest"
	"github.com/assay-dev/assay/pkg/jsf"
)

// sealedDocument makes a sealed attestation on ts the way its users do (a claim citing evidence
// with a file, one electronic signatory) and returns its exported document and the platform's
// JWKS.
func sealedDocument(t *testing.T, ts *testServer) (doc, jwks []byte) {
	t.Helper()
	admin := ts.admin(t)
	w := newClaimWorld(t, ts)
	ann, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	aid, ars := w.assessment("Payments review — Δοκιμή, Проверка", []string{ann.ID}, nil)
	ev := w.evidence("Pentest report", ann.ID, ars[0])
	var upload bytes.Buffer
	mw := multipart.NewWriter(&upload)
	part, err := mw.CreateFormFile("file", "pentest.txt")
	require.NoError(t, err)
	_, _ = part.Write([]byte("Pentest of the payments API: no findings of high severity.\n"))
	require.NoError(t, mw.Close())
	status, _, out := annC.raw(t, http.MethodPost, "/api/v1/evidence/"+ev+"/attachments", &upload, mw.FormDataContentType())
	require.Equal(t, http.StatusCreated, status, string(out))
	annC.post(t, "/api/v1/assessments/"+aid+"/claims", map[string]any{"name": "Encrypted", "targetEntityId": w.entityID,
		"predicate": "All stored data is encrypted.", "evidenceIds": []string{ev}, "requirementIds": ars[:2]}, http.StatusCreated)
	for i, r := range []string{"yes", "partial", "not_applicable"} {
		ts.sqlExec(t, `UPDATE assessment_requirements SET result = $2, rationale = $3 WHERE id = $1`, ars[i], r, fifteenWords)
	}
	w.setState(aid, "complete")
	at := annC.post(t, "/api/v1/attestations", map[string]any{"assessmentId": aid, "summary": "Payments at ASVS L1"}, http.StatusCreated)
	id := at["id"].(string)
	slots := admin.post(t, "/api/v1/attestations/"+id+"/signatories", map[string]any{"title": "Lead assessor", "organization": "Acme Assurance"}, http.StatusCreated)
	slot := slots["signatories"].([]any)[0].(map[string]any)["id"].(string)
	annC.post(t, "/api/v1/attestations/"+id+"/signatories/"+slot+"/sign",
		map[string]any{"kind": "electronic", "electronic": map[string]any{"name": "Ann Assessor"}}, http.StatusOK)
	admin.post(t, "/api/v1/attestations/"+id+"/seal", nil, http.StatusOK)
	status, _, doc = annC.raw(t, http.MethodGet, "/api/v1/attestations/"+id+"/export", nil, "")
	require.Equal(t, http.StatusOK, status, string(doc))
	status, _, jwks = ts.browser(t).raw(t, http.MethodGet, "/api/v1/platform-keys/jwks.json", nil, "")
	require.Equal(t, http.StatusOK, status)
	return doc, jwks
}

// importDoc uploads a document to import (with the issuer's JWKS when given).
func importDoc(t *testing.T, c *apiClient, query string, doc, jwks []byte, want int) map[string]any {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if jwks != nil {
		require.NoError(t, mw.WriteField("jwks", string(jwks)))
	}
	part, err := mw.CreateFormFile("file", "attestation.cdx.json")
	require.NoError(t, err)
	_, _ = part.Write(doc)
	require.NoError(t, mw.Close())
	status, _, out := c.raw(t, http.MethodPost, "/api/v1/attestation-imports"+query, &body, mw.FormDataContentType())
	require.Equal(t, want, status, string(out))
	var m map[string]any
	require.NoError(t, json.Unmarshal(out, &m))
	return m
}

// TestAttestationImportRoundTrip (issue 24 items 1 and 2): a sealed attestation exported from
// one installation imports into a fresh one — dry run first, changing nothing — with its
// signatures valid against the first one's JWKS and untrusted without it; the same document
// again creates nothing; the imported attestation exports byte for byte as it came and
// verifies there; what the import created is read-only.
func TestAttestationImportRoundTrip(t *testing.T) {
	t.Parallel()
	first, second := startServer(t), startServer(t)
	doc, jwks := sealedDocument(t, first)
	admin := second.admin(t)
	w := newClaimWorld(t, second) // the second installation has work of its own
	before := w.count(`SELECT count(*) FROM assessments`) + w.count(`SELECT count(*) FROM evidence`) + w.count(`SELECT count(*) FROM standards`)

	dry := importDoc(t, admin, "?dryRun=true", doc, jwks, http.StatusOK)
	require.Equal(t, true, dry["dryRun"])
	require.Empty(t, dry["id"])
	created := dry["created"].(map[string]any)
	require.EqualValues(t, 1, created["assessments"])
	require.EqualValues(t, 1, created["evidence"])
	require.EqualValues(t, 1, created["claims"])
	require.EqualValues(t, 0, created["standards"])
	require.EqualValues(t, 1, dry["linked"].(map[string]any)["standards"], "the standard of the same identifier and version is linked")
	require.Equal(t, before, w.count(`SELECT count(*) FROM assessments`)+w.count(`SELECT count(*) FROM evidence`)+w.count(`SELECT count(*) FROM standards`),
		"a dry run changes nothing")
	require.Zero(t, w.count(`SELECT count(*) FROM attestation_imports`))

	untrusted := importDoc(t, admin, "?dryRun=true", doc, nil, http.StatusOK)
	require.Equal(t, "untrusted", untrusted["signatures"].(map[string]any)["state"], "without the issuer's keys nobody vouches for them")

	res := importDoc(t, admin, "", doc, jwks, http.StatusCreated)
	sigs := res["signatures"].(map[string]any)
	require.Equal(t, "valid", sigs["state"], "%v", sigs)
	require.Equal(t, true, sigs["sealed"])
	require.Equal(t, dry["created"], res["created"], "the dry run reported what the import did")
	atID, asID := res["attestationId"].(string), res["assessmentId"].(string)

	again := importDoc(t, admin, "", doc, jwks, http.StatusOK)
	require.Equal(t, true, again["alreadyImported"])
	require.Equal(t, res["id"], again["id"])
	require.Equal(t, 1, w.count(`SELECT count(*) FROM attestation_imports`))
	require.Equal(t, 1, w.count(`SELECT count(*) FROM attestations WHERE state = 'imported'`))

	step(t, "the imported attestation says where it came from and exports unchanged", func(t *testing.T) {
		at := admin.get(t, "/api/v1/attestations/"+atID, http.StatusOK)
		require.Equal(t, "imported", at["state"])
		imported := at["imported"].(map[string]any)
		require.Equal(t, "valid", imported["signatures"])
		require.Equal(t, "upload", imported["source"])
		status, ctype, out := admin.raw(t, http.MethodGet, "/api/v1/attestations/"+atID+"/export", nil, "")
		require.Equal(t, http.StatusOK, status)
		require.Equal(t, "application/vnd.cyclonedx+json; version=1.7", ctype)
		require.Equal(t, doc, out, "exported byte for byte as imported")
		a, err := jsf.Canonicalize(doc)
		require.NoError(t, err)
		b, err := jsf.Canonicalize(out)
		require.NoError(t, err)
		require.Equal(t, a, b)
		keys, err := attest.ParseJWKS(jwks)
		require.NoError(t, err)
		require.True(t, attest.Verify(out, attest.Options{PlatformKeys: keys}).OK, "its signatures verify against the first installation's keys")
		status, _, orig := admin.raw(t, http.MethodGet, "/api/v1/attestation-imports/"+res["id"].(string)+"/document", nil, "")
		require.Equal(t, http.StatusOK, status)
		require.Equal(t, doc, orig)
	})

	step(t, "the imported records are read-only", func(t *testing.T) {
		as := admin.get(t, "/api/v1/assessments/"+asID, http.StatusOK)
		require.Equal(t, "complete", as["state"])
		admin.fails(t, http.MethodPost, "/api/v1/assessments/"+asID+"/transition", map[string]any{"to": "in_progress", "version": as["version"]},
			http.StatusConflict, "conflict")
		at := admin.get(t, "/api/v1/attestations/"+atID, http.StatusOK)
		admin.fails(t, http.MethodPatch, "/api/v1/attestations/"+atID, map[string]any{"version": at["version"], "summary": "x"}, http.StatusConflict, "conflict")
		admin.fails(t, http.MethodPost, "/api/v1/attestations/"+atID+"/seal", nil, http.StatusConflict, "conflict")
		admin.fails(t, http.MethodPost, "/api/v1/attestations/"+atID+"/rescind", map[string]any{"reason": "x"}, http.StatusConflict, "conflict")
	})

	step(t, "only admin.import imports; an outsider sees none of it", func(t *testing.T) {
		_, ozC := second.newUserNamed(t, "ozzy", assess.RoleAssessor)
		importDoc(t, ozC, "", doc, jwks, http.StatusForbidden)
		ozC.fails(t, http.MethodGet, "/api/v1/attestation-imports", nil, http.StatusForbidden, "permission_denied")
		ozC.fails(t, http.MethodGet, "/api/v1/attestations/"+atID, nil, http.StatusNotFound, "not_found")
		ozC.fails(t, http.MethodGet, "/api/v1/assessments/"+asID, nil, http.StatusNotFound, "not_found")
	})

	step(t, "internal addresses are refused without naming them", func(t *testing.T) {
		m := admin.fails(t, http.MethodPost, "/api/v1/attestation-imports/url", map[string]any{"url": "https://127.0.0.1:1/x.json"},
			http.StatusUnprocessableEntity, "business_rule_violation")
		require.Contains(t, mustJSON(t, m), "url_not_allowed")
	})

	step(t, "a signed document that verifiers could read two ways is refused, nothing written", func(t *testing.T) {
		// The sealed document again with its serial number repeated as its last member: encoding/
		// json reads the second, a strict verifier refuses it and so finds no signature to judge.
		body := bytes.TrimSpace(doc)
		require.Equal(t, byte('}'), body[len(body)-1])
		twice := append(bytes.Clone(body[:len(body)-1]), `,"serialNumber":"urn:uuid:00000000-0000-4000-8000-000000000000"}`...)
		m := importDoc(t, admin, "", twice, jwks, http.StatusUnprocessableEntity)
		require.Contains(t, mustJSON(t, m), "ambiguous_json")
		require.Contains(t, m["message"], "duplicate object key")
		require.Equal(t, 1, w.count(`SELECT count(*) FROM attestation_imports`))
	})

	step(t, "the imports are listed with their reports", func(t *testing.T) {
		list := items(t, admin.get(t, "/api/v1/attestation-imports", http.StatusOK))
		require.Len(t, list, 1)
		require.Equal(t, res["id"], list[0]["id"])
		admin.fails(t, http.MethodGet, "/api/v1/attestation-imports/ai_nope", nil, http.StatusNotFound, "not_found")
	})
}

// TestAttestationImportOfRealDocuments: the specification's example attestations (no
// definitions, placeholder signatures, a dangling counter-claim) import with every repair
// named; bad documents are refused with the JSON pointer of what is wrong.
func TestAttestationImportOfRealDocuments(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "OUTBOUND_ALLOW_NETWORKS=127.0.0.0/8")
	admin := ts.admin(t)
	w := &claimWorld{t: t, ts: ts}
	const serial = "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79" // both examples carry it
	for _, spec := range []string{"1.6", "1.7"} {
		doc, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "cyclonedx", "examples", "valid-attestation-"+spec+".json"))
		require.NoError(t, err)
		if spec == "1.7" {
			refused := importDoc(t, admin, "", doc, nil, http.StatusConflict)
			require.Contains(t, mustJSON(t, refused), "serial number")
			doc = bytes.Replace(doc, []byte(serial), []byte("urn:uuid:3e671687-395b-41f5-a30f-a58921a69b70"), 1)
		}
		imports := w.count(`SELECT count(*) FROM attestation_imports`)
		dry := importDoc(t, admin, "?dryRun=true", doc, nil, http.StatusOK)
		require.Equal(t, imports, w.count(`SELECT count(*) FROM attestation_imports`), "a dry run writes nothing")
		res := importDoc(t, admin, "", doc, nil, http.StatusCreated)
		require.Equal(t, dry["created"], res["created"])
		require.Equal(t, dry["repairs"], res["repairs"])
		require.Equal(t, "absent", res["signatures"].(map[string]any)["state"], "placeholders are no signatures")
		again := importDoc(t, admin, "", doc, nil, http.StatusOK)
		require.Equal(t, true, again["alreadyImported"], "a second import creates nothing")
		var codes []string
		for _, r := range res["repairs"].([]any) {
			codes = append(codes, r.(map[string]any)["code"].(string)+" "+r.(map[string]any)["pointer"].(string))
		}
		joined := strings.Join(codes, "\n")
		require.Contains(t, joined, "missing_definitions")
		require.Contains(t, joined, "dangling_reference /declarations/attestations/0/map/0/counterClaims/0")
		require.Contains(t, joined, "placeholder_signature /signature")
		created := res["created"].(map[string]any)
		require.EqualValues(t, 3, created["evidence"])
		require.EqualValues(t, 1, created["claims"])
		at := admin.get(t, "/api/v1/attestations/"+res["attestationId"].(string), http.StatusOK)
		require.Equal(t, "I certify, to the best of my knowledge, that all information is correct...", at["statement"])
		require.Equal(t, "2023-05-25", at["validUntil"], "the earliest expiry of its evidence")
		require.Equal(t, 3, w.count(`SELECT count(*) FROM evidence WHERE import_id = $1 AND state = 'expired'`, res["id"]),
			"evidence past its day comes in expired")
		require.Len(t, at["signatories"], 2)
	}
	step(t, "concurrent imports of one document create it once", func(t *testing.T) {
		doc, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "cyclonedx", "examples", "valid-attestation-1.6.json"))
		require.NoError(t, err)
		doc = bytes.Replace(doc, []byte(serial), []byte("urn:uuid:3e671687-395b-41f5-a30f-a58921a69b72"), 1)
		statuses := make(chan int, 4)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var body bytes.Buffer
				mw := multipart.NewWriter(&body)
				part, _ := mw.CreateFormFile("file", "a.json")
				_, _ = part.Write(doc)
				_ = mw.Close()
				status, _, _ := admin.raw(t, http.MethodPost, "/api/v1/attestation-imports", &body, mw.FormDataContentType())
				statuses <- status
			}()
		}
		wg.Wait()
		close(statuses)
		created := 0
		for status := range statuses {
			require.Contains(t, []int{http.StatusCreated, http.StatusOK}, status)
			if status == http.StatusCreated {
				created++
			}
		}
		require.Equal(t, 1, created)
		require.Equal(t, 1, w.count(`SELECT count(*) FROM attestation_imports WHERE serial_number = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b72'`))
	})
	step(t, "a document by URL, through the outbound guard", func(t *testing.T) {
		doc, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "cyclonedx", "examples", "valid-attestation-1.6.json"))
		require.NoError(t, err)
		doc = bytes.Replace(doc, []byte(serial), []byte("urn:uuid:3e671687-395b-41f5-a30f-a58921a69b71"), 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/attestation.json" {
				http.NotFound(w, r)
				return
			}
			_, _ = w.Write(doc)
		}))
		t.Cleanup(srv.Close)
		dry := admin.post(t, "/api/v1/attestation-imports/url?dryRun=true", map[string]any{"url": srv.URL + "/attestation.json"}, http.StatusOK)
		require.Equal(t, true, dry["dryRun"])
		res := admin.post(t, "/api/v1/attestation-imports/url", map[string]any{"url": srv.URL + "/attestation.json"}, http.StatusCreated)
		require.Equal(t, srv.URL+"/attestation.json", res["source"])
		require.Equal(t, "attestation.json", res["filename"])
		m := admin.fails(t, http.MethodPost, "/api/v1/attestation-imports/url", map[string]any{"url": srv.URL + "/missing.json"},
			http.StatusUnprocessableEntity, "business_rule_violation")
		require.Contains(t, mustJSON(t, m), "fetch_failed")
		admin.fails(t, http.MethodPost, "/api/v1/attestation-imports/url", map[string]any{"url": "ftp://example.com/x"},
			http.StatusUnprocessableEntity, "business_rule_violation")
	})
	step(t, "bad documents are a clear 4xx naming the place", func(t *testing.T) {
		refuse := func(doc []byte, code string) map[string]any {
			before := w.count(`SELECT count(*) FROM attestation_imports`) + w.count(`SELECT count(*) FROM assessments`)
			m := importDoc(t, admin, "", doc, nil, http.StatusUnprocessableEntity)
			require.Contains(t, mustJSON(t, m), code)
			require.Equal(t, before, w.count(`SELECT count(*) FROM attestation_imports`)+w.count(`SELECT count(*) FROM assessments`), "nothing written")
			return m
		}
		refuse([]byte("hello"), "invalid_json")
		refuse([]byte(`{"bomFormat":"CycloneDX","specVersion":"1.6","version":1,"declarations":{"attestations":[{"map":[{"requirement":7}]}]}}`),
			"/declarations/attestations/0/map/0/requirement")
		refuse([]byte(`{"bomFormat":"CycloneDX","specVersion":"1.6","version":1}`), "no_declarations")
		refuse([]byte(`{"bomFormat":"CycloneDX","specVersion":"1.6","version":1,"declarations":{"attestations":[{"summary":"a\u0000b"}]}}`), "invalid_text")
		importDoc(t, admin, "", []byte(`{"bomFormat":"CycloneDX","specVersion":"1.6","version":1,"declarations":{"attestations":[{"summary":"x"}]}}`),
			[]byte("not keys"), http.StatusBadRequest)
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
