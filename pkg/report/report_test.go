package report_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/report"
	"github.com/assay-dev/assay/pkg/report/reporttest"
)

// The names the reports must render: Latin with diacritics, Greek and Cyrillic.
const (
	greekEntity   = "Υπηρεσία Πληρωμών"
	greekAssessor = "Κωνσταντίνος Παπαδόπουλος"
	cyrillicName  = "Дмитрий Иванов"
	latinName     = "Zoë Ångström"
	evidenceHash  = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	documentHash  = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"
	sealKey       = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
	appURL        = "https://assay.example.org"
)

// sampleReport is a report of an assessment of n requirements (results in turn yes,
// partial, no, not applicable) with a claim, a piece of evidence with a file, a level.
func sampleReport(n int) assess.Report {
	created := time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC)
	started, ended := created.Add(24*time.Hour), created.Add(30*24*time.Hour)
	r := assess.Report{Kind: assess.ReportOfAssessment, ID: "as_01", AssessmentID: "as_01", Title: "Payments review — " + latinName,
		Description: "Yearly review.", State: "complete", EntityName: greekEntity, EntityType: "service", ProjectName: "Проект Альфа",
		DueDate: "2026-12-31", StartedAt: &started, EndedAt: &ended, CreatedAt: created,
		Assessors: []string{greekAssessor}, Assessees: []string{cyrillicName, latinName},
		PlatformKeyID: sealKey, AppURL: appURL, GeneratedAt: ended, GeneratedBy: greekAssessor}
	st := assess.ReportStandard{ID: "st_1", Name: "ASVS", Version: "5.0"}
	lv := assess.ReportLevel{Identifier: "L1", Title: "Opportunistic"}
	results := []string{"yes", "partial", "no", "not_applicable"}
	for i := range n {
		res := results[i%len(results)]
		q := assess.ReportRequirement{ID: fmt.Sprintf("ar_%04d", i), StandardID: "st_1", Identifier: fmt.Sprintf("V%d.%d", i/10+1, i%10+1),
			Name: fmt.Sprintf("Requirement %d of the standard", i+1), Result: res,
			Rationale: fmt.Sprintf("Checked by %s: the control of requirement %d is in place on every endpoint we reviewed, with logs.", cyrillicName, i+1)}
		if i == 0 {
			q.Claims, q.EvidenceCount = []string{"Data at rest is encrypted"}, 1
		}
		r.Requirements = append(r.Requirements, q)
		r.Figures.Add(res)
		st.Figures.Add(res)
		if i%2 == 0 {
			lv.Figures.Add(res)
		}
	}
	st.Levels = []assess.ReportLevel{lv}
	r.Standards = []assess.ReportStandard{st}
	score := 50.0
	r.Score = &score
	r.Claims = []assess.ReportClaim{{Name: "Data at rest is encrypted", Target: greekEntity, Predicate: "All stored data is encrypted.",
		Requirements: []string{"V1.1"}, Evidence: []string{"Pentest report"}}}
	r.Evidence = []assess.ReportEvidence{{Name: "Pentest report", State: "claimed", Author: cyrillicName,
		Files: []assess.ReportFile{{Filename: "pentest-Ελλάδα.pdf", SHA256: evidenceHash, Size: 48213}}}}
	return r
}

// sampleAttestation is the report of a sealed, then rescinded, attestation of sampleReport(n).
func sampleAttestation(n int) assess.Report {
	r := sampleReport(n)
	r.Kind, r.ID, r.State = assess.ReportOfAttestation, "at_01", "rescinded"
	frozen := r.EndedAt.Add(time.Hour)
	sealed, rescinded := frozen.Add(time.Hour), frozen.Add(48*time.Hour)
	conf := 0.8
	for i := range r.Requirements {
		r.Requirements[i].Score, r.Requirements[i].Confidence = assess.ResultScore(r.Requirements[i].Result), &conf
	}
	r.Attestation = &assess.ReportAttestation{Summary: "Payments at ASVS L1", Statement: "We affirm the claims are accurate.",
		SerialNumber: "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79", Assessors: []string{"Ελεγκτές Α.Ε."}, DocumentSHA256: documentHash,
		FrozenAt: &frozen, SealedAt: &sealed, SealKeyID: sealKey, SealStatus: "valid", RescindedAt: &rescinded,
		RescindReason: "Scope was wrong", Verified: false,
		Signatories: []assess.ReportSignatory{
			{Title: "CISO", Organization: greekEntity, Kind: "digital", SignerName: cyrillicName, SignedAt: &frozen, KeyID: "abc", Verification: "valid"},
			{Title: "Auditor", Organization: "Ελεγκτές Α.Ε.", Kind: "electronic", SignerName: greekAssessor, SignedAt: &sealed, Verification: assess.SignatoryRecorded},
		}}
	return r
}

func render(t testing.TB, r assess.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, report.Write(&buf, r))
	require.True(t, bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")))
	return buf.Bytes()
}

var contentsLine = regexp.MustCompile(`(?m)^(Summary|Affirmation and signatures|Requirements and results|Claims|Evidence)\n(\d+)$`)

// requireContents checks that the contents (page 2) name each section with the page
// on which its heading stands, and returns them.
func requireContents(t *testing.T, pages []string, sections ...string) map[string]int {
	t.Helper()
	require.Contains(t, pages[1], "Contents")
	found := map[string]int{}
	for _, m := range contentsLine.FindAllStringSubmatch(pages[1], -1) {
		p, _ := strconv.Atoi(m[2])
		found[m[1]] = p
	}
	require.Len(t, found, len(sections), "the contents: %q", pages[1])
	for _, s := range sections {
		p := found[s]
		require.Positive(t, p, s)
		require.LessOrEqual(t, p, len(pages))
		require.Contains(t, strings.Split(pages[p-1], "\n"), s, "section %s starts on page %d", s, p)
		for _, earlier := range pages[2 : p-1] {
			require.NotContains(t, strings.Split(earlier, "\n"), s, "section %s appears before page %d", s, p)
		}
	}
	return found
}

// TestAssessmentReport: the report of an assessment reads in another implementation:
// pdfcpu validates it, and the cover, the contents with the right page numbers, the
// figures, every requirement, the names in Greek and Cyrillic and the evidence's
// SHA-256 are in its text.
func TestAssessmentReport(t *testing.T) {
	t.Parallel()
	r := sampleReport(70)
	pages := reporttest.Text(t, render(t, r))
	all := strings.Join(pages, "\n")

	cover := pages[0]
	for _, want := range []string{"Assessment report", r.Title, greekEntity + " (Service)", "Проект Альфа", "ASVS 5.0", "50.00 %",
		greekAssessor, cyrillicName + ", " + latinName, "2026-11-02 09:30 UTC", "2026-12-31", sealKey,
		report.ContentSHA256(r), appURL + "/api/v1/platform-keys/jwks.json", "Page 1 of " + strconv.Itoa(len(pages))} {
		require.Contains(t, cover, want)
	}
	require.Contains(t, cover, "70: 18 yes, 18 partial, 17 no, 17 not applicable, 0 unanswered")
	requireContents(t, pages, "Summary", "Requirements and results", "Claims", "Evidence")
	for i, q := range r.Requirements {
		require.Contains(t, all, q.Identifier+"\n"+q.Name, "requirement %d", i)
	}
	require.Contains(t, all, "Checked by "+cyrillicName)
	require.Contains(t, all, "Level L1: Opportunistic")
	require.Contains(t, all, evidenceHash)
	require.Contains(t, all, "pentest-Ελλάδα.pdf (47.1 KiB)")
	require.Contains(t, all, "Claims: Data at rest is encrypted")
	for i, p := range pages {
		require.Contains(t, p, fmt.Sprintf("Page %d of %d", i+1, len(pages)))
	}
}

// TestAttestationReport: the cover carries the stored document's SHA-256, the key that
// sealed it and how to verify it; the affirmation shows each signatory's kind, time and
// verdict, the seal and the rescission.
func TestAttestationReport(t *testing.T) {
	t.Parallel()
	r := sampleAttestation(12)
	pages := reporttest.Text(t, render(t, r))
	all := strings.Join(pages, "\n")
	require.Contains(t, pages[0], "Attestation report")
	require.Contains(t, pages[0], documentHash)
	require.Contains(t, pages[0], appURL+"/api/v1/attestations/at_01/export")
	require.Contains(t, pages[0], "assay-ctl verify at_01.cdx.json --jwks "+appURL+"/api/v1/platform-keys/jwks.json")
	require.Contains(t, pages[0], "Rescinded")
	requireContents(t, pages, "Summary", "Affirmation and signatures", "Requirements and results", "Claims", "Evidence")
	for _, want := range []string{"CISO, " + greekEntity, "Digital", cyrillicName + ",\n2026-12-02 10:30 UTC", "Valid",
		"Auditor, Ελεγκτές Α.Ε.", "Electronic, recorded and covered by the",
		"Sealed 2026-12-02 11:30 UTC by platform key\n" + sealKey + ": valid", "Rescinded 2026-12-04 10:30 UTC: Scope was wrong",
		"Score 0.50 · confidence 0.80", "We affirm the claims are accurate."} {
		require.Contains(t, all, want)
	}
}

// TestReportWithoutClaimsOrEvidenceAccess: what the reader may not see is left out and
// the report says so.
func TestReportWithoutClaimsOrEvidenceAccess(t *testing.T) {
	t.Parallel()
	r := sampleReport(4)
	r.Claims, r.Evidence, r.OmittedClaims, r.OmittedEvidence = nil, nil, true, true
	all := strings.Join(reporttest.Text(t, render(t, r)), "\n")
	require.Contains(t, all, "reading them needs the permission claims.view")
	require.Contains(t, all, "reading it needs the permission evidence.view")
	require.NotContains(t, all, evidenceHash)
}

// TestReportPageCounts: the pages grow with the requirements (a 70-requirement assessment
// takes a few pages, a 1,000-requirement one many more), and the contents stay right.
func TestReportPageCounts(t *testing.T) {
	t.Parallel()
	small, large := reporttest.Text(t, render(t, sampleReport(70))), reporttest.Text(t, render(t, sampleReport(1000)))
	require.GreaterOrEqual(t, len(small), 6)
	require.LessOrEqual(t, len(small), 12)
	require.GreaterOrEqual(t, len(large), 45)
	require.LessOrEqual(t, len(large), 90)
	found := requireContents(t, large, "Summary", "Requirements and results", "Claims", "Evidence")
	require.GreaterOrEqual(t, found["Evidence"], len(large)-1, "claims and evidence follow the last requirement")
	require.Greater(t, found["Claims"], found["Requirements and results"]+40)
	require.Contains(t, strings.Join(large, "\n"), "V100.10\nRequirement 1000 of the standard")
}

// TestContentSHA256: the same content gives the same value whoever asks and whenever;
// any change of a result changes it.
func TestContentSHA256(t *testing.T) {
	t.Parallel()
	a, b := sampleReport(5), sampleReport(5)
	b.GeneratedAt, b.GeneratedBy = b.GeneratedAt.Add(time.Hour), "someone else"
	require.Equal(t, report.ContentSHA256(a), report.ContentSHA256(b))
	b.Requirements[2].Result = "yes"
	require.NotEqual(t, report.ContentSHA256(a), report.ContentSHA256(b))
	require.Len(t, report.ContentSHA256(a), 64)
}

// TestReportOfTextBeyondTheBasicPlane: an emoji or another character beyond U+FFFF in any
// text (the PDF library's font tables stop there, and it panicked) is drawn as U+FFFD; the
// rest of the text is kept, the content hash is of the text as given, and the caller's
// report is not changed.
func TestReportOfTextBeyondTheBasicPlane(t *testing.T) {
	t.Parallel()
	r := sampleReport(4)
	r.Title = "Launch review 🚀 " + latinName
	r.ProjectName = "𝔐𝔞𝔱𝔥 project"
	r.Assessees = []string{"Ann 😀 Lee"}
	r.Requirements[1].Rationale = "Checked 👍 on every endpoint with the team, logs kept and reviewed by two people."
	plain := sampleReport(4)
	pages := reporttest.Text(t, render(t, r))
	all := strings.Join(pages, "\n")
	require.Contains(t, all, "Launch review \uFFFD "+latinName)
	require.Contains(t, all, "Ann \uFFFD Lee")
	require.Contains(t, all, "Checked \uFFFD on every endpoint")
	require.NotEqual(t, report.ContentSHA256(plain), report.ContentSHA256(r))
	require.Contains(t, all, report.ContentSHA256(r), "the hash printed is of the text as given")
	require.Equal(t, "Ann 😀 Lee", r.Assessees[0], "the caller's report is unchanged")
}
