package work

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The dashboard's figures (assess.Dashboard; docs/assessments.md, "Dashboard"). Each query
// carries the caller's visibility condition — the one the lists use — so a figure counts only
// what the caller could open; one read-only snapshot makes the figures agree with each other.

// DashboardService implements assess.DashboardService. Its figures aggregate over every
// finished assessment's answers (700,000 rows and more at scale: about a second), so each
// dashboard is kept for DashboardCacheTTL: one copy for everyone who sees everything, one per
// user otherwise; concurrent requests for a dashboard being computed wait for it instead of
// computing it again. generatedAt says how old the figures are.
type DashboardService struct {
	db    *postgres.DB
	cache *answerCache[assess.Dashboard]
}

// DashboardCacheTTL is how long a computed dashboard is served again.
const DashboardCacheTTL = 30 * time.Second

// dashboardCacheMax bounds the dashboards kept (answerCache).
const dashboardCacheMax = 10000

// NewDashboardService returns the dashboard on db, each kept for ttl (DashboardCacheTTL when
// zero; negative: not kept).
func NewDashboardService(db *postgres.DB, ttl time.Duration) *DashboardService {
	if ttl == 0 {
		ttl = DashboardCacheTTL
	}
	return &DashboardService{db: db, cache: newAnswerCache[assess.Dashboard](ttl, dashboardCacheMax)}
}

// Dashboard implements assess.DashboardService.
func (s *DashboardService) Dashboard(ctx context.Context, actor assess.Actor) (assess.Dashboard, error) {
	key := "user:" + postgres.ActorID(actor)
	if assess.SeesEveryAssessment(actor) && assess.SeesAllEvidence(actor) {
		key = "all"
	}
	return s.cache.get(ctx, key, func(ctx context.Context) (assess.Dashboard, error) { return s.compute(ctx, actor) })
}

var (
	dashboardAssessmentStates = []string{"new", "pending", "in_progress", "on_hold", "complete", "archived", "cancelled"}
	dashboardEvidenceStates   = []string{string(assess.EvidenceInProgress), string(assess.EvidenceInReview), string(assess.EvidenceClaimed), string(assess.EvidenceExpired)}
	dashboardAttestStates     = []string{string(assess.AttestationDraft), string(assess.AttestationSigning), string(assess.AttestationSealed),
		string(assess.AttestationRescinded), string(assess.AttestationImported)}
)

// compute reads every figure of actor's dashboard in one read-only snapshot.
func (s *DashboardService) compute(ctx context.Context, actor assess.Actor) (assess.Dashboard, error) {
	now := s.db.Now()
	today := now.UTC().Format(time.DateOnly)
	out := assess.Dashboard{GeneratedAt: now.UTC(), ExpiringDays: assess.DashboardExpiringDays,
		Conformance: []assess.StandardConformance{}, Upcoming: []assess.DueAssessment{}, WeakestRequirements: []assess.RequirementRisk{},
		ExpiringCited: []assess.CitedEvidence{}, RecentActivity: []assess.DashboardActivity{}}
	tx, err := s.db.Pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return out, postgres.DBError(err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	d := dashboardRun{ctx: ctx, q: tx, actor: actor, today: today, out: &out}
	for _, step := range []func() error{d.assessments, d.evidence, d.attestations, d.conformance, d.upcoming, d.weakest, d.expiringCited, d.recentActivity} {
		if err := step(); err != nil {
			return out, postgres.DBError(err)
		}
	}
	return out, nil
}

type dashboardRun struct {
	ctx   context.Context
	q     postgres.Querier
	actor assess.Actor
	today string
	out   *assess.Dashboard
}

// visibleAssessments is the condition on assessment alias a for the caller, with its args.
func (d *dashboardRun) visibleAssessments(args *postgres.SQLArgs, expr string) string {
	if cond := postgres.AssessmentVisibleSQL(d.actor, expr, args.Add); cond != "" {
		return " AND " + cond
	}
	return ""
}

func countsOf(states []string, got map[string]int) []assess.StateCount {
	out := make([]assess.StateCount, 0, len(states))
	for _, s := range states {
		out = append(out, assess.StateCount{State: s, Count: got[s]})
	}
	return out
}

func (d *dashboardRun) assessments() error {
	var args postgres.SQLArgs
	today := args.Add(d.today)
	rows, err := d.q.Query(d.ctx, `SELECT a.state, count(*), count(*) FILTER (WHERE `+assessmentOverdueSQL("a", today)+`)
		FROM assessments a WHERE true`+d.visibleAssessments(&args, "a.id")+` GROUP BY a.state`, args...)
	if err != nil {
		return err
	}
	got := map[string]int{}
	a := &d.out.Assessments
	for rows.Next() {
		var state string
		var n, overdue int
		if err := rows.Scan(&state, &n, &overdue); err != nil {
			return err
		}
		got[state] = n
		a.Total += n
		a.Overdue += overdue
	}
	a.ByState = countsOf(dashboardAssessmentStates, got)
	return rows.Err()
}

func (d *dashboardRun) evidence() error {
	var args postgres.SQLArgs
	today := args.Add(d.today)
	days := args.Add(assess.DashboardExpiringDays)
	where := "true"
	// The participant's pieces gathered once, then each read by key: as a semi-join
	// PostgreSQL expected the set at its assessments' share of every tie and hashed it
	// against every piece of evidence (28–31 ms for a participant of a few assessments at
	// make bench's million-row data, 2.6–2.9 ms so).
	if set := postgres.VisibleEvidenceIDsSQL(d.actor, args.Add); set != "" {
		where = "e.id = ANY (ARRAY(" + set + "))"
	}
	rows, err := d.q.Query(d.ctx, `SELECT e.state, count(*),
		count(*) FILTER (WHERE e.state <> 'expired' AND e.valid_until >= `+today+`::date AND e.valid_until <= `+today+`::date + `+days+`::int)
		FROM evidence e WHERE `+where+` GROUP BY e.state`, args...)
	if err != nil {
		return err
	}
	got := map[string]int{}
	e := &d.out.Evidence
	for rows.Next() {
		var state string
		var n, expiring int
		if err := rows.Scan(&state, &n, &expiring); err != nil {
			return err
		}
		got[state] = n
		e.Total += n
		e.Expiring += expiring
	}
	e.ByState = countsOf(dashboardEvidenceStates, got)
	e.InReview, e.Expired = got[string(assess.EvidenceInReview)], got[string(assess.EvidenceExpired)]
	return rows.Err()
}

func (d *dashboardRun) attestations() error {
	var args postgres.SQLArgs
	today := args.Add(d.today)
	days := args.Add(assess.DashboardExpiringDays)
	rows, err := d.q.Query(d.ctx, `SELECT t.state, count(*),
		count(*) FILTER (WHERE t.state = 'sealed' AND t.valid_until >= `+today+`::date AND t.valid_until <= `+today+`::date + `+days+`::int)
		FROM attestations t WHERE true`+d.visibleAssessments(&args, "t.assessment_id")+` GROUP BY t.state`, args...)
	if err != nil {
		return err
	}
	got := map[string]int{}
	t := &d.out.Attestations
	for rows.Next() {
		var state string
		var n, expiring int
		if err := rows.Scan(&state, &n, &expiring); err != nil {
			return err
		}
		got[state] = n
		t.Total += n
		t.Expiring += expiring
	}
	t.ByState = countsOf(dashboardAttestStates, got)
	t.Sealed = got[string(assess.AttestationSealed)]
	return rows.Err()
}

// finished is the condition "assessment alias a is finished".
var finished = "a.state IN " + postgres.SQLList(assess.FinishedAssessmentStates)

// conformance is per standard: the finished assessments, the mean of their scores for it and
// the tally of their answers, read from each assessment's counters for the standard
// (assessment_progress) rather than from its answers one by one.
func (d *dashboardRun) conformance() error {
	var args postgres.SQLArgs
	vis := d.visibleAssessments(&args, "a.id")
	rows, err := d.q.Query(d.ctx, `WITH fin AS (SELECT s.assessment_id, s.standard_id, s.conformance_score FROM assessment_standards s
			JOIN assessments a ON a.id = s.assessment_id WHERE `+finished+vis+`),
		tally AS (SELECT p.standard_id, sum(p.yes) AS yes, sum(p.partial) AS partial, sum(p.no) AS no, sum(p.not_applicable) AS na
			FROM assessment_progress p JOIN fin ON fin.assessment_id = p.assessment_id AND fin.standard_id = p.standard_id
			GROUP BY p.standard_id)
		SELECT st.id, st.name, st.standard_version, count(*), round(avg(fin.conformance_score), 2)::float8,
			coalesce(max(tally.yes), 0), coalesce(max(tally.partial), 0), coalesce(max(tally.no), 0), coalesce(max(tally.na), 0)
		FROM fin JOIN standards st ON st.id = fin.standard_id LEFT JOIN tally ON tally.standard_id = fin.standard_id
		GROUP BY st.id ORDER BY count(*) DESC, st.name, st.id LIMIT 20`, args...)
	if err != nil {
		return err
	}
	d.out.Conformance, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.StandardConformance, error) {
		var c assess.StandardConformance
		err := r.Scan(&c.StandardID, &c.Name, &c.StandardVersion, &c.Assessments, &c.AverageScore, &c.Yes, &c.Partial, &c.No, &c.NotApplicable)
		return c, err
	})
	if d.out.Conformance == nil {
		d.out.Conformance = []assess.StandardConformance{}
	}
	return err
}

func (d *dashboardRun) upcoming() error {
	var args postgres.SQLArgs
	today := args.Add(d.today)
	rows, err := d.q.Query(d.ctx, `SELECT a.id, a.title, en.name, a.state, to_char(a.due_date, 'YYYY-MM-DD'), a.due_date < `+today+`::date
		FROM assessments a JOIN entities en ON en.id = a.entity_id
		WHERE a.due_date IS NOT NULL AND a.state NOT IN `+postgres.SQLList(assess.ReadOnlyAssessmentStates)+d.visibleAssessments(&args, "a.id")+`
		ORDER BY a.due_date, a.id LIMIT 10`, args...)
	if err != nil {
		return err
	}
	d.out.Upcoming, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.DueAssessment, error) {
		var a assess.DueAssessment
		err := r.Scan(&a.ID, &a.Title, &a.EntityName, &a.State, &a.DueDate, &a.Overdue)
		return a, err
	})
	if d.out.Upcoming == nil {
		d.out.Upcoming = []assess.DueAssessment{}
	}
	return err
}

// weakest is the requirements most often not met in finished assessments: the ten with the
// lowest mean conformance among those not met (no or partial) at least once, the most
// answers first among equals (docs/assessments.md). Over every
// finished assessment it reads the tallies PostgreSQL keeps per requirement (migration
// 0044: aggregating every result of every finished assessment took 301 ms of a 395 ms
// dashboard at make bench's million-row data); over a participant's, it aggregates their
// results. Both compute the score alike: the mean of 1, 0.5 and 0, as a fraction in
// numeric, then a percentage rounded to two places.
func (d *dashboardRun) weakest() error {
	var args postgres.SQLArgs
	vis := d.visibleAssessments(&args, "a.id")
	tallies := `(SELECT ar.requirement_id, count(*) AS answered, count(*) FILTER (WHERE ar.result = 'no') AS no,
				count(*) FILTER (WHERE ar.result = 'partial') AS partial,
				round(100.0 * avg(CASE ar.result WHEN 'yes' THEN 1 WHEN 'partial' THEN 0.5 ELSE 0 END), 2) AS score
			FROM assessment_requirements ar JOIN assessments a ON a.id = ar.assessment_id
			WHERE ar.result IN ('yes', 'partial', 'no') AND ` + finished + vis + `
			GROUP BY ar.requirement_id HAVING count(*) FILTER (WHERE ar.result IN ('no', 'partial')) > 0)`
	if vis == "" {
		tallies = `(SELECT t.requirement_id, t.yes + t.partial + t.no AS answered, t.no, t.partial,
				round(100.0 * ((t.yes + 0.5 * t.partial) / (t.yes + t.partial + t.no)), 2) AS score
			FROM requirement_tallies t WHERE t.no + t.partial > 0)`
	}
	rows, err := d.q.Query(d.ctx, `SELECT r.id, r.identifier, r.name, st.id, st.name, x.answered, x.no, x.partial, x.score::float8
		FROM `+tallies+` x
		JOIN requirements r ON r.id = x.requirement_id JOIN standards st ON st.id = r.standard_id
		ORDER BY x.score, x.answered DESC, r.id LIMIT 10`, args...)
	if err != nil {
		return err
	}
	d.out.WeakestRequirements, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.RequirementRisk, error) {
		var q assess.RequirementRisk
		err := r.Scan(&q.RequirementID, &q.Identifier, &q.Name, &q.StandardID, &q.StandardName, &q.Answered, &q.No, &q.Partial, &q.Score)
		return q, err
	})
	if d.out.WeakestRequirements == nil {
		d.out.WeakestRequirements = []assess.RequirementRisk{}
	}
	return err
}

// expiringCited is evidence a sealed attestation's claims cite that has expired or expires
// within the window, soonest first; visible evidence of visible attestations only.
func (d *dashboardRun) expiringCited() error {
	var args postgres.SQLArgs
	today := args.Add(d.today)
	days := args.Add(assess.DashboardExpiringDays)
	vis := d.visibleAssessments(&args, "t.assessment_id")
	if cond := postgres.EvidenceVisibleSQL(d.actor, "e.id", "e.author_id", "e.reviewer_id", args.Add); cond != "" {
		vis += " AND " + cond
	}
	rows, err := d.q.Query(d.ctx, `SELECT DISTINCT ON (e.valid_until, e.id) e.id, e.name, to_char(e.valid_until, 'YYYY-MM-DD'),
			e.valid_until < `+today+`::date, t.id, a.title
		FROM attestations t JOIN assessments a ON a.id = t.assessment_id
		JOIN attestation_claims ac ON ac.attestation_id = t.id JOIN claim_evidence ce ON ce.claim_id = ac.claim_id
		JOIN evidence e ON e.id = ce.evidence_id
		WHERE t.state = 'sealed' AND e.valid_until <= `+today+`::date + `+days+`::int`+vis+`
		ORDER BY e.valid_until, e.id, t.id LIMIT 10`, args...)
	if err != nil {
		return err
	}
	d.out.ExpiringCited, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.CitedEvidence, error) {
		var c assess.CitedEvidence
		err := r.Scan(&c.ID, &c.Name, &c.ValidUntil, &c.Expired, &c.AttestationID, &c.Assessment)
		return c, err
	})
	if d.out.ExpiringCited == nil {
		d.out.ExpiringCited = []assess.CitedEvidence{}
	}
	return err
}

// recentActivity is the newest audit rows recorded under an assessment the caller may see,
// as the assessments' timelines show them. A participant's assessments are read first and
// given as an array, so PostgreSQL can choose between walking the newest rows of all and
// reading each assessment's rows from the scope index (a participant of one assessment).
func (d *dashboardRun) recentActivity() error {
	var args postgres.SQLArgs
	where := "a.scope_id <> ''"
	if !assess.SeesEveryAssessment(d.actor) {
		ids, _, err := postgres.VisibleAssessmentIDs(d.ctx, d.q, d.actor)
		if err != nil {
			return err
		}
		where += " AND a.scope_id = ANY(" + args.Add(ids) + "::text[])"
	}
	sql := strings.Replace(timelineSelect, "SELECT ", "SELECT sa.id, sa.title, ", 1) +
		" JOIN assessments sa ON sa.id = a.scope_id WHERE " + where + " ORDER BY a.id DESC LIMIT " + args.Add(assess.DashboardRecentActivity)
	rows, err := d.q.Query(d.ctx, sql, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var item assess.DashboardActivity
		if err := rows.Scan(append([]any{&item.AssessmentID, &item.AssessmentTitle}, timelineDest(&item.Entry)...)...); err != nil {
			return err
		}
		tidyTimelineEntry(&item.Entry)
		d.out.RecentActivity = append(d.out.RecentActivity, item)
	}
	return rows.Err()
}
