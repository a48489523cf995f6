package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/report/reporttest"
)

// TestReportsAPI (issue 24 item 3): the PDF reports of an assessment and of its sealed
// attestation, read back through pdfcpu (the sealed one through poppler's pdfinfo and
// pdftotext too): the names in Greek and Cyrillic, every requirement, the evidence file's
// SHA-256, the stored document's SHA-256 and the key that sealed it; export.pdf is
// required, an outsider gets 404 as on the JSON reads, and bad ids are 404 in the envelope.
func TestReportsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	w := newClaimWorld(t, ts)
	ts.sqlExec(t, `UPDATE entities SET name = 'Υπηρεσία Πληρωμών' WHERE id = $1`, w.entityID)
	level := assess.NewID(assess.PrefixLevel, time.Now())
	ts.sqlExec(t, `INSERT INTO levels (id, standard_id, identifier, title) VALUES ($1, $2, 'L1', 'Basic')`, level, w.standardID)
	ts.sqlExec(t, `INSERT INTO level_requirements (level_id, requirement_id) SELECT $1, unnest($2::text[])`, level, w.reqIDs[:2])
	ann, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	bea, beaC := ts.newUserNamed(t, "bea", assess.RoleAssessee)
	ts.sqlExec(t, `UPDATE users SET display_name = 'Дмитрий Иванов' WHERE id = $1`, bea.ID)
	_, ozC := ts.newUserNamed(t, "ozzy", assess.RoleAssessor)
	aid, ars := w.assessment("Payments review", []string{ann.ID}, []string{bea.ID})
	ev := w.evidence("Pentest report", ann.ID, ars[0])
	file := []byte("Pentest of the payments API: no findings of high severity.\n")
	var upload bytes.Buffer
	mw := multipart.NewWriter(&upload)
	part, err := mw.CreateFormFile("file", "pentest.txt")
	require.NoError(t, err)
	_, _ = part.Write(file)
	require.NoError(t, mw.Close())
	status, _, out := annC.raw(t, http.MethodPost, "/api/v1/evidence/"+ev+"/attachments", &upload, mw.FormDataContentType())
	require.Equal(t, http.StatusCreated, status, string(out))
	fileSum := sha256.Sum256(file)
	annC.post(t, "/api/v1/assessments/"+aid+"/claims", map[string]any{"name": "Encrypted", "targetEntityId": w.entityID,
		"predicate": "All stored data is encrypted.", "evidenceIds": []string{ev}, "requirementIds": ars[:2]}, http.StatusCreated)
	for i, r := range []string{"yes", "partial", "not_applicable"} {
		ts.sqlExec(t, `UPDATE assessment_requirements SET result = $2, rationale = $3 WHERE id = $1`, ars[i], r, fifteenWords)
	}
	w.setState(aid, "complete")

	get := func(c *apiClient, path string) (int, http.Header, []byte) {
		t.Helper()
		res, body := c.download(t, path)
		return res.StatusCode, res.Header, body
	}

	step(t, "the assessment's report", func(t *testing.T) {
		status, hdr, pdf := get(annC, "/api/v1/assessments/"+aid+"/report.pdf")
		require.Equal(t, http.StatusOK, status, string(pdf))
		require.Equal(t, "application/pdf", hdr.Get("Content-Type"))
		require.Equal(t, `attachment; filename="assessment-payments-review-report.pdf"; filename*=UTF-8''assessment-Payments%20review-report.pdf`,
			hdr.Get("Content-Disposition"))
		require.Equal(t, "no-store", hdr.Get("Cache-Control"))
		require.True(t, bytes.HasPrefix(pdf, []byte("%PDF-")))
		text := strings.Join(reporttest.Text(t, pdf), "\n")
		for _, want := range []string{"Assessment report", "Payments review", "Υπηρεσία Πληρωμών", "Дмитрий Иванов", "C1\nRequirement C1",
			"C2\nRequirement C2", "C3\nRequirement C3", hex.EncodeToString(fileSum[:]), "pentest.txt", "Encrypted", "75.00 %",
			"3: 1 yes, 1 partial, 0 no, 1 not applicable, 0 unanswered", "Level L1: Basic\n2\n1\n1\n0\n0\n0\n75.00 %"} {
			require.Contains(t, text, want)
		}
	})

	step(t, "an emoji in a name renders, and every report after it too", func(t *testing.T) {
		// The PDF library panicked on characters beyond U+FFFF, and the render slot the panic
		// skipped releasing stayed taken: every later report waited for it and answered 503.
		ts.sqlExec(t, `UPDATE users SET display_name = 'Дмитрий 🚀 Иванов' WHERE id = $1`, bea.ID)
		for range 3 {
			status, _, pdf := get(annC, "/api/v1/assessments/"+aid+"/report.pdf")
			require.Equal(t, http.StatusOK, status, string(pdf))
			require.Contains(t, strings.Join(reporttest.Text(t, pdf), "\n"), "Дмитрий \uFFFD Иванов")
		}
		ts.sqlExec(t, `UPDATE users SET display_name = 'Дмитрий Иванов' WHERE id = $1`, bea.ID)
	})

	step(t, "export.pdf is required; an outsider and bad ids get 404 in the envelope", func(t *testing.T) {
		beaC.fails(t, http.MethodGet, "/api/v1/assessments/"+aid+"/report.pdf", nil, http.StatusForbidden, "permission_denied")
		ozC.fails(t, http.MethodGet, "/api/v1/assessments/"+aid+"/report.pdf", nil, http.StatusNotFound, "not_found")
		for _, path := range []string{"/api/v1/assessments/as_nope/report.pdf", "/api/v1/assessments/at_01/report.pdf",
			"/api/v1/assessments/%20/report.pdf", "/api/v1/attestations/at_nope/report.pdf", "/api/v1/attestations/" + aid + "/report.pdf"} {
			annC.fails(t, http.MethodGet, path, nil, http.StatusNotFound, "not_found")
		}
	})

	at := annC.post(t, "/api/v1/attestations", map[string]any{"assessmentId": aid, "summary": "Payments at ASVS L1"}, http.StatusCreated)
	id := at["id"].(string)

	step(t, "a draft's report says it has no document yet", func(t *testing.T) {
		status, _, pdf := get(annC, "/api/v1/attestations/"+id+"/report.pdf")
		require.Equal(t, http.StatusOK, status, string(pdf))
		text := strings.Join(reporttest.Text(t, pdf), "\n")
		require.Contains(t, text, "a draft has no signed document yet")
	})

	slots := admin.post(t, "/api/v1/attestations/"+id+"/signatories", map[string]any{"title": "Lead assessor", "organization": "Ελεγκτές Α.Ε."}, http.StatusCreated)
	slot := slots["signatories"].([]any)[0].(map[string]any)["id"].(string)
	annC.post(t, "/api/v1/attestations/"+id+"/signatories/"+slot+"/sign",
		map[string]any{"kind": "electronic", "electronic": map[string]any{"name": "Κωνσταντίνος Παπαδόπουλος"}}, http.StatusOK)
	sealed := admin.post(t, "/api/v1/attestations/"+id+"/seal", nil, http.StatusOK)
	status, _, doc := annC.raw(t, http.MethodGet, "/api/v1/attestations/"+id+"/export", nil, "")
	require.Equal(t, http.StatusOK, status)
	docSum := sha256.Sum256(doc)

	step(t, "the sealed attestation's report", func(t *testing.T) {
		status, hdr, pdf := get(annC, "/api/v1/attestations/"+id+"/report.pdf")
		require.Equal(t, http.StatusOK, status, string(pdf))
		require.Contains(t, hdr.Get("Content-Disposition"), `filename="attestation-payments-review-report.pdf"`)
		pages := reporttest.Text(t, pdf)
		require.Contains(t, pages[0], hex.EncodeToString(docSum[:]), "the cover carries the stored document's SHA-256")
		require.Contains(t, pages[0], sealed["sealKeyId"].(string), "and the key that sealed it")
		require.Contains(t, pages[0], "assay-ctl verify "+id+".cdx.json --jwks")
		text := strings.Join(pages, "\n")
		for _, want := range []string{"Lead assessor, Ελεγκτές Α.Ε.", "Κωνσταντίνος", "Electronic, recorded and covered by the",
			sealed["sealKeyId"].(string) + ": valid", "Every signature is valid and made with a trusted key", hex.EncodeToString(fileSum[:])} {
			require.Contains(t, text, want)
		}
		// poppler (pdfinfo, pdftotext) reads the served file as pdfcpu does.
		read := reporttest.ReadWithPoppler(t, pdf)
		require.Equal(t, strconv.Itoa(len(pages)), read.Info["Pages"])
		for _, want := range []string{hex.EncodeToString(docSum[:]), "Υπηρεσία Πληρωμών", "Дмитрий Иванов"} {
			require.Contains(t, read.Pages[0], want)
		}
		require.Contains(t, read.Pages[len(read.Pages)-1], hex.EncodeToString(fileSum[:]))
		ozC.fails(t, http.MethodGet, "/api/v1/attestations/"+id+"/report.pdf", nil, http.StatusNotFound, "not_found")
		beaC.fails(t, http.MethodGet, "/api/v1/attestations/"+id+"/report.pdf", nil, http.StatusForbidden, "permission_denied")
	})

	admin.post(t, "/api/v1/attestations/"+id+"/rescind", map[string]any{"reason": "Scope was wrong"}, http.StatusOK)
	step(t, "a rescinded attestation's report says so", func(t *testing.T) {
		status, _, pdf := get(annC, "/api/v1/attestations/"+id+"/report.pdf")
		require.Equal(t, http.StatusOK, status, string(pdf))
		text := strings.Join(reporttest.Text(t, pdf), "\n")
		require.Contains(t, text, "Scope was wrong")
		require.Contains(t, text, "Not fully verified")
	})
}
