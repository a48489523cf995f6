package main

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// Assessments are made with SQL here: creating and starting them is another operation's
// work. assessmentRows extends catalogueRows with the rows of a started assessment.
type assessmentRows struct{ *catalogueRows }

// requirement inserts a requirement of standard under parent ("" top level).
func (c assessmentRows) requirement(standard, identifier, parent string) string {
	c.t.Helper()
	id := assess.NewID(assess.PrefixRequirement, time.Now())
	var p *string
	if parent != "" {
		p = &parent
	}
	c.exec(`INSERT INTO requirements (id, standard_id, parent_id, identifier, natural_key, name, description)
		VALUES ($1, $2, $3, $4, $5, $6, 'Described')`, id, standard, p, identifier, assess.NaturalKey(identifier), "Requirement "+identifier)
	return id
}

// assessment inserts an assessment of entity in project ("" none) in state, due on due
// ("" none), with a score (nil none), against standard, and its team.
func (c assessmentRows) assessment(entity, project, standard string, state assess.AssessmentState, due string, score *float64, team ...string) string {
	c.t.Helper()
	id := assess.NewID(assess.PrefixAssessment, time.Now())
	c.exec(`INSERT INTO assessments (id, title, entity_id, project_id, state, due_date, conformance_score)
		VALUES ($1, 'Review '||$1, $2, nullif($3, ''), $4, nullif($5, '')::date, $6)`, id, entity, project, state, due, score)
	c.exec(`INSERT INTO assessment_standards (assessment_id, standard_id) VALUES ($1, $2)`, id, standard)
	for i, u := range team {
		role := "assessor"
		if i > 0 {
			role = "assessee"
		}
		c.exec(`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, $3)`, id, u, role)
	}
	return id
}

// load loads requirements into assessment and returns their ar_ ids in the same order.
func (c assessmentRows) load(assessment, standard string, requirements ...string) []string {
	c.t.Helper()
	out := make([]string, len(requirements))
	for i, r := range requirements {
		out[i] = assess.NewID(assess.PrefixAssessmentRequirement, time.Now())
		c.exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ($1, $2, $3, $4)`,
			out[i], assessment, r, standard)
	}
	return out
}

// answer records a result directly.
func (c assessmentRows) answer(ar string, result assess.Result) {
	c.t.Helper()
	c.exec(`UPDATE assessment_requirements SET result = $2, rationale = 'Set by the fixture' WHERE id = $1`, ar, result)
}

// link links a new piece of evidence authored by author to ar.
func (c assessmentRows) link(ar, author string) {
	c.t.Helper()
	ev := assess.NewID(assess.PrefixEvidence, time.Now())
	c.exec(`INSERT INTO evidence (id, name, author_id) VALUES ($1, 'Scan report', $2)`, ev, author)
	c.exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		SELECT id, $2, assessment_id FROM assessment_requirements WHERE id = $1`, ar, ev)
}

const rationale15 = "The control is implemented in the login service and verified by the weekly automated scan report."

func TestAssessmentResultsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	rows := assessmentRows{newCatalogueRows(t, ts)}
	asvs := rows.standard("ASVS", assess.StandardPublished)
	v1 := rows.requirement(asvs, "V1", "")
	v11 := rows.requirement(asvs, "V1.1", v1)
	leaves := []string{rows.requirement(asvs, "V1.1.10", v11), rows.requirement(asvs, "V1.1.2", v11), rows.requirement(asvs, "V2", "")}
	shop := rows.entity("Shop", "product", "active")
	assessor, assessorC := ts.newUser(t, assess.RoleAssessor)
	assessee, assesseeC := ts.newUser(t, assess.RoleAssessee)
	// The outsider may do everything with assessments except see all of them.
	mighty := ts.newRole(t, string(assess.PermAssessmentsView), string(assess.PermAssessmentsEdit), string(assess.PermAssessmentsManage),
		string(assess.PermProjectsView))
	_, outsiderC := ts.newUser(t, mighty.Name)
	a := rows.assessment(shop, "", asvs, assess.AssessmentInProgress, "", nil, assessor.ID, assessee.ID)
	ars := rows.load(a, asvs, leaves...)
	reqs := "/api/v1/assessments/" + a + "/requirements"

	t.Run("the workspace lists the requirements in tree order with their ancestors", func(t *testing.T) {
		list := items(t, assesseeC.get(t, reqs, 200))
		require.Len(t, list, 3)
		var got []string
		for _, r := range list {
			got = append(got, r["identifier"].(string))
		}
		require.Equal(t, []string{"V1.1.2", "V1.1.10", "V2"}, got)
		anc := list[1]["ancestors"].([]any)
		require.Equal(t, "V1", anc[0].(map[string]any)["identifier"])
		require.Equal(t, "V1.1", anc[1].(map[string]any)["identifier"])
		require.Equal(t, []any{}, list[2]["ancestors"])
		require.Nil(t, list[0]["result"])
		require.Equal(t, float64(0), list[0]["evidenceCount"])
		one := assessorC.get(t, reqs+"/"+ars[0], 200)
		require.Equal(t, list[1], one)
	})
	t.Run("a result with a rationale is recorded; a short rationale is refused", func(t *testing.T) {
		body := assessorC.fails(t, http.MethodPut, reqs+"/"+ars[1], map[string]any{"version": 1, "result": "yes", "rationale": "Done."},
			400, "validation_failed")
		require.Equal(t, []string{"rationale:too_short"}, envelopeFieldCodes(body))
		r := assessorC.expect(t, 200, http.MethodPut, reqs+"/"+ars[1], map[string]any{"version": 1, "result": "yes",
			"rationale": rationale15, "assigneeId": assessee.ID})
		require.Equal(t, "yes", r["result"])
		require.Equal(t, assessee.ID, r["assigneeId"])
		require.Equal(t, assessor.ID, r["answeredBy"])
		require.Equal(t, float64(2), r["version"])
		assessorC.fails(t, http.MethodPut, reqs+"/"+ars[1], map[string]any{"version": 1, "result": "no", "rationale": rationale15}, 409, "version_conflict")
		body = assessorC.fails(t, http.MethodPut, reqs+"/"+ars[1], map[string]any{"version": 2, "result": nil, "rationale": "",
			"assigneeId": admin.user.ID}, 422, "business_rule_violation")
		require.Equal(t, "not_a_member", detailCode(t, body))
		assessorC.fails(t, http.MethodPut, reqs+"/"+ars[1], map[string]any{"version": 2, "result": "maybe", "rationale": rationale15}, 400, "validation_failed")
		mine := items(t, assesseeC.get(t, reqs+"?mine=true", 200))
		require.Equal(t, []string{ars[1]}, idsOf(mine))
		require.Equal(t, []string{ars[0], ars[2]}, idsOf(items(t, assessorC.get(t, reqs+"?result=unanswered", 200))))
		assessorC.fails(t, http.MethodGet, reqs+"?result=perhaps", nil, 400, "validation_failed")
	})
	t.Run("bulk results are all or nothing", func(t *testing.T) {
		body := assessorC.fails(t, http.MethodPost, reqs+"/bulk", map[string]any{"items": []map[string]any{
			{"id": ars[0], "result": "no", "rationale": rationale15}, {"id": ars[2], "result": "partial", "rationale": "short"},
		}}, 400, "validation_failed")
		require.Equal(t, []string{"items[1].rationale:too_short"}, envelopeFieldCodes(body))
		require.Nil(t, assessorC.get(t, reqs+"/"+ars[0], 200)["result"])
		out := items(t, assessorC.post(t, reqs+"/bulk", map[string]any{"items": []map[string]any{
			{"id": ars[2], "result": "partial", "rationale": rationale15}, {"id": ars[0], "result": "no", "rationale": rationale15},
		}}, 200))
		require.Equal(t, []string{ars[0], ars[2]}, idsOf(out))
		assessorC.fails(t, http.MethodPost, reqs+"/bulk", map[string]any{"items": []map[string]any{}}, 400, "validation_failed")
		require.Empty(t, items(t, assessorC.get(t, reqs+"?result=unanswered", 200)))
	})
	t.Run("a caller outside the assessment gets 404 for every operation", func(t *testing.T) {
		put := map[string]any{"version": 1, "result": "yes", "rationale": rationale15}
		bulk := map[string]any{"items": []map[string]any{{"id": ars[0], "result": "yes", "rationale": rationale15}}}
		outsiderC.fails(t, http.MethodGet, reqs, nil, 404, "not_found")
		outsiderC.fails(t, http.MethodGet, reqs+"?result=unanswered", nil, 404, "not_found")
		outsiderC.fails(t, http.MethodGet, reqs+"/"+ars[0], nil, 404, "not_found")
		outsiderC.fails(t, http.MethodPut, reqs+"/"+ars[0], put, 404, "not_found")
		outsiderC.fails(t, http.MethodPost, reqs+"/bulk", bulk, 404, "not_found")
		// The same answer as for an assessment that does not exist.
		none := "/api/v1/assessments/" + assess.NewID(assess.PrefixAssessment, time.Now()) + "/requirements"
		assessorC.fails(t, http.MethodGet, none, nil, 404, "not_found")
		assessorC.fails(t, http.MethodGet, "/api/v1/assessments/garbage/requirements/x", nil, 404, "not_found")
		// A requirement of another assessment is not found under this one.
		other := rows.assessment(shop, "", asvs, assess.AssessmentInProgress, "", nil, assessor.ID)
		otherAR := rows.load(other, asvs, leaves[0])[0]
		assessorC.fails(t, http.MethodGet, reqs+"/"+otherAR, nil, 404, "not_found")
		assessorC.fails(t, http.MethodPut, reqs+"/"+otherAR, put, 404, "not_found")
		body := assessorC.fails(t, http.MethodPost, reqs+"/bulk", map[string]any{"items": []map[string]any{
			{"id": otherAR, "result": "yes", "rationale": rationale15}}}, 400, "validation_failed")
		require.Equal(t, []string{"items[0].id:unknown"}, envelopeFieldCodes(body))
	})
	t.Run("results change only while the assessment is in progress", func(t *testing.T) {
		put := map[string]any{"version": 3, "result": "yes", "rationale": rationale15}
		rows.exec(`UPDATE assessments SET state = 'on_hold' WHERE id = $1`, a)
		body := assessorC.fails(t, http.MethodPut, reqs+"/"+ars[0], put, 409, "conflict")
		require.Equal(t, "not_in_progress", detailCode(t, body))
		rows.exec(`UPDATE assessments SET state = 'complete' WHERE id = $1`, a)
		body = assessorC.fails(t, http.MethodPut, reqs+"/"+ars[0], put, 409, "conflict")
		require.Equal(t, "read_only", detailCode(t, body))
		body = assessorC.fails(t, http.MethodPost, reqs+"/bulk", map[string]any{"items": []map[string]any{
			{"id": ars[0], "result": "yes", "rationale": rationale15}}}, 409, "conflict")
		require.Equal(t, "read_only", detailCode(t, body))
		assesseeC.get(t, reqs, 200)
	})
}

// TestAssessmentRationaleMinimumConfigured: ASSESSMENT_RATIONALE_MIN_WORDS=0 accepts a
// result without a rationale; 3 requires three words.
func TestAssessmentRationaleMinimumConfigured(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		min  string
		ok   string
		fail string
	}{{"0", "", ""}, {"3", "one two three", "one - two"}} {
		t.Run("minimum "+tc.min, func(t *testing.T) {
			t.Parallel()
			ts := startServer(t, "ASSESSMENT_RATIONALE_MIN_WORDS="+tc.min)
			admin := ts.admin(t)
			rows := assessmentRows{newCatalogueRows(t, ts)}
			st := rows.standard("S", assess.StandardPublished)
			a := rows.assessment(rows.entity("E", "product", "active"), "", st, assess.AssessmentInProgress, "", nil, admin.user.ID)
			ar := rows.load(a, st, rows.requirement(st, "R1", ""))[0]
			path := "/api/v1/assessments/" + a + "/requirements/" + ar
			if tc.fail != "" {
				body := admin.fails(t, http.MethodPut, path, map[string]any{"version": 1, "result": "no", "rationale": tc.fail}, 400, "validation_failed")
				require.Contains(t, body["details"].([]any)[0].(map[string]any)["message"], "at least 3 words")
			}
			r := admin.expect(t, 200, http.MethodPut, path, map[string]any{"version": 1, "result": "no", "rationale": tc.ok})
			require.Equal(t, "no", r["result"])
		})
	}
}

// TestProjectFiguresFromAssessments fills a project with assessments in several states and
// checks every figure, for a caller who sees them all and for one who sees one.
func TestProjectFiguresFromAssessments(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	rows := assessmentRows{newCatalogueRows(t, ts)}
	st := rows.standard("ASVS", assess.StandardPublished)
	r1, r2 := rows.requirement(st, "R1", ""), rows.requirement(st, "R2", "")
	shop := rows.entity("Shop", "product", "active")
	member, memberC := ts.newUser(t, assess.RoleAssessor)
	pid := admin.post(t, "/api/v1/projects", map[string]any{"name": "Yearly", "standardIds": []string{st}}, 201)["id"].(string)
	yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	score80, score50 := 80.0, 50.0

	// In progress and overdue: 2 requirements, 1 answered with evidence; the member is on its team.
	running := rows.assessment(shop, pid, st, assess.AssessmentInProgress, yesterday, nil, member.ID)
	ars := rows.load(running, st, r1, r2)
	rows.answer(ars[0], assess.ResultYes)
	rows.link(ars[0], admin.user.ID)
	// Complete (80) and archived (50): 2 requirements each, all answered.
	for _, c := range []struct {
		state assess.AssessmentState
		score *float64
	}{{assess.AssessmentComplete, &score80}, {assess.AssessmentArchived, &score50}} {
		id := rows.assessment(shop, pid, st, c.state, yesterday, c.score)
		for _, ar := range rows.load(id, st, r1, r2) {
			rows.answer(ar, assess.ResultPartial)
		}
	}
	// Cancelled: counted by state only. New: no requirements yet. Another project's: not at all.
	rows.load(rows.assessment(shop, pid, st, assess.AssessmentCancelled, yesterday, nil), st, r1, r2)
	rows.assessment(shop, pid, st, assess.AssessmentNew, "", nil)
	rows.load(rows.assessment(shop, "", st, assess.AssessmentInProgress, yesterday, nil), st, r1)

	figures := admin.get(t, "/api/v1/projects/"+pid+"/figures", 200)
	a := figures["assessments"].(map[string]any)
	require.Equal(t, map[string]any{"new": float64(1), "pending": float64(0), "in_progress": float64(1), "on_hold": float64(0),
		"cancelled": float64(1), "complete": float64(1), "archived": float64(1)}, a["byState"])
	// Completion counts the four not cancelled alike: 50 + 100 + 100 + 0 (the new one).
	require.Equal(t, []any{float64(5), float64(2), float64(1), float64(6), float64(5), 62.5},
		[]any{a["total"], a["complete"], a["inProgress"], a["requirements"], a["answered"], a["percentComplete"]})
	require.Equal(t, map[string]any{"project": false, "assessments": float64(1)}, figures["overdue"])
	require.Equal(t, map[string]any{"requirements": float64(6), "withEvidence": float64(1), "percent": 16.67}, figures["evidenceCoverage"])
	require.Equal(t, map[string]any{"averageScore": float64(65), "assessed": float64(2)}, figures["conformance"])
	var codes []string
	for _, w := range figures["warnings"].([]any) {
		codes = append(codes, w.(map[string]any)["code"].(string))
	}
	require.Equal(t, []string{"assessments_overdue", "work_started"}, codes)

	// A participant of one assessment counts only that one: figures reveal nothing else.
	mine := memberC.get(t, "/api/v1/projects/"+pid+"/figures", 200)
	a = mine["assessments"].(map[string]any)
	require.Equal(t, []any{float64(1), float64(1), float64(2), float64(1), 50.0}, []any{a["total"], a["inProgress"], a["requirements"],
		a["answered"], a["percentComplete"]})
	require.Equal(t, map[string]any{"averageScore": nil, "assessed": float64(0)}, mine["conformance"])
}
