package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"
	"golang.org/x/sync/errgroup"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// The portfolio's kept results (migrations/0039_entity_results.sql) as PostgreSQL keeps
// them, each with the same figures counted from the assessments in plain SQL, as the
// portfolio counted them before: the two of each pair must always agree.
const (
	entityResultsSQL          = `SELECT entity_id || '/' || standard_id, ARRAY[results, archived::int] FROM entity_results`
	entityResultsAggregateSQL = `SELECT a.entity_id || '/' || s.standard_id, ARRAY[count(*), bool_or(e.state = 'archived')::int]::int[]
		FROM assessments a JOIN assessment_standards s ON s.assessment_id = a.id JOIN entities e ON e.id = a.entity_id
		WHERE a.state IN ('complete', 'archived') GROUP BY a.entity_id, s.standard_id`
	portfolioEntitiesSQL          = `SELECT entity_id || '/' || sort_name, ARRAY[standards] FROM portfolio_entities`
	portfolioEntitiesAggregateSQL = `SELECT a.entity_id || '/' || lower(e.name), ARRAY[count(DISTINCT s.standard_id)]::int[]
		FROM assessments a JOIN assessment_standards s ON s.assessment_id = a.id JOIN entities e ON e.id = a.entity_id
		WHERE a.state IN ('complete', 'archived') AND e.state <> 'archived' GROUP BY a.entity_id, e.name`
	portfolioStandardsSQL          = `SELECT standard_id, ARRAY[entities] FROM portfolio_standards`
	portfolioStandardsAggregateSQL = `SELECT s.standard_id, ARRAY[count(DISTINCT a.entity_id)]::int[]
		FROM assessments a JOIN assessment_standards s ON s.assessment_id = a.id JOIN entities e ON e.id = a.entity_id
		WHERE a.state IN ('complete', 'archived') AND e.state <> 'archived' GROUP BY s.standard_id`
)

// requireKeptResults holds each kept table of the portfolio to its aggregate.
func requireKeptResults(t *testing.T, pool *pgxpool.Pool, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, progressByKey(t, pool, entityResultsAggregateSQL), progressByKey(t, pool, entityResultsSQL), msgAndArgs...)
	require.Equal(t, progressByKey(t, pool, portfolioEntitiesAggregateSQL), progressByKey(t, pool, portfolioEntitiesSQL), msgAndArgs...)
	require.Equal(t, progressByKey(t, pool, portfolioStandardsAggregateSQL), progressByKey(t, pool, portfolioStandardsSQL), msgAndArgs...)
}

// TestPortfolioKeptResultsEqualTheAggregate drives random sequences of the changes that
// make or unmake a result — assessments created, finished, reopened, cancelled, archived,
// moved to another entity and deleted, standards added, removed and moved, several
// assessments changed in one statement, entities archived, taken out of the archive and
// renamed — and after every step holds the kept results, entities and standards equal to
// what the assessments say. PROGRESS_SEED replays a failure.
func TestPortfolioKeptResultsEqualTheAggregate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewDatabase(t))
	seed := progressSeed(t)
	rng := rand.New(rand.NewPCG(seed, 40))
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := pool.Exec(ctx, sql, args...)
		require.NoError(t, err, "seed %d: %s", seed, sql)
	}
	const entities, standards = 4, 3
	for i := range entities {
		exec(`INSERT INTO entities (id, name, entity_type) VALUES ($1, $2, 'product')`, fmt.Sprintf("en_%d", i), fmt.Sprintf("Entity %d", i))
	}
	for i := range standards {
		exec(`INSERT INTO standards (id, identifier, name, state) VALUES ($1, $1, $1, 'published')`, fmt.Sprintf("st_%d", i))
	}
	states := []string{"new", "in_progress", "complete", "archived", "cancelled", "on_hold"}
	entity := func() string { return fmt.Sprintf("en_%d", rng.IntN(entities)) }
	standard := func() string { return fmt.Sprintf("st_%d", rng.IntN(standards)) }
	state := func() string { return states[rng.IntN(len(states))] }
	made := 0
	assessment := func() string { return fmt.Sprintf("as_%d", rng.IntN(made+1)) }
	steps := []func() string{
		func() string {
			made++
			id := fmt.Sprintf("as_%d", made)
			exec(`INSERT INTO assessments (id, title, entity_id, state) VALUES ($1, 'A', $2, $3)`, id, entity(), state())
			exec(`INSERT INTO assessment_standards (assessment_id, standard_id) SELECT $1, id FROM standards WHERE random() < 0.6`, id)
			return "create " + id
		},
		func() string {
			id, st := assessment(), standard()
			exec(`INSERT INTO assessment_standards (assessment_id, standard_id) SELECT id, $2 FROM assessments WHERE id = $1 ON CONFLICT DO NOTHING`, id, st)
			return "add " + st + " to " + id
		},
		func() string {
			id := assessment()
			exec(`DELETE FROM assessment_standards WHERE ctid = (SELECT ctid FROM assessment_standards WHERE assessment_id = $1 LIMIT 1)`, id)
			return "remove a standard of " + id
		},
		func() string {
			from, to := assessment(), assessment()
			exec(`UPDATE assessment_standards s SET assessment_id = $2 WHERE s.assessment_id = $1 AND EXISTS (SELECT 1 FROM assessments WHERE id = $2)
				AND NOT EXISTS (SELECT 1 FROM assessment_standards o WHERE o.assessment_id = $2 AND o.standard_id = s.standard_id)`, from, to)
			return "move the standards of " + from + " to " + to
		},
		func() string {
			id, s := assessment(), state()
			exec(`UPDATE assessments SET state = $2, version = version + 1 WHERE id = $1`, id, s)
			return id + " to " + s
		},
		func() string {
			e, s := entity(), state()
			exec(`UPDATE assessments SET state = $2 WHERE entity_id = $1`, e, s)
			return "every assessment of " + e + " to " + s
		},
		func() string {
			id, e := assessment(), entity()
			exec(`UPDATE assessments SET entity_id = $2 WHERE id = $1`, id, e)
			return "move " + id + " to " + e
		},
		func() string {
			id := assessment()
			exec(`UPDATE assessments SET title = 'Renamed', conformance_score = 50 WHERE id = $1`, id)
			return "retitle " + id
		},
		func() string {
			id := assessment()
			exec(`DELETE FROM assessments WHERE id = $1`, id)
			return "delete " + id
		},
		func() string {
			e := entity()
			s := []string{"active", "inactive", "archived"}[rng.IntN(3)]
			exec(`UPDATE entities SET state = $2 WHERE id = $1`, e, s)
			return e + " " + s
		},
		func() string {
			e := entity()
			exec(`UPDATE entities SET name = $2 WHERE id = $1`, e, fmt.Sprintf("Name %d", rng.IntN(100)))
			return "rename " + e
		},
	}
	for i := range 400 {
		did := steps[rng.IntN(len(steps))]()
		requireKeptResults(t, pool, "seed %d, step %d: %s", seed, i, did)
	}
	var results int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM entity_results`).Scan(&results))
	t.Logf("seed %d: %d assessments made, %d entity results at the end", seed, made, results)
}

// TestPortfolioKeptResultsUnderConcurrentWriters: assessments of two entities against the same
// two standards completed and reopened from many connections at once, while the entities are
// archived, taken out of the archive and renamed, neither deadlock nor lose a change.
func TestPortfolioKeptResultsUnderConcurrentWriters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewDatabase(t))
	exec := func(sql string, args ...any) error {
		_, err := pool.Exec(ctx, sql, args...)
		return err
	}
	require.NoError(t, exec(`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'One', 'product'), ('en_2', 'Two', 'product')`))
	require.NoError(t, exec(`INSERT INTO standards (id, identifier, name, state) VALUES ('st_a', 'a', 'A', 'published'), ('st_b', 'b', 'B', 'published')`))
	require.NoError(t, exec(`INSERT INTO assessments (id, title, entity_id, state)
		SELECT 'as_' || g, 'A', 'en_' || (1 + g % 2), 'in_progress' FROM generate_series(1, 16) g`))
	require.NoError(t, exec(`INSERT INTO assessment_standards (assessment_id, standard_id)
		SELECT 'as_' || g, s FROM generate_series(1, 16) g, (VALUES ('st_a'), ('st_b')) v(s)`))
	var g errgroup.Group
	for i := 1; i <= 16; i++ {
		g.Go(func() error {
			for range 5 {
				if err := exec(`UPDATE assessments SET state = 'complete' WHERE id = $1`, fmt.Sprintf("as_%d", i)); err != nil {
					return err
				}
				if err := exec(`UPDATE assessments SET state = 'in_progress' WHERE id = $1`, fmt.Sprintf("as_%d", i)); err != nil {
					return err
				}
			}
			return exec(`UPDATE assessments SET state = 'complete' WHERE id = $1`, fmt.Sprintf("as_%d", i))
		})
	}
	for _, e := range []string{"en_1", "en_2"} {
		g.Go(func() error {
			for i := range 10 {
				if err := exec(`UPDATE entities SET state = $2, name = $3 WHERE id = $1`, e,
					[]string{"archived", "active"}[i%2], fmt.Sprintf("Name %d", i)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	require.NoError(t, g.Wait())
	requireKeptResults(t, pool)
	require.Equal(t, map[string][]int32{"st_a": {2}, "st_b": {2}}, progressByKey(t, pool, portfolioStandardsSQL))
}
