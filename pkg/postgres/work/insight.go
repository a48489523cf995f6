package work

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Progress over time and the portfolio (assess.InsightService; docs/assessments.md,
// "Progress over time and portfolio"). A result is a finished assessment's score for one of
// its standards (assessment_standards.conformance_score, kept when it completed) at its
// completion time. Every statement carries the caller's visibility condition — in the set form
// the assessment list uses over all results, in the correlated form over the few of one
// entity or one page (postgres.AssessmentVisibleLookupSQL) — so no point, cell or count includes
// an assessment the caller could not open.

// InsightService implements assess.InsightService.
type InsightService struct{ db *postgres.DB }

// NewInsightService returns the score history and the portfolio on db.
func NewInsightService(db *postgres.DB) *InsightService { return &InsightService{db} }

// finishedSQL is the condition "assessment a is finished": complete or archived.
var finishedSQL = "a.state IN " + postgres.SQLList(assess.FinishedAssessmentStates)

// completedAtSQL is when assessment a was completed: its end time, which completing sets and
// archiving keeps (rows written without the API may lack it: their last change then).
const completedAtSQL = "coalesce(a.ended_at, a.updated_at)"

// ScoreHistory implements assess.InsightService: the entity's results, the most recent
// assess.ScoreHistoryMax of them, answered oldest first.
func (s *InsightService) ScoreHistory(ctx context.Context, entityID string, q assess.ScoreHistoryQuery, actor assess.Actor) (assess.ScoreHistory, error) {
	out := assess.ScoreHistory{EntityID: entityID, Points: []assess.ScorePoint{}}
	if err := q.Validate(); err != nil {
		return out, err
	}
	if !assess.ValidID(assess.PrefixEntity, entityID) {
		return out, errEntityNotFound
	}
	if err := s.checkFilters(ctx, entityID, "", q.Standard); err != nil {
		return out, err
	}
	args := postgres.SQLArgs{entityID}
	conds := []string{"a.entity_id = $1", finishedSQL}
	if q.Standard != "" {
		conds = append(conds, "s.standard_id = "+args.Add(q.Standard))
	}
	// An entity has few finished assessments: each is tested by the lookups of its ties rather
	// than against the participant's whole set, in every plan. As a plain EXISTS the generic
	// plan PostgreSQL settles on for the prepared statement hashed the participant's whole set
	// (the bench participant's 3,648 rows at the million-row data: 1.1 ms for an entity of two
	// assessments, against 0.03 ms for the lookups), and the score history's p99 grew 1.8×
	// from the thousand-row data.
	if vis := postgres.AssessmentVisibleLookupSQL(actor, "a.id", args.Add); vis != "" {
		conds = append(conds, vis)
	}
	rows, err := s.db.Pool.Query(ctx, `SELECT a.id, a.title, a.state, `+completedAtSQL+`, st.id, st.name, st.standard_version,
			coalesce(nullif(l.title, ''), l.identifier, ''), s.conformance_score::float8
		FROM assessments a JOIN assessment_standards s ON s.assessment_id = a.id JOIN standards st ON st.id = s.standard_id
		LEFT JOIN levels l ON l.id = s.level_id
		WHERE `+strings.Join(conds, " AND ")+`
		ORDER BY `+completedAtSQL+` DESC, a.id DESC, lower(st.name) DESC, st.id DESC LIMIT `+strconv.Itoa(assess.ScoreHistoryMax+1), args...)
	if err != nil {
		return out, postgres.DBError(err)
	}
	points, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.ScorePoint, error) {
		var p assess.ScorePoint
		err := r.Scan(&p.AssessmentID, &p.AssessmentTitle, &p.State, &p.CompletedAt, &p.StandardID, &p.StandardName,
			&p.StandardVersion, &p.LevelName, &p.Score)
		return p, err
	})
	if err != nil {
		return out, postgres.DBError(err)
	}
	if len(points) > assess.ScoreHistoryMax {
		points, out.Truncated = points[:assess.ScoreHistoryMax], true
	}
	slices.Reverse(points)
	for i := range points {
		points[i].CompletedAt = points[i].CompletedAt.UTC()
	}
	out.Points = append(out.Points, points...)
	return out, nil
}

// checkFilters answers 404 when a filter names a record that does not exist: the entity
// (when entityID is set), the project or the standard, each naming its field. Entities,
// projects and standards are not subject to the object-level rule: whoever may call these
// reads may know they exist. Without any of them it costs no round trip.
func (s *InsightService) checkFilters(ctx context.Context, entityID, projectID, standardID string) error {
	if entityID == "" && projectID == "" && standardID == "" {
		return nil
	}
	var entity, project, standard bool
	// On its generic plan: three lookups by key, which its custom plans took 0.17 ms to
	// make on every call for 0.01 ms of execution.
	err := postgres.QueryRowOnGenericPlan(ctx, s.db.Pool, `SELECT $1 = '' OR EXISTS (SELECT 1 FROM entities WHERE id = $1),
		$2 = '' OR EXISTS (SELECT 1 FROM projects WHERE id = $2), $3 = '' OR EXISTS (SELECT 1 FROM standards WHERE id = $3)`,
		[]any{entityID, projectID, standardID}, func(r pgx.Row) error { return r.Scan(&entity, &project, &standard) })
	switch {
	case err != nil:
		return postgres.DBError(err)
	case !entity:
		return errEntityNotFound
	case !project:
		return unknownFilter("project", "No such project.")
	case !standard:
		return unknownFilter("standard", "No such standard.")
	}
	return nil
}

// unknownFilter is the 404 of a filter naming no record, the detail naming the field.
func unknownFilter(field, message string) error {
	return &assess.Error{Code: assess.ECodeNotFound, Message: message,
		Details: []assess.Detail{{Field: field, Code: "unknown", Message: message}}}
}

// portfolioScope is the results a portfolio is made of, as a query of (entity_id,
// standard_id): one row per finished assessment the actor may see and each of its standards,
// of an entity that is not archived, narrowed by q. Its parameters are added through arg.
// For an actor who sees every assessment, without a project, it is the kept pairs of
// entity_results instead (migrations/0039), one row per entity and standard rather than per
// assessment: the statement that reads the scope asks only which pairs there are. A
// participant's whole portfolio (no filter) does not read a scope (participantKeptRowsSQL).
func portfolioScope(q assess.PortfolioQuery, actor assess.Actor, arg func(any) string) string {
	if q.Project == "" && assess.SeesEveryAssessment(actor) {
		return keptPortfolioScope(q, arg)
	}
	conds := []string{finishedSQL, "e.state <> " + postgres.SQLLiteral(assess.EntityArchived)}
	if q.Project != "" {
		conds = append(conds, "a.project_id = "+arg(q.Project))
	}
	if q.Standard != "" {
		conds = append(conds, "s.standard_id = "+arg(q.Standard))
	}
	if q.EntityType != "" {
		conds = append(conds, "e.entity_type = "+arg(q.EntityType))
	}
	if pattern := postgres.LikePattern(q.Q); pattern != "" {
		conds = append(conds, "e.name ILIKE "+arg(pattern))
	}
	if vis := postgres.AssessmentVisibleSQL(actor, "a.id", arg); vis != "" {
		conds = append(conds, vis)
	}
	return `SELECT a.entity_id, s.standard_id
		FROM assessments a JOIN assessment_standards s ON s.assessment_id = a.id JOIN entities e ON e.id = a.entity_id
		WHERE ` + strings.Join(conds, " AND ")
}

// keptPortfolioScope is portfolioScope for an actor who sees every assessment, without a
// project: the pairs of entity_results whose entity is not archived, narrowed by q.
func keptPortfolioScope(q assess.PortfolioQuery, arg func(any) string) string {
	conds := []string{"NOT er.archived"}
	if q.Standard != "" {
		conds = append(conds, "er.standard_id = "+arg(q.Standard))
	}
	if q.EntityType != "" {
		conds = append(conds, "e.entity_type = "+arg(q.EntityType))
	}
	if pattern := postgres.LikePattern(q.Q); pattern != "" {
		conds = append(conds, "e.name ILIKE "+arg(pattern))
	}
	return `SELECT er.entity_id, er.standard_id FROM entity_results er JOIN entities e ON e.id = er.entity_id
		WHERE ` + strings.Join(conds, " AND ")
}

// portfolioOrder is the order of the portfolio's rows: by name.
var portfolioOrder = postgres.SortOrder{Name: "name", Keys: []postgres.SortKey{{Expr: "lower(e.name)", Typ: "text"}, {Expr: "e.id", Typ: "text"}}}

// portfolioColumnsSQL selects the columns of a portfolio page as JSON (every standard with
// results, with its rank; cols of the statement it is part of) on the page's first row, and
// NULL on the others: {order} is the list's order, so the row numbered 1 is the first of the
// page, also after a cursor. On every row they were 51 copies of the same JSON a page (make
// bench's million-row data, 13 standards: 66 KB encoded by PostgreSQL and read by the
// server; pgbench -c 1 of the rows statement 1.15 → 0.80 ms).
const portfolioColumnsSQL = `CASE WHEN row_number() OVER (ORDER BY {order}) = 1 THEN
		(SELECT jsonb_agg(jsonb_build_object('id', st.id, 'name', st.name, 'version', st.standard_version, 'rank', cols.rank))
			FROM cols JOIN standards st ON st.id = cols.standard_id WHERE cols.rank <= {max} + 1) END`

// withColumns puts the page's columns (portfolioColumnsSQL), in order, into the rows
// statement sql.
func withColumns(sql string, order postgres.SortOrder) string {
	keys := make([]string, len(order.Keys))
	for i, k := range order.Keys {
		keys[i] = k.Expr
	}
	return strings.ReplaceAll(sql, "{columns}", strings.ReplaceAll(portfolioColumnsSQL, "{order}", strings.Join(keys, ", ")))
}

// portfolioRowsSQL selects the portfolio's rows with what every page shows, reading the
// results in scope (r) once — for a filtered page or a project's; for a participant the
// visibility condition is the costly part:
// the columns (cols: every standard with results, ranked by the entities it has results for),
// the entities with results in the kept columns (kept), and, on every row, the total of rows,
// and on the first the columns as JSON ({columns}: withColumns). The list adds the keyset
// condition, the order and the limit.
const portfolioRowsSQL = `WITH r AS MATERIALIZED ({scope}),
	cols AS (SELECT r.standard_id, row_number() OVER (ORDER BY count(DISTINCT r.entity_id) DESC, r.standard_id) AS rank
		FROM r GROUP BY r.standard_id),
	kept AS MATERIALIZED (SELECT DISTINCT r.entity_id FROM r JOIN cols ON cols.standard_id = r.standard_id AND cols.rank <= {max})
	SELECT e.id, e.name, e.entity_type, lower(e.name), (SELECT count(*) FROM kept),
		{columns}
	FROM entities e`

// portfolioKeptRowsSQL is portfolioRowsSQL for the whole portfolio of an actor who sees every
// assessment (no filter), read from what PostgreSQL keeps (migrations/0039): the columns from
// portfolio_standards, and the rows as the first of the index of portfolio_entities after
// the cursor, so a page reads its own rows and not every result. With more than {max}
// standards with results, a row is an entity with a result in a kept column (kept): then
// the total counts them in entity_results and each row of the page is tested. At the
// bench's million-row data (995 entities with 4,097 results against 13 standards) 0.54 ms a
// page, against 10.3 ms reading the results (pgbench -c 1, the same page and answers).
const portfolioKeptRowsSQL = `WITH cols AS MATERIALIZED (SELECT ps.standard_id, row_number() OVER (ORDER BY ps.entities DESC, ps.standard_id) AS rank
		FROM portfolio_standards ps),
	truncated AS MATERIALIZED (SELECT count(*) > {max} AS t FROM cols),
	kept AS (SELECT er.entity_id FROM entity_results er JOIN cols ON cols.standard_id = er.standard_id AND cols.rank <= {max}
		WHERE NOT er.archived)
	SELECT e.id, e.name, e.entity_type, pe.sort_name,
		CASE WHEN (SELECT t FROM truncated) THEN (SELECT count(DISTINCT kept.entity_id) FROM kept) ELSE (SELECT count(*) FROM portfolio_entities) END,
		{columns}
	FROM portfolio_entities pe JOIN entities e ON e.id = pe.entity_id`

// portfolioKeptOrder is portfolioOrder on portfolio_entities, whose sort_name is lower(name).
var portfolioKeptOrder = postgres.SortOrder{Name: "name", Keys: []postgres.SortKey{{Expr: "pe.sort_name", Typ: "text"}, {Expr: "pe.entity_id", Typ: "text"}}}

// participantKeptRowsSQL is portfolioKeptRowsSQL for the whole portfolio of a participant
// (an actor who does not see every assessment; no filter), read from what PostgreSQL keeps per
// user (migrations/0040: participant_results, participant_entities, participant_standards) for
// the user whose placeholder is {user}: the columns from the user's rows of
// participant_standards, the rows as the first of the user's range of
// participant_entities_name_idx after the cursor, so a page reads its own rows. The results in
// scope were every finished assessment the participant may see, read with their visibility:
// for make bench's participant on the million-row data (1,001 assessments, 3,682 rows of
// assessment_participants) 22–25 ms and 7,000 buffer hits a page under load, against 357
// buffer hits and under a millisecond here (99 entities against 6 standards).
const participantKeptRowsSQL = `WITH cols AS MATERIALIZED (SELECT ps.standard_id, row_number() OVER (ORDER BY ps.entities DESC, ps.standard_id) AS rank
		FROM participant_standards ps WHERE ps.user_id = {user}),
	truncated AS MATERIALIZED (SELECT count(*) > {max} AS t FROM cols),
	kept AS (SELECT pr.entity_id FROM participant_results pr JOIN cols ON cols.standard_id = pr.standard_id AND cols.rank <= {max}
		WHERE pr.user_id = {user} AND NOT pr.archived)
	SELECT e.id, e.name, e.entity_type, pe.sort_name,
		CASE WHEN (SELECT t FROM truncated) THEN (SELECT count(DISTINCT kept.entity_id) FROM kept)
			ELSE (SELECT count(*) FROM participant_entities c WHERE c.user_id = {user}) END,
		{columns}
	FROM participant_entities pe JOIN entities e ON e.id = pe.entity_id`

// portfolioList is the list of the portfolio's rows for q and actor: for the whole portfolio
// (no filter), the rows PostgreSQL keeps — for an actor who sees every assessment, else for
// the participant — and otherwise the rows of the results in scope. The three bind their
// cursors to different conditions (the participant's with their id), so a cursor of one is
// never read by another.
func portfolioList(q assess.PortfolioQuery, actor assess.Actor) *postgres.List {
	maxCols := strconv.Itoa(assess.PortfolioMaxStandards)
	whole := q.Project == "" && q.Standard == "" && q.EntityType == "" && q.Q == ""
	switch {
	case whole && assess.SeesEveryAssessment(actor):
		l := postgres.NewList("portfolio", strings.ReplaceAll(withColumns(portfolioKeptRowsSQL, portfolioKeptOrder), "{max}", maxCols), portfolioKeptOrder)
		l.Where("(NOT (SELECT t FROM truncated) OR pe.entity_id IN (SELECT kept.entity_id FROM kept))")
		return l
	case whole:
		l := postgres.NewList("portfolio", "", portfolioKeptOrder)
		user := l.Arg(postgres.ActorID(actor))
		l.Sel = strings.NewReplacer("{user}", user, "{max}", maxCols).Replace(withColumns(participantKeptRowsSQL, portfolioKeptOrder))
		l.Where("pe.user_id = " + user)
		l.Where("(NOT (SELECT t FROM truncated) OR pe.entity_id IN (SELECT kept.entity_id FROM kept))")
		return l
	}
	l := postgres.NewList("portfolio", "", portfolioOrder)
	l.Sel = strings.NewReplacer("{scope}", portfolioScope(q, actor, l.Arg), "{max}", maxCols).Replace(withColumns(portfolioRowsSQL, portfolioOrder))
	l.Where("e.id IN (SELECT kept.entity_id FROM kept)")
	return l
}

// portfolioRow is a row of portfolioRowsSQL, portfolioKeptRowsSQL or participantKeptRowsSQL.
type portfolioRow struct {
	assess.PortfolioRow
	sortName string
	total    int
	cols     []byte
}

// rankedStandard is a column as portfolioRowsSQL answers it, with its rank.
type rankedStandard struct {
	assess.PortfolioStandard
	Rank int `json:"rank"`
}

// Portfolio implements assess.InsightService: a page of entity rows by name with the total and
// the columns over every page, then the cells of that page, in one read-only snapshot so they
// agree with each other.
func (s *InsightService) Portfolio(ctx context.Context, q assess.PortfolioQuery, actor assess.Actor) (assess.Portfolio, error) {
	out := assess.Portfolio{Standards: []assess.PortfolioStandard{}, Items: []assess.PortfolioRow{}}
	if err := q.Validate(); err != nil {
		return out, err
	}
	if err := s.checkFilters(ctx, "", q.Project, q.Standard); err != nil {
		return out, err
	}
	// One snapshot, in two round trips: the BEGIN goes with the rows, the COMMIT with the cells.
	snap, err := s.db.Pool.Snapshot(ctx)
	if err != nil {
		return out, postgres.DBError(err)
	}
	defer snap.Close(context.WithoutCancel(ctx))
	// The cursor is bound to the filters through their values (each of its own form: ids by
	// their prefix, the name as a pattern) and to the caller through the visibility condition's.
	l := portfolioList(q, actor)
	page, err := postgres.CollectPage(ctx, snap, l, q.PageRequest, func(r pgx.Row) (portfolioRow, error) {
		var x portfolioRow
		err := r.Scan(&x.EntityID, &x.EntityName, &x.EntityType, &x.sortName, &x.total, &x.cols)
		return x, err
	}, func(x portfolioRow) []any { return []any{x.sortName, x.EntityID} })
	if err != nil || len(page.Items) == 0 {
		return out, err
	}
	out.NextCursor, out.HasMore, out.Total = page.NextCursor, page.HasMore, page.Items[0].total
	if err := portfolioColumns(page.Items[0].cols, &out); err != nil {
		return out, err
	}
	for _, x := range page.Items {
		x.Cells = []assess.PortfolioCell{}
		out.Items = append(out.Items, x.PortfolioRow)
	}
	var b pgx.Batch
	fill := queuePortfolioCells(&b, q, actor, &out)
	if err := snap.End(ctx, &b).Close(); err != nil {
		return out, postgres.DBError(err)
	}
	fill()
	return out, nil
}

// portfolioColumns sets the columns from their JSON: by name, the kept ones (the rank says).
func portfolioColumns(raw []byte, out *assess.Portfolio) error {
	var cols []rankedStandard
	if err := json.Unmarshal(raw, &cols); err != nil {
		return err
	}
	slices.SortFunc(cols, func(a, b rankedStandard) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.Version, b.Version), cmp.Compare(a.ID, b.ID))
	})
	for _, c := range cols {
		if c.Rank > assess.PortfolioMaxStandards {
			out.StandardsTruncated = true
			continue
		}
		out.Standards = append(out.Standards, c.PortfolioStandard)
	}
	return nil
}

// queuePortfolioCells reads the cells of the page's rows: per entity and column, the latest
// result (completion time, then the newest id) and how many there are. The candidates are the
// page's entities' finished assessments, few enough to test each by the lookups of its ties:
// one range of assessments_finished_idx per entity (migrations/0039), then each one's
// standards by its key. As a plain join PostgreSQL hashed every row of assessment_standards
// against them (OFFSET 0 keeps the lookups): a page of 50 entities with 198 results at the
// bench's million-row data took 2.5 ms, 1.1 ms with the lookups.
// It queues the statement on b; once b has been read, fill puts the cells in their rows.
func queuePortfolioCells(b *pgx.Batch, pq assess.PortfolioQuery, actor assess.Actor, out *assess.Portfolio) (fill func()) {
	entities, standards := make([]string, len(out.Items)), make([]string, len(out.Standards))
	row, column := map[string]int{}, map[string]int{}
	for i, it := range out.Items {
		entities[i], row[it.EntityID] = it.EntityID, i
	}
	for i, st := range out.Standards {
		standards[i], column[st.ID] = st.ID, i
	}
	args := postgres.SQLArgs{entities, standards}
	conds := []string{"a.entity_id = ANY($1)", finishedSQL}
	if pq.Project != "" {
		conds = append(conds, "a.project_id = "+args.Add(pq.Project))
	}
	if vis := postgres.AssessmentVisibleLookupSQL(actor, "a.id", args.Add); vis != "" {
		conds = append(conds, vis)
	}
	var cells []entityCell
	b.Queue(`SELECT DISTINCT ON (a.entity_id, s.standard_id) a.entity_id, s.standard_id, a.id, a.title, `+completedAtSQL+`,
			s.conformance_score::float8, count(*) OVER (PARTITION BY a.entity_id, s.standard_id)
		FROM assessments a CROSS JOIN LATERAL (SELECT s.standard_id, s.conformance_score FROM assessment_standards s
			WHERE s.assessment_id = a.id AND s.standard_id = ANY($2) OFFSET 0) s
		WHERE `+strings.Join(conds, " AND ")+`
		ORDER BY a.entity_id, s.standard_id, `+completedAtSQL+` DESC, a.id DESC`, args...).Query(func(rows pgx.Rows) error {
		var err error
		cells, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (entityCell, error) {
			var c entityCell
			err := r.Scan(&c.entity, &c.StandardID, &c.AssessmentID, &c.AssessmentTitle, &c.CompletedAt, &c.Score, &c.Completed)
			c.CompletedAt = c.CompletedAt.UTC()
			return c, err
		})
		return err
	})
	return func() {
		slices.SortStableFunc(cells, func(a, b entityCell) int { return column[a.StandardID] - column[b.StandardID] })
		for _, c := range cells {
			it := &out.Items[row[c.entity]]
			it.Cells = append(it.Cells, c.PortfolioCell)
		}
	}
}

// entityCell is a cell with the entity of its row.
type entityCell struct {
	entity string
	assess.PortfolioCell
}

var _ assess.InsightService = (*InsightService)(nil)
