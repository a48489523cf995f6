package pgtest

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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

// Executed is what PostgreSQL ran for the statements of an explained session (Explained):
// each statement's text and its plan with the rows every node produced and removed.
type Executed struct {
	mu    sync.Mutex
	plans []executedPlan
}

type executedPlan struct {
	Query    string            `json:"Query Text"`
	Plan     planNode          `json:"Plan"`
	Settings map[string]string `json:"Settings"` // the planner's settings not at their defaults
}

type planNode struct {
	Type          string     `json:"Node Type"`
	Relation      string     `json:"Relation Name,omitempty"`
	Index         string     `json:"Index Name,omitempty"`
	Rows          float64    `json:"Actual Rows"`
	Loops         float64    `json:"Actual Loops"`
	RemovedFilter float64    `json:"Rows Removed by Filter,omitempty"`
	RemovedCheck  float64    `json:"Rows Removed by Index Recheck,omitempty"`
	Plans         []planNode `json:"Plans,omitempty"`
}

// Explained returns a pool of one session to the database pool is on whose every statement
// PostgreSQL reports as run — its plan, and the rows each step read (auto_explain, sent to
// the client as notices) — into the returned Executed. It needs a superuser, as the test
// clusters' are (LOAD). settings are statements run on the session first ("SET
// enable_seqscan = off").
func Explained(t testing.TB, pool *pgxpool.Pool, settings ...string) (*pgxpool.Pool, *Executed) {
	t.Helper()
	ex := &Executed{}
	cfg := pool.Config().Copy()
	cfg.MinConns, cfg.MaxConns = 0, 1
	cfg.ConnConfig.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		_, body, ok := strings.Cut(n.Message, "plan:\n")
		if !ok {
			return
		}
		var p executedPlan
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			return
		}
		ex.mu.Lock()
		ex.plans = append(ex.plans, p)
		ex.mu.Unlock()
	}
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, `LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on;
			SET auto_explain.log_timing = off; SET auto_explain.log_format = json; SET auto_explain.log_level = notice;
			SET auto_explain.log_settings = on`)
		for _, s := range settings {
			if err == nil {
				_, err = c.Exec(ctx, s)
			}
		}
		return err
	}
	one, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatalf("pgtest: explained session: %v", err)
	}
	t.Cleanup(one.Close)
	if err := one.Ping(context.Background()); err != nil {
		t.Fatalf("pgtest: explained session (auto_explain needs a superuser): %v", err)
	}
	return one, ex
}

// Reset forgets the statements run so far.
func (ex *Executed) Reset() {
	ex.mu.Lock()
	ex.plans = nil
	ex.mu.Unlock()
}

// RowsRead returns how many rows of table the statements run since the last Reset whose
// text contains every one of parts read: each scan's rows, with those its conditions then
// removed, over all its loops; and the number of such statements.
func (ex *Executed) RowsRead(table string, parts ...string) (rows int64, statements int) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	for _, p := range ex.plans {
		if !containsAll(p.Query, parts) {
			continue
		}
		statements++
		rows += p.Plan.rowsRead(table)
	}
	return rows, statements
}

// Setting returns, for each statement run since the last Reset whose text contains every one
// of parts, the value of the planner's setting name it ran with ("" at the default):
// plan_cache_mode, for one.
func (ex *Executed) Setting(name string, parts ...string) []string {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	var out []string
	for _, p := range ex.plans {
		if containsAll(p.Query, parts) {
			out = append(out, p.Settings[name])
		}
	}
	return out
}

// Plans returns the plans of the statements run since the last Reset whose text contains
// every one of parts, as JSON (for a test's failure message).
func (ex *Executed) Plans(parts ...string) string {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	var b strings.Builder
	for _, p := range ex.plans {
		if containsAll(p.Query, parts) {
			j, _ := json.MarshalIndent(p.Plan, "", " ")
			b.Write(j)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func (n planNode) rowsRead(table string) int64 {
	var rows int64
	if n.Relation == table {
		rows += int64((n.Rows + n.RemovedFilter + n.RemovedCheck) * max(n.Loops, 1))
	}
	for _, c := range n.Plans {
		rows += c.rowsRead(table)
	}
	return rows
}
