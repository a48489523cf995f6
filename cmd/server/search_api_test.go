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

// TestSearchAPI (issue 25 item 3): GET /api/v1/search over HTTP as a participant, an
// outsider on another team and the administrator — a requirement by a German word of its
// description and by its identifier, an entity by a prefix, an assessment by its exact title;
// the outsider finds none of the other team's assessments, evidence or claims; types and
// limit; bad input is a 400 in the envelope.
func TestSearchAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	w := newClaimWorld(t, ts)
	admin := ts.admin(t)
	ann, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	oz, ozC := ts.newUserNamed(t, "ozzy", assess.RoleAssessor)
	rq := assess.NewID(assess.PrefixRequirement, time.Now())
	ts.sqlExec(t, `INSERT INTO requirements (id, standard_id, identifier, natural_key, name, description) VALUES ($1, $2, 'V1.2.3', 'V1.2.3', 'Kennwörter', $3)`,
		rq, w.standardID, "Die Passwörter werden verschlüsselt gespeichert.")
	aid, ars := w.assessment("Payments review", []string{ann.ID}, nil)
	ozAID, ozARs := w.assessment("Ledger review", []string{oz.ID}, nil)
	ev := w.evidence("Ledger scan of payments", ann.ID, ars[0])
	ozEv := w.evidence("Ledger scan of ozzy", oz.ID, ozARs[0])
	claim := func(assessmentID, name string) string {
		id := assess.NewID(assess.PrefixClaim, time.Now())
		ts.sqlExec(t, `INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES ($1, $2, $3, 'the ledger', 'It balances.')`, id, assessmentID, name)
		return id
	}
	cl, ozCl := claim(aid, "Ledger balanced"), claim(ozAID, "Ledger reconciled")

	search := func(c *apiClient, query string) map[string][]string {
		t.Helper()
		body := c.get(t, "/api/v1/search?"+query, http.StatusOK)
		out := map[string][]string{}
		for _, g := range body["groups"].([]any) {
			group := g.(map[string]any)
			for _, it := range group["items"].([]any) {
				out[group["type"].(string)] = append(out[group["type"].(string)], it.(map[string]any)["id"].(string))
			}
		}
		return out
	}
	q := func(text string) string { return "q=" + url.QueryEscape(text) }

	step(t, "a requirement by a German word and by its identifier, opening its standard", func(t *testing.T) {
		require.Equal(t, map[string][]string{"requirement": {rq}}, search(annC, q("Passwort")))
		body := annC.get(t, "/api/v1/search?"+q("V1.2.3"), http.StatusOK)
		hit := body["groups"].([]any)[0].(map[string]any)["items"].([]any)[0].(map[string]any)
		require.Equal(t, map[string]any{"id": rq, "type": "requirement", "title": "V1.2.3 Kennwörter", "subtitle": "Claims Standard 1.0",
			"link": "/standards/" + w.standardID + "?requirement=" + rq, "rank": hit["rank"]}, hit)
	})
	step(t, "an entity by a prefix, an assessment by its exact title", func(t *testing.T) {
		require.Equal(t, []string{w.entityID}, search(annC, q("Paym"))["entity"])
		require.Equal(t, []string{aid}, search(annC, q("Payments review"))["assessment"])
	})
	step(t, "an outsider finds none of another team's records", func(t *testing.T) {
		require.Equal(t, map[string][]string{"assessment": {ozAID}, "evidence": {ozEv}, "claim": {ozCl}},
			search(ozC, q("ledger")+"&types=assessment,evidence,claim"))
		require.Empty(t, search(ozC, q("Payments review")+"&types=assessment,evidence,claim"))
		require.Equal(t, map[string][]string{"evidence": {ev}, "claim": {cl}}, search(annC, q("ledger")+"&types=assessment,evidence,claim"))
		got := search(admin, q("ledger")+"&types=evidence,claim")
		require.ElementsMatch(t, []string{ev, ozEv}, got["evidence"])
		require.ElementsMatch(t, []string{cl, ozCl}, got["claim"])
	})
	step(t, "types and limit", func(t *testing.T) {
		body := admin.get(t, "/api/v1/search?"+q("ledger")+"&types=claim&limit=1", http.StatusOK)
		groups := body["groups"].([]any)
		require.Len(t, groups, 1)
		require.Equal(t, "claim", groups[0].(map[string]any)["type"])
		require.Len(t, groups[0].(map[string]any)["items"], 1)
		require.Equal(t, true, groups[0].(map[string]any)["more"])
	})
	step(t, "bad input is 400 in the envelope", func(t *testing.T) {
		for _, query := range []string{"", "q=", "q=%20%20", q(strings.Repeat("x", 201)), "q=a%00b", "q=%ff", "q=x&types=users", "q=x&limit=0", "q=x&limit=51"} {
			annC.fails(t, http.MethodGet, "/api/v1/search?"+query, nil, http.StatusBadRequest, "validation_failed")
		}
		ts.browser(t).fails(t, http.MethodGet, "/api/v1/search?q=x", nil, http.StatusUnauthorized, "unauthenticated")
	})
}
