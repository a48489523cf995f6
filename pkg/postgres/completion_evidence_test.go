package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestCompletionEvidenceFromTheLoadedLinks: the evidence rule of the workspace's
// assessment is decided from the links of each requirement as the store loads them: a
// link on an answer of no or not applicable covers no yes or partial answer. The preview
// (CheckAssessmentCompletion) and a refused completion agree; a change of the rule is
// audited with the update's changes; every rule is settable and nothing else is.
func TestCompletionEvidenceFromTheLoadedLinks(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	ctx, svc := w.f.ctx, w.f.svc.Assessments
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := w.f.pool.Exec(ctx, sql, args...)
		require.NoError(t, err, sql)
	}
	for leaf, result := range map[string]assess.Result{"V1.1.2": assess.ResultYes, "V1.1.10": assess.ResultPartial,
		"V1.2": assess.ResultNo, "V2.1": assess.ResultNo, "V3": assess.ResultNotApplicable, "O1.1": assess.ResultYes} {
		exec(`UPDATE assessment_requirements SET result = $2, rationale = $3, rationale_words = 15 WHERE id = $1`,
			w.ar[leaf], result, fifteenWords)
	}
	evidence := assess.NewID(assess.PrefixEvidence, time.Now())
	exec(`INSERT INTO evidence (id, name, author_id) VALUES ($1, 'Scan', $2)`, evidence, w.f.admin.ID)
	link := func(leaves ...string) {
		t.Helper()
		for _, leaf := range leaves {
			exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES ($1, $2, $3)`,
				w.ar[leaf], evidence, w.assessmentID)
		}
	}
	setRule := func(rule assess.CompletionEvidence) assess.Assessment {
		t.Helper()
		a, err := svc.FindAssessment(ctx, w.assessmentID, w.assessor)
		require.NoError(t, err)
		a, err = svc.UpdateAssessment(ctx, w.assessmentID, assess.AssessmentUpdate{Version: a.Version, CompletionEvidence: &rule}, w.assessor)
		require.NoError(t, err)
		require.Equal(t, rule, a.CompletionEvidence)
		return a
	}
	check := func(canComplete bool, blockers ...assess.CompletionBlocker) {
		t.Helper()
		c, err := svc.CheckAssessmentCompletion(ctx, w.assessmentID, w.assessee) // a participant who may only view
		require.NoError(t, err)
		require.Equal(t, canComplete, c.CanComplete, "%+v", c)
		require.Equal(t, append([]assess.CompletionBlocker{}, blockers...), c.Blockers)
		require.Equal(t, assess.DefaultRationaleMinWords, c.RationaleMinWords)
	}
	missing := func(n int) assess.CompletionBlocker {
		return assess.CompletionBlocker{Field: "requirements", Code: assess.BlockerMissingEvidence, Count: n}
	}

	a, err := svc.FindAssessment(ctx, w.assessmentID, w.assessor)
	require.NoError(t, err)
	require.Equal(t, assess.CompletionEvidenceEveryPositive, a.CompletionEvidence, "the column's default for a new row")
	link("V1.2", "V3") // a no and a not applicable: three yes and partial answers stay without evidence
	check(false, missing(3))
	_, err = svc.TransitionAssessment(ctx, w.assessmentID, assess.AssessmentTransition{To: assess.AssessmentComplete, Version: a.Version}, w.assessor)
	var refused *assess.Error
	require.ErrorAs(t, err, &refused)
	require.Equal(t, []assess.Detail{{Field: "requirements", Code: assess.BlockerMissingEvidence, Message: "3"}}, refused.Details)

	setRule(assess.CompletionEvidenceAtLeastOne)
	check(true)
	setRule(assess.CompletionEvidenceNone)
	check(true)
	setRule(assess.CompletionEvidenceEveryPositive)
	link("V1.1.2", "O1.1")
	check(false, missing(1)) // V1.1.10, partial
	link("V1.1.10")
	check(true)

	var changes []string
	rows, err := w.f.pool.Query(ctx, `SELECT details->'changes'->>'completionEvidence' FROM audit_log
		WHERE action = $1 AND scope_id = $2 ORDER BY id`, assess.ChangeAssessmentUpdated.Action, w.assessmentID)
	require.NoError(t, err)
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		changes = append(changes, s)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"at_least_one", "none", "every_positive"}, changes)

	_, err = svc.CheckAssessmentCompletion(ctx, w.assessmentID, w.outsider)
	requireCode(t, err, assess.ECodeNotFound, "")
	a = setRule(assess.CompletionEvidenceEveryPositive)
	a, err = svc.TransitionAssessment(ctx, w.assessmentID, assess.AssessmentTransition{To: assess.AssessmentComplete, Version: a.Version}, w.assessor)
	require.NoError(t, err)
	c, err := svc.CheckAssessmentCompletion(ctx, w.assessmentID, w.assessor)
	require.NoError(t, err)
	require.False(t, c.CanComplete, "complete already: the state allows no move to complete")
	require.Empty(t, c.Blockers)
	rule := assess.CompletionEvidenceNone
	_, err = svc.UpdateAssessment(ctx, w.assessmentID, assess.AssessmentUpdate{Version: a.Version, CompletionEvidence: &rule}, w.assessor)
	requireCode(t, err, assess.ECodeConflict, "read_only")

	// The database's CHECK takes exactly the rules of assess.
	for _, rule := range assess.CompletionEvidenceRules {
		exec("UPDATE assessments SET completion_evidence = $2 WHERE id = $1", w.assessmentID, rule)
	}
	_, err = w.f.pool.Exec(ctx, "UPDATE assessments SET completion_evidence = 'all' WHERE id = $1", w.assessmentID)
	var pgErr *pgconn.PgError
	require.ErrorAs(t, err, &pgErr)
	require.Equal(t, "23514", pgErr.Code, "check_violation")
}

// TestMigration0020KeepsTheRuleOfExistingAssessments migrates a database at version 19
// holding assessments: they keep the evidence rule they were created under (at_least_one),
// and an assessment inserted afterwards without naming a rule gets every_positive.
func TestMigration0020KeepsTheRuleOfExistingAssessments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0020 := migrateBelow(t, pool, 20)
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := pool.Exec(ctx, sql, args...)
		require.NoError(t, err, sql)
	}
	exec(`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`)
	old := map[string]string{}
	for _, state := range assess.AssessmentLifecycle.States() {
		id := assess.NewID(assess.PrefixAssessment, time.Now())
		old[id] = string(state)
		exec(`INSERT INTO assessments (id, title, entity_id, state) VALUES ($1, $2, 'en_1', $2)`, id, string(state))
	}

	applyMigration(t, pool, m0020)
	rows, err := pool.Query(ctx, "SELECT id, completion_evidence FROM assessments")
	require.NoError(t, err)
	kept := 0
	for rows.Next() {
		var id, rule string
		require.NoError(t, rows.Scan(&id, &rule))
		require.Equal(t, string(assess.CompletionEvidenceAtLeastOne), rule, "the %s assessment", old[id])
		kept++
	}
	require.NoError(t, rows.Err())
	require.Equal(t, len(old), kept)

	var rule string
	require.NoError(t, pool.QueryRow(ctx, `INSERT INTO assessments (id, title, entity_id) VALUES ($1, 'New', 'en_1')
		RETURNING completion_evidence`, assess.NewID(assess.PrefixAssessment, time.Now())).Scan(&rule))
	require.Equal(t, string(assess.DefaultCompletionEvidence), rule)
}
