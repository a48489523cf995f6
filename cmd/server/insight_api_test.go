package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestInsightAPI (issue 25 item 2): assessments completed through the API are points of their
// entity's score history, oldest first with the scores completing computed, and cells of the
// portfolio, the latest per entity and standard; over HTTP an outsider (an assessor on another
// team) sees none of the team's assessments in either, the project restricts the portfolio, and
// bad input is a 4xx in the error envelope.
func TestInsightAPI(t *testing.T) {
	t.Parallel()
	w := newAssessmentWorld(t)
	c := w.assessorC
	// complete creates an assessment of the shop against ASVS as cl, answers its three
	// requirements with results and completes it through the API.
	complete := func(cl *apiClient, title, project string, results ...string) string {
		t.Helper()
		body := map[string]any{"title": title, "entityId": w.shop, "standards": []any{map[string]any{"standardId": w.asvs}},
			"completionEvidence": "none"}
		if project != "" {
			body["projectId"] = project
		}
		a := move(t, cl, newAssessment(t, cl, body), "start", 200)
		for i, id := range []string{"V1.1", "V1.2", "V2.1"} {
			w.rows.answer(a["id"].(string), results[i], fifteenWords, id)
		}
		a = move(t, cl, a, "complete", 200)
		require.Equal(t, "complete", a["state"])
		return a["id"].(string)
	}
	first := complete(c, "First review", w.project, "yes", "partial", "no") // 50
	second := complete(c, "Second review", "", "yes", "yes", "yes")         // 100
	theirs := complete(w.outsiderC, "Their review", "", "no", "no", "yes")  // 33.33
	history := "/api/v1/entities/" + w.shop + "/score-history"

	points := func(cl *apiClient, query string) [][]any {
		t.Helper()
		body := cl.get(t, history+query, http.StatusOK)
		require.Equal(t, w.shop, body["entityId"])
		require.Equal(t, false, body["truncated"])
		out := [][]any{}
		for _, p := range body["points"].([]any) {
			pt := p.(map[string]any)
			require.Equal(t, w.asvs, pt["standardId"])
			require.Equal(t, "ASVS", pt["standardName"])
			_, err := time.Parse(time.RFC3339Nano, pt["completedAt"].(string))
			require.NoError(t, err)
			out = append(out, []any{pt["assessmentId"], pt["assessmentTitle"], pt["score"]})
		}
		return out
	}
	step(t, "each completed assessment is a point, oldest first, with its score", func(t *testing.T) {
		require.Equal(t, [][]any{{first, "First review", 50.0}, {second, "Second review", 100.0}}, points(c, ""))
		require.Equal(t, [][]any{{first, "First review", 50.0}, {second, "Second review", 100.0}}, points(c, "?standard="+w.asvs))
		require.Equal(t, [][]any{{first, "First review", 50.0}, {second, "Second review", 100.0}, {theirs, "Their review", 33.33}},
			points(w.viewAllC, ""))
	})
	step(t, "an outsider sees none of the team's assessments in the history", func(t *testing.T) {
		require.Equal(t, [][]any{{theirs, "Their review", 33.33}}, points(w.outsiderC, ""))
		require.Empty(t, points(w.assesseeC, ""), "the assessee is on no team of these")
	})

	cells := func(cl *apiClient, query string) map[string][]any {
		t.Helper()
		body := cl.get(t, "/api/v1/portfolio"+query, http.StatusOK)
		out := map[string][]any{}
		for _, r := range body["items"].([]any) {
			row := r.(map[string]any)
			for _, x := range row["cells"].([]any) {
				cell := x.(map[string]any)
				out[row["entityName"].(string)+"/"+cell["standardId"].(string)] = []any{cell["assessmentId"], cell["score"], cell["completed"]}
			}
		}
		require.Equal(t, float64(len(body["items"].([]any))), body["total"])
		return out
	}
	step(t, "the portfolio shows the latest visible assessment per entity and standard", func(t *testing.T) {
		body := c.get(t, "/api/v1/portfolio", http.StatusOK)
		require.Equal(t, []any{map[string]any{"id": w.asvs, "name": "ASVS", "version": "1.0"}}, body["standards"])
		require.Equal(t, map[string][]any{"Web shop/" + w.asvs: {second, 100.0, 2.0}}, cells(c, ""))
		require.Equal(t, map[string][]any{"Web shop/" + w.asvs: {theirs, 33.33, 3.0}}, cells(w.viewAllC, ""))
		require.Equal(t, map[string][]any{"Web shop/" + w.asvs: {theirs, 33.33, 1.0}}, cells(w.outsiderC, ""), "none of the team's")
		require.Empty(t, cells(w.assesseeC, ""))
	})
	step(t, "a project's portfolio", func(t *testing.T) {
		require.Equal(t, map[string][]any{"Web shop/" + w.asvs: {first, 50.0, 1.0}}, cells(c, "?project="+w.project))
		require.Empty(t, cells(w.outsiderC, "?project="+w.project))
		require.Equal(t, map[string][]any{"Web shop/" + w.asvs: {theirs, 33.33, 3.0}}, cells(w.viewAllC, "?q=SHOP&entityType=product&standard="+w.asvs))
	})
	step(t, "bad input is a 4xx in the envelope", func(t *testing.T) {
		unknown := func(prefix string) string { return assess.NewID(prefix, time.Now()) }
		for _, query := range []string{"standard=nope", "standard=" + w.shop, "standard=%00", "standard=" + url.QueryEscape(strings.Repeat("s", 65))} {
			c.fails(t, http.MethodGet, history+"?"+query, nil, http.StatusBadRequest, "validation_failed")
		}
		body := c.fails(t, http.MethodGet, history+"?standard="+unknown(assess.PrefixStandard), nil, http.StatusNotFound, "not_found")
		require.Equal(t, "standard", detailField(t, body))
		c.fails(t, http.MethodGet, "/api/v1/entities/"+unknown(assess.PrefixEntity)+"/score-history", nil, http.StatusNotFound, "not_found")
		c.fails(t, http.MethodGet, "/api/v1/entities/"+first+"/score-history", nil, http.StatusNotFound, "not_found")
		for _, query := range []string{"project=" + w.shop, "project=pr_%00", "standard=x", "entityType=planet", "limit=0", "limit=201",
			"cursor=garbage", "q=%ff", "q=a%01b", "q=" + strings.Repeat("q", 101)} {
			c.fails(t, http.MethodGet, "/api/v1/portfolio?"+query, nil, http.StatusBadRequest, "validation_failed")
		}
		body = c.fails(t, http.MethodGet, "/api/v1/portfolio?project="+unknown(assess.PrefixProject), nil, http.StatusNotFound, "not_found")
		require.Equal(t, "project", detailField(t, body))
		_, noView := w.ts.newUser(t, assess.RoleStandardsManager)
		noView.fails(t, http.MethodGet, "/api/v1/portfolio", nil, http.StatusForbidden, "permission_denied")
		noView.fails(t, http.MethodGet, history, nil, http.StatusForbidden, "permission_denied")
		w.ts.browser(t).fails(t, http.MethodGet, "/api/v1/portfolio", nil, http.StatusUnauthorized, "unauthenticated")
	})
}
