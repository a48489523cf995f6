package work

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Assessments: the record, its standards, team and tags, and the progress PostgreSQL keeps
// counted for its requirements (docs/assessments.md). Every read and write goes through the
// object-level rule of visibility.go: what the caller may not see is 404.

// assessmentColumns read an assessment without its links; the last column is the sort
// key of the title order.
const assessmentColumns = `a.id, a.title, a.description, a.state, a.entity_id, e.name, coalesce(a.project_id, ''),
	coalesce(p.name, ''), coalesce(to_char(a.due_date, 'YYYY-MM-DD'), ''), a.started_at, a.ended_at,
	a.conformance_score::float8, a.completion_evidence, coalesce(a.created_by, ''), a.version, a.created_at, a.updated_at, lower(a.title)`

const assessmentFrom = ` FROM assessments a JOIN entities e ON e.id = a.entity_id LEFT JOIN projects p ON p.id = a.project_id`

// assessmentRow is an assessment as read, with the sort key of the title order.
type assessmentRow struct {
	assess.Assessment
	sortTitle string
}

func scanAssessment(r pgx.Row) (assessmentRow, error) {
	var a assessmentRow
	err := r.Scan(&a.ID, &a.Title, &a.Description, &a.State, &a.EntityID, &a.EntityName, &a.ProjectID, &a.ProjectName,
		&a.DueDate, &a.StartedAt, &a.EndedAt, &a.ConformanceScore, &a.CompletionEvidence, &a.CreatedBy, &a.Version, &a.CreatedAt, &a.UpdatedAt, &a.sortTitle)
	a.CreatedAt, a.UpdatedAt, a.StartedAt, a.EndedAt = a.CreatedAt.UTC(), a.UpdatedAt.UTC(), postgres.UTCPtr(a.StartedAt), postgres.UTCPtr(a.EndedAt)
	return a, err
}

// assessmentSorts are the orders of the assessment list, each served by an index.
var assessmentSorts = map[string]postgres.SortOrder{
	"-createdAt": postgres.NewestFirst("a.id"),
	"title":      {Name: "title", Keys: []postgres.SortKey{{Expr: "lower(a.title)", Typ: "text"}, {Expr: "a.id", Typ: "text"}}},
	"dueDate": {Name: "dueDate", Keys: []postgres.SortKey{{Expr: "coalesce(a.due_date, '" + undatedLast + "'::date)", Typ: "date"},
		{Expr: "a.id", Typ: "text"}}},
	"-updatedAt": {Name: "-updatedAt", Keys: []postgres.SortKey{{Expr: "a.updated_at", Typ: "timestamptz", Desc: true},
		{Expr: "a.id", Typ: "text", Desc: true}}},
}

// assessmentSortKey returns the sort key values of an assessment in order.
func assessmentSortKey(order string) func(assessmentRow) []any {
	return func(a assessmentRow) []any {
		switch order {
		case "title":
			return []any{a.sortTitle, a.ID}
		case "dueDate":
			if a.DueDate == "" {
				return []any{undatedLast, a.ID}
			}
			return []any{a.DueDate, a.ID}
		case "-updatedAt":
			return []any{a.UpdatedAt, a.ID}
		}
		return []any{a.ID}
	}
}

// FindAssessments implements assess.AssessmentService: the assessments actor may see,
// filtered in SQL and keyset paginated; the links and progress of the page are read in
// one query each, sent together in one round trip after the page's.
func (s *AssessmentService) FindAssessments(ctx context.Context, f assess.AssessmentFilter, actor assess.Actor) (assess.Page[assess.Assessment], error) {
	if err := f.Validate(); err != nil {
		return assess.Page[assess.Assessment]{}, err
	}
	sortName := f.Sort
	order, ok := assessmentSorts[sortName]
	if !ok {
		sortName, order = "-createdAt", assessmentSorts["-createdAt"]
	}
	today := projectToday(s.db.Now())
	l := postgres.NewList("assessments", "SELECT "+assessmentColumns+assessmentFrom, order)
	if cond := postgres.AssessmentListVisibleSQL(actor, "a.id", l.Arg); cond != "" {
		l.Where(cond)
		// A participant's page on its generic plan: the custom plans PostgreSQL chose
		// merged the whole table, newest first, with the participant's set, passing over
		// the assessments of others (for a participant of 1,001 of 10,000: 510 rows and
		// 541 blocks for 51, 1.3 ms planning and 1.9 ms execution a page under make bench's
		// load), and were made anew for every page. The generic plan walks the participant's
		// set and reads the page's rows by id (0.26 ms, 516 blocks, no planning;
		// pgbench -c 1 of the page alone: 0.76–1.05 → 0.27–0.41 ms). With another sort or a
		// filter, custom and generic plans were measured alike (title order 4.5 and 4.9 ms,
		// a state 0.46 and 0.41, a search 4.5 and 2.0).
		l.GenericPlan()
	}
	filterAssessments(l, f, actor, today)
	page, err := postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanAssessment, assessmentSortKey(sortName))
	if err != nil {
		return assess.Page[assess.Assessment]{}, err
	}
	out := make([]assess.Assessment, len(page.Items))
	for i, a := range page.Items {
		out[i] = a.Assessment
	}
	if err := loadAssessmentLinks(ctx, s.db.Pool, out, today); err != nil {
		return assess.Page[assess.Assessment]{}, postgres.DBError(err)
	}
	return assess.NewPage(out, page.NextCursor), nil
}

// filterAssessments adds the list's filters.
func filterAssessments(l *postgres.List, f assess.AssessmentFilter, actor assess.Actor, today string) {
	postgres.Equal(l, "a.state", f.State)
	postgres.Equal(l, "a.project_id", f.Project)
	postgres.Equal(l, "a.entity_id", f.Entity)
	if f.Standard != "" {
		l.Where("EXISTS (SELECT 1 FROM assessment_standards fs WHERE fs.assessment_id = a.id AND fs.standard_id = " + l.Arg(f.Standard) + ")")
	}
	l.Tagged(postgres.AssessmentTags, "a.id", f.Tag)
	if f.Mine {
		l.Where("EXISTS (SELECT 1 FROM assessment_members fm WHERE fm.assessment_id = a.id AND fm.user_id = " + l.Arg(postgres.ActorID(actor)) + ")")
	}
	if f.Overdue {
		l.Where(assessmentOverdueSQL("a", l.Arg(today)))
	}
	if f.DueBefore != "" {
		l.Where("a.due_date < " + l.Arg(f.DueBefore) + "::date")
	}
	l.Search(f.Q, "a.title", "a.description")
}

// assessmentOverdueSQL is assess.AssessmentOverdue in SQL, for list filters and counts:
// the assessment alias is due before the day whose placeholder (YYYY-MM-DD text) is today
// and is not read-only (the states rendered from assess.ReadOnlyAssessmentStates).
func assessmentOverdueSQL(alias, today string) string {
	return "(" + alias + ".due_date < " + today + "::date AND " + alias + ".state NOT IN " +
		postgres.SQLList(assess.ReadOnlyAssessmentStates) + ")"
}

// FindAssessment implements assess.AssessmentService.
func (s *AssessmentService) FindAssessment(ctx context.Context, id string, actor assess.Actor) (assess.Assessment, error) {
	if _, err := postgres.VisibleAssessmentState(ctx, s.db.Pool, actor, id, false); err != nil {
		return assess.Assessment{}, postgres.DBError(err)
	}
	return findAssessment(ctx, s.db.Pool, id, projectToday(s.db.Now()))
}

// findAssessment reads an assessment as the API shows it, whoever asks: callers check
// visibility first (visibleAssessmentState). The row and its links are read in one round
// trip.
func findAssessment(ctx context.Context, q postgres.Querier, id, today string) (assess.Assessment, error) {
	var b pgx.Batch
	var a assessmentRow
	found := false
	b.Queue("SELECT "+assessmentColumns+assessmentFrom+" WHERE a.id = $1", id).QueryRow(func(r pgx.Row) error {
		var err error
		if a, err = scanAssessment(r); errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	var fill func(list []assess.Assessment, today string)
	postgres.QueueOnGenericPlans(&b, q, func(b *pgx.Batch) { fill = queueAssessmentLinks(b, []string{id}) })
	if err := q.SendBatch(ctx, &b).Close(); err != nil {
		return assess.Assessment{}, postgres.DBError(err)
	}
	if !found {
		return assess.Assessment{}, postgres.ErrAssessmentNotFound
	}
	out := []assess.Assessment{a.Assessment}
	fill(out, today)
	return out[0], nil
}

// assessmentProgressSQL reads the progress of the assessments $1 from their counters
// (assessment_progress, one row per assessment and standard, kept by PostgreSQL's triggers
// in the transaction of every write: migrations/0030_assessment_progress.sql): a page costs
// an index lookup per assessment, however many requirements they have. An assessment
// without requirements has no row (zero progress).
//
// This read and the page's others by ids (postgres.IDsJoin) join the ids as rows: as
// "= ANY($1)" on the generic plan, where PostgreSQL cannot hash the array, a table small
// enough to scan was scanned and each of its rows compared with each of the page's ids
// (make bench's 100,000-row data: 880 rows of assessment_progress times 51, 0.6 ms; the team
// hashed all 1,207 users, 1.2 ms), where the join looks each id up (0.16 and 0.34 ms).
const assessmentProgressSQL = `SELECT p.assessment_id, sum(p.total)::int, sum(p.answered)::int, sum(p.yes)::int,
	sum(p.partial)::int, sum(p.no)::int, sum(p.not_applicable)::int, sum(p.with_evidence)::int
	FROM ` + postgres.IDsJoin + ` JOIN assessment_progress p ON p.assessment_id = ids.id GROUP BY p.assessment_id`

// assessmentStandardsSQL reads the standards of the assessments $1, each assessment's in
// its order.
const assessmentStandardsSQL = `SELECT s.assessment_id, st.id, st.name, st.standard_version, coalesce(s.level_id, ''),
	coalesce(nullif(l.title, ''), l.identifier, ''), s.conformance_score::float8
	FROM ` + postgres.IDsJoin + ` JOIN assessment_standards s ON s.assessment_id = ids.id JOIN standards st ON st.id = s.standard_id
	LEFT JOIN levels l ON l.id = s.level_id ORDER BY s.position, st.id`

// assessmentTeamsSQL reads the teams of the assessments $1, in no order: the server sorts
// each team (byUsername), two or three members, where PostgreSQL sorted a page's 124 by
// lower(username), a quarter of the read's time (0.27 against 0.37 ms, million-row data).
const assessmentTeamsSQL = `SELECT m.assessment_id, m.role, u.id, u.username, u.display_name
	FROM ` + postgres.IDsJoin + ` JOIN assessment_members m ON m.assessment_id = ids.id JOIN users u ON u.id = m.user_id`

// byUsername orders users by username as PostgreSQL orders lower(username) in the C
// collation (postgres.CompareFolded), then by id.
func byUsername(a, b assess.UserRef) int {
	if c := postgres.CompareFolded(a.Username, b.Username); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// loadAssessmentLinks fills in the standards, team, tags and progress of assessments (one
// query each for all of them, the four sent together in one round trip), their allowed
// states and whether each is overdue on day today.
func loadAssessmentLinks(ctx context.Context, q postgres.Querier, list []assess.Assessment, today string) error {
	if len(list) == 0 {
		return nil
	}
	ids := make([]string, len(list))
	for i, a := range list {
		ids[i] = a.ID
	}
	var b pgx.Batch
	var fill func(list []assess.Assessment, today string)
	postgres.QueueOnGenericPlans(&b, q, func(b *pgx.Batch) { fill = queueAssessmentLinks(b, ids) })
	if err := q.SendBatch(ctx, &b).Close(); err != nil {
		return err
	}
	fill(list, today)
	return nil
}

// queueAssessmentLinks queues on b the reads of the tags, standards, team and progress of
// the assessments ids; once b has been read (closed), fill sets them on those of list,
// with their allowed states and whether each is overdue on day today.
func queueAssessmentLinks(b *pgx.Batch, ids []string) (fill func(list []assess.Assessment, today string)) {
	tags := postgres.QueueTags(b, postgres.AssessmentTags, ids)
	standards := map[string][]assess.AssessmentStandard{}
	var st assess.AssessmentStandard
	postgres.QueueLinks(b, assessmentStandardsSQL, ids, []any{&st.ID, &st.Name, &st.StandardVersion, &st.LevelID, &st.LevelName, &st.ConformanceScore},
		func(owner string) { standards[owner] = append(standards[owner], st) })
	assessors, assessees := map[string][]assess.UserRef{}, map[string][]assess.UserRef{}
	var role assess.MemberRole
	var u assess.UserRef
	postgres.QueueLinks(b, assessmentTeamsSQL, ids, []any{&role, &u.ID, &u.Username, &u.DisplayName}, func(owner string) {
		if role == assess.RoleInAssessmentAssessor {
			assessors[owner] = append(assessors[owner], u)
		} else {
			assessees[owner] = append(assessees[owner], u)
		}
	})
	progress := map[string]assess.AssessmentProgress{}
	var pr assess.AssessmentProgress
	postgres.QueueLinks(b, assessmentProgressSQL, ids,
		[]any{&pr.Total, &pr.Answered, &pr.Yes, &pr.Partial, &pr.No, &pr.NotApplicable, &pr.WithEvidence},
		func(owner string) { progress[owner] = pr })
	return func(list []assess.Assessment, today string) {
		for i := range list {
			a := &list[i]
			a.Tags, a.Standards = tags[a.ID], postgres.OrEmpty(standards[a.ID])
			a.Assessors, a.Assessees = postgres.OrEmpty(assessors[a.ID]), postgres.OrEmpty(assessees[a.ID])
			slices.SortFunc(a.Assessors, byUsername)
			slices.SortFunc(a.Assessees, byUsername)
			a.Progress = progress[a.ID]
			a.AllowedStates = postgres.OrEmpty(assess.AssessmentLifecycle.Allowed(a.State))
			a.Overdue = assess.AssessmentOverdue(a.State, a.DueDate, today)
		}
	}
}

// teamIDs returns the ids of an assessment's team members, each once.
func teamIDs(a assess.Assessment) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, u := range append(append([]assess.UserRef{}, a.Assessors...), a.Assessees...) {
		if !seen[u.ID] {
			seen[u.ID] = true
			out = append(out, u.ID)
		}
	}
	return out
}

// assessmentTarget names an assessment in the audit log; its own id is its scope, so its
// changes appear on its timeline.
func assessmentTarget(id string) postgres.Target {
	return postgres.Target{Type: "assessment", ID: id, Scope: id}
}

// assessmentEvent is the event content of a change to assessment a: its team is the
// audience, and only users who may see it receive it.
func assessmentEvent(a assess.Assessment, previous assess.AssessmentState) assess.NewEvent {
	return assess.NewEvent{Data: assess.AssessmentEvent{Assessment: a, PreviousState: previous}, Summary: a.Title,
		Link: "/assessments/" + a.ID, Audience: teamIDs(a), AssessmentID: a.ID}
}

// recordAssessment reads the assessment inside tx and records change c about it; the
// event goes to its team.
func recordAssessment(ctx context.Context, tx *postgres.Tx, c assess.Change, id string, details map[string]any) (assess.Assessment, error) {
	a, err := findAssessment(ctx, tx, id, projectToday(tx.Now))
	if err != nil {
		return a, err
	}
	return a, tx.Record(ctx, c, assessmentTarget(id), details, assessmentEvent(a, ""))
}

// lockedAssessment is what a change reads about an assessment after locking it.
type lockedAssessment struct {
	state     assess.AssessmentState
	startedAt *time.Time
}

// lockAssessment checks that actor may see assessment id (404 otherwise), locks it at
// version (409 version_conflict) and reads its state.
func lockAssessment(ctx context.Context, tx *postgres.Tx, id string, version int64) (lockedAssessment, error) {
	var la lockedAssessment
	if _, err := postgres.VisibleAssessmentState(ctx, tx, tx.Actor, id, false); err != nil {
		return la, err
	}
	if err := tx.LockVersion(ctx, "assessments", id, version, postgres.ErrAssessmentNotFound); err != nil {
		return la, err
	}
	err := tx.QueryRow(ctx, "SELECT state, started_at FROM assessments WHERE id = $1", id).Scan(&la.state, &la.startedAt)
	return la, err
}

var _ assess.AssessmentService = (*AssessmentService)(nil)
