package main

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// assessmentWorld is the catalogue and the people of the assessment tests.
type assessmentWorld struct {
	ts                        *testServer
	rows                      *catalogueRows
	admin                     *apiClient
	asvs, ssdf, draft         string // standards
	asvsL1, ssdfCore          string // levels
	shop, archived, bare, pol string // entities: plain, archived, without policy, with an SSDF policy
	project                   string // holds ASVS
	tag                       string
	assessor, assessee        user
	assessorC, assesseeC      *apiClient
	outsider, viewAll         user // an assessor outside every team; a holder of assessments.view_all
	outsiderC, viewAllC       *apiClient
}

// newAssessmentWorld builds ASVS (V1 {V1.1, V1.2}, V2 {V2.1}; level L1 = V1.1 and the
// group V2), SSDF (S1, S2; level core = S2), a draft standard, entities, a project and
// the users.
func newAssessmentWorld(t *testing.T) *assessmentWorld {
	ts := startServer(t)
	w := &assessmentWorld{ts: ts, rows: newCatalogueRows(t, ts), admin: ts.admin(t)}
	r := w.rows
	w.asvs, w.ssdf = r.standard("ASVS", assess.StandardPublished), r.standard("SSDF", assess.StandardPublished)
	w.draft = r.standard("Draft", assess.StandardDraft)
	v2 := r.requirement(w.asvs, "", "V2", 1)
	v1 := r.requirement(w.asvs, "", "V1", 0)
	v12 := r.requirement(w.asvs, v1, "V1.2", 1)
	v11 := r.requirement(w.asvs, v1, "V1.1", 0)
	r.requirement(w.asvs, v2, "V2.1", 0)
	_ = v12
	w.asvsL1 = r.level(w.asvs, "L1", v11, v2)
	r.requirement(w.ssdf, "", "S1", 0)
	w.ssdfCore = r.level(w.ssdf, "core", r.requirement(w.ssdf, "", "S2", 1))
	w.shop, w.archived = r.entity("Web shop", "product", "active"), r.entity("Old app", "product", "archived")
	w.bare, w.pol = r.entity("Bare", "service", "active"), r.entity("Governed", "service", "active")
	r.policy(w.pol, w.ssdf, w.ssdfCore)
	w.project = w.admin.post(t, "/api/v1/projects", map[string]any{"name": "Audit", "standardIds": []string{w.asvs}}, 201)["id"].(string)
	w.tag = w.admin.post(t, "/api/v1/tags", map[string]any{"name": "PCI"}, 201)["id"].(string)
	w.assessor, w.assessorC = ts.newUser(t, assess.RoleAssessor)
	w.assessee, w.assesseeC = ts.newUser(t, assess.RoleAssessee)
	w.outsider, w.outsiderC = ts.newUser(t, assess.RoleAssessor)
	viewer := ts.newRole(t, string(assess.PermAssessmentsView), string(assess.PermAssessmentsViewAll))
	w.viewAll, w.viewAllC = ts.newUser(t, viewer.Name)
	return w
}

// refIDs returns the ids of a list of objects.
func refIDs(v any) []string {
	out := []string{}
	for _, it := range v.([]any) {
		out = append(out, it.(map[string]any)["id"].(string))
	}
	return out
}

// move posts an action or transition of assessment a with its version and returns the answer.
func move(t *testing.T, c *apiClient, a map[string]any, action string, want int, extra ...any) map[string]any {
	t.Helper()
	body := map[string]any{"version": a["version"]}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	return c.post(t, "/api/v1/assessments/"+a["id"].(string)+"/"+action, body, want)
}

// detailMessages returns "code=message" of every detail of an envelope.
func detailMessages(body map[string]any) []string {
	var out []string
	details, _ := body["details"].([]any)
	for _, d := range details {
		m := d.(map[string]any)
		out = append(out, fmt.Sprintf("%v=%v", m["code"], m["message"]))
	}
	return out
}

func TestAssessmentsAPI(t *testing.T) {
	t.Parallel()
	w := newAssessmentWorld(t)
	due := time.Now().UTC().AddDate(0, 0, 30).Format(time.DateOnly)

	var a map[string]any
	step(t, "an assessor creates an assessment; they join the team as assessor", func(t *testing.T) {
		a = newAssessment(t, w.assessorC, map[string]any{"title": " Shop L1 ", "description": "Yearly", "entityId": w.shop,
			"projectId": w.project, "standards": []any{map[string]any{"standardId": w.asvs, "levelId": w.asvsL1}},
			"assesseeIds": []string{w.assessee.ID}, "dueDate": due, "tagIds": []string{w.tag}})
		require.Regexp(t, `^as_`, a["id"])
		require.Equal(t, "Shop L1", a["title"])
		require.Equal(t, "new", a["state"])
		require.Equal(t, []any{"pending", "in_progress", "cancelled"}, a["allowedStates"])
		require.Equal(t, "Web shop", a["entityName"])
		require.Equal(t, "Audit", a["projectName"])
		require.Equal(t, []string{w.assessor.ID}, refIDs(a["assessors"]))
		require.Equal(t, []string{w.assessee.ID}, refIDs(a["assessees"]))
		require.Equal(t, []string{w.tag}, refIDs(a["tags"]))
		st := a["standards"].([]any)[0].(map[string]any)
		require.Equal(t, w.asvs, st["id"])
		require.Equal(t, w.asvsL1, st["levelId"])
		require.Equal(t, "L1", st["levelName"])
		require.Nil(t, st["conformanceScore"])
		require.Nil(t, a["conformanceScore"])
		require.Equal(t, float64(0), a["progress"].(map[string]any)["total"])
		require.Equal(t, due, a["dueDate"])
		require.Equal(t, false, a["overdue"])
		require.Equal(t, w.assessor.ID, a["createdBy"])
		require.Equal(t, "every_positive", a["completionEvidence"], "the default evidence rule")
	})
	id := a["id"].(string)
	path := "/api/v1/assessments/" + id

	t.Run("a creator holding assessments.view_all does not join the team", func(t *testing.T) {
		b := newAssessment(t, w.admin, map[string]any{"title": "By admin", "entityId": w.shop})
		require.Equal(t, []any{}, b["assessors"])
		require.Equal(t, []any{}, b["standards"])
	})
	t.Run("creation is checked", func(t *testing.T) {
		cases := []struct {
			body         map[string]any
			status       int
			code, detail string
		}{
			{map[string]any{"title": "x", "entityId": "en_00000000000000000000000000"}, 400, "validation_failed", "unknown"},
			{map[string]any{"title": "x", "entityId": w.archived}, 422, "business_rule_violation", "entity_archived"},
			{map[string]any{"title": "x", "entityId": w.shop, "standards": []any{map[string]any{"standardId": w.draft}}}, 422,
				"business_rule_violation", "standard_not_published"},
			{map[string]any{"title": "x", "entityId": w.shop, "standards": []any{map[string]any{"standardId": w.ssdf, "levelId": w.asvsL1}}},
				400, "validation_failed", "unknown_level"},
			{map[string]any{"title": "x", "entityId": w.shop, "assessorIds": []string{"u_nobody"}}, 400, "validation_failed", "unknown"},
			{map[string]any{"title": " ", "entityId": w.shop}, 400, "validation_failed", "required"},
		}
		for _, c := range cases {
			body := w.assessorC.fails(t, "POST", "/api/v1/assessments", c.body, c.status, c.code)
			require.Equal(t, c.detail, detailCode(t, body), "%v", c.body)
		}
	})
	t.Run("the team and the assessee are notified of the creation; an outsider holding assessments.view is not", func(t *testing.T) {
		var teamGot, outsiderGot int
		w.rows.exec("SELECT 1")
		require.NoError(t, w.rows.conn.QueryRow(t.Context(), `SELECT count(*) FILTER (WHERE user_id = $2), count(*) FILTER (WHERE user_id = $3)
			FROM notifications n JOIN events e ON e.id = n.event_id WHERE e.type = $1 AND n.link = $4`,
			string(assess.EventAssessmentCreated), w.assessee.ID, w.outsider.ID, "/assessments/"+id).Scan(&teamGot, &outsiderGot))
		require.Equal(t, 1, teamGot)
		require.Equal(t, 0, outsiderGot)
	})

	step(t, "a refused move lists the allowed targets; a stale version conflicts", func(t *testing.T) {
		body := w.assessorC.fails(t, "POST", path+"/transition", map[string]any{"to": "complete", "version": a["version"]}, 409, "invalid_state_transition")
		require.Equal(t, []string{"allowed=pending", "allowed=in_progress", "allowed=cancelled"}, detailMessages(body))
		w.assessorC.fails(t, "POST", path+"/start", map[string]any{"version": 99}, 409, "version_conflict")
		w.assessorC.fails(t, "POST", path+"/reopen", map[string]any{"version": a["version"]}, 409, "invalid_state_transition")
	})
	step(t, "start loads the leaves of the level (a group in the level brings its leaves), in tree order", func(t *testing.T) {
		a = move(t, w.assessorC, a, "start", 200)
		require.Equal(t, "in_progress", a["state"])
		require.NotEmpty(t, a["startedAt"])
		require.Equal(t, float64(2), a["progress"].(map[string]any)["total"])
		got := w.rows.texts(`SELECT r.identifier FROM assessment_requirements ar JOIN requirements r ON r.id = ar.requirement_id
			WHERE ar.assessment_id = $1 ORDER BY ar.id`, id)
		require.Equal(t, []string{"V1.1", "V2.1"}, got)
		for _, arID := range w.rows.texts(`SELECT id FROM assessment_requirements WHERE assessment_id = $1`, id) {
			require.True(t, assess.ValidID(assess.PrefixAssessmentRequirement, arID), arID)
		}
	})
	t.Run("the standards no longer change once started", func(t *testing.T) {
		body := w.assessorC.fails(t, "PATCH", path, map[string]any{"version": a["version"], "standards": []any{}}, 409, "conflict")
		require.Equal(t, "started", detailCode(t, body))
	})
	step(t, "complete is refused with counts of what is missing", func(t *testing.T) {
		body := w.assessorC.fails(t, "POST", path+"/complete", map[string]any{"version": a["version"]}, 422, "business_rule_violation")
		require.Equal(t, []string{"unanswered=2"}, detailMessages(body))
		w.rows.answer(id, "yes", "too short", "V1.1")
		body = w.assessorC.fails(t, "POST", path+"/complete", map[string]any{"version": a["version"]}, 422, "business_rule_violation")
		require.Equal(t, []string{"unanswered=1", "missing_rationale=1", "missing_evidence=1"}, detailMessages(body))
		w.rows.answer(id, "partial", fifteenWords, "V1.1", "V2.1")
		w.rows.linkEvidence(id, "V2.1", w.assessee.ID)
		w.rows.linkEvidence(id, "V1.1", w.assessee.ID)
	})
	step(t, "complete keeps the score and the end time; the assessment is read-only", func(t *testing.T) {
		a = move(t, w.assessorC, a, "complete", 200)
		require.Equal(t, "complete", a["state"])
		require.Equal(t, 50.0, a["conformanceScore"])
		require.Equal(t, 50.0, a["standards"].([]any)[0].(map[string]any)["conformanceScore"])
		require.NotEmpty(t, a["endedAt"])
		require.Equal(t, []any{"in_progress", "archived"}, a["allowedStates"])
		p := a["progress"].(map[string]any)
		require.Equal(t, []float64{2, 2, 2, 2}, []float64{p["total"].(float64), p["answered"].(float64), p["partial"].(float64), p["withEvidence"].(float64)})
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"PATCH", path, map[string]any{"version": a["version"], "title": "x"}},
			{"PUT", path + "/team", map[string]any{"version": a["version"], "assessorIds": []string{}, "assesseeIds": []string{}}},
			{"DELETE", path + fmt.Sprintf("?version=%v", a["version"]), nil},
		} {
			body := w.assessorC.fails(t, c.method, c.path, c.body, 409, "conflict")
			require.Equal(t, "read_only", detailCode(t, body), c.method)
		}
	})
	step(t, "reopen clears the score; complete again, then archive; archived is final and kept", func(t *testing.T) {
		a = move(t, w.assessorC, a, "reopen", 200)
		require.Equal(t, "in_progress", a["state"])
		require.Nil(t, a["conformanceScore"])
		require.Nil(t, a["standards"].([]any)[0].(map[string]any)["conformanceScore"])
		require.NotContains(t, a, "endedAt")
		require.Equal(t, float64(2), a["progress"].(map[string]any)["total"], "requirements are not loaded twice")
		w.assessorC.fails(t, "POST", path+"/archive", map[string]any{"version": a["version"]}, 409, "invalid_state_transition")
		a = move(t, w.assessorC, a, "transition", 200, "to", "complete", "reason", "done")
		a = move(t, w.assessorC, a, "archive", 200)
		require.Equal(t, []any{}, a["allowedStates"])
		w.assessorC.fails(t, "DELETE", path+fmt.Sprintf("?version=%v", a["version"]), nil, 409, "conflict")
	})
	t.Run("the state changes reach the team and are on the audit trail with the assessment as scope", func(t *testing.T) {
		got := w.rows.texts(`SELECT action FROM audit_log WHERE scope_id = $1 ORDER BY id`, id)
		require.Equal(t, []string{string(assess.ChangeAssessmentCreated.Action), string(assess.ChangeAssessmentStateChanged.Action),
			string(assess.ChangeAssessmentStateChanged.Action), string(assess.ChangeAssessmentStateChanged.Action),
			string(assess.ChangeAssessmentStateChanged.Action), string(assess.ChangeAssessmentStateChanged.Action)}, got)
		n := w.rows.texts(`SELECT n.type FROM notifications n WHERE n.user_id = $1 AND n.link = $2 ORDER BY n.id`, w.assessee.ID, "/assessments/"+id)
		require.Len(t, n, 6)
	})
	t.Run("a standard used by an assessment that is not archived is not retired without force", func(t *testing.T) {
		newAssessment(t, w.assessorC, map[string]any{"title": "Uses SSDF", "entityId": w.shop, "standards": []any{map[string]any{"standardId": w.ssdf}}})
		body := w.admin.fails(t, "POST", "/api/v1/standards/"+w.ssdf+"/retire", map[string]any{}, 422, "business_rule_violation")
		require.Contains(t, body["message"], "1 assessment(s)")
	})
}

// TestAssessmentScoresAndSources: the score formula overall and per standard, and the
// three sources a start loads requirements from.
func TestAssessmentScoresAndSources(t *testing.T) {
	t.Parallel()
	w := newAssessmentWorld(t)
	c := w.assessorC
	t.Run("the score: yes 1, partial ½, no 0, not applicable left out; per standard", func(t *testing.T) {
		a := newAssessment(t, c, map[string]any{"title": "Both", "entityId": w.shop,
			"standards": []any{map[string]any{"standardId": w.ssdf}, map[string]any{"standardId": w.asvs}}})
		a = move(t, c, a, "start", 200)
		id := a["id"].(string)
		require.Equal(t, []string{"S1", "S2", "V1.1", "V1.2", "V2.1"}, w.rows.texts(`SELECT r.identifier FROM assessment_requirements ar
			JOIN requirements r ON r.id = ar.requirement_id WHERE ar.assessment_id = $1 ORDER BY ar.id`, id), "standard order, then the tree")
		w.rows.answer(id, "yes", fifteenWords, "V1.1", "S1")
		w.rows.answer(id, "partial", fifteenWords, "V1.2")
		w.rows.answer(id, "no", fifteenWords, "V2.1")
		w.rows.answer(id, "not_applicable", fifteenWords, "S2")
		for _, yesOrPartial := range []string{"S1", "V1.1", "V1.2"} {
			w.rows.linkEvidence(id, yesOrPartial, w.assessor.ID)
		}
		a = move(t, c, a, "complete", 200)
		require.Equal(t, 62.5, a["conformanceScore"], "(2 + 0.5) / 4")
		scores := map[string]any{}
		for _, s := range a["standards"].([]any) {
			m := s.(map[string]any)
			scores[m["id"].(string)] = m["conformanceScore"]
		}
		require.Equal(t, map[string]any{w.ssdf: 100.0, w.asvs: 50.0}, scores)
	})
	t.Run("two decimals", func(t *testing.T) {
		a := move(t, c, newAssessment(t, c, map[string]any{"title": "Thirds", "entityId": w.shop,
			"standards": []any{map[string]any{"standardId": w.asvs}}}), "start", 200)
		id := a["id"].(string)
		w.rows.answer(id, "yes", fifteenWords, "V1.1")
		w.rows.answer(id, "no", fifteenWords, "V1.2", "V2.1")
		w.rows.linkEvidence(id, "V1.1", w.assessor.ID)
		require.Equal(t, 33.33, move(t, c, a, "complete", 200)["conformanceScore"])
	})
	t.Run("every answer not applicable: no score, and no evidence needed", func(t *testing.T) {
		a := move(t, c, newAssessment(t, c, map[string]any{"title": "N/A", "entityId": w.shop,
			"standards": []any{map[string]any{"standardId": w.ssdf}}}), "start", 200)
		w.rows.answer(a["id"].(string), "not_applicable", fifteenWords, "S1", "S2")
		a = move(t, c, a, "complete", 200)
		require.Nil(t, a["conformanceScore"])
		require.Nil(t, a["standards"].([]any)[0].(map[string]any)["conformanceScore"])
	})
	t.Run("without standards, the entity's compliance policies (with their level) are loaded", func(t *testing.T) {
		a := move(t, c, newAssessment(t, c, map[string]any{"title": "Policy", "entityId": w.pol, "projectId": w.project}), "start", 200)
		require.Equal(t, []string{w.ssdf}, refIDs(a["standards"]))
		require.Equal(t, w.ssdfCore, a["standards"].([]any)[0].(map[string]any)["levelId"])
		require.Equal(t, float64(1), a["progress"].(map[string]any)["total"], "S2, the core level")
	})
	t.Run("without standards or policies, the project's standards are loaded", func(t *testing.T) {
		a := move(t, c, newAssessment(t, c, map[string]any{"title": "Project", "entityId": w.bare, "projectId": w.project}), "start", 200)
		require.Equal(t, []string{w.asvs}, refIDs(a["standards"]))
		require.Equal(t, float64(3), a["progress"].(map[string]any)["total"])
	})
	t.Run("with nothing to load, start is refused and the assessment stays new", func(t *testing.T) {
		a := newAssessment(t, c, map[string]any{"title": "Nothing", "entityId": w.bare})
		body := c.fails(t, "POST", "/api/v1/assessments/"+a["id"].(string)+"/start", map[string]any{"version": a["version"]}, 422, "business_rule_violation")
		require.Equal(t, "no_requirements", detailCode(t, body))
		require.Equal(t, "new", c.get(t, "/api/v1/assessments/"+a["id"].(string), 200)["state"])
	})
	t.Run("pending, on hold and back: the first move to in_progress loads", func(t *testing.T) {
		a := newAssessment(t, c, map[string]any{"title": "Slow", "entityId": w.shop, "standards": []any{map[string]any{"standardId": w.ssdf}}})
		a = move(t, c, a, "transition", 200, "to", "pending")
		a = move(t, c, a, "transition", 200, "to", "on_hold")
		require.Equal(t, float64(0), a["progress"].(map[string]any)["total"])
		a = move(t, c, a, "start", 200)
		require.Equal(t, float64(2), a["progress"].(map[string]any)["total"])
	})
	t.Run("cancel ends it; a cancelled assessment can be deleted", func(t *testing.T) {
		a := move(t, c, newAssessment(t, c, map[string]any{"title": "Gone", "entityId": w.shop}), "cancel", 200)
		require.Equal(t, "cancelled", a["state"])
		require.NotEmpty(t, a["endedAt"])
		c.delete(t, fmt.Sprintf("/api/v1/assessments/%s?version=%v", a["id"], a["version"]), 204)
		c.get(t, "/api/v1/assessments/"+a["id"].(string), 404)
	})
}

// TestAssessmentsListAndBOLA: the list's filters, sorts and pages, and object-level
// access on every operation.
func TestAssessmentsListAndBOLA(t *testing.T) {
	t.Parallel()
	w := newAssessmentWorld(t)
	c := w.assessorC
	day := func(d int) string { return time.Now().UTC().AddDate(0, 0, d).Format(time.DateOnly) }
	late := newAssessment(t, c, map[string]any{"title": "Alpha late", "entityId": w.shop, "dueDate": day(-3),
		"standards": []any{map[string]any{"standardId": w.asvs}}, "tagIds": []string{w.tag}})
	soon := newAssessment(t, c, map[string]any{"title": "beta soon", "entityId": w.bare, "dueDate": day(5), "projectId": w.project,
		"assesseeIds": []string{w.assessee.ID}})
	undated := newAssessment(t, c, map[string]any{"title": "Gamma", "description": "needle here", "entityId": w.shop})
	hidden := newAssessment(t, w.outsiderC, map[string]any{"title": "Outsider's own", "entityId": w.shop,
		"standards": []any{map[string]any{"standardId": w.asvs}}, "tagIds": []string{w.tag}})
	ids := func(list []map[string]any) []string { return idsOf(list) }
	l, s, u, h := late["id"].(string), soon["id"].(string), undated["id"].(string), hidden["id"].(string)

	t.Run("filters and search", func(t *testing.T) {
		cases := map[string][]string{
			"":                                 {u, s, l},
			"state=new":                        {u, s, l},
			"state=in_progress":                {},
			"entity=" + w.shop:                 {u, l},
			"project=" + w.project:             {s},
			"standard=" + w.asvs:               {l},
			"tag=" + w.tag:                     {l},
			"overdue=true":                     {l},
			"dueBefore=" + day(10):             {s, l},
			"q=NEEDLE":                         {u},
			"q=alpha":                          {l},
			"mine=true":                        {u, s, l},
			"sort=title":                       {l, s, u},
			"sort=dueDate":                     {l, s, u},
			"sort=-updatedAt":                  {u, s, l},
			"sort=dueDate&dueBefore=" + day(1): {l},
		}
		for q, want := range cases {
			got := ids(items(t, c.get(t, "/api/v1/assessments?"+q, 200)))
			require.Equal(t, orEmptyIDs(want), orEmptyIDs(got), q)
		}
		require.Equal(t, []string{s}, ids(items(t, w.assesseeC.get(t, "/api/v1/assessments?mine=true", 200))))
		require.True(t, items(t, c.get(t, "/api/v1/assessments?"+"state=new", 200))[2]["overdue"] == true)
		w.admin.fails(t, "GET", "/api/v1/assessments?dueBefore=soon", nil, 400, "validation_failed")
	})
	t.Run("pages follow the cursor in every order", func(t *testing.T) {
		for _, sort := range []string{"-createdAt", "title", "dueDate", "-updatedAt"} {
			all := ids(allPages(t, w.admin, "/api/v1/assessments?limit=2&sort="+sort))
			require.Len(t, all, 4, sort)
			require.Equal(t, ids(items(t, w.admin.get(t, "/api/v1/assessments?limit=50&sort="+sort, 200))), all, sort)
		}
	})

	t.Run("an outsider gets 404 on every operation of an assessment they do not take part in", func(t *testing.T) {
		o := w.outsiderC
		p := "/api/v1/assessments/" + l
		o.fails(t, "GET", p, nil, 404, "not_found")
		o.fails(t, "PATCH", p, map[string]any{"version": 1, "title": "x"}, 404, "not_found")
		o.fails(t, "PUT", p+"/team", map[string]any{"version": 1, "assessorIds": []string{w.outsider.ID}, "assesseeIds": []string{}}, 404, "not_found")
		o.fails(t, "POST", p+"/transition", map[string]any{"version": 1, "to": "pending"}, 404, "not_found")
		for _, action := range []string{"start", "complete", "reopen", "archive", "cancel"} {
			o.fails(t, "POST", p+"/"+action, map[string]any{"version": 1}, 404, "not_found")
		}
		o.fails(t, "DELETE", p+"?version=1", nil, 404, "not_found")
		o.fails(t, "GET", p+"x", nil, 404, "not_found")
		require.Equal(t, "Alpha late", c.get(t, p, 200)["title"], "nothing changed")
	})
	t.Run("no list, filter or search shows an outsider what they do not take part in", func(t *testing.T) {
		for _, q := range []string{"", "entity=" + w.shop, "standard=" + w.asvs, "tag=" + w.tag, "q=alpha", "overdue=true", "sort=title", "mine=true"} {
			got := ids(items(t, w.outsiderC.get(t, "/api/v1/assessments?"+q, 200)))
			require.Subset(t, []string{h}, got, q)
			got = ids(items(t, c.get(t, "/api/v1/assessments?"+q, 200)))
			require.NotContains(t, got, h, q)
		}
	})
	t.Run("assessments.view_all sees every assessment", func(t *testing.T) {
		require.ElementsMatch(t, []string{l, s, u, h}, ids(items(t, w.viewAllC.get(t, "/api/v1/assessments", 200))))
		w.viewAllC.get(t, "/api/v1/assessments/"+l, 200)
	})
	t.Run("the author of evidence linked to an assessment sees it", func(t *testing.T) {
		author, authorC := w.ts.newUser(t, assess.RoleAssessee)
		authorC.get(t, "/api/v1/assessments/"+l, 404)
		started := move(t, c, c.get(t, "/api/v1/assessments/"+l, 200), "start", 200)
		w.rows.linkEvidence(l, "V1.1", author.ID)
		require.Equal(t, "in_progress", authorC.get(t, "/api/v1/assessments/"+l, 200)["state"])
		require.Equal(t, []string{l}, ids(items(t, authorC.get(t, "/api/v1/assessments", 200))))
		require.Empty(t, items(t, authorC.get(t, "/api/v1/assessments?mine=true", 200)), "mine is the team only")
		_ = started
	})
	t.Run("team replacement tells the members added, and only them", func(t *testing.T) {
		newcomer, newcomerC := w.ts.newUser(t, assess.RoleAssessee)
		cur := c.get(t, "/api/v1/assessments/"+u, 200)
		body := c.expect(t, 200, "PUT", "/api/v1/assessments/"+u+"/team", map[string]any{"version": cur["version"],
			"assessorIds": []string{w.assessor.ID}, "assesseeIds": []string{newcomer.ID, w.assessee.ID}})
		require.ElementsMatch(t, []string{newcomer.ID, w.assessee.ID}, refIDs(body["assessees"]))
		got := items(t, newcomerC.get(t, "/api/v1/notifications?limit=50", 200))
		require.True(t, slices.ContainsFunc(got, func(n map[string]any) bool { return n["type"] == string(assess.EventAssessmentAssigned) }), got)
		require.Equal(t, []string{u}, ids(items(t, newcomerC.get(t, "/api/v1/assessments", 200))))
		for _, other := range []*apiClient{w.outsiderC} {
			for _, n := range items(t, other.get(t, "/api/v1/notifications?limit=50", 200)) {
				require.NotEqual(t, "/assessments/"+u, n["link"])
			}
		}
		c.fails(t, "PUT", "/api/v1/assessments/"+u+"/team", map[string]any{"version": body["version"],
			"assessorIds": []string{"u_00000000000000000000000000"}, "assesseeIds": []string{}}, 400, "validation_failed")
	})
	t.Run("an update changes the fields present and carries the version", func(t *testing.T) {
		cur := c.get(t, "/api/v1/assessments/"+s, 200)
		body := c.patch(t, "/api/v1/assessments/"+s, map[string]any{"version": cur["version"], "title": "Beta renamed", "dueDate": "",
			"projectId": "", "tagIds": []string{w.tag}, "standards": []any{map[string]any{"standardId": w.ssdf}}}, 200)
		require.Equal(t, "Beta renamed", body["title"])
		require.NotContains(t, body, "dueDate")
		require.NotContains(t, body, "projectId")
		require.Equal(t, []string{w.ssdf}, refIDs(body["standards"]))
		require.Equal(t, cur["version"].(float64)+1, body["version"])
		c.fails(t, "PATCH", "/api/v1/assessments/"+s, map[string]any{"version": cur["version"], "title": "Stale"}, 409, "version_conflict")
	})
}

// orEmptyIDs makes a nil id list comparable with an empty one.
func orEmptyIDs(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
}
