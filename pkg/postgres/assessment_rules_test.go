package postgres_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// The rules of assessment work are decided in pkg/assess from facts the store loads. Where
// a rule also runs in SQL (list filters and counts), the tests here hold both forms to the
// same answers over a table of cases; where the store only loads facts, they check the
// decision made from facts read from a real database.

// TestScoreAgreesWithNumericRounding: the score (integer arithmetic in assess) equals
// PostgreSQL's numeric formula the store computed it with before, round(100.0 × (yes + 0.5
// × partial) / (yes + partial + no), 2), for every tally up to 30 of each; and the mean of
// a project's scores equals round(avg(score), 2) over numeric(5, 2) scores.
func TestScoreAgreesWithNumericRounding(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	ctx := t.Context()
	rows, err := pool.Query(ctx, `SELECT y, p, n, (round(100.0 * (y + 0.5 * p) / nullif(y + p + n, 0), 2) * 100)::bigint
		FROM generate_series(0, 30) y, generate_series(0, 30) p, generate_series(0, 30) n`)
	require.NoError(t, err)
	cases := 0
	for rows.Next() {
		var y, p, n int
		var inSQL *int64
		require.NoError(t, rows.Scan(&y, &p, &n, &inSQL))
		inGo := assess.ResultCounts{Yes: y, Partial: p, No: n}.Score()
		if inSQL == nil {
			require.Nil(t, inGo, "%d/%d/%d", y, p, n)
		} else {
			require.NotNil(t, inGo, "%d/%d/%d", y, p, n)
			require.Equal(t, *inSQL, int64(*inGo), "%d/%d/%d", y, p, n)
		}
		cases++
	}
	require.NoError(t, rows.Err())
	require.Equal(t, 31*31*31, cases)

	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		scores := make([]int64, 1+r.IntN(12))
		var sum assess.Score
		for j := range scores {
			scores[j] = r.Int64N(10001)
			if i%3 == 0 { // many halves
				scores[j] = scores[j] / 2 * 2
			}
			sum += assess.Score(scores[j])
		}
		var inSQL float64
		require.NoError(t, pool.QueryRow(ctx, `SELECT round(avg((h / 100.0)::numeric(5, 2)), 2)::float8 FROM unnest($1::int8[]) h`,
			scores).Scan(&inSQL))
		inGo := assess.MeanScore(sum, len(scores))
		require.NotNil(t, inGo)
		require.Equal(t, inSQL, *inGo, "%v", scores)
	}
}

// TestOverdueAndFinishedRulesAgreeInGoAndSQL: for an assessment in every state with every
// kind of due date, the overdue flag on the record (assess.AssessmentOverdue), the overdue
// filter of the list and the project's overdue count (SQL rendered from
// assess.ReadOnlyAssessmentStates) agree; the project's scores and complete count take
// the finished assessments (assess.FinishedAssessmentStates) and its requirements leave
// out the cancelled ones.
func TestOverdueAndFinishedRulesAgreeInGoAndSQL(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOff())
	today := f.clock.Now().UTC().Format(time.DateOnly) // the fixture's clock stays on one day
	day := func(days int) string { return f.clock.Now().UTC().AddDate(0, 0, days).Format(time.DateOnly) }
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := f.pool.Exec(f.ctx, sql, args...)
		require.NoError(t, err, sql)
	}
	project := assess.NewID(assess.PrefixProject, f.clock.Now())
	exec(`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`)
	exec(`INSERT INTO projects (id, name) VALUES ($1, 'Yearly')`, project)
	exec(`INSERT INTO standards (id, identifier, name, state) VALUES ('st_1', 'asvs', 'ASVS', 'published')`)
	exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key) VALUES ('rq_1', 'st_1', 'V1', 'V1')`)

	type record struct {
		state assess.AssessmentState
		due   string
		score assess.Score
	}
	records := map[string]record{}
	var overdue, finished, requirements int
	var scoreSum assess.Score
	for i, state := range assess.AssessmentLifecycle.States() {
		for j, due := range []string{"", day(-1), today, day(1)} {
			id := assess.NewID(assess.PrefixAssessment, f.clock.Now())
			rec := record{state: state, due: due, score: assess.Score(1000*i + 250*j + 33)}
			records[id] = rec
			exec(`INSERT INTO assessments (id, title, entity_id, project_id, state, due_date, conformance_score)
				VALUES ($1, $2, 'en_1', $3, $4, nullif($5, '')::date, $6::numeric / 100)`, id, string(state)+" "+due, project, state, due, int64(rec.score))
			exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ($1, $2, 'rq_1', 'st_1')`,
				assess.NewID(assess.PrefixAssessmentRequirement, f.clock.Now()), id)
			if assess.AssessmentOverdue(state, due, today) {
				overdue++
			}
			if assess.AssessmentFinished(state) {
				finished++
				scoreSum += rec.score
			}
			if state != assess.AssessmentCancelled {
				requirements++
			}
		}
	}
	require.NotZero(t, overdue)
	viewAll := actorOf(f.admin, assess.PermAssessmentsView, assess.PermAssessmentsViewAll)

	all, err := f.svc.Assessments.FindAssessments(f.ctx, assess.AssessmentFilter{Project: project,
		PageRequest: assess.PageRequest{Limit: 200}}, viewAll)
	require.NoError(t, err)
	require.Len(t, all.Items, len(records))
	filtered, err := f.svc.Assessments.FindAssessments(f.ctx, assess.AssessmentFilter{Project: project, Overdue: true,
		PageRequest: assess.PageRequest{Limit: 200}}, viewAll)
	require.NoError(t, err)
	inFilter := map[string]bool{}
	for _, a := range filtered.Items {
		inFilter[a.ID] = true
	}
	for _, a := range all.Items {
		rec := records[a.ID]
		want := assess.AssessmentOverdue(rec.state, rec.due, today)
		require.Equal(t, want, a.Overdue, "flag on %s due %q", rec.state, rec.due)
		require.Equal(t, want, inFilter[a.ID], "filter on %s due %q", rec.state, rec.due)
	}

	figures, err := f.svc.Projects.FindProjectFigures(f.ctx, project, viewAll)
	require.NoError(t, err)
	require.Equal(t, overdue, figures.Overdue.Assessments)
	require.Equal(t, finished, figures.Assessments.Complete)
	require.Equal(t, finished, figures.Conformance.Assessed)
	require.Equal(t, assess.MeanScore(scoreSum, finished), figures.Conformance.AverageScore)
	require.Equal(t, requirements, figures.Assessments.Requirements)
}

// TestCompleteDecidesFromTheLoadedAnswers: completing the workspace's assessment is
// refused with the details of assess.CompletionBlockers in order, whatever the result
// rows hold (a blank rationale, one word short, a requirement unanswered), and then keeps
// exactly the scores of assess.ScoreAssessment: overall and per standard, two decimals.
// The assessment has the evidence rule at_least_one (the other rules:
// TestCompletionEvidenceFromTheLoadedLinks).
func TestCompleteDecidesFromTheLoadedAnswers(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	ctx, svc := w.f.ctx, w.f.svc.Assessments
	_, err := w.f.pool.Exec(ctx, "UPDATE assessments SET completion_evidence = $2 WHERE id = $1", w.assessmentID, assess.CompletionEvidenceAtLeastOne)
	require.NoError(t, err)
	answer := func(leaf string, result assess.Result, rationale string) {
		t.Helper()
		_, err := w.f.pool.Exec(ctx, `UPDATE assessment_requirements SET result = nullif($2, ''), rationale = $3, rationale_words = $4
			WHERE id = $1`, w.ar[leaf], string(result), rationale, assess.RationaleWords(rationale))
		require.NoError(t, err)
	}
	complete := func() (assess.Assessment, error) {
		t.Helper()
		var version int64
		require.NoError(t, w.f.pool.QueryRow(ctx, "SELECT version FROM assessments WHERE id = $1", w.assessmentID).Scan(&version))
		return svc.TransitionAssessment(ctx, w.assessmentID, assess.AssessmentTransition{To: assess.AssessmentComplete, Version: version}, w.assessor)
	}
	details := func(err error) []string {
		t.Helper()
		var e *assess.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, assess.ECodeBusinessRule, e.Code)
		var out []string
		for _, d := range e.Details {
			out = append(out, d.Field+":"+d.Code+"="+d.Message)
		}
		return out
	}
	noEvidence := "evidence:no_evidence=Link evidence to at least one requirement."

	_, err = complete()
	require.Equal(t, []string{"requirements:unanswered=6", noEvidence}, details(err))

	fourteen := strings.Join(strings.Fields(fifteenWords)[:14], " ")
	answer("V1.1.2", assess.ResultYes, fifteenWords)
	answer("V1.1.10", assess.ResultPartial, "   ") // blank
	answer("V1.2", assess.ResultNo, fourteen)      // one word short
	answer("V2.1", assess.ResultNo, fifteenWords)
	answer("O1.1", assess.ResultYes, fifteenWords)
	_, err = complete()
	require.Equal(t, []string{"requirements:unanswered=1", "requirements:missing_rationale=2", noEvidence}, details(err))

	answer("V1.1.10", assess.ResultPartial, fifteenWords)
	answer("V1.2", assess.ResultNo, fifteenWords)
	answer("V3", assess.ResultNo, fifteenWords)
	_, err = complete()
	require.Equal(t, []string{noEvidence}, details(err))

	evidence := assess.NewID(assess.PrefixEvidence, time.Now())
	_, err = w.f.pool.Exec(ctx, `INSERT INTO evidence (id, name, author_id) VALUES ($1, 'Scan', $2)`, evidence, w.f.admin.ID)
	require.NoError(t, err)
	_, err = w.f.pool.Exec(ctx, `INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		VALUES ($1, $2, $3)`, w.ar["V3"], evidence, w.assessmentID)
	require.NoError(t, err)
	a, err := complete()
	require.NoError(t, err)

	// ASVS: yes, partial, no, no, no = 1.5 / 5; other: yes; overall 2.5 / 6 = 41.666…
	require.Equal(t, assess.AssessmentComplete, a.State)
	require.Equal(t, ptr(41.67), a.ConformanceScore)
	scores := map[string]*float64{}
	for _, s := range a.Standards {
		scores[s.ID] = s.ConformanceScore
	}
	require.Equal(t, map[string]*float64{w.asvs: ptr(30.0), w.other: ptr(100.0)}, scores)
	var kept []string
	rows, err := w.f.pool.Query(ctx, `SELECT conformance_score::text FROM assessments WHERE id = $1
		UNION ALL (SELECT conformance_score::text FROM assessment_standards WHERE assessment_id = $1 ORDER BY position)`, w.assessmentID)
	require.NoError(t, err)
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		kept = append(kept, s)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"41.67", "100.00", "30.00"}, kept, "overall, then the standards in their order (other first)")
	require.NotNil(t, a.EndedAt)
}

// TestEvidenceLockFromTheLoadedFacts: the lock of evidence in each situation, as the
// record shows it (one read, one list) and as a change is refused, is assess.EvidenceLock
// of the facts the store loads: attestations in each state, assessments in each state,
// claims, approval.
func TestEvidenceLockFromTheLoadedFacts(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOff())
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := f.pool.Exec(f.ctx, sql, args...)
		require.NoError(t, err, sql)
	}
	now := f.clock.Now
	exec(`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`)
	exec(`INSERT INTO standards (id, identifier, name, state) VALUES ('st_1', 'asvs', 'ASVS', 'published')`)
	exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key) VALUES ('rq_1', 'st_1', 'V1', 'V1')`)
	assessments := map[assess.AssessmentState]string{}
	requirementOf := map[assess.AssessmentState]string{}
	for _, s := range assess.AssessmentLifecycle.States() {
		id, ar := assess.NewID(assess.PrefixAssessment, now()), assess.NewID(assess.PrefixAssessmentRequirement, now())
		assessments[s], requirementOf[s] = id, ar
		exec(`INSERT INTO assessments (id, title, entity_id, state) VALUES ($1, $2, 'en_1', $2)`, id, string(s))
		exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ($1, $2, 'rq_1', 'st_1')`, ar, id)
	}
	// cite makes a claim of the in-progress assessment cite evidence ev, in an attestation
	// in each of states.
	cite := func(ev string, states ...assess.AttestationState) {
		claim := assess.NewID(assess.PrefixClaim, now())
		exec(`INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES ($1, $2, 'C', 'Shop', 'P')`,
			claim, assessments[assess.AssessmentInProgress])
		exec(`INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ($1, $2, 'evidence')`, claim, ev)
		for _, s := range states {
			at := assess.NewID("at_", now())
			exec(`INSERT INTO attestations (id, assessment_id, statement, state, document) VALUES ($1, $2, 'We attest.', $3,
				CASE WHEN $3 = 'draft' THEN NULL ELSE '\x00'::bytea END)`, at, assessments[assess.AssessmentInProgress], string(s))
			exec(`INSERT INTO attestation_claims (attestation_id, claim_id) VALUES ($1, $2)`, at, claim)
		}
	}
	type situation struct {
		name  string
		setUp func(ev string)
		facts assess.EvidenceLockFacts
	}
	var cases []situation
	for _, s := range assess.AssessmentLifecycle.States() {
		cases = append(cases, situation{"linked to a requirement of an assessment " + string(s), func(ev string) {
			exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES ($1, $2, $3)`,
				requirementOf[s], ev, assessments[s])
		}, assess.EvidenceLockFacts{AssessmentStates: []assess.AssessmentState{s}}})
	}
	for _, s := range []assess.AttestationState{assess.AttestationDraft, assess.AttestationSigning, assess.AttestationSealed, assess.AttestationRescinded} {
		cases = append(cases, situation{"cited in an attestation " + string(s), func(ev string) { cite(ev, s) },
			assess.EvidenceLockFacts{CitedByClaim: true, AttestationStates: []assess.AttestationState{s}}})
	}
	cases = append(cases,
		situation{"nothing", func(string) {}, assess.EvidenceLockFacts{}},
		situation{"cited by a claim", func(ev string) { cite(ev) }, assess.EvidenceLockFacts{CitedByClaim: true}},
		situation{"approved", func(ev string) { exec(`UPDATE evidence SET state = 'claimed' WHERE id = $1`, ev) },
			assess.EvidenceLockFacts{State: assess.EvidenceClaimed}},
		situation{"approved, cited, in a draft and a sealed attestation, linked to a complete assessment", func(ev string) {
			exec(`UPDATE evidence SET state = 'claimed' WHERE id = $1`, ev)
			cite(ev, assess.AttestationDraft, assess.AttestationSealed)
			exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES ($1, $2, $3)`,
				requirementOf[assess.AssessmentComplete], ev, assessments[assess.AssessmentComplete])
		}, assess.EvidenceLockFacts{State: assess.EvidenceClaimed, CitedByClaim: true,
			AttestationStates: []assess.AttestationState{assess.AttestationDraft, assess.AttestationSealed},
			AssessmentStates:  []assess.AssessmentState{assess.AssessmentComplete}}},
	)

	viewAll := actorOf(f.admin, assess.PermEvidenceView, assess.PermEvidenceEdit, assess.PermEvidenceViewAll)
	ids := map[string]string{}
	for i, c := range cases {
		ev := assess.NewID(assess.PrefixEvidence, now())
		ids[ev] = c.name
		exec(`INSERT INTO evidence (id, name, author_id) VALUES ($1, $2, $3)`, ev, fmt.Sprintf("%02d %s", i, c.name), f.admin.ID)
		c.setUp(ev)
		if c.facts.State == "" {
			cases[i].facts.State = assess.EvidenceInProgress
		}
	}
	list, err := f.svc.Evidence.FindEvidenceList(f.ctx, assess.EvidenceFilter{PageRequest: assess.PageRequest{Limit: 200}}, viewAll)
	require.NoError(t, err)
	require.Len(t, list.Items, len(cases))
	inList := map[string]string{}
	for _, e := range list.Items {
		inList[ids[e.ID]] = e.Locked
	}
	for _, e := range list.Items {
		c := cases[slices.IndexFunc(cases, func(c situation) bool { return c.name == ids[e.ID] })]
		t.Run(c.name, func(t *testing.T) {
			want := assess.EvidenceLock(c.facts)
			require.Equal(t, want, inList[c.name], "list")
			one, err := f.svc.Evidence.FindEvidence(f.ctx, e.ID, viewAll)
			require.NoError(t, err)
			require.Equal(t, want, one.Locked, "read")
			_, err = f.svc.Evidence.UpdateEvidence(f.ctx, e.ID, assess.EvidenceUpdate{Version: one.Version, Description: ptr("changed")}, viewAll)
			if want == "" {
				require.NoError(t, err, "change")
			} else {
				requireCode(t, err, assess.ECodeConflict, want)
			}
		})
	}
}
