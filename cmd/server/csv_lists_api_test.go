package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// readCSV downloads a CSV export and parses it (without its byte-order mark).
func readCSV(t *testing.T, c *apiClient, path string) [][]string {
	t.Helper()
	status, ctype, body := c.raw(t, http.MethodGet, path, nil, "")
	require.Equal(t, http.StatusOK, status, string(body))
	require.Equal(t, "text/csv; charset=utf-8", ctype)
	require.True(t, bytes.HasPrefix(body, []byte("\uFEFF")), "UTF-8 byte-order mark")
	rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(body, []byte("\uFEFF")))).ReadAll()
	require.NoError(t, err)
	return rows
}

// TestListsAsCSV (issue 25 item 4): every list downloads as CSV with its filters, every row
// across pages, formula cells guarded, only what the caller may see; the audit log too, for
// those who may read it.
func TestListsAsCSV(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	w := newClaimWorld(t, ts)
	ann, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	mine, ars := w.assessment("=HYPERLINK(\"http://evil.example\")", []string{ann.ID}, nil)
	w.assessment("Other team's review", nil, nil)
	// 450 pieces of evidence on ann's assessment: three pages of 200.
	ids := assess.NewIDs(assess.PrefixEvidence, time.Now(), 450)
	ts.sqlExec(t, `INSERT INTO evidence (id, name, author_id) SELECT id, 'Report ' || lpad((n - 1)::text, 3, '0'), $2
		FROM unnest($1::text[]) WITH ORDINALITY AS u(id, n)`, ids, ann.ID)
	ts.sqlExec(t, `INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		SELECT ($2::text[])[1 + (n % 3)], id, $3 FROM unnest($1::text[]) WITH ORDINALITY AS u(id, n)`, ids, ars, mine)

	step(t, "the assessments list, with its filter and guarded cells", func(t *testing.T) {
		rows := readCSV(t, admin, "/api/v1/assessments.csv")
		require.Equal(t, "id", rows[0][0])
		require.Len(t, rows, 3, "header and two assessments")
		var titles []string
		for _, r := range rows[1:] {
			titles = append(titles, r[1])
		}
		require.Contains(t, titles, `'=HYPERLINK("http://evil.example")`, "a formula is written as text")
		filtered := readCSV(t, admin, "/api/v1/assessments.csv?q=Other")
		require.Len(t, filtered, 2)
		require.Equal(t, "Other team's review", filtered[1][1])
	})

	step(t, "a participant's export holds only what they see", func(t *testing.T) {
		rows := readCSV(t, annC, "/api/v1/assessments.csv")
		require.Len(t, rows, 2)
		require.Equal(t, mine, rows[1][0])
	})

	step(t, "every row across pages", func(t *testing.T) {
		rows := readCSV(t, annC, "/api/v1/evidence.csv")
		require.Len(t, rows, 451)
		seen := map[string]bool{}
		for _, r := range rows[1:] {
			require.False(t, seen[r[0]], "no row twice")
			seen[r[0]] = true
		}
		require.Len(t, readCSV(t, annC, "/api/v1/evidence.csv?q=Report%2004"), 1+10, "Report 040 to 049")
	})

	step(t, "the other lists", func(t *testing.T) {
		for path, want := range map[string]string{"/api/v1/standards.csv": "Claims Standard", "/api/v1/entities.csv": "Payments API"} {
			rows := readCSV(t, admin, path)
			require.Contains(t, fmt.Sprint(rows), want, path)
		}
		require.Equal(t, "id", readCSV(t, admin, "/api/v1/projects.csv")[0][0])
		require.Equal(t, "id", readCSV(t, admin, "/api/v1/attestations.csv")[0][0])
	})

	step(t, "the audit log, for those who may read it", func(t *testing.T) {
		rows := readCSV(t, admin, "/api/v1/audit.csv")
		require.Greater(t, len(rows), 2)
		require.Equal(t, []string{"id", "occurred_at", "actor", "actor_name", "action", "target_type", "target_id", "target_name", "details", "request_id", "ip"}, rows[0])
		_, err := time.Parse(time.RFC3339, rows[1][1])
		require.NoError(t, err)
		annC.fails(t, http.MethodGet, "/api/v1/audit.csv", nil, http.StatusForbidden, "permission_denied")
	})

	step(t, "bad filters are a 4xx before anything is streamed", func(t *testing.T) {
		admin.fails(t, http.MethodGet, "/api/v1/assessments.csv?state=nonsense", nil, http.StatusBadRequest, "validation_failed")
		status, _, body := admin.raw(t, http.MethodGet, "/api/v1/evidence.csv?q="+strings.Repeat("x", 5000), nil, "")
		require.Equal(t, http.StatusBadRequest, status, string(body))
	})
}
