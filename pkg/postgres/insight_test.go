package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/datagen"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// insightWorld is an assessment store with two entities, two standards, a project, three
// people and finished assessments of two teams:
//
//	Shop:  a1 complete 10 Jan, A 50 and B 100, the member's team, in the project
//	       a2 archived 5 Mar, A 75, the member's team
//	       a3 complete 1 Feb, A (every answer not applicable: no score), the outsider's team
//	       plus one in progress and one cancelled, which are no results
//	Other: o1 complete 20 Feb, B 40, the outsider's team, in the project
type insightWorld struct {
	*assessmentStore
	member, outsider, admin assess.Actor
	other, standardB        string
	project                 string
	a1, a2, a3, o1          string
}

func newInsightWorld(t *testing.T) *insightWorld {
	t.Helper()
	w := &insightWorld{assessmentStore: newAssessmentStore(t)}
	view := assess.PermAssessmentsView
	w.member, w.outsider = w.user("member", view), w.user("outsider", view)
	w.admin = w.user("admin", view, assess.PermAssessmentsViewAll)
	w.other, w.standardB, w.project = w.entityNamed("Other"), assess.NewID(assess.PrefixStandard, time.Now()), assess.NewID(assess.PrefixProject, time.Now())
	w.exec(`INSERT INTO standards (id, identifier, name, standard_version, state) VALUES ($1, 'b', 'B standard', '2.0', 'published')`, w.standardB)
	w.exec(`UPDATE standards SET name = 'A standard', standard_version = '1.0' WHERE id = $1`, w.standard)
	w.exec(`INSERT INTO projects (id, name) VALUES ($1, 'Programme')`, w.project)
	day := func(month time.Month, d int) time.Time { return time.Date(2026, month, d, 9, 0, 0, 0, time.UTC) }
	w.a1 = w.finished(w.entity, w.project, "complete", day(time.January, 10), w.member, map[string]any{w.standard: 50, w.standardB: 100})
	w.a2 = w.finished(w.entity, "", "archived", day(time.March, 5), w.member, map[string]any{w.standard: 75})
	w.a3 = w.finished(w.entity, "", "complete", day(time.February, 1), w.outsider, map[string]any{w.standard: nil})
	w.finished(w.entity, "", "in_progress", time.Time{}, w.member, map[string]any{w.standard: nil})
	w.finished(w.entity, "", "cancelled", day(time.April, 1), w.member, map[string]any{w.standard: nil})
	w.o1 = w.finished(w.other, w.project, "complete", day(time.February, 20), w.outsider, map[string]any{w.standardB: 40})
	return w
}

// entityNamed inserts an entity and returns its id.
func (w *insightWorld) entityNamed(name string) string {
	id := assess.NewID(assess.PrefixEntity, time.Now())
	w.exec(`INSERT INTO entities (id, name, entity_type) VALUES ($1, $2, 'product')`, id, name)
	return id
}

// finished inserts an assessment of entity in state, ended at ended (zero: not ended), with
// member on its team and a score per standard (nil: none), and returns its id.
func (w *insightWorld) finished(entity, project, state string, ended time.Time, member assess.Actor, scores map[string]any) string {
	id := assess.NewID(assess.PrefixAssessment, time.Now())
	var end any
	if !ended.IsZero() {
		end = ended
	}
	w.exec(`INSERT INTO assessments (id, title, entity_id, project_id, state, ended_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		id, "Review "+id[len(id)-4:], entity, postgres.Nullable(project), state, end)
	w.exec(`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, 'assessor')`, id, member.ID)
	for st, score := range scores {
		w.exec(`INSERT INTO assessment_standards (assessment_id, standard_id, conformance_score) VALUES ($1, $2, $3)`, id, st, score)
	}
	return id
}

// point is a result as the tests compare them.
type point struct {
	Assessment, Standard string
	Score                *float64
}

func score(v float64) *float64 { return &v }

func pointsOf(h assess.ScoreHistory) []point {
	out := []point{}
	for _, p := range h.Points {
		out = append(out, point{p.AssessmentID, p.StandardID, p.Score})
	}
	return out
}

// truthHistory is an entity's history for user (nil: sees every assessment) in plain SQL, with
// the rule as the event fan-out decides it (assessment_visible, migrations/0011).
func truthHistory(t *testing.T, pool *pgxpool.Pool, entity string, user *string) []point {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT a.id, s.standard_id, s.conformance_score::float8
		FROM assessments a, assessment_standards s, standards st
		WHERE s.assessment_id = a.id AND st.id = s.standard_id AND a.entity_id = $1 AND a.state IN ('complete', 'archived')
			AND ($2::text IS NULL OR assessment_visible($2, a.id))
		ORDER BY coalesce(a.ended_at, a.updated_at), a.id, lower(st.name), st.id`, entity, user)
	require.NoError(t, err)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (point, error) {
		var p point
		return p, r.Scan(&p.Assessment, &p.Standard, &p.Score)
	})
	require.NoError(t, err)
	return append([]point{}, out...)
}

// TestScoreHistoryPointsInOrderAndScoped (issue 25 item 2): an entity's finished assessments are
// points per standard, oldest first, with their scores (none when every answer was not
// applicable); assessments in progress or cancelled are none; each caller sees only the
// assessments they may open — the outsider none of the member's, the member none of the
// outsider's — and the answers equal a ground truth in plain SQL.
func TestScoreHistoryPointsInOrderAndScoped(t *testing.T) {
	t.Parallel()
	w := newInsightWorld(t)
	history := func(actor assess.Actor, q assess.ScoreHistoryQuery) assess.ScoreHistory {
		t.Helper()
		h, err := w.svc.Insight.ScoreHistory(w.ctx, w.entity, q, actor)
		require.NoError(t, err)
		require.Equal(t, w.entity, h.EntityID)
		require.False(t, h.Truncated)
		return h
	}
	a1A, a1B, a2A, a3A := point{w.a1, w.standard, score(50)}, point{w.a1, w.standardB, score(100)}, point{w.a2, w.standard, score(75)}, point{w.a3, w.standard, nil}

	member := history(w.member, assess.ScoreHistoryQuery{})
	require.Equal(t, []point{a1A, a1B, a2A}, pointsOf(member), "oldest first; one point per standard")
	require.Equal(t, truthHistory(t, w.pool, w.entity, &w.member.ID), pointsOf(member))
	p := member.Points[0]
	require.Equal(t, time.Date(2026, time.January, 10, 9, 0, 0, 0, time.UTC), p.CompletedAt)
	require.Equal(t, []string{"A standard", "1.0", "complete"}, []string{p.StandardName, p.StandardVersion, p.State})
	require.Equal(t, "archived", member.Points[2].State)

	outsider := history(w.outsider, assess.ScoreHistoryQuery{})
	require.Equal(t, []point{a3A}, pointsOf(outsider), "none of the member's assessments")
	require.Equal(t, truthHistory(t, w.pool, w.entity, &w.outsider.ID), pointsOf(outsider))

	admin := history(w.admin, assess.ScoreHistoryQuery{})
	require.Equal(t, []point{a1A, a1B, a3A, a2A}, pointsOf(admin))
	require.Equal(t, truthHistory(t, w.pool, w.entity, nil), pointsOf(admin))

	require.Equal(t, []point{a1B}, pointsOf(history(w.member, assess.ScoreHistoryQuery{Standard: w.standardB})), "one standard")
	require.Empty(t, history(w.outsider, assess.ScoreHistoryQuery{Standard: w.standardB}).Points)
	require.Empty(t, history(w.user("nobody", assess.PermAssessmentsView), assess.ScoreHistoryQuery{}).Points)

	t.Run("bad input", func(t *testing.T) {
		_, err := w.svc.Insight.ScoreHistory(w.ctx, assess.NewID(assess.PrefixEntity, time.Now()), assess.ScoreHistoryQuery{}, w.admin)
		requireErrorOn(t, err, assess.ECodeNotFound, "")
		_, err = w.svc.Insight.ScoreHistory(w.ctx, w.project, assess.ScoreHistoryQuery{}, w.admin)
		requireErrorOn(t, err, assess.ECodeNotFound, "")
		_, err = w.svc.Insight.ScoreHistory(w.ctx, w.entity, assess.ScoreHistoryQuery{Standard: "st_nope"}, w.admin)
		requireErrorOn(t, err, assess.ECodeValidation, "standard")
		_, err = w.svc.Insight.ScoreHistory(w.ctx, w.entity, assess.ScoreHistoryQuery{Standard: assess.NewID(assess.PrefixStandard, time.Now())}, w.admin)
		requireErrorOn(t, err, assess.ECodeNotFound, "standard")
	})
}

// TestScoreHistoryKeepsTheMostRecentPoints: beyond assess.ScoreHistoryMax points the oldest are
// left out, and the answer says so.
func TestScoreHistoryKeepsTheMostRecentPoints(t *testing.T) {
	t.Parallel()
	w := newInsightWorld(t)
	w.exec(`INSERT INTO assessments (id, title, entity_id, state, ended_at)
		SELECT 'as_' || lpad(to_hex(g), 26, '0'), 'Bulk ' || g, $1, 'complete', timestamptz '2025-01-01' + g * interval '1 hour'
		FROM generate_series(1, $2) g`, w.other, assess.ScoreHistoryMax+10)
	w.exec(`INSERT INTO assessment_standards (assessment_id, standard_id, conformance_score)
		SELECT id, $2, 60 FROM assessments WHERE entity_id = $1 AND title LIKE 'Bulk %'`, w.other, w.standard)
	h, err := w.svc.Insight.ScoreHistory(w.ctx, w.other, assess.ScoreHistoryQuery{}, w.admin)
	require.NoError(t, err)
	require.True(t, h.Truncated)
	require.Len(t, h.Points, assess.ScoreHistoryMax)
	require.Equal(t, w.o1, h.Points[len(h.Points)-1].AssessmentID, "the newest point is kept (20 Feb 2026)")
	require.Equal(t, "Bulk 12", h.Points[0].AssessmentTitle, "the eleven oldest are left out")
	require.True(t, h.Points[0].CompletedAt.Before(h.Points[1].CompletedAt))
}

// cellKey names a cell: entity and standard.
type cellKey struct{ Entity, Standard string }

// truthCell is what a cell shows.
type truthCell struct {
	Assessment string
	Completed  int
	Score      *float64
}

// truthPortfolio is the portfolio for user (nil: sees every assessment) in plain SQL: the entity
// rows by name and every cell, the latest assessment found by a correlated subquery and the
// rule as the event fan-out decides it (assessment_visible).
func truthPortfolio(t *testing.T, pool *pgxpool.Pool, user *string, project *string) ([]string, map[cellKey]truthCell) {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `SELECT e.id, s.standard_id, count(*),
			(SELECT a2.id FROM assessments a2 JOIN assessment_standards s2 ON s2.assessment_id = a2.id
			 WHERE a2.entity_id = e.id AND s2.standard_id = s.standard_id AND a2.state IN ('complete', 'archived')
				AND ($1::text IS NULL OR assessment_visible($1, a2.id)) AND ($2::text IS NULL OR a2.project_id = $2)
			 ORDER BY coalesce(a2.ended_at, a2.updated_at) DESC, a2.id DESC LIMIT 1)
		FROM entities e JOIN assessments a ON a.entity_id = e.id JOIN assessment_standards s ON s.assessment_id = a.id
		WHERE e.state <> 'archived' AND a.state IN ('complete', 'archived') AND ($1::text IS NULL OR assessment_visible($1, a.id))
			AND ($2::text IS NULL OR a.project_id = $2)
		GROUP BY e.id, s.standard_id`, user, project)
	require.NoError(t, err)
	cells := map[cellKey]truthCell{}
	var k cellKey
	var c truthCell
	_, err = pgx.ForEachRow(rows, []any{&k.Entity, &k.Standard, &c.Completed, &c.Assessment}, func() error {
		require.NoError(t, pool.QueryRow(ctx, `SELECT conformance_score::float8 FROM assessment_standards WHERE assessment_id = $1 AND standard_id = $2`,
			c.Assessment, k.Standard).Scan(&c.Score))
		cells[k] = c
		return nil
	})
	require.NoError(t, err)
	rows, err = pool.Query(ctx, `SELECT id FROM entities WHERE id = ANY($1) ORDER BY lower(name), id`, entityIDs(cells))
	require.NoError(t, err)
	order, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return append([]string{}, order...), cells
}

func entityIDs(cells map[cellKey]truthCell) []string {
	seen := map[string]bool{}
	out := []string{}
	for k := range cells {
		if !seen[k.Entity] {
			seen[k.Entity] = true
			out = append(out, k.Entity)
		}
	}
	return out
}

// allPages reads every page of the portfolio, limit rows at a time, and answers the rows in
// order and the cells; every page says the same total and columns.
func allPages(t *testing.T, svc interface {
	Portfolio(context.Context, assess.PortfolioQuery, assess.Actor) (assess.Portfolio, error)
}, actor assess.Actor, q assess.PortfolioQuery) ([]string, map[cellKey]truthCell, assess.Portfolio) {
	t.Helper()
	order, cells := []string{}, map[cellKey]truthCell{}
	var first assess.Portfolio
	for page := 0; ; page++ {
		p, err := svc.Portfolio(context.Background(), q, actor)
		require.NoError(t, err)
		if page == 0 {
			first = p
		}
		require.Equal(t, first.Total, p.Total)
		require.Equal(t, first.Standards, p.Standards)
		for _, row := range p.Items {
			order = append(order, row.EntityID)
			last := -1
			for _, c := range row.Cells {
				col := columnOf(p.Standards, c.StandardID)
				require.Greater(t, col, last, "cells in the order of the columns")
				last = col
				cells[cellKey{row.EntityID, c.StandardID}] = truthCell{c.AssessmentID, c.Completed, c.Score}
			}
		}
		if !p.HasMore {
			break
		}
		q.Cursor = p.NextCursor
	}
	require.Len(t, order, first.Total)
	return order, cells, first
}

func columnOf(standards []assess.PortfolioStandard, id string) int {
	for i, s := range standards {
		if s.ID == id {
			return i
		}
	}
	return -1
}

// TestPortfolioShowsTheLatestVisibleResultPerCell (issue 25 item 2): each cell is the entity's
// latest finished assessment against the standard that the caller may see, with its score for
// that standard and how many there are; the outsider sees none of the member's assessments and
// the member none of the outsider's; the project restricts the cells to its assessments; an
// archived entity is no row; the answers equal a ground truth in plain SQL.
func TestPortfolioShowsTheLatestVisibleResultPerCell(t *testing.T) {
	t.Parallel()
	w := newInsightWorld(t)
	gone := w.entityNamed("Gone")
	w.finished(gone, "", "complete", time.Date(2026, time.May, 1, 0, 0, 0, 0, time.UTC), w.admin, map[string]any{w.standard: 10})
	w.exec(`UPDATE entities SET state = 'archived' WHERE id = $1`, gone)

	// portfolio reads every page and holds it to the ground truth (which knows the project, not
	// the other filters).
	portfolio := func(t *testing.T, actor assess.Actor, q assess.PortfolioQuery) ([]string, map[cellKey]truthCell, assess.Portfolio) {
		t.Helper()
		order, cells, p := allPages(t, w.svc.Insight, actor, q)
		var user, project *string
		if !assess.SeesEveryAssessment(actor) {
			user = &actor.ID
		}
		if q.Project != "" {
			project = &q.Project
		}
		wantOrder, wantCells := truthPortfolio(t, w.pool, user, project)
		require.Equal(t, wantOrder, order)
		require.Equal(t, wantCells, cells)
		return order, cells, p
	}
	A, B := w.standard, w.standardB
	order, cells, p := portfolio(t, w.member, assess.PortfolioQuery{})
	require.Equal(t, []string{w.entity}, order, "Other has only the outsider's assessment")
	require.Equal(t, map[cellKey]truthCell{{w.entity, A}: {w.a2, 2, score(75)}, {w.entity, B}: {w.a1, 1, score(100)}}, cells)
	require.Equal(t, []assess.PortfolioStandard{{ID: A, Name: "A standard", Version: "1.0"}, {ID: B, Name: "B standard", Version: "2.0"}}, p.Standards)
	require.Equal(t, time.Date(2026, time.March, 5, 9, 0, 0, 0, time.UTC), p.Items[0].Cells[0].CompletedAt)

	order, cells, _ = portfolio(t, w.outsider, assess.PortfolioQuery{})
	require.Equal(t, []string{w.other, w.entity}, order, "by name")
	require.Equal(t, map[cellKey]truthCell{{w.entity, A}: {w.a3, 1, nil}, {w.other, B}: {w.o1, 1, score(40)}}, cells,
		"none of the member's assessments: a2 is newer but not theirs")

	_, cells, p = portfolio(t, w.admin, assess.PortfolioQuery{})
	require.Equal(t, 2, p.Total, "the archived entity is no row")
	require.Equal(t, map[cellKey]truthCell{{w.entity, A}: {w.a2, 3, score(75)}, {w.entity, B}: {w.a1, 1, score(100)}, {w.other, B}: {w.o1, 1, score(40)}}, cells)

	t.Run("a project's portfolio", func(t *testing.T) {
		_, cells, _ := portfolio(t, w.admin, assess.PortfolioQuery{Project: w.project})
		require.Equal(t, map[cellKey]truthCell{{w.entity, A}: {w.a1, 1, score(50)}, {w.entity, B}: {w.a1, 1, score(100)}, {w.other, B}: {w.o1, 1, score(40)}}, cells)
		_, cells, _ = portfolio(t, w.member, assess.PortfolioQuery{Project: w.project})
		require.Equal(t, map[cellKey]truthCell{{w.entity, A}: {w.a1, 1, score(50)}, {w.entity, B}: {w.a1, 1, score(100)}}, cells)
	})
	t.Run("filters", func(t *testing.T) {
		_, cells, p := allPages(t, w.svc.Insight, w.admin, assess.PortfolioQuery{Standard: B})
		require.Equal(t, []assess.PortfolioStandard{{ID: B, Name: "B standard", Version: "2.0"}}, p.Standards)
		require.Equal(t, map[cellKey]truthCell{{w.entity, B}: {w.a1, 1, score(100)}, {w.other, B}: {w.o1, 1, score(40)}}, cells)
		order, _, _ := allPages(t, w.svc.Insight, w.admin, assess.PortfolioQuery{Q: "oth"})
		require.Equal(t, []string{w.other}, order)
		order, _, p = allPages(t, w.svc.Insight, w.admin, assess.PortfolioQuery{EntityType: "service"})
		require.Empty(t, order)
		require.Empty(t, p.Standards)
		require.Zero(t, p.Total)
	})
	t.Run("bad input", func(t *testing.T) {
		for field, q := range map[string]assess.PortfolioQuery{"project": {Project: "pr_x"}, "standard": {Standard: w.project},
			"entityType": {EntityType: "planet"}, "q": {Q: "a\x01b"}} {
			_, err := w.svc.Insight.Portfolio(w.ctx, q, w.admin)
			requireErrorOn(t, err, assess.ECodeValidation, field)
		}
		_, err := w.svc.Insight.Portfolio(w.ctx, assess.PortfolioQuery{Project: assess.NewID(assess.PrefixProject, time.Now())}, w.admin)
		requireErrorOn(t, err, assess.ECodeNotFound, "project")
		_, err = w.svc.Insight.Portfolio(w.ctx, assess.PortfolioQuery{Standard: assess.NewID(assess.PrefixStandard, time.Now())}, w.admin)
		requireErrorOn(t, err, assess.ECodeNotFound, "standard")
	})
}

// TestPortfolioPages: rows come a page at a time by name with the total of every page; a cursor
// is refused with other filters or by another caller.
func TestPortfolioPages(t *testing.T) {
	t.Parallel()
	w := newInsightWorld(t)
	for _, name := range []string{"delta", "Alpha", "charlie", "Bravo"} {
		w.finished(w.entityNamed(name), "", "complete", time.Date(2026, time.June, 1, 0, 0, 0, 0, time.UTC), w.member, map[string]any{w.standard: 90})
	}
	var names []string
	q := assess.PortfolioQuery{PageRequest: assess.PageRequest{Limit: 2}}
	for {
		p, err := w.svc.Insight.Portfolio(w.ctx, q, w.member)
		require.NoError(t, err)
		require.Equal(t, 5, p.Total)
		require.LessOrEqual(t, len(p.Items), 2)
		for _, row := range p.Items {
			names = append(names, row.EntityName)
		}
		if !p.HasMore {
			break
		}
		q.Cursor = p.NextCursor
		_, err = w.svc.Insight.Portfolio(w.ctx, assess.PortfolioQuery{Q: "a", PageRequest: q.PageRequest}, w.member)
		requireErrorOn(t, err, assess.ECodeValidation, "cursor")
		_, err = w.svc.Insight.Portfolio(w.ctx, q, w.outsider)
		requireErrorOn(t, err, assess.ECodeValidation, "cursor")
	}
	require.Equal(t, []string{"Alpha", "Bravo", "charlie", "delta", "Shop"}, names)
}

// TestInsightAgreesWithGroundTruthAtScale: on generated data shaped like real use (300
// assessments of 40 entities in every state, 8 projects), the whole portfolio — for an
// administrator and for the participant who sees about a tenth, with and without a project —
// and the score history of every entity equal the ground truth in plain SQL.
func TestInsightAgreesWithGroundTruthAtScale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	svc := testServices(postgres.New(pool, nil))
	require.NoError(t, svc.Roles.SyncBuiltinRoles(ctx))
	sum, err := datagen.Generate(ctx, pool, datagen.Small)
	require.NoError(t, err)
	admin := assess.Actor{ID: "u_admin", Principal: &assess.Principal{User: assess.User{ID: "u_admin", Active: true},
		Permissions: []string{string(assess.PermAssessmentsView), string(assess.PermAssessmentsViewAll)}}}
	participant := assess.Actor{ID: sum.ParticipantID, Principal: &assess.Principal{User: assess.User{ID: sum.ParticipantID, Active: true},
		Permissions: []string{string(assess.PermAssessmentsView)}}}
	var project string
	require.NoError(t, pool.QueryRow(ctx, `SELECT project_id FROM assessments WHERE project_id IS NOT NULL AND state = 'complete'
		GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`).Scan(&project))
	entities, err := pgx.CollectRows(must(pool.Query(ctx, `SELECT id FROM entities ORDER BY id`)), pgx.RowTo[string])
	require.NoError(t, err)

	for name, actor := range map[string]assess.Actor{"administrator": admin, "participant": participant} {
		t.Run(name, func(t *testing.T) {
			var user *string
			if name == "participant" {
				user = &participant.ID
			}
			for _, proj := range []*string{nil, &project} {
				q := assess.PortfolioQuery{PageRequest: assess.PageRequest{Limit: 7}}
				if proj != nil {
					q.Project = *proj
				}
				order, cells, _ := allPages(t, svc.Insight, actor, q)
				wantOrder, wantCells := truthPortfolio(t, pool, user, proj)
				require.NotEmpty(t, wantCells)
				require.Equal(t, wantOrder, order)
				require.Equal(t, wantCells, cells)
			}
			points := 0
			for _, e := range entities {
				h, err := svc.Insight.ScoreHistory(ctx, e, assess.ScoreHistoryQuery{}, actor)
				require.NoError(t, err)
				require.Equal(t, truthHistory(t, pool, e, user), pointsOf(h), e)
				points += len(h.Points)
			}
			require.NotZero(t, points)
		})
	}
}

// requireErrorOn asserts an *assess.Error with code and, when field is given, a detail naming it.
func requireErrorOn(t *testing.T, err error, code, field string) {
	t.Helper()
	var e *assess.Error
	require.True(t, errors.As(err, &e), "want *assess.Error %s, got %v", code, err)
	require.Equal(t, code, e.Code, e.Message)
	if field != "" {
		var fields []string
		for _, d := range e.Details {
			fields = append(fields, d.Field)
		}
		require.Contains(t, fields, field, e.Message)
	}
}

// TestPortfolioKeepsTheStandardsWithResultsForTheMostEntities: with more than 100 standards
// with results, the columns are the 100 with results for the most entities (then by id),
// standardsTruncated says so, and an entity whose only results are in a left-out standard is
// no row — the same whether the administrator's (or a participant's) portfolio is read from
// the kept results or, narrowed by a filter that keeps every row, from the results in scope.
func TestPortfolioKeepsTheStandardsWithResultsForTheMostEntities(t *testing.T) {
	t.Parallel()
	w := newInsightWorld(t)
	third, fourth := w.entityNamed("Third"), w.entityNamed("Fourth")
	ended := time.Date(2026, time.June, 1, 0, 0, 0, 0, time.UTC)
	scores := map[string]any{}
	for i := range 100 {
		id := fmt.Sprintf("st_x%03d", i)
		w.exec(`INSERT INTO standards (id, identifier, name, state) VALUES ($1, $1, $1, 'published')`, id)
		scores[id] = 60
	}
	w.exec(`INSERT INTO standards (id, identifier, name, state) VALUES ('st_z', 'z', 'Z', 'published')`)
	w.finished(third, "", "complete", ended, w.member, scores)
	w.finished(fourth, "", "complete", ended, w.member, map[string]any{"st_z": 70})

	order, cells, p := allPages(t, w.svc.Insight, w.admin, assess.PortfolioQuery{PageRequest: assess.PageRequest{Limit: 2}})
	require.True(t, p.StandardsTruncated)
	require.Len(t, p.Standards, assess.PortfolioMaxStandards)
	require.Equal(t, 3, p.Total)
	require.ElementsMatch(t, []string{w.entity, w.other, third}, order, "Fourth's only result is in a left-out column")
	for _, left := range []string{"st_x098", "st_x099", "st_z"} {
		require.Equal(t, -1, columnOf(p.Standards, left), left)
	}
	require.NotEqual(t, -1, columnOf(p.Standards, "st_x097"))

	filteredOrder, filteredCells, filtered := allPages(t, w.svc.Insight, w.admin,
		assess.PortfolioQuery{EntityType: "product", PageRequest: assess.PageRequest{Limit: 2}})
	require.Equal(t, p.Standards, filtered.Standards)
	require.Equal(t, p.Total, filtered.Total)
	require.Equal(t, order, filteredOrder)
	require.Equal(t, cells, filteredCells)

	// The member (a participant of a1, a2 and of Third's and Fourth's) sees the same from the
	// rows kept for them.
	memberOrder, member := requireSamePortfolio(t, w.svc.Insight, w.member, 2)
	require.True(t, member.StandardsTruncated)
	require.Len(t, member.Standards, assess.PortfolioMaxStandards)
	require.Equal(t, []string{w.entity, third}, memberOrder, "Fourth's only result is in a left-out column")
}

// requireSamePortfolio reads every page of the whole portfolio (kept per user for a
// participant: migrations/0040) and of the same portfolio narrowed by a filter that keeps
// every row (read from the results in scope, as every participant's page was before), limit
// rows at a time, and holds them to the same rows, cells, total, columns and truncation, and
// the pages to the same cuts.
func requireSamePortfolio(t *testing.T, svc assess.InsightService, actor assess.Actor, limit int) ([]string, assess.Portfolio) {
	t.Helper()
	page := assess.PageRequest{Limit: limit}
	order, cells, kept := allPages(t, svc, actor, assess.PortfolioQuery{PageRequest: page})
	scopedOrder, scopedCells, scoped := allPages(t, svc, actor, assess.PortfolioQuery{EntityType: "product", PageRequest: page})
	require.Equal(t, scopedOrder, order)
	require.Equal(t, scopedCells, cells)
	require.Equal(t, scoped.Total, kept.Total)
	require.Equal(t, scoped.Standards, kept.Standards)
	require.Equal(t, scoped.StandardsTruncated, kept.StandardsTruncated)
	require.Equal(t, len(scoped.Items), len(kept.Items), "the first pages cut at the same row")
	require.Equal(t, scoped.HasMore, kept.HasMore)
	return order, kept
}

// TestParticipantPortfolioShowsWhatTheScopedOneShowed (issue 27): on generated data shaped
// like real use (every entity a product, so that the entity type filter keeps every row), the
// whole portfolio of each of several participants — on teams, authoring or reviewing evidence,
// taking part in nothing — read from what PostgreSQL keeps per user, equals the same portfolio
// read from the results in scope, page by page at several page sizes, and the ground truth in
// plain SQL; after assessments are reopened and completed, team members removed, evidence
// unlinked and entities renamed and archived, it still does. A cursor of one form is refused
// by the other, and by another caller.
func TestParticipantPortfolioShowsWhatTheScopedOneShowed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	svc := testServices(postgres.New(pool, nil))
	require.NoError(t, svc.Roles.SyncBuiltinRoles(ctx))
	sum, err := datagen.Generate(ctx, pool, datagen.Small)
	require.NoError(t, err)
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := pool.Exec(ctx, sql, args...)
		require.NoError(t, err, sql)
	}
	exec(`UPDATE entities SET entity_type = 'product'`)
	participant := func(id string) assess.Actor {
		return assess.Actor{ID: id, Principal: &assess.Principal{User: assess.User{ID: id, Active: true},
			Permissions: []string{string(assess.PermAssessmentsView)}}}
	}
	// The generated participant, the users with the most ties, one who only reviews evidence,
	// and one who takes part in nothing.
	users := []string{sum.ParticipantID}
	more, err := pgx.CollectRows(must(pool.Query(ctx, `SELECT user_id FROM assessment_participants WHERE user_id <> $1
		GROUP BY user_id ORDER BY count(*) DESC, user_id LIMIT 2`, sum.ParticipantID)), pgx.RowTo[string])
	require.NoError(t, err)
	users = append(users, more...)
	// The reviewer takes over the review of evidence linked to finished assessments.
	reviewer, nobody := "u_reviewer", "u_nobody"
	exec(`INSERT INTO users (id, username, email) VALUES ($1, 'reviewer', 'reviewer@example.com'), ($2, 'nobody', 'nobody@example.com')`,
		reviewer, nobody)
	exec(`UPDATE evidence SET reviewer_id = $1 WHERE id IN (SELECT l.evidence_id FROM assessment_requirement_evidence l
		JOIN assessments a ON a.id = l.assessment_id WHERE a.state IN ('complete', 'archived') ORDER BY l.evidence_id LIMIT 40)`, reviewer)
	users = append(users, reviewer, nobody)

	check := func(t *testing.T) {
		t.Helper()
		for _, u := range users {
			actor := participant(u)
			for _, limit := range []int{1, 7, 50} {
				order, _ := requireSamePortfolio(t, svc.Insight, actor, limit)
				wantOrder, _ := truthPortfolio(t, pool, &u, nil)
				require.Equal(t, wantOrder, order, u)
			}
		}
		order, _ := requireSamePortfolio(t, svc.Insight, participant(sum.ParticipantID), 7)
		require.NotEmpty(t, order, "the participant sees results")
		order, _ = requireSamePortfolio(t, svc.Insight, participant(nobody), 7)
		require.Empty(t, order, "nothing to see")
	}
	check(t)

	// Changes of every kind the kept tables follow, then the same again.
	exec(`UPDATE assessments SET state = 'in_progress' WHERE id IN (SELECT id FROM assessments WHERE state = 'complete' ORDER BY id LIMIT 20)`)
	exec(`UPDATE assessments SET state = 'complete' WHERE id IN (SELECT id FROM assessments WHERE state = 'in_progress' ORDER BY id DESC LIMIT 20)`)
	exec(`DELETE FROM assessment_members WHERE user_id = $1 AND assessment_id IN (SELECT assessment_id FROM assessment_members
		WHERE user_id = $1 ORDER BY assessment_id LIMIT 5)`, sum.ParticipantID)
	exec(`DELETE FROM assessment_requirement_evidence WHERE evidence_id IN (SELECT id FROM evidence WHERE reviewer_id = $1)`, reviewer)
	exec(`UPDATE entities SET name = 'zz ' || name WHERE id IN (SELECT id FROM entities ORDER BY id LIMIT 5)`)
	exec(`UPDATE entities SET state = 'archived' WHERE id IN (SELECT id FROM entities ORDER BY id DESC LIMIT 3)`)
	check(t)

	t.Run("cursors", func(t *testing.T) {
		actor, page := participant(sum.ParticipantID), assess.PageRequest{Limit: 2}
		kept, err := svc.Insight.Portfolio(ctx, assess.PortfolioQuery{PageRequest: page}, actor)
		require.NoError(t, err)
		require.True(t, kept.HasMore)
		scoped, err := svc.Insight.Portfolio(ctx, assess.PortfolioQuery{EntityType: "product", PageRequest: page}, actor)
		require.NoError(t, err)
		require.True(t, scoped.HasMore)
		admin := assess.Actor{ID: "u_admin", Principal: &assess.Principal{User: assess.User{ID: "u_admin", Active: true},
			Permissions: []string{string(assess.PermAssessmentsView), string(assess.PermAssessmentsViewAll)}}}
		adminPage, err := svc.Insight.Portfolio(ctx, assess.PortfolioQuery{PageRequest: page}, admin)
		require.NoError(t, err)
		for _, c := range []struct {
			name   string
			q      assess.PortfolioQuery
			actor  assess.Actor
			cursor string
		}{
			{"kept cursor, filtered page", assess.PortfolioQuery{EntityType: "product"}, actor, kept.NextCursor},
			{"filtered cursor, kept page", assess.PortfolioQuery{}, actor, scoped.NextCursor},
			{"participant's cursor, another participant", assess.PortfolioQuery{}, participant(users[1]), kept.NextCursor},
			{"participant's cursor, administrator", assess.PortfolioQuery{}, admin, kept.NextCursor},
			{"administrator's cursor, participant", assess.PortfolioQuery{}, actor, adminPage.NextCursor},
		} {
			c.q.PageRequest = assess.PageRequest{Limit: 2, Cursor: c.cursor}
			_, err := svc.Insight.Portfolio(ctx, c.q, c.actor)
			requireErrorOn(t, err, assess.ECodeValidation, "cursor")
		}
	})
}
