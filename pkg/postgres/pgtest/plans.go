package pgtest

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// OneSession returns a pool of a single connection to the database pool is on, closed when
// the test ends: every statement the test runs on it is prepared in one session, whose
// plans PreparedPlans reads.
func OneSession(t testing.TB, pool *pgxpool.Pool) *pgxpool.Pool {
	t.Helper()
	cfg := pool.Config().Copy()
	cfg.MinConns, cfg.MaxConns = 0, 1
	one, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatalf("pgtest: one session: %v", err)
	}
	t.Cleanup(one.Close)
	return one
}

// Plans is how often PostgreSQL made the generic and the custom plans of a statement
// prepared in a session (pg_prepared_statements).
type Plans struct {
	SQL             string
	Generic, Custom int64
}

// PreparedPlans returns the plans of the statements prepared in one's session (OneSession)
// whose text contains every one of parts.
func PreparedPlans(t testing.TB, one *pgxpool.Pool, parts ...string) []Plans {
	t.Helper()
	rows, err := one.Query(context.Background(), "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements")
	if err != nil {
		t.Fatalf("pgtest: prepared statements: %v", err)
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Plans, error) {
		var p Plans
		return p, r.Scan(&p.SQL, &p.Generic, &p.Custom)
	})
	if err != nil {
		t.Fatalf("pgtest: prepared statements: %v", err)
	}
	var out []Plans
	for _, p := range all {
		if !strings.Contains(p.SQL, "pg_prepared_statements") && containsAll(p.SQL, parts) {
			out = append(out, p)
		}
	}
	return out
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
