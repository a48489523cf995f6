package postgres_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// workspace is a started assessment made with SQL (assessments themselves are another
// service's): two standards, the leaves of their trees loaded as assessment requirements.
type workspace struct {
	f            *eventsFixture
	assessmentID string
	ar           map[string]string // identifier → ar_ id
	asvs, other  string            // standard ids
	assessor     assess.Actor
	assessee     assess.Actor
	outsider     assess.Actor // holds every permission but assessments.view_all, takes no part
	viewAll      assess.Actor
}

// fifteenWords is a rationale long enough for the default minimum.
const fifteenWords = "The control is implemented in the login service and verified by the weekly automated scan report."

// actorOf makes the actor of user u holding perms.
func actorOf(u assess.User, perms ...assess.Perm) assess.Actor {
	keys := make([]string, len(perms))
	for i, p := range perms {
		keys[i] = string(p)
	}
	slices.Sort(keys)
	return assess.Actor{ID: u.ID, Principal: &assess.Principal{User: u, Permissions: keys}}
}

// standardWith creates a draft standard whose requirements are given as
// "identifier>parent" (no parent: top level), in the order given.
func standardWith(f *eventsFixture, identifier string, reqs ...string) (string, map[string]string) {
	f.t.Helper()
	st, err := f.svc.Standards.CreateStandard(f.ctx, assess.NewStandard{Identifier: identifier, StandardVersion: "1", Name: identifier}, f.actor())
	require.NoError(f.t, err)
	var bulk assess.BulkRequirements
	for _, r := range reqs {
		id, parent, _ := strings.Cut(r, ">")
		bulk.Requirements = append(bulk.Requirements, assess.BulkRequirement{Identifier: id, ParentIdentifier: parent, Name: "Name of " + id,
			Description: "Description of " + id})
	}
	_, err = f.svc.Standards.WriteRequirements(f.ctx, st.ID, bulk, f.actor())
	require.NoError(f.t, err)
	ids := map[string]string{}
	rows, err := f.pool.Query(f.ctx, "SELECT identifier, id FROM requirements WHERE standard_id = $1", st.ID)
	require.NoError(f.t, err)
	for rows.Next() {
		var k, v string
		require.NoError(f.t, rows.Scan(&k, &v))
		ids[k] = v
	}
	return st.ID, ids
}

// newWorkspace builds the assessment in state in_progress.
func newWorkspace(t *testing.T) *workspace {
	f := newEventsFixture(t, allOff())
	w := &workspace{f: f, ar: map[string]string{}}
	// V1.1.10 sorts after V1.1.2 by natural key; V2 is placed before V1 by position below.
	var asvsReqs, otherReqs map[string]string
	w.asvs, asvsReqs = standardWith(f, "asvs", "V1", "V1.1>V1", "V1.1.2>V1.1", "V1.1.10>V1.1", "V1.2>V1", "V2", "V2.1>V2", "V3")
	w.other, otherReqs = standardWith(f, "other", "O1", "O1.1>O1")
	_, err0 := f.pool.Exec(f.ctx, "UPDATE requirements SET position = CASE identifier WHEN 'V2' THEN -1 ELSE position END WHERE standard_id = $1", w.asvs)
	require.NoError(t, err0)

	var err error
	assessor, assessee, outsider, boss := f.user("assessor", "assessor"), f.user("assessee", "assessee"), f.user("outsider"), f.user("boss")
	all := []assess.Perm{assess.PermAssessmentsView, assess.PermAssessmentsEdit, assess.PermAssessmentsManage}
	w.assessor, w.assessee, w.outsider = actorOf(assessor, all...), actorOf(assessee, assess.PermAssessmentsView), actorOf(outsider, all...)
	w.viewAll = actorOf(boss, append(all, assess.PermAssessmentsViewAll)...)

	entity := assess.NewID(assess.PrefixEntity, time.Now())
	_, err = f.pool.Exec(f.ctx, `INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Shop', 'product')`, entity)
	require.NoError(t, err)
	w.assessmentID = assess.NewID(assess.PrefixAssessment, time.Now())
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := f.pool.Exec(f.ctx, sql, args...)
		require.NoError(t, err)
	}
	exec(`INSERT INTO assessments (id, title, entity_id, state, started_at) VALUES ($1, 'Shop review', $2, 'in_progress', now())`, w.assessmentID, entity)
	// The other standard comes first in the assessment's order.
	exec(`INSERT INTO assessment_standards (assessment_id, standard_id, position) VALUES ($1, $2, 1), ($1, $3, 0)`, w.assessmentID, w.asvs, w.other)
	exec(`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, 'assessor'), ($1, $3, 'assessee')`,
		w.assessmentID, assessor.ID, assessee.ID)
	for _, leaf := range []string{"V1.1.2", "V1.1.10", "V1.2", "V2.1", "V3"} {
		w.ar[leaf] = assess.NewID(assess.PrefixAssessmentRequirement, time.Now())
		exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ($1, $2, $3, $4)`,
			w.ar[leaf], w.assessmentID, asvsReqs[leaf], w.asvs)
	}
	w.ar["O1.1"] = assess.NewID(assess.PrefixAssessmentRequirement, time.Now())
	exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ($1, $2, $3, $4)`,
		w.ar["O1.1"], w.assessmentID, otherReqs["O1.1"], w.other)
	return w
}

func (w *workspace) list(t *testing.T, f assess.AssessmentRequirementFilter, actor assess.Actor) []string {
	t.Helper()
	list, err := w.f.svc.Results.FindAssessmentRequirements(w.f.ctx, w.assessmentID, f, actor)
	require.NoError(t, err)
	out := make([]string, len(list))
	for i, r := range list {
		out[i] = r.Identifier
	}
	return out
}

func (w *workspace) setState(t *testing.T, state assess.AssessmentState) {
	t.Helper()
	_, err := w.f.pool.Exec(w.f.ctx, "UPDATE assessments SET state = $2 WHERE id = $1", w.assessmentID, state)
	require.NoError(t, err)
}

func TestAssessmentWorkspaceTreeAndFilters(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	svc, ctx := w.f.svc.Results, w.f.ctx

	list, err := svc.FindAssessmentRequirements(ctx, w.assessmentID, assess.AssessmentRequirementFilter{}, w.assessee)
	require.NoError(t, err)
	var got []string
	for _, r := range list {
		got = append(got, r.Identifier)
	}
	require.Equal(t, []string{"O1.1", "V2.1", "V1.1.2", "V1.1.10", "V1.2", "V3"}, got,
		"the assessment's standard order, then depth first by position and natural key")
	v := list[3]
	require.Equal(t, w.ar["V1.1.10"], v.ID)
	require.Equal(t, []string{"V1", "V1.1"}, []string{v.Ancestors[0].Identifier, v.Ancestors[1].Identifier})
	require.Equal(t, "Name of V1.1", v.Ancestors[1].Name)
	require.NotEmpty(t, v.Ancestors[0].ID)
	require.Equal(t, []assess.RequirementRef{}, list[5].Ancestors, "a top-level requirement has no ancestors")
	require.Nil(t, v.Result)
	require.Equal(t, int64(1), v.Version)

	one, err := svc.FindAssessmentRequirement(ctx, w.assessmentID, w.ar["V1.1.10"], w.assessor)
	require.NoError(t, err)
	require.Equal(t, v, one)

	// Answer two, assign one, link evidence to one.
	yes := assess.ResultYes
	_, err = svc.RecordResult(ctx, w.assessmentID, w.ar["V2.1"], assess.ResultUpdate{Version: 1, Result: &yes, Rationale: fifteenWords,
		AssigneeID: &w.assessee.ID}, w.assessor)
	require.NoError(t, err)
	na := assess.ResultNotApplicable
	_, err = svc.RecordResult(ctx, w.assessmentID, w.ar["V3"], assess.ResultUpdate{Version: 1, Result: &na, Rationale: fifteenWords}, w.assessor)
	require.NoError(t, err)
	evidence := assess.NewID(assess.PrefixEvidence, time.Now())
	_, err = w.f.pool.Exec(ctx, `INSERT INTO evidence (id, name, author_id) VALUES ($1, 'Scan', $2)`, evidence, w.f.admin.ID)
	require.NoError(t, err)
	_, err = w.f.pool.Exec(ctx, `INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		VALUES ($1, $2, $3)`, w.ar["V1.2"], evidence, w.assessmentID)
	require.NoError(t, err)

	f := assess.AssessmentRequirementFilter{}
	require.Equal(t, []string{"O1.1", "V1.1.2", "V1.1.10", "V1.2"}, w.list(t, assess.AssessmentRequirementFilter{Result: "unanswered"}, w.assessor))
	require.Equal(t, []string{"V2.1", "V3"}, w.list(t, assess.AssessmentRequirementFilter{Result: "yes, not_applicable"}, w.assessor))
	require.Equal(t, []string{"O1.1", "V2.1", "V1.1.2", "V1.1.10", "V1.2"}, w.list(t, assess.AssessmentRequirementFilter{Result: "unanswered,yes"}, w.assessor))
	require.Equal(t, []string{"V2.1"}, w.list(t, assess.AssessmentRequirementFilter{Mine: true}, w.assessee))
	require.Empty(t, w.list(t, assess.AssessmentRequirementFilter{Mine: true}, w.assessor))
	require.Equal(t, []string{"O1.1", "V2.1", "V1.1.2", "V1.1.10", "V3"}, w.list(t, assess.AssessmentRequirementFilter{NoEvidence: true}, w.assessor))
	require.Equal(t, []string{"O1.1"}, w.list(t, assess.AssessmentRequirementFilter{Standard: w.other}, w.assessor))
	require.Equal(t, []string{"V1.1.10"}, w.list(t, assess.AssessmentRequirementFilter{Q: "of v1.1.1"}, w.assessor))
	require.Empty(t, w.list(t, assess.AssessmentRequirementFilter{Q: "%"}, w.assessor), "wildcards match themselves")
	_, err = svc.FindAssessmentRequirements(ctx, w.assessmentID, assess.AssessmentRequirementFilter{Result: "maybe"}, w.assessor)
	requireCode(t, err, assess.ECodeValidation, "invalid")
	counted, err := svc.FindAssessmentRequirement(ctx, w.assessmentID, w.ar["V1.2"], w.assessor)
	require.NoError(t, err)
	require.Equal(t, 1, counted.EvidenceCount)
	require.Len(t, w.list(t, f, w.viewAll), 6, "assessments.view_all sees every assessment")
}

func TestAssessmentResultRules(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	svc, ctx, id := w.f.svc.Results, w.f.ctx, w.ar["V1.2"]
	partial := assess.ResultPartial
	record := func(u assess.ResultUpdate, actor assess.Actor) (assess.AssessmentRequirement, error) {
		return svc.RecordResult(ctx, w.assessmentID, id, u, actor)
	}

	_, err := record(assess.ResultUpdate{Version: 1, Result: &partial, Rationale: "Too short - – …"}, w.assessor)
	requireCode(t, err, assess.ECodeValidation, "too_short")
	_, err = record(assess.ResultUpdate{Version: 1, Rationale: "A draft without a result."}, w.assessor)
	require.NoError(t, err, "a rationale without a result is a draft")
	_, err = record(assess.ResultUpdate{Version: 1, Result: &partial, Rationale: fifteenWords}, w.assessor)
	requireCode(t, err, assess.ECodeVersionConflict, "stale")
	stranger := w.outsider.ID
	_, err = record(assess.ResultUpdate{Version: 2, Result: &partial, Rationale: fifteenWords, AssigneeID: &stranger}, w.assessor)
	requireCode(t, err, assess.ECodeBusinessRule, "not_a_member")

	r, err := record(assess.ResultUpdate{Version: 2, Result: &partial, Rationale: "  " + fifteenWords + "\n", AssigneeID: &w.assessor.ID}, w.assessor)
	require.NoError(t, err)
	require.Equal(t, &partial, r.Result)
	require.Equal(t, fifteenWords, r.Rationale)
	require.Equal(t, w.assessor.ID, r.AssigneeID)
	require.Equal(t, w.assessor.ID, r.AnsweredBy)
	require.NotNil(t, r.AnsweredAt)
	require.Equal(t, int64(3), r.Version)

	var action, scope, target string
	require.NoError(t, w.f.pool.QueryRow(ctx, `SELECT action, scope_id, target_id FROM audit_log WHERE action = 'assessment.result_recorded'
		ORDER BY id DESC LIMIT 1`).Scan(&action, &scope, &target))
	require.Equal(t, []string{w.assessmentID, id}, []string{scope, target})
	var evAssessment string
	require.NoError(t, w.f.pool.QueryRow(ctx, `SELECT data->>'assessmentId' FROM events WHERE id = $1`,
		w.f.lastEvent(assess.EventAssessmentResultRecorded)).Scan(&evAssessment))
	require.Equal(t, w.assessmentID, evAssessment)

	// Absent assignee keeps it; "" clears it; a null result clears the answer.
	empty := ""
	r, err = record(assess.ResultUpdate{Version: 3, Result: &partial, Rationale: fifteenWords}, w.assessor)
	require.NoError(t, err)
	require.Equal(t, w.assessor.ID, r.AssigneeID)
	r, err = record(assess.ResultUpdate{Version: 4, AssigneeID: &empty}, w.assessor)
	require.NoError(t, err)
	require.Nil(t, r.Result)
	require.Empty(t, r.AssigneeID)
	require.Empty(t, r.AnsweredBy)
	require.Nil(t, r.AnsweredAt)

	// The minimum is configurable; 0 accepts any rationale.
	svc = work.NewResultService(w.f.db, 0)
	r, err = record(assess.ResultUpdate{Version: 5, Result: &partial}, w.assessor)
	require.NoError(t, err)
	require.Equal(t, &partial, r.Result)
	svc = w.f.svc.Results

	for state, code := range map[assess.AssessmentState]string{assess.AssessmentOnHold: "not_in_progress",
		assess.AssessmentNew: "not_in_progress", assess.AssessmentComplete: "read_only", assess.AssessmentArchived: "read_only",
		assess.AssessmentCancelled: "read_only"} {
		w.setState(t, state)
		_, err = record(assess.ResultUpdate{Version: 6, Result: &partial, Rationale: fifteenWords}, w.assessor)
		requireCode(t, err, assess.ECodeConflict, code)
		_, err = svc.RecordResults(ctx, w.assessmentID, assess.BulkResults{Items: []assess.BulkResultItem{{ID: id, Result: &partial,
			Rationale: fifteenWords}}}, w.assessor)
		requireCode(t, err, assess.ECodeConflict, code)
	}
	w.setState(t, assess.AssessmentComplete)
	_, err = svc.FindAssessmentRequirement(ctx, w.assessmentID, id, w.assessee)
	require.NoError(t, err, "a complete assessment is still readable")
}

func TestAssessmentBulkResults(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	svc, ctx := w.f.svc.Results, w.f.ctx
	yes, no := assess.ResultYes, assess.ResultNo
	events := func() int {
		return w.f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventAssessmentResultRecorded)
	}

	_, err := svc.RecordResults(ctx, w.assessmentID, assess.BulkResults{Items: []assess.BulkResultItem{
		{ID: w.ar["V3"], Result: &yes, Rationale: fifteenWords},
		{ID: w.ar["V2.1"], Result: &no, Rationale: "short"},
	}}, w.assessor)
	requireCode(t, err, assess.ECodeValidation, "too_short")
	require.Equal(t, "items[1].rationale", firstDetailField(t, err))
	_, err = svc.RecordResults(ctx, w.assessmentID, assess.BulkResults{Items: []assess.BulkResultItem{
		{ID: w.ar["V3"], Result: &yes, Rationale: fifteenWords},
		{ID: assess.NewID(assess.PrefixAssessmentRequirement, time.Now()), Result: &no, Rationale: fifteenWords},
	}}, w.assessor)
	requireCode(t, err, assess.ECodeValidation, "unknown")
	require.Equal(t, "items[1].id", firstDetailField(t, err))
	_, err = svc.RecordResults(ctx, w.assessmentID, assess.BulkResults{Items: []assess.BulkResultItem{
		{ID: w.ar["V3"], Result: &yes, Rationale: fifteenWords}, {ID: w.ar["V3"], Result: &yes, Rationale: fifteenWords},
	}}, w.assessor)
	requireCode(t, err, assess.ECodeValidation, "duplicate")
	require.Equal(t, []string{"O1.1", "V2.1", "V1.1.2", "V1.1.10", "V1.2", "V3"},
		w.list(t, assess.AssessmentRequirementFilter{Result: "unanswered"}, w.assessor), "nothing was written")
	require.Zero(t, events())

	out, err := svc.RecordResults(ctx, w.assessmentID, assess.BulkResults{Items: []assess.BulkResultItem{
		{ID: w.ar["V3"], Result: &yes, Rationale: fifteenWords},
		{ID: w.ar["O1.1"], Result: &no, Rationale: fifteenWords},
	}}, w.assessor)
	require.NoError(t, err)
	require.Equal(t, []string{"O1.1", "V3"}, []string{out[0].Identifier, out[1].Identifier}, "answered in tree order")
	require.Equal(t, int64(2), out[0].Version)
	require.Equal(t, w.assessor.ID, out[1].AnsweredBy)
	require.Equal(t, 1, events(), "one event for the request")
	require.Equal(t, 1, w.f.count(`SELECT count(*) FROM audit_log WHERE action = 'assessment.result_recorded' AND target_id = $1
		AND scope_id = $1`, w.assessmentID))
}

// TestAssessmentWorkspaceVisibility: a caller outside the assessment gets 404 for every
// operation, whatever permissions they hold, and the events reach only those who may see it.
func TestAssessmentWorkspaceVisibility(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	svc, ctx, id := w.f.svc.Results, w.f.ctx, w.ar["V1.2"]
	yes := assess.ResultYes

	_, err := svc.FindAssessmentRequirements(ctx, w.assessmentID, assess.AssessmentRequirementFilter{}, w.outsider)
	requireCode(t, err, assess.ECodeNotFound, "")
	_, err = svc.FindAssessmentRequirement(ctx, w.assessmentID, id, w.outsider)
	requireCode(t, err, assess.ECodeNotFound, "")
	_, err = svc.RecordResult(ctx, w.assessmentID, id, assess.ResultUpdate{Version: 1, Result: &yes, Rationale: fifteenWords}, w.outsider)
	requireCode(t, err, assess.ECodeNotFound, "")
	_, err = svc.RecordResults(ctx, w.assessmentID, assess.BulkResults{Items: []assess.BulkResultItem{{ID: id, Result: &yes,
		Rationale: fifteenWords}}}, w.outsider)
	requireCode(t, err, assess.ECodeNotFound, "")
	w.setState(t, assess.AssessmentComplete)
	_, err = svc.RecordResult(ctx, w.assessmentID, id, assess.ResultUpdate{Version: 1, Result: &yes, Rationale: fifteenWords}, w.outsider)
	requireCode(t, err, assess.ECodeNotFound, "")
	w.setState(t, assess.AssessmentInProgress)
	_, err = svc.FindAssessmentRequirement(ctx, w.assessmentID, "ar_nothing", w.assessor)
	requireCode(t, err, assess.ECodeNotFound, "")
	_, err = svc.FindAssessmentRequirement(ctx, w.assessmentID, assess.NewID(assess.PrefixAssessmentRequirement, time.Now()), w.assessor)
	requireCode(t, err, assess.ECodeNotFound, "")
	_, err = svc.FindAssessmentRequirement(ctx, assess.NewID(assess.PrefixAssessment, time.Now()), id, w.viewAll)
	requireCode(t, err, assess.ECodeNotFound, "")

	// A global rule sends the event in-app to every assessor: only those who may see the
	// assessment get it (the outsider holds the assessor role too).
	_, err = w.f.svc.Rules.CreateRule(ctx, assess.RuleGlobal, "", assess.NewNotificationRule{Name: "results",
		EventTypes: []string{string(assess.EventAssessmentResultRecorded)}, Roles: []string{assess.RoleAssessor, assess.RoleAdmin},
		Channels: assess.RuleChannels{InApp: true}}, w.f.actor())
	require.NoError(t, err)
	_, err = w.f.pool.Exec(ctx, `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = 'assessor'`, w.outsider.ID)
	require.NoError(t, err)
	_, err = svc.RecordResult(ctx, w.assessmentID, id, assess.ResultUpdate{Version: 1, Result: &yes, Rationale: fifteenWords}, w.assessee)
	require.NoError(t, err)
	require.Equal(t, []string{"admin", "assessor"}, w.f.notified(w.f.lastEvent(assess.EventAssessmentResultRecorded)),
		"the administrator (assessments.view_all) and the team's assessor; not the outsider, not the actor")
}

// firstDetailField is the field of the first detail of an *assess.Error.
func firstDetailField(t *testing.T, err error) string {
	t.Helper()
	var e *assess.Error
	require.True(t, errors.As(err, &e), "want *assess.Error, got %v", err)
	require.NotEmpty(t, e.Details)
	return e.Details[0].Field
}
