package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// BenchmarkAssessmentReport1000 downloads the PDF report of a complete 1,000-requirement
// assessment (a generated standard of 1,000 requirements in 100 groups with three levels,
// every result and a rationale of some thirty words filled, claims and evidence with files)
// through the real server, and reports how far the process's resident memory rose above
// what it was before the first download (peak VmRSS sampled every 5 ms over all the
// downloads; client and server share the process), the time per report, its pages and
// size. The bound of issue 24 is 32 MiB. Run it with `make bench-reports`
// (docs/performance.md).
func BenchmarkAssessmentReport1000(b *testing.B) {
	ts := startServer(b, "LOG_LEVEL=warn")
	admin := ts.admin(b)
	aid := seedLargeAssessment(b, ts, admin, 1000)
	path := "/api/v1/assessments/" + aid + "/report.pdf"

	runtime.GC()
	before := rssBytes(b)
	stop := sampleRSS(b, before)
	var pdf pdfSummary
	start := time.Now()
	for b.Loop() {
		pdf = admin.downloadPDF(b, path)
	}
	elapsed := time.Since(start)
	grew := stop()
	require.True(b, bytes.HasPrefix(pdf.head, []byte("%PDF-")))
	b.ReportMetric(float64(grew)/(1<<20), "peak-RSS-growth-MiB")
	b.ReportMetric(float64(pdf.size)/(1<<20), "pdf-MiB")
	b.ReportMetric(float64(pdf.pages), "pages")
	b.ReportMetric(elapsed.Seconds()/float64(b.N), "s/report")
	require.Less(b, grew, uint64(32<<20), "the server's memory must stay within 32 MiB of growth while it renders the report")
}

// seedLargeAssessment creates a published standard of n requirements (in groups of ten,
// three levels), an entity, and an assessment of it through the API; starts it, fills
// every result and rationale, links evidence with a file and a claim to some, completes
// it, and returns its id.
func seedLargeAssessment(b testing.TB, ts *testServer, admin *apiClient, n int) string {
	b.Helper()
	std := ts.newStandardSQL(b, "Generated Standard", "published")
	now := time.Now()
	var ids, parents, identifiers, keys, names []string
	var groupIDs []string
	for g := range n / 10 {
		gid := assess.NewID(assess.PrefixRequirement, now)
		groupIDs = append(groupIDs, gid)
		ident := fmt.Sprintf("G%d", g+1)
		ids, parents, identifiers, keys, names = append(ids, gid), append(parents, ""), append(identifiers, ident),
			append(keys, assess.NaturalKey(ident)), append(names, "Group "+ident)
		for i := range 10 {
			ident := fmt.Sprintf("G%d.%d", g+1, i+1)
			ids, parents, identifiers, keys, names = append(ids, assess.NewID(assess.PrefixRequirement, now)), append(parents, gid),
				append(identifiers, ident), append(keys, assess.NaturalKey(ident)),
				append(names, "Requirement "+ident+": the control is documented, implemented and monitored")
		}
	}
	ts.sqlExec(b, `INSERT INTO requirements (id, standard_id, parent_id, identifier, natural_key, name, position)
		SELECT x.id, $1, nullif(x.parent, ''), x.ident, x.key, x.name, x.n FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
		WITH ORDINALITY x(id, parent, ident, key, name, n)`, std, ids, parents, identifiers, keys, names)
	for l, share := range []int{3, 6, 10} { // L1 holds the first 30 % of the groups, L2 60 %, L3 all
		lid := assess.NewID(assess.PrefixLevel, now)
		ts.sqlExec(b, `INSERT INTO levels (id, standard_id, identifier, title, position) VALUES ($1, $2, $3, $4, $5)`,
			lid, std, fmt.Sprintf("L%d", l+1), fmt.Sprintf("Level %d", l+1), l)
		ts.sqlExec(b, `INSERT INTO level_requirements (level_id, requirement_id) SELECT $1, unnest($2::text[])`,
			lid, groupIDs[:len(groupIDs)*share/10])
	}
	entity := assess.NewID(assess.PrefixEntity, now)
	ts.sqlExec(b, `INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Υπηρεσία Πληρωμών', 'service')`, entity)
	a := newAssessment(b, admin, map[string]any{"title": "Generated review", "entityId": entity,
		"standards": []map[string]any{{"standardId": std}}, "completionEvidence": "none"})
	aid := a["id"].(string)
	started := admin.post(b, "/api/v1/assessments/"+aid+"/start", map[string]any{"version": a["version"]}, http.StatusOK)
	rationale := strings.Repeat("Reviewed the configuration, the logs and the runbook with the service team; ", 3) + "Дмитрий Иванов agreed."
	ts.sqlExec(b, `UPDATE assessment_requirements SET rationale = $2, rationale_words = $3,
		result = (ARRAY['yes', 'partial', 'no', 'not_applicable'])[1 + (abs(hashtext(id)) % 4)] WHERE assessment_id = $1`,
		aid, rationale, assess.RationaleWords(rationale))
	author := admin.get(b, "/api/v1/auth/me", http.StatusOK)["user"].(map[string]any)["id"].(string)
	for e := range 20 {
		ev := assess.NewID(assess.PrefixEvidence, now)
		ts.sqlExec(b, `INSERT INTO evidence (id, name, author_id, description) VALUES ($1, $2, $3, 'Scan results and the reviewer''s notes.')`,
			ev, fmt.Sprintf("Evidence %d", e+1), author)
		ts.sqlExec(b, `INSERT INTO evidence_attachments (id, evidence_id, filename, content_type, size_bytes, sha256, provider, storage_key)
			VALUES ($1, $2, $3::text, 'application/pdf', 48213, encode(sha256(convert_to($3::text, 'UTF8')), 'hex'), 'database', $1)`,
			assess.NewID(assess.PrefixAttachment, now), ev, fmt.Sprintf("scan-%02d.pdf", e+1))
		ts.sqlExec(b, `INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
			SELECT id, $2, $1 FROM assessment_requirements WHERE assessment_id = $1 ORDER BY id OFFSET $3 LIMIT 5`, aid, ev, e*50)
	}
	admin.post(b, "/api/v1/assessments/"+aid+"/complete", map[string]any{"version": started["version"]}, http.StatusOK)
	return aid
}

// pdfSummary is what the benchmark keeps of a downloaded report: its first bytes, its size
// and its page count, counted while it streams by (the client shares the process whose
// memory is measured, so it holds none of the document).
type pdfSummary struct {
	head  []byte
	size  int64
	pages int
	tail  []byte // the end of the previous chunk, for a page object split between two
}

func (p *pdfSummary) Write(b []byte) (int, error) {
	if len(p.head) < 8 {
		p.head = append(p.head, b[:min(len(b), 8-len(p.head))]...)
	}
	joined := append(p.tail, b...)
	p.pages += bytes.Count(joined, []byte("/Type /Page\n")) + bytes.Count(joined, []byte("/Type /Page "))
	p.pages -= bytes.Count(p.tail, []byte("/Type /Page\n")) + bytes.Count(p.tail, []byte("/Type /Page "))
	p.tail = append(p.tail[:0], joined[max(0, len(joined)-16):]...)
	p.size += int64(len(b))
	return len(b), nil
}

// downloadPDF GETs a report as c and summarises it without keeping it.
func (c *apiClient) downloadPDF(t testing.TB, path string) pdfSummary {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.ts.url+path, nil)
	require.NoError(t, err)
	for name, values := range c.header {
		req.Header[name] = values
	}
	res, err := c.http.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var s pdfSummary
	_, err = io.Copy(&s, res.Body)
	require.NoError(t, err)
	return s
}
