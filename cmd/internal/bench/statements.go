package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The -statements flag: where an operation's database time goes. The cluster then loads
// pg_stat_statements, every phase starts from cleared statistics (after settle, so the
// VACUUM is not counted; the warm-up is), and after the phase the statements with the
// most time (planning and execution) are printed: calls, plannings, mean planning and
// execution time, their total, rows and buffer hits per call, and the statement's text
// on one line. A statement planned on every call is one PostgreSQL plans anew for each
// execution's parameters (a custom plan) although pgx prepared it. The figures include the extension's own
// overhead, so compare req/s only between runs made the same way.

// statementSettings are the cluster settings -statements needs.
func statementSettings(settings map[string]string) {
	settings["shared_preload_libraries"] = "pg_stat_statements"
	settings["pg_stat_statements.track"] = "all"
	settings["pg_stat_statements.track_planning"] = "on"
}

// resetStatements creates the extension when missing and clears its statistics.
func resetStatements(ctx context.Context, dsn string) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(ctx) }()
	if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		return fmt.Errorf("pg_stat_statements: %w", err)
	}
	_, err = conn.Exec(ctx, "SELECT pg_stat_statements_reset()")
	return err
}

// printStatements writes the n statements of the server's database with the most
// execution time since the last reset.
func printStatements(ctx context.Context, dsn string, n int, out io.Writer) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(ctx) }()
	rows, err := conn.Query(ctx, `SELECT calls, plans, total_plan_time / nullif(plans, 0), total_exec_time / nullif(calls, 0),
			total_plan_time + total_exec_time, rows::float8 / nullif(calls, 0),
			(shared_blks_hit + shared_blks_read)::float8 / nullif(calls, 0),
			(total_plan_time + total_exec_time) / nullif(sum(total_plan_time + total_exec_time) OVER (), 0), query
		FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
		WHERE d.datname = current_database() AND query NOT LIKE '%pg_stat_statements%'
		ORDER BY total_plan_time + total_exec_time DESC LIMIT $1`, n)
	if err != nil {
		return err
	}
	type stmt struct {
		calls, plans                          int64
		plan, exec, total, rows, blocks, part float64
		query                                 string
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (stmt, error) {
		var s stmt
		var plan, exec, rowsPer, blocks, part *float64
		err := r.Scan(&s.calls, &s.plans, &plan, &exec, &s.total, &rowsPer, &blocks, &part, &s.query)
		s.plan, s.exec, s.rows, s.blocks, s.part = deref(plan), deref(exec), deref(rowsPer), deref(blocks), deref(part)
		return s, err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  %8s %8s %8s %8s %8s %7s %7s %6s  %s\n", "calls", "plans", "plan ms", "exec ms", "total ms", "rows", "blocks", "share", "statement")
	replanned := 0
	for _, s := range found {
		q := strings.Join(strings.Fields(s.query), " ")
		if len(q) > 160 {
			q = q[:160] + "…"
		}
		mark := ""
		if plannedPerCall(s.calls, s.plans) {
			mark, replanned = " (*)", replanned+1
		}
		fmt.Fprintf(out, "  %8d %8d %8.3f %8.3f %8.0f %7.1f %7.1f %5.1f%%  %s%s\n", s.calls, s.plans, s.plan, s.exec, s.total, s.rows, s.blocks, 100*s.part, q, mark)
	}
	if replanned > 0 {
		fmt.Fprintf(out, "  (*) planned anew on almost every call: its planning is paid per run (docs/performance.md, \"Plans made on every call\")\n")
	}
	return nil
}

// plannedPerCall tells a statement PostgreSQL planned anew on (almost) every run — a
// custom plan each time — from its calls and plans in a phase: nine plans in ten calls or
// more, over enough calls that the few plans every connection makes first do not count.
func plannedPerCall(calls, plans int64) bool {
	return calls >= 100 && plans*10 >= calls*9
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}
