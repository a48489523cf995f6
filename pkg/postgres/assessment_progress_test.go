package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// progressCountsSQL is an assessment's progress per standard as the counters keep it
// (migrations/0030_assessment_progress.sql), and progressAggregateSQL the same figures
// counted from the requirement rows and links in plain SQL, as the assessment list counted
// them before the counters: the two must always agree. Counter rows of all zeros stand
// for nothing.
const (
	progressCountsSQL = `SELECT assessment_id || '/' || standard_id, ARRAY[total, answered, yes, partial, no, not_applicable, with_evidence]
		FROM assessment_progress WHERE (total, answered, yes, partial, no, not_applicable, with_evidence) <> (0, 0, 0, 0, 0, 0, 0)`
	progressAggregateSQL = `SELECT r.assessment_id || '/' || r.standard_id, ARRAY[count(*),
		count(*) FILTER (WHERE r.result IS NOT NULL AND btrim(r.rationale) <> ''),
		count(*) FILTER (WHERE r.result = 'yes'), count(*) FILTER (WHERE r.result = 'partial'),
		count(*) FILTER (WHERE r.result = 'no'), count(*) FILTER (WHERE r.result = 'not_applicable'),
		count(*) FILTER (WHERE EXISTS (SELECT 1 FROM assessment_requirement_evidence l WHERE l.assessment_requirement_id = r.id))]::int[]
		FROM assessment_requirements r GROUP BY r.assessment_id, r.standard_id`
	// wrongLinkCountsSQL counts the requirement rows whose evidence_links is not their
	// number of links.
	wrongLinkCountsSQL = `SELECT count(*) FROM assessment_requirements r
		WHERE r.evidence_links <> (SELECT count(*) FROM assessment_requirement_evidence l WHERE l.assessment_requirement_id = r.id)`
	// participantsSQL is who takes part in which assessment as PostgreSQL keeps it
	// (migrations/0033_assessment_participants.sql), participantsAggregateSQL the same from
	// its sources: each team role, and each link of evidence the user authors or reviews.
	// participantsSQL sums the ties of each user and assessment over their shards
	// (migrations/0037_participant_shards.sql), so it reads the table before and after it.
	participantsSQL          = `SELECT user_id || '/' || assessment_id, ARRAY[sum(ties)::int] FROM assessment_participants GROUP BY user_id, assessment_id`
	participantsAggregateSQL = `SELECT u || '/' || a, ARRAY[count(*)]::int[] FROM (
		SELECT user_id AS u, assessment_id AS a FROM assessment_members
		UNION ALL SELECT e.author_id, l.assessment_id FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id
		UNION ALL SELECT e.reviewer_id, l.assessment_id FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id
			WHERE e.reviewer_id IS NOT NULL) t GROUP BY u, a`
	// participantShardsSQL is each row of assessment_participants, shard by shard, and
	// participantShardsAggregateSQL the same from the sources: a team role's tie is in shard
	// 0, a link's in its evidence's (tie_shard).
	participantShardsSQL          = `SELECT user_id || '/' || assessment_id || '/' || shard, ARRAY[ties] FROM assessment_participants`
	participantShardsAggregateSQL = `SELECT u || '/' || a || '/' || s, ARRAY[count(*)]::int[] FROM (
		SELECT user_id AS u, assessment_id AS a, 0 AS s FROM assessment_members
		UNION ALL SELECT e.author_id, l.assessment_id, tie_shard(e.id) FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id
		UNION ALL SELECT e.reviewer_id, l.assessment_id, tie_shard(e.id) FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id
			WHERE e.reviewer_id IS NOT NULL) t GROUP BY u, a, s`
	// evidenceAssessmentsSQL is each piece of evidence's assessments as PostgreSQL keeps them
	// (migrations/0035_evidence_assessments.sql), evidenceAssessmentsAggregateSQL the same
	// counted from its links and citations.
	evidenceAssessmentsSQL          = `SELECT evidence_id || '/' || assessment_id, ARRAY[ties] FROM evidence_assessments`
	evidenceAssessmentsAggregateSQL = `SELECT evidence_id || '/' || assessment_id, ARRAY[count(*)]::int[] FROM (
		SELECT evidence_id, assessment_id FROM assessment_requirement_evidence
		UNION ALL SELECT evidence_id, assessment_id FROM claim_evidence) t GROUP BY evidence_id, assessment_id`
	// The answers of finished assessments per requirement (migration 0044): the tallies,
	// rows at zero left out, against the aggregate; and no tally below zero.
	requirementTalliesSQL = `SELECT requirement_id, ARRAY[yes, partial, no] FROM requirement_tallies
		WHERE yes <> 0 OR partial <> 0 OR no <> 0`
	requirementTalliesAggregateSQL = `SELECT ar.requirement_id, ARRAY[count(*) FILTER (WHERE ar.result = 'yes'),
			count(*) FILTER (WHERE ar.result = 'partial'), count(*) FILTER (WHERE ar.result = 'no')]::int[]
		FROM assessment_requirements ar JOIN assessments a ON a.id = ar.assessment_id
		WHERE a.state IN ('complete', 'archived') AND ar.result IN ('yes', 'partial', 'no') GROUP BY ar.requirement_id`
	negativeTalliesSQL = `SELECT count(*) FROM requirement_tallies WHERE yes < 0 OR partial < 0 OR no < 0`
)

// progressByKey runs one of the progress queries.
func progressByKey(t *testing.T, q postgres.Querier, sql string) map[string][]int32 {
	t.Helper()
	rows, err := q.Query(context.Background(), sql)
	require.NoError(t, err)
	out := map[string][]int32{}
	var key string
	var counts []int32
	_, err = pgx.ForEachRow(rows, []any{&key, &counts}, func() error {
		out[key] = slices.Clone(counts)
		return nil
	})
	require.NoError(t, err)
	return out
}

// progressSeed is the seed of the property test: PROGRESS_SEED when set (to replay a
// failure), else the clock.
func progressSeed(t *testing.T) uint64 {
	if s := os.Getenv("PROGRESS_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err, "PROGRESS_SEED")
		return seed
	}
	return uint64(time.Now().UnixNano())
}

// progressRun is the property test's world: a store whose results need no minimum of words
// (so that a result with a blank rationale, which does not count as answered, can be
// recorded), two standards, an actor who sees everything, and the assessments and evidence
// the random steps work on.
type progressRun struct {
	t       *testing.T
	ctx     context.Context
	pool    *pgxpool.Pool
	dsn     string
	svc     *services.Services
	rng     *rand.Rand
	actor   assess.Actor
	entity  string
	levelB  string   // a level of the second standard, holding two of its four leaves
	stds    []string // the two standards
	people  []string // users the team and evidence steps give roles to
	step    int
	op      string
	changed map[string]int // steps that changed something, by operation
}

func newProgressRun(t *testing.T, seed uint64) *progressRun {
	s := newAssessmentStore(t) // for its users and helpers; its store has the default minimum
	cfg := services.DefaultConfig()
	cfg.RationaleMinWords = 0
	r := &progressRun{t: t, ctx: s.ctx, pool: s.pool, dsn: s.dsn, svc: services.NewWith(postgres.New(s.pool, nil), cfg),
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), entity: s.entity, changed: map[string]int{}}
	r.actor = s.user("progress", assess.PermAssessmentsView, assess.PermAssessmentsViewAll, assess.PermAssessmentsManage,
		assess.PermEvidenceView, assess.PermEvidenceViewAll)
	// Standard A is the store's (three leaves); B has a group of two leaves and two more,
	// and a level holding the group.
	b := assess.NewID(assess.PrefixStandard, time.Now())
	s.exec(`INSERT INTO standards (id, identifier, name, state) VALUES ($1, 'b', 'B', 'published')`, b)
	group := assess.NewID(assess.PrefixRequirement, time.Now())
	s.exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key, position) VALUES ($1, $2, 'G', 'G', 0)`, group, b)
	for i, ident := range []string{"G.1", "G.2", "B3", "B4"} {
		parent := any(nil)
		if i < 2 {
			parent = group
		}
		s.exec(`INSERT INTO requirements (id, standard_id, parent_id, identifier, natural_key, position) VALUES ($1, $2, $3, $4, $4, $5)`,
			assess.NewID(assess.PrefixRequirement, time.Now()), b, parent, ident, i+1)
	}
	r.levelB = assess.NewID(assess.PrefixLevel, time.Now())
	s.exec(`INSERT INTO levels (id, standard_id, identifier) VALUES ($1, $2, 'L1')`, r.levelB, b)
	s.exec(`INSERT INTO level_requirements (level_id, requirement_id) VALUES ($1, $2)`, r.levelB, group)
	r.stds = []string{s.standard, b}
	for i := range 4 {
		r.people = append(r.people, s.user(fmt.Sprintf("person%d", i)).ID)
	}
	return r
}

// TestAssessmentProgressCountersFollowEveryChange is the property test of issue 27 item 2:
// a seeded random sequence of changes — results of every value with blank and written
// rationales, bulk results, evidence linked and unlinked (one at a time and several with new
// evidence), evidence deleted, assessments created, given a standard, started, held and
// resumed, completed and reopened, cancelled and deleted, archived or deleted when finished,
// and the paths without a service
// (the data generator's COPY, plain SQL updates and deletes, an import's INSERT … ON
// CONFLICT DO NOTHING, a user deleted under their answers and links) — after each of
// which the counters equal the aggregate counted in plain SQL, each requirement's link
// count its links, and the tallies of finished assessments' answers per requirement
// (migration 0044) theirs; every 25 steps and at the end the assessment list shows the same
// progress. A failure prints the seed; PROGRESS_SEED=<seed> replays it.
func TestAssessmentProgressCountersFollowEveryChange(t *testing.T) {
	t.Parallel()
	seed := progressSeed(t)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("seed %d: rerun with PROGRESS_SEED=%d", seed, seed)
		}
	})
	r := newProgressRun(t, seed)
	ops := r.operations()
	const steps = 400
	for r.step = 1; r.step <= steps; r.step++ {
		o := r.next(ops)
		r.op = o.name
		if o.run() {
			r.changed[o.name]++
		}
		r.check(r.step%25 == 0 || r.step == steps)
	}
	t.Logf("seed %d: %d steps, changes by operation %v", seed, steps, r.changed)
	for _, o := range ops {
		require.Positive(t, r.changed[o.name], "seed %d: no step of %q changed anything", seed, o.name)
	}
}

// progressOp is a kind of step of the property test, with its weight in the random part; run
// reports whether the step changed anything.
type progressOp struct {
	name   string
	weight int
	run    func() bool
}

func (r *progressRun) operations() []progressOp {
	return []progressOp{
		{"create", 3, r.create}, {"add standard", 2, r.addStandard}, {"start", 4, r.start},
		{"result", 25, r.result}, {"bulk", 10, r.bulk}, {"link", 12, r.link}, {"create linked evidence", 4, r.createLinked},
		{"unlink", 8, r.unlink}, {"delete evidence", 3, r.deleteEvidence}, {"hold or resume", 4, r.holdOrResume},
		{"complete", 3, r.complete}, {"reopen", 3, r.reopen}, {"cancel", 2, r.cancel}, {"delete assessment", 2, r.deleteAssessment},
		{"copy", 2, r.copyRows}, {"sql update", 3, r.sqlUpdate}, {"sql links", 3, r.sqlLinks}, {"user deleted", 2, r.deleteUser},
		{"team", 4, r.team}, {"sql members", 3, r.sqlMembers}, {"evidence people", 4, r.evidencePeople}, {"citations", 4, r.citations},
		{"claims", 5, r.claims}, {"archive or delete finished", 2, r.archiveOrDeleteFinished},
	}
}

// progressPrologue is every operation once, in an order in which each finds something to
// change: the first steps; the rest are drawn at random by weight. The last complete has an
// assessment of its own, created and started just before: cancel and delete may have taken
// every one in progress (seed 1795956771038851465), and archive had nothing finished.
var progressPrologue = []string{"create", "create", "add standard", "start", "start", "result", "bulk", "link",
	"create linked evidence", "team", "sql members", "evidence people", "citations", "claims", "claims", "unlink", "sql update", "sql links", "copy", "user deleted", "delete evidence",
	"hold or resume", "hold or resume", "complete", "reopen", "cancel", "delete assessment", "create", "start", "complete",
	"archive or delete finished"}

// next returns the operation of the current step.
func (r *progressRun) next(ops []progressOp) progressOp {
	if r.step <= len(progressPrologue) {
		for _, o := range ops {
			if o.name == progressPrologue[r.step-1] {
				return o
			}
		}
	}
	total := 0
	for _, o := range ops {
		total += o.weight
	}
	pick := r.rng.IntN(total)
	for _, o := range ops {
		if pick -= o.weight; pick < 0 {
			return o
		}
	}
	return ops[len(ops)-1]
}

// check holds the counters to the aggregate, and with list the assessment list too.
func (r *progressRun) check(list bool) {
	t := r.t
	t.Helper()
	where := fmt.Sprintf("step %d (%s)", r.step, r.op)
	want := progressByKey(t, r.pool, progressAggregateSQL)
	require.Equal(t, want, progressByKey(t, r.pool, progressCountsSQL), "counters after %s", where)
	var wrong int
	require.NoError(t, r.pool.QueryRow(r.ctx, wrongLinkCountsSQL).Scan(&wrong))
	require.Zero(t, wrong, "requirement rows with a wrong link count after %s", where)
	require.Equal(t, progressByKey(t, r.pool, claimLinksAggregateSQL), progressByKey(t, r.pool, claimLinksSQL), "claim counts after %s", where)
	require.Equal(t, progressByKey(t, r.pool, participantShardsAggregateSQL), progressByKey(t, r.pool, participantShardsSQL), "participants after %s", where)
	require.Equal(t, progressByKey(t, r.pool, evidenceAssessmentsAggregateSQL), progressByKey(t, r.pool, evidenceAssessmentsSQL),
		"evidence's assessments after %s", where)
	require.Equal(t, progressByKey(t, r.pool, requirementTalliesAggregateSQL), progressByKey(t, r.pool, requirementTalliesSQL),
		"requirement tallies after %s", where)
	var negative int
	require.NoError(t, r.pool.QueryRow(r.ctx, negativeTalliesSQL).Scan(&negative))
	require.Zero(t, negative, "tallies below zero after %s", where)
	if !list {
		return
	}
	perAssessment := map[string]assess.AssessmentProgress{}
	for key, c := range want {
		id, _, _ := strings.Cut(key, "/")
		p := perAssessment[id]
		p.Total, p.Answered, p.Yes, p.Partial = p.Total+int(c[0]), p.Answered+int(c[1]), p.Yes+int(c[2]), p.Partial+int(c[3])
		p.No, p.NotApplicable, p.WithEvidence = p.No+int(c[4]), p.NotApplicable+int(c[5]), p.WithEvidence+int(c[6])
		perAssessment[id] = p
	}
	page, err := r.svc.Assessments.FindAssessments(r.ctx, assess.AssessmentFilter{PageRequest: assess.PageRequest{Limit: 200}}, r.actor)
	require.NoError(t, err)
	for _, a := range page.Items {
		require.Equal(t, perAssessment[a.ID], a.Progress, "the list's progress of %s after %s", a.ID, where)
	}
}

// done says whether err is nil, and accepts the refusals of the domain (a version raced,
// evidence locked, a state that does not allow the change): anything else fails the test.
func (r *progressRun) done(err error) bool {
	r.t.Helper()
	var de *assess.Error
	if err != nil && !errors.As(err, &de) {
		require.NoError(r.t, err, "step %d (%s)", r.step, r.op)
	}
	return err == nil
}

// strings returns the first column of sql's rows.
func (r *progressRun) strings(sql string, args ...any) []string {
	r.t.Helper()
	rows, err := r.pool.Query(r.ctx, sql, args...)
	require.NoError(r.t, err)
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(r.t, err)
	return out
}

// pick returns a random element of list, or "" when it is empty.
func (r *progressRun) pick(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[r.rng.IntN(len(list))]
}

// assessmentIn returns a random assessment in one of states, or "".
func (r *progressRun) assessmentIn(states ...assess.AssessmentState) string {
	names := make([]string, len(states))
	for i, s := range states {
		names[i] = string(s)
	}
	return r.pick(r.strings(`SELECT id FROM assessments WHERE state = ANY ($1) ORDER BY id`, names))
}

// requirementsOf returns up to n random requirement rows of assessment id.
func (r *progressRun) requirementsOf(id string, n int) []string {
	all := r.strings(`SELECT id FROM assessment_requirements WHERE assessment_id = $1 ORDER BY id`, id)
	r.rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	return all[:min(n, len(all))]
}

// version reads the version of row id of table.
func (r *progressRun) version(table, id string) int64 {
	var v int64
	require.NoError(r.t, r.pool.QueryRow(r.ctx, "SELECT version FROM "+table+" WHERE id = $1", id).Scan(&v))
	return v
}

// answer returns a random answer: each result or none, with a rationale that is written,
// blank or empty.
func (r *progressRun) answer() (*assess.Result, string) {
	var res *assess.Result
	if k := r.rng.IntN(5); k < 4 {
		v := []assess.Result{assess.ResultYes, assess.ResultPartial, assess.ResultNo, assess.ResultNotApplicable}[k]
		res = &v
	}
	return res, []string{"", "   ", "Checked in the review.", "Seen in the configuration and the logs."}[r.rng.IntN(4)]
}

// standardsInput returns one or both standards, the second sometimes narrowed to its level.
func (r *progressRun) standardsInput() []assess.AssessmentStandardInput {
	out := []assess.AssessmentStandardInput{{StandardID: r.stds[0]}}
	if r.rng.IntN(2) == 0 {
		out = []assess.AssessmentStandardInput{{StandardID: r.stds[1]}}
	}
	if r.rng.IntN(2) == 0 {
		level := ""
		if r.rng.IntN(2) == 0 {
			level = r.levelB
		}
		out = []assess.AssessmentStandardInput{{StandardID: r.stds[0]}, {StandardID: r.stds[1], LevelID: level}}
	}
	return out
}

func (r *progressRun) create() bool {
	if len(r.strings(`SELECT id FROM assessments WHERE state NOT IN ('cancelled', 'archived')`)) >= 5 {
		return false
	}
	std := r.standardsInput()[:1] // one standard; "add standard" may add the other
	_, err := r.svc.Assessments.CreateAssessment(r.ctx, assess.NewAssessment{Title: fmt.Sprintf("Step %d", r.step), EntityID: r.entity,
		Standards: std, CompletionEvidence: assess.CompletionEvidenceNone}, r.actor)
	return r.done(err)
}

func (r *progressRun) addStandard() bool {
	id := r.assessmentIn(assess.AssessmentNew, assess.AssessmentPending)
	if id == "" {
		return false
	}
	std := r.standardsInput()
	_, err := r.svc.Assessments.UpdateAssessment(r.ctx, id, assess.AssessmentUpdate{Version: r.version("assessments", id), Standards: &std}, r.actor)
	return r.done(err)
}

func (r *progressRun) transition(id string, to, from assess.AssessmentState) bool {
	_, err := r.svc.Assessments.TransitionAssessment(r.ctx, id, assess.AssessmentTransition{To: to, From: from,
		Version: r.version("assessments", id)}, r.actor)
	return r.done(err)
}

func (r *progressRun) start() bool {
	id := r.assessmentIn(assess.AssessmentNew, assess.AssessmentPending)
	if id == "" {
		return false
	}
	if r.rng.IntN(3) == 0 { // by way of pending
		r.transition(id, assess.AssessmentPending, "")
	}
	return r.transition(id, assess.AssessmentInProgress, "")
}

func (r *progressRun) result() bool {
	id := r.assessmentIn(assess.AssessmentInProgress)
	ar := r.requirementsOf(id, 1)
	if len(ar) == 0 {
		return false
	}
	res, rationale := r.answer()
	_, err := r.svc.Results.RecordResult(r.ctx, id, ar[0], assess.ResultUpdate{Result: res, Rationale: rationale,
		Version: r.version("assessment_requirements", ar[0])}, r.actor)
	return r.done(err)
}

func (r *progressRun) bulk() bool {
	id := r.assessmentIn(assess.AssessmentInProgress)
	ars := r.requirementsOf(id, 1+r.rng.IntN(6))
	if len(ars) == 0 {
		return false
	}
	items := make([]assess.BulkResultItem, len(ars))
	for i, ar := range ars {
		items[i].ID = ar
		items[i].Result, items[i].Rationale = r.answer()
	}
	_, err := r.svc.Results.RecordResults(r.ctx, id, assess.BulkResults{Items: items}, r.actor)
	return r.done(err)
}

// evidence returns a random piece of the actor's evidence, made when there is little.
func (r *progressRun) evidence() string {
	list := r.strings(`SELECT id FROM evidence ORDER BY id`)
	if len(list) < 4 {
		e, err := r.svc.Evidence.CreateEvidence(r.ctx, assess.NewEvidence{Name: fmt.Sprintf("Report %d", r.step)}, r.actor)
		require.NoError(r.t, err)
		return e.ID
	}
	return r.pick(list)
}

func (r *progressRun) link() bool {
	id := r.assessmentIn(assess.AssessmentInProgress, assess.AssessmentOnHold)
	ar := r.requirementsOf(id, 1)
	if len(ar) == 0 {
		return false
	}
	_, err := r.svc.Evidence.LinkEvidence(r.ctx, r.evidence(), assess.NewEvidenceLink{AssessmentRequirementID: ar[0]}, r.actor)
	return r.done(err)
}

// createLinked creates evidence linked at once to requirements of one or two assessments.
func (r *progressRun) createLinked() bool {
	var ars []string
	for range 2 {
		ars = append(ars, r.requirementsOf(r.assessmentIn(assess.AssessmentInProgress, assess.AssessmentOnHold), 1+r.rng.IntN(3))...)
	}
	if len(ars) == 0 {
		return false
	}
	_, err := r.svc.Evidence.CreateEvidence(r.ctx, assess.NewEvidence{Name: fmt.Sprintf("Linked %d", r.step), RequirementIDs: ars}, r.actor)
	return r.done(err)
}

// unlockedLinks is the condition on link l that its evidence is not locked by a finished
// or cancelled assessment (the steps pick such evidence three times in four, so that most
// unlinks and deletions of evidence go through).
const unlockedLinks = `NOT EXISTS (SELECT 1 FROM assessment_requirement_evidence o JOIN assessments a ON a.id = o.assessment_id
	WHERE o.evidence_id = l.evidence_id AND a.state IN ('complete', 'archived', 'cancelled'))`

// unlocked is unlockedLinks three times in four, else true.
func (r *progressRun) unlocked() string {
	if r.rng.IntN(4) == 0 {
		return "true"
	}
	return unlockedLinks
}

func (r *progressRun) unlink() bool {
	link := r.pick(r.strings(`SELECT l.evidence_id || ' ' || l.assessment_requirement_id FROM assessment_requirement_evidence l
		WHERE ` + r.unlocked() + ` ORDER BY 1`))
	if link == "" {
		return false
	}
	var ev, ar string
	_, err := fmt.Sscan(link, &ev, &ar)
	require.NoError(r.t, err)
	return r.done(r.svc.Evidence.UnlinkEvidence(r.ctx, ev, ar, r.actor))
}

func (r *progressRun) deleteEvidence() bool {
	id := r.pick(r.strings(`SELECT DISTINCT l.evidence_id FROM assessment_requirement_evidence l WHERE ` + r.unlocked() + ` ORDER BY 1`))
	if id == "" {
		return false
	}
	return r.done(r.svc.Evidence.DeleteEvidence(r.ctx, id, r.version("evidence", id), r.actor))
}

// holdOrResume puts an assessment in progress on hold, or resumes one on hold.
func (r *progressRun) holdOrResume() bool {
	id := r.assessmentIn(assess.AssessmentInProgress, assess.AssessmentOnHold)
	if id == "" {
		return false
	}
	var state assess.AssessmentState
	require.NoError(r.t, r.pool.QueryRow(r.ctx, `SELECT state FROM assessments WHERE id = $1`, id).Scan(&state))
	if state == assess.AssessmentOnHold {
		return r.transition(id, assess.AssessmentInProgress, "")
	}
	return r.transition(id, assess.AssessmentOnHold, "")
}

// complete answers what an assessment in progress lacks, in one bulk write, and completes it.
func (r *progressRun) complete() bool {
	id := r.assessmentIn(assess.AssessmentInProgress)
	if id == "" {
		return false
	}
	open := r.strings(`SELECT id FROM assessment_requirements WHERE assessment_id = $1 AND (result IS NULL OR btrim(rationale) = '')
		ORDER BY id`, id)
	if len(open) > 0 {
		items := make([]assess.BulkResultItem, len(open))
		for i, ar := range open {
			res := assess.ResultPartial
			items[i] = assess.BulkResultItem{ID: ar, Result: &res, Rationale: "Completed in the review."}
		}
		_, err := r.svc.Results.RecordResults(r.ctx, id, assess.BulkResults{Items: items}, r.actor)
		require.NoError(r.t, err)
		r.check(false)
	}
	// Assessments copied in (the data generator's path) keep the default evidence rule; the
	// counters, not that rule, are under test.
	_, err := r.pool.Exec(r.ctx, `UPDATE assessments SET completion_evidence = 'none' WHERE id = $1`, id)
	require.NoError(r.t, err)
	return r.transition(id, assess.AssessmentComplete, "")
}

func (r *progressRun) reopen() bool {
	id := r.assessmentIn(assess.AssessmentComplete)
	if id == "" {
		return false
	}
	return r.transition(id, assess.AssessmentInProgress, assess.AssessmentComplete)
}

func (r *progressRun) cancel() bool {
	id := r.assessmentIn(assess.AssessmentNew, assess.AssessmentInProgress, assess.AssessmentOnHold)
	if id == "" {
		return false
	}
	return r.transition(id, assess.AssessmentCancelled, "")
}

func (r *progressRun) deleteAssessment() bool {
	id := r.assessmentIn(assess.AssessmentNew, assess.AssessmentPending, assess.AssessmentInProgress, assess.AssessmentOnHold,
		assess.AssessmentCancelled)
	if id == "" {
		return false
	}
	return r.done(r.svc.Assessments.DeleteAssessment(r.ctx, id, r.version("assessments", id), r.actor))
}

// archiveOrDeleteFinished archives a complete assessment, or deletes a finished one in plain
// SQL, as an operator would (the service refuses to delete a finished assessment): its
// requirement rows go by cascade after it.
func (r *progressRun) archiveOrDeleteFinished() bool {
	id := r.assessmentIn(assess.AssessmentComplete, assess.AssessmentArchived)
	if id == "" {
		return false
	}
	sql := `DELETE FROM assessments WHERE id = $1`
	if r.rng.IntN(2) == 0 {
		sql = `UPDATE assessments SET state = 'archived' WHERE id = $1`
	}
	_, err := r.pool.Exec(r.ctx, sql, id)
	require.NoError(r.t, err)
	return true
}

// copyRows writes a started assessment the way the data generator does: COPY of its
// requirement rows (answered or not), then COPY of links to them.
func (r *progressRun) copyRows() bool {
	now := time.Now()
	id := assess.NewID(assess.PrefixAssessment, now)
	_, err := r.pool.Exec(r.ctx, `INSERT INTO assessments (id, title, entity_id, state, started_at) VALUES ($1, 'Copied', $2, 'in_progress', now())`,
		id, r.entity)
	require.NoError(r.t, err)
	var rows, links [][]any
	for _, std := range r.stds {
		_, err := r.pool.Exec(r.ctx, `INSERT INTO assessment_standards (assessment_id, standard_id) VALUES ($1, $2)`, id, std)
		require.NoError(r.t, err)
		for _, rq := range r.strings(`SELECT r.id FROM requirements r WHERE r.standard_id = $1
			AND NOT EXISTS (SELECT 1 FROM requirements c WHERE c.parent_id = r.id) ORDER BY r.id`, std) {
			ar := assess.NewID(assess.PrefixAssessmentRequirement, now)
			res, rationale := r.answer()
			rows = append(rows, []any{ar, id, rq, std, res, rationale})
			if r.rng.IntN(2) == 0 {
				links = append(links, []any{ar, r.evidence(), id})
			}
		}
	}
	_, err = r.pool.CopyFrom(r.ctx, pgx.Identifier{"assessment_requirements"},
		[]string{"id", "assessment_id", "requirement_id", "standard_id", "result", "rationale"}, pgx.CopyFromRows(rows))
	require.NoError(r.t, err)
	r.check(false)
	_, err = r.pool.CopyFrom(r.ctx, pgx.Identifier{"assessment_requirement_evidence"},
		[]string{"assessment_requirement_id", "evidence_id", "assessment_id"}, pgx.CopyFromRows(links))
	require.NoError(r.t, err)
	return true
}

// sqlUpdate changes the answers of requirement rows of several assessments in one plain
// UPDATE, as an operator's script might.
func (r *progressRun) sqlUpdate() bool {
	ids := r.strings(`SELECT id FROM assessment_requirements ORDER BY id`)
	r.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	ids = ids[:min(len(ids), 1+r.rng.IntN(8))]
	if len(ids) == 0 {
		return false
	}
	results, rationales := make([]*string, len(ids)), make([]string, len(ids))
	for i := range ids {
		res, rationale := r.answer()
		if res != nil {
			s := string(*res)
			results[i] = &s
		}
		rationales[i] = []string{rationale, "\t"}[r.rng.IntN(2)] // a tab is no blank to btrim
	}
	_, err := r.pool.Exec(r.ctx, `UPDATE assessment_requirements ar SET result = v.result, rationale = v.rationale
		FROM unnest($1::text[], $2::text[], $3::text[]) AS v(id, result, rationale) WHERE ar.id = v.id`, ids, results, rationales)
	require.NoError(r.t, err)
	return true
}

// sqlLinks links a piece of evidence to several requirements in one INSERT … ON CONFLICT
// DO NOTHING, some of them linked already (as an attestation import writes links), or
// removes all the links of a piece of evidence in one DELETE.
func (r *progressRun) sqlLinks() bool {
	ev := r.evidence()
	if r.rng.IntN(3) == 0 {
		tag, err := r.pool.Exec(r.ctx, `DELETE FROM assessment_requirement_evidence WHERE evidence_id = $1`, ev)
		require.NoError(r.t, err)
		return tag.RowsAffected() > 0
	}
	ids := r.strings(`SELECT id FROM assessment_requirements ORDER BY id`)
	r.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	ids = ids[:min(len(ids), 1+r.rng.IntN(5))]
	if len(ids) == 0 {
		return false
	}
	ids = append(ids, ids[0]) // the same link twice in one statement
	tag, err := r.pool.Exec(r.ctx, `INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		SELECT ar.id, $2, ar.assessment_id FROM unnest($1::text[]) AS v(id) JOIN assessment_requirements ar ON ar.id = v.id
		ON CONFLICT DO NOTHING`, ids, ev)
	require.NoError(r.t, err)
	return tag.RowsAffected() > 0
}

// deleteUser makes a user the one who answered some requirements and linked some evidence,
// then deletes them: the foreign keys set both to null, which updates those rows and counts
// nothing.
func (r *progressRun) deleteUser() bool {
	ars := r.strings(`SELECT id FROM assessment_requirements ORDER BY id LIMIT 5`)
	if len(ars) == 0 {
		return false
	}
	u := assess.NewID(assess.PrefixUser, time.Now())
	for _, sql := range []string{
		`INSERT INTO users (id, username, email) VALUES ($1, 'u' || $1, $1 || '@example.com')`,
		`UPDATE assessment_requirements SET answered_by = $1 WHERE id = ANY ($2)`,
		`UPDATE assessment_requirement_evidence SET linked_by = $1 WHERE assessment_requirement_id = ANY ($2)`,
		`DELETE FROM users WHERE id = $1`,
	} {
		args := []any{u, ars}
		if sql[0] == 'I' || sql[0] == 'D' {
			args = args[:1]
		}
		_, err := r.pool.Exec(r.ctx, sql, args...)
		require.NoError(r.t, err, sql)
	}
	return true
}

// TestAssessmentProgressWritersDoNotDeadlock runs the writes that change two assessments'
// counters concurrently — results one at a time and in bulk, evidence linked and unlinked,
// evidence created linked to requirements of both in random order, claims about them made,
// changed and deleted — and then finds the
// counters equal to the aggregate and no deadlock in the database's statistics: PostgreSQL
// would have resolved one by aborting a transaction, which the store runs again, so only
// the statistics show it.
func TestAssessmentProgressWritersDoNotDeadlock(t *testing.T) {
	t.Parallel()
	seed := progressSeed(t)
	r := newProgressRun(t, seed)
	workers := openPool(t, r.dsn)
	w := newBusyWorld(r, workers)
	before := deadlocks(t, r.pool)
	errs := make(chan error, 8)
	for i := range 8 {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		go func() { errs <- w.write(r.ctx, rng) }()
	}
	for range 8 {
		require.NoError(t, <-errs)
	}
	closeWorkers(t, r.pool, workers)
	require.Positive(t, w.claimsMade.Load(), "claims made")
	require.Equal(t, before, deadlocks(t, r.pool), "deadlocks (seed %d)", seed)
	require.Equal(t, progressByKey(t, r.pool, progressAggregateSQL), progressByKey(t, r.pool, progressCountsSQL))
	require.Equal(t, progressByKey(t, r.pool, participantShardsAggregateSQL), progressByKey(t, r.pool, participantShardsSQL))
	require.Equal(t, progressByKey(t, r.pool, evidenceAssessmentsAggregateSQL), progressByKey(t, r.pool, evidenceAssessmentsSQL))
	require.Equal(t, progressByKey(t, r.pool, claimLinksAggregateSQL), progressByKey(t, r.pool, claimLinksSQL))
}

// closeWorkers closes the pool workers and waits until their backends have ended, when
// they have reported their statistics (deadlocks) to the database's, which admin reads.
func closeWorkers(t *testing.T, admin, workers *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	var pids []uint32
	for _, c := range workers.AcquireAllIdle(ctx) {
		pids = append(pids, c.Conn().PgConn().PID())
		c.Release()
	}
	workers.Close()
	require.Eventually(t, func() bool {
		var left int
		require.NoError(t, admin.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE pid = ANY ($1)`, pids).Scan(&left))
		return left == 0
	}, 10*time.Second, 50*time.Millisecond)
	time.Sleep(200 * time.Millisecond)
}

// deadlocks is the number of deadlocks PostgreSQL has counted in pool's database.
func deadlocks(t *testing.T, pool *pgxpool.Pool) int64 {
	t.Helper()
	var n int64
	require.NoError(t, pool.QueryRow(context.Background(), `SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`).Scan(&n))
	return n
}

// busyWorld is what the concurrent writers share: two assessments in progress (two
// requirements of each, so that the writers collide often) and four pieces of evidence,
// written through services on their own pool.
type busyWorld struct {
	svc          *services.Services
	pool         *pgxpool.Pool
	actor        assess.Actor
	ars          []string
	assessmentOf map[string]string // requirement → its assessment
	evidence     []string
	claimsMade   atomic.Int64 // claims created, so that the test knows they were written
}

func newBusyWorld(r *progressRun, workers *pgxpool.Pool) *busyWorld {
	cfg := services.DefaultConfig()
	cfg.RationaleMinWords = 0
	w := &busyWorld{svc: services.NewWith(postgres.New(workers, nil), cfg), pool: workers, actor: r.actor, assessmentOf: map[string]string{}}
	for _, std := range [][]assess.AssessmentStandardInput{{{StandardID: r.stds[0]}, {StandardID: r.stds[1]}}, {{StandardID: r.stds[1]}}} {
		a, err := w.svc.Assessments.CreateAssessment(r.ctx, assess.NewAssessment{Title: "Busy", EntityID: r.entity, Standards: std}, r.actor)
		require.NoError(r.t, err)
		_, err = w.svc.Assessments.TransitionAssessment(r.ctx, a.ID, assess.AssessmentTransition{To: assess.AssessmentInProgress, Version: a.Version}, r.actor)
		require.NoError(r.t, err)
		for _, ar := range r.strings(`SELECT id FROM assessment_requirements WHERE assessment_id = $1 ORDER BY id LIMIT 2`, a.ID) {
			w.ars, w.assessmentOf[ar] = append(w.ars, ar), a.ID
		}
	}
	for i := range 4 {
		e, err := w.svc.Evidence.CreateEvidence(r.ctx, assess.NewEvidence{Name: fmt.Sprintf("Shared %d", i)}, r.actor)
		require.NoError(r.t, err)
		w.evidence = append(w.evidence, e.ID)
	}
	return w
}

// write makes 60 random writes of TestAssessmentProgressWritersDoNotDeadlock: results,
// bulk results, links, unlinks, evidence created linked to requirements of both
// assessments in random order, evidence so created deleted again (its links go with it,
// while the others write links of the same author), and claims about the requirements
// (which count their claims) made citing the shared evidence, given other requirements, and
// deleted. Refusals of the domain (a stale
// version, a link that exists) are expected.
func (w *busyWorld) write(ctx context.Context, rng *rand.Rand) error {
	some := func(n int) []string {
		list := slices.Clone(w.ars)
		rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
		return list[:n]
	}
	res := assess.ResultYes
	for i := range 60 {
		var err error
		switch ar := w.ars[rng.IntN(len(w.ars))]; rng.IntN(9) {
		case 0:
			var v int64
			if err = w.pool.QueryRow(ctx, `SELECT version FROM assessment_requirements WHERE id = $1`, ar).Scan(&v); err == nil {
				_, err = w.svc.Results.RecordResult(ctx, w.assessmentOf[ar], ar, assess.ResultUpdate{Result: &res, Rationale: "Seen.", Version: v}, w.actor)
			}
		case 1:
			var items []assess.BulkResultItem
			for _, id := range some(1 + rng.IntN(4)) {
				if w.assessmentOf[id] == w.assessmentOf[ar] {
					items = append(items, assess.BulkResultItem{ID: id, Result: &res, Rationale: fmt.Sprintf("Bulk %d.", i)})
				}
			}
			if len(items) > 0 {
				_, err = w.svc.Results.RecordResults(ctx, w.assessmentOf[ar], assess.BulkResults{Items: items}, w.actor)
			}
		case 2:
			_, err = w.svc.Evidence.LinkEvidence(ctx, w.evidence[rng.IntN(len(w.evidence))], assess.NewEvidenceLink{AssessmentRequirementID: ar}, w.actor)
		case 3:
			err = w.svc.Evidence.UnlinkEvidence(ctx, w.evidence[rng.IntN(len(w.evidence))], ar, w.actor)
		case 4:
			_, err = w.svc.Evidence.CreateEvidence(ctx, assess.NewEvidence{Name: fmt.Sprintf("Busy %d", i), RequirementIDs: some(2 + rng.IntN(2))}, w.actor)
		case 5:
			var e assess.Evidence
			if e, err = w.svc.Evidence.CreateEvidence(ctx, assess.NewEvidence{Name: fmt.Sprintf("Gone %d", i), RequirementIDs: some(2 + rng.IntN(2))}, w.actor); err == nil {
				err = w.svc.Evidence.DeleteEvidence(ctx, e.ID, e.Version, w.actor)
			}
		case 6:
			if _, err = w.svc.Claims.CreateClaim(ctx, w.assessmentOf[ar], assess.NewClaim{Name: fmt.Sprintf("Claim %d", i), Target: "The shop",
				Predicate: "is safe", EvidenceIDs: []string{w.evidence[rng.IntN(len(w.evidence))]},
				RequirementIDs: w.sameAssessment(ar, some(len(w.ars)))}, w.actor); err == nil {
				w.claimsMade.Add(1)
			}
		default:
			var id string
			var v int64
			if err = w.pool.QueryRow(ctx, `SELECT id, version FROM claims WHERE assessment_id = $1 ORDER BY random() LIMIT 1`,
				w.assessmentOf[ar]).Scan(&id, &v); errors.Is(err, pgx.ErrNoRows) {
				err = nil
				break
			} else if err != nil {
				break
			}
			if rng.IntN(2) == 0 {
				err = w.svc.Claims.DeleteClaim(ctx, id, v, w.actor)
				break
			}
			ars := w.sameAssessment(ar, some(len(w.ars)))
			_, err = w.svc.Claims.UpdateClaim(ctx, id, assess.ClaimUpdate{Version: v, RequirementIDs: &ars}, w.actor)
		}
		var de *assess.Error
		if err != nil && !errors.As(err, &de) {
			return err
		}
	}
	return nil
}

// sameAssessment returns the requirements of list in ar's assessment, ar among them, in
// list's order.
func (w *busyWorld) sameAssessment(ar string, list []string) []string {
	var out []string
	for _, id := range list {
		if w.assessmentOf[id] == w.assessmentOf[ar] {
			out = append(out, id)
		}
	}
	return out
}

// team replaces an assessment's team through the service: some of the people as assessors
// and assessees (one may be both), or nobody.
func (r *progressRun) team() bool {
	id := r.assessmentIn(assess.AssessmentNew, assess.AssessmentPending, assess.AssessmentInProgress, assess.AssessmentOnHold)
	if id == "" {
		return false
	}
	var assessors, assessees []string
	for _, p := range r.people {
		switch r.rng.IntN(4) {
		case 0:
			assessors = append(assessors, p)
		case 1:
			assessees = append(assessees, p)
		case 2:
			assessors, assessees = append(assessors, p), append(assessees, p)
		}
	}
	_, err := r.svc.Assessments.ReplaceAssessmentTeam(r.ctx, id, assess.TeamUpdate{Version: r.version("assessments", id),
		AssessorIDs: assessors, AssesseeIDs: assessees}, r.actor)
	return r.done(err)
}

// sqlMembers changes team rows in plain SQL: several added in one statement, one role
// changed, or a person taken off every team.
func (r *progressRun) sqlMembers() bool {
	var sql string
	args := []any{r.pick(r.people)}
	switch r.rng.IntN(3) {
	case 0:
		sql = `INSERT INTO assessment_members (assessment_id, user_id, role) SELECT id, $1, 'assessee' FROM assessments ON CONFLICT DO NOTHING`
	case 1:
		sql = `UPDATE assessment_members SET role = CASE role WHEN 'assessor' THEN 'assessee' ELSE 'assessor' END
			WHERE user_id = $1 AND NOT EXISTS (SELECT 1 FROM assessment_members o WHERE o.assessment_id = assessment_members.assessment_id
				AND o.user_id = $1 AND o.role <> assessment_members.role)`
	default:
		sql = `DELETE FROM assessment_members WHERE user_id = $1`
	}
	tag, err := r.pool.Exec(r.ctx, sql, args...)
	require.NoError(r.t, err, sql)
	return tag.RowsAffected() > 0
}

// evidencePeople gives linked evidence another author or reviewer (or none), one piece or
// all of them in one statement.
func (r *progressRun) evidencePeople() bool {
	column := "author_id"
	var who any = r.pick(r.people)
	if r.rng.IntN(2) == 0 {
		column = "reviewer_id"
		if r.rng.IntN(3) == 0 {
			who = nil
		}
	}
	linked := r.strings(`SELECT DISTINCT evidence_id FROM assessment_requirement_evidence ORDER BY 1`)
	if len(linked) == 0 {
		return false
	}
	ids := []string{r.pick(linked)}
	if r.rng.IntN(3) == 0 {
		ids = linked
	}
	tag, err := r.pool.Exec(r.ctx, "UPDATE evidence SET "+column+" = $1 WHERE id = ANY ($2)", who, ids)
	require.NoError(r.t, err)
	return tag.RowsAffected() > 0
}

// citations adds a claim citing linked evidence in two ways (one statement), or deletes a
// citation, or a claim with its citations.
func (r *progressRun) citations() bool {
	claims := r.strings(`SELECT id FROM claims ORDER BY id`)
	switch n := r.rng.IntN(4); {
	case n == 0 && len(claims) > 0:
		tag, err := r.pool.Exec(r.ctx, `DELETE FROM claims WHERE id = $1`, r.pick(claims))
		require.NoError(r.t, err)
		return tag.RowsAffected() > 0
	case n == 1 && len(claims) > 0:
		tag, err := r.pool.Exec(r.ctx, `DELETE FROM claim_evidence WHERE ctid = (SELECT ctid FROM claim_evidence WHERE claim_id = $1 LIMIT 1)`, r.pick(claims))
		require.NoError(r.t, err)
		return tag.RowsAffected() > 0
	}
	links := r.strings(`SELECT assessment_id || ' ' || evidence_id FROM assessment_requirement_evidence ORDER BY 1`)
	if len(links) == 0 {
		return false
	}
	a, ev, _ := strings.Cut(r.pick(links), " ")
	claim := assess.NewID(assess.PrefixClaim, time.Now())
	_, err := r.pool.Exec(r.ctx, `INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES ($1, $2, 'C', 'T', 'P')`, claim, a)
	require.NoError(r.t, err)
	_, err = r.pool.Exec(r.ctx, `INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ($1, $2, 'evidence'), ($1, $2, 'mitigation')`, claim, ev)
	require.NoError(r.t, err)
	return true
}

// claims makes, changes or deletes a claim through the service: a new claim about one to
// three requirements of an assessment (citing a piece of its linked evidence when there is
// one), a claim's requirements replaced by others of its assessment (some kept), or a claim
// deleted with its citations.
func (r *progressRun) claims() bool {
	claims := r.strings(`SELECT id FROM claims ORDER BY id`)
	switch n := r.rng.IntN(4); {
	case n == 0 && len(claims) > 0:
		id := r.pick(claims)
		return r.done(r.svc.Claims.DeleteClaim(r.ctx, id, r.version("claims", id), r.actor))
	case n == 1 && len(claims) > 0:
		id := r.pick(claims)
		var a string
		require.NoError(r.t, r.pool.QueryRow(r.ctx, `SELECT assessment_id FROM claims WHERE id = $1`, id).Scan(&a))
		ars := r.requirementsOf(a, r.rng.IntN(4))
		_, err := r.svc.Claims.UpdateClaim(r.ctx, id, assess.ClaimUpdate{Version: r.version("claims", id), RequirementIDs: &ars}, r.actor)
		return r.done(err)
	}
	a := r.assessmentIn(assess.AssessmentInProgress, assess.AssessmentOnHold)
	ars := r.requirementsOf(a, 1+r.rng.IntN(3))
	if len(ars) == 0 {
		return false
	}
	in := assess.NewClaim{Name: fmt.Sprintf("Claim %d", r.step), Target: "The shop", Predicate: "is safe", RequirementIDs: ars}
	if ev := r.strings(`SELECT DISTINCT evidence_id FROM assessment_requirement_evidence WHERE assessment_id = $1 ORDER BY 1`, a); len(ev) > 0 {
		in.EvidenceIDs = []string{r.pick(ev)}
	}
	_, err := r.svc.Claims.CreateClaim(r.ctx, a, in, r.actor)
	return r.done(err)
}
