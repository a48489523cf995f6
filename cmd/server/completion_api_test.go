package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestAssessmentCompletionEvidence: the evidence rule of an assessment (completionEvidence,
// docs/assessments.md "Complete"): every_positive unless named on creation, an unknown
// value refused naming the field, changed with PATCH while the assessment takes changes
// (audited, announced, shown on every read); a completion refused with the count of yes
// and partial answers without evidence; and the preview answering what completing would,
// for whoever may see the assessment.
func TestAssessmentCompletionEvidence(t *testing.T) {
	t.Parallel()
	w := newAssessmentWorld(t)
	c := w.assessorC
	asvs := []any{map[string]any{"standardId": w.asvs}} // V1.1, V1.2, V2.1
	blocker := func(field, code string, count float64) map[string]any {
		return map[string]any{"field": field, "code": code, "count": count}
	}
	// preview reads the completion check of assessment a as cl and requires canComplete and
	// the blockers to be as given.
	preview := func(t *testing.T, cl *apiClient, a map[string]any, canComplete bool, blockers ...map[string]any) map[string]any {
		t.Helper()
		check := cl.get(t, "/api/v1/assessments/"+a["id"].(string)+"/completion-check", 200)
		require.Equal(t, canComplete, check["canComplete"], check)
		want := []any{}
		for _, b := range blockers {
			want = append(want, b)
		}
		require.Equal(t, want, check["blockers"], check)
		return check
	}

	t.Run("every_positive unless named; every rule can be named; an unknown one is 400 naming the field", func(t *testing.T) {
		a := newAssessment(t, c, map[string]any{"title": "Default rule", "entityId": w.shop})
		require.Equal(t, "every_positive", a["completionEvidence"])
		for _, rule := range []string{"none", "at_least_one", "every_positive"} {
			b := newAssessment(t, c, map[string]any{"title": "Rule " + rule, "entityId": w.shop, "completionEvidence": rule})
			require.Equal(t, rule, b["completionEvidence"])
			require.Equal(t, rule, c.get(t, "/api/v1/assessments/"+b["id"].(string), 200)["completionEvidence"])
		}
		for _, it := range items(t, c.get(t, "/api/v1/assessments?limit=50", 200)) {
			require.Contains(t, []any{"none", "at_least_one", "every_positive"}, it["completionEvidence"], it["title"])
		}
		for _, bad := range []any{"all", "", "EVERY_POSITIVE", 1} {
			body := c.fails(t, "POST", "/api/v1/assessments", map[string]any{"title": "x", "entityId": w.shop, "completionEvidence": bad},
				400, "validation_failed")
			require.Equal(t, "completionEvidence", detailField(t, body), "%v", bad)
		}
	})

	a := newAssessment(t, c, map[string]any{"title": "Evidence rule", "entityId": w.shop, "standards": asvs,
		"assesseeIds": []string{w.assessee.ID}})
	id := a["id"].(string)
	path := "/api/v1/assessments/" + id
	step(t, "before the start nothing blocks, but the state does not allow completing", func(t *testing.T) {
		check := preview(t, c, a, false)
		require.Equal(t, "every_positive", check["completionEvidence"])
		require.Equal(t, float64(assess.DefaultRationaleMinWords), check["rationaleMinWords"])
	})
	step(t, "the preview and the refusal count the yes and partial answers without evidence; answers of no need none", func(t *testing.T) {
		a = move(t, c, a, "start", 200)
		preview(t, c, a, false, blocker("requirements", "unanswered", 3))
		w.rows.answer(id, "yes", fifteenWords, "V1.1")
		w.rows.answer(id, "partial", fifteenWords, "V1.2")
		w.rows.answer(id, "no", fifteenWords, "V2.1")
		w.rows.linkEvidence(id, "V2.1", w.assessee.ID)
		preview(t, c, a, false, blocker("requirements", "missing_evidence", 2))
		preview(t, w.assesseeC, a, false, blocker("requirements", "missing_evidence", 2)) // assessments.view is enough
		w.outsiderC.fails(t, "GET", path+"/completion-check", nil, 404, "not_found")
		body := c.fails(t, "POST", path+"/complete", map[string]any{"version": a["version"]}, 422, "business_rule_violation")
		require.Equal(t, []string{"missing_evidence=2"}, detailMessages(body))
		require.Equal(t, "requirements", detailField(t, body))
		require.Contains(t, body["message"], "every requirement answered yes or partial needs linked evidence")
	})
	step(t, "PATCH changes the rule while the assessment takes changes; the change is audited and announced", func(t *testing.T) {
		a = c.patch(t, path, map[string]any{"version": a["version"], "completionEvidence": "at_least_one"}, 200)
		require.Equal(t, "at_least_one", a["completionEvidence"])
		preview(t, c, a, true)
		a = c.patch(t, path, map[string]any{"version": a["version"], "completionEvidence": "none"}, 200)
		preview(t, c, a, true)
		body := c.fails(t, "PATCH", path, map[string]any{"version": a["version"], "completionEvidence": "some"}, 400, "validation_failed")
		require.Equal(t, "completionEvidence", detailField(t, body))
		a = c.patch(t, path, map[string]any{"version": a["version"], "completionEvidence": "every_positive", "title": "Evidence rule, strict"}, 200)
		preview(t, c, a, false, blocker("requirements", "missing_evidence", 2))
		require.Equal(t, []string{"at_least_one", "none", "every_positive"}, w.rows.texts(`SELECT details->'changes'->>'completionEvidence'
			FROM audit_log WHERE scope_id = $1 AND action = $2 ORDER BY id`, id, string(assess.ChangeAssessmentUpdated.Action)))
		require.Equal(t, []string{"at_least_one", "none", "every_positive"}, w.rows.texts(`SELECT data->>'completionEvidence'
			FROM events WHERE type = $1 AND data->>'id' = $2 ORDER BY id`, string(assess.EventAssessmentUpdated), id))
	})
	step(t, "with evidence on every yes and partial answer it completes; then the rule is read-only", func(t *testing.T) {
		w.rows.linkEvidence(id, "V1.1", w.assessor.ID)
		preview(t, c, a, false, blocker("requirements", "missing_evidence", 1))
		w.rows.linkEvidence(id, "V1.2", w.assessor.ID)
		preview(t, c, a, true)
		a = move(t, c, a, "complete", 200)
		require.Equal(t, "every_positive", a["completionEvidence"])
		preview(t, c, a, false)
		body := c.fails(t, "PATCH", path, map[string]any{"version": a["version"], "completionEvidence": "none"}, 409, "conflict")
		require.Equal(t, "read_only", detailCode(t, body))
	})
	t.Run("at_least_one: no evidence at all is refused as before; none completes without any", func(t *testing.T) {
		b := move(t, c, newAssessment(t, c, map[string]any{"title": "Lenient", "entityId": w.shop, "standards": asvs,
			"completionEvidence": "at_least_one"}), "start", 200)
		w.rows.answer(b["id"].(string), "yes", fifteenWords, "V1.1", "V1.2", "V2.1")
		preview(t, c, b, false, blocker("evidence", "no_evidence", 1))
		body := c.fails(t, "POST", "/api/v1/assessments/"+b["id"].(string)+"/complete", map[string]any{"version": b["version"]},
			422, "business_rule_violation")
		require.Equal(t, []string{"no_evidence=Link evidence to at least one requirement."}, detailMessages(body))
		b = c.patch(t, "/api/v1/assessments/"+b["id"].(string), map[string]any{"version": b["version"], "completionEvidence": "none"}, 200)
		require.Equal(t, 100.0, move(t, c, b, "complete", 200)["conformanceScore"])
	})
}
