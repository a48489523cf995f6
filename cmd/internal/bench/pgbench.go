package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/postgres/embedpg"
)

// PgbenchResult is the database ceiling: pgbench's select-only script (one primary-key
// SELECT per transaction, prepared statements) against the same cluster.
type PgbenchResult struct {
	Command   string  `json:"command"`
	TPS       float64 `json:"tps"`
	LatencyMs float64 `json:"latencyAvgMs"`
	// Rounds are the tps of each round (TPS is their median), Spread their range as a
	// fraction of the median.
	Rounds []float64 `json:"roundsTps,omitempty"`
	Spread float64   `json:"spread"`
}

var (
	tpsLine     = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)
	latencyLine = regexp.MustCompile(`(?m)^latency average = ([0-9.]+) ms`)
)

// findPgbench returns explicit, or pgbench next to the PostgreSQL server binaries
// (the version the cluster runs), or the one on PATH.
func findPgbench(explicit string) (string, error) {
	if explicit != "" {
		return explicit, nil
	}
	if dir, err := embedpg.FindBinaries(""); err == nil {
		if p := filepath.Join(dir, "pgbench"); isExecutable(p) {
			return p, nil
		}
	}
	p, err := exec.LookPath("pgbench")
	if err != nil {
		return "", errors.New("pgbench not found: it ships with the PostgreSQL server package (Debian: postgresql-15); pass -pgbench, or -skip-ceilings")
	}
	return p, nil
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// initPgbench creates pgbench's tables (scale 1: 100 000 accounts) in the cluster's
// maintenance database, away from the server's, once for all rounds: the select-only
// script only reads them.
func initPgbench(ctx context.Context, bin, dsn string) error {
	if out, err := exec.CommandContext(ctx, bin, "-i", "-s", "1", "-q", dsn).CombinedOutput(); err != nil {
		return fmt.Errorf("pgbench -i: %w\n%s", err, out)
	}
	return nil
}

// runPgbench runs the select-only script on initPgbench's tables with clients connections
// for dur. (Its backends exit with it, so their CPU time is not measured.)
func runPgbench(ctx context.Context, bin, dsn string, clients int, dur time.Duration) (*PgbenchResult, error) {
	secs := max(1, int(dur.Round(time.Second)/time.Second))
	threads := min(2, clients)
	args := []string{"-S", "-M", "prepared", "-c", strconv.Itoa(clients), "-j", strconv.Itoa(threads), "-T", strconv.Itoa(secs), "-n"}
	cmd := exec.CommandContext(ctx, bin, append(args, dsn)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pgbench: %w\n%s", err, out)
	}
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("pgbench: no tps line in its output:\n%s", out)
	}
	return parsePgbench("pgbench "+strings.Join(args, " "), out, m), nil
}

func parsePgbench(command string, out []byte, tps [][]byte) *PgbenchResult {
	res := &PgbenchResult{Command: command}
	res.TPS, _ = strconv.ParseFloat(string(tps[1]), 64)
	if m := latencyLine.FindSubmatch(out); m != nil {
		res.LatencyMs, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	return res
}

// writeCeilingSchema and writeCeilingScript are the write ceiling: a transaction shaped like
// a create (create-invite) — four single-row inserts into four tables with a primary key
// and one or two more indexes each, one of them with a foreign key, a JSON value in three —
// committed with the cluster's durability (synchronous commit, fsync). It is what the
// database alone commits per second with the same clients, without the HTTP server and
// without the reads a create makes (recipients, rules): an upper bound for creates.
const writeCeilingSchema = `
DROP TABLE IF EXISTS ceiling_notification, ceiling_event, ceiling_audit, ceiling_record;
CREATE TABLE ceiling_record (id text PRIMARY KEY, role_id text NOT NULL, token_hash bytea NOT NULL, created_by text NOT NULL,
	created_at timestamptz NOT NULL, expires_at timestamptz NOT NULL);
CREATE INDEX ON ceiling_record (id DESC);
CREATE UNIQUE INDEX ON ceiling_record (token_hash);
CREATE TABLE ceiling_audit (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, occurred_at timestamptz NOT NULL DEFAULT now(),
	actor text NOT NULL, action text NOT NULL, target_id text NOT NULL, details jsonb NOT NULL);
CREATE INDEX ON ceiling_audit (action, occurred_at DESC);
CREATE INDEX ON ceiling_audit (occurred_at DESC, id DESC);
CREATE TABLE ceiling_event (id text PRIMARY KEY, type text NOT NULL, occurred_at timestamptz NOT NULL, actor_id text NOT NULL,
	data jsonb NOT NULL);
CREATE INDEX ON ceiling_event (occurred_at);
CREATE TABLE ceiling_notification (id text PRIMARY KEY, user_id text NOT NULL, event_id text REFERENCES ceiling_event (id),
	title text NOT NULL, params jsonb NOT NULL, created_at timestamptz NOT NULL, read_at timestamptz);
CREATE UNIQUE INDEX ON ceiling_notification (event_id, user_id);
CREATE INDEX ON ceiling_notification (user_id, id DESC);
CREATE INDEX ON ceiling_notification (user_id, id DESC) WHERE read_at IS NULL;
`

const writeCeilingScript = `\set n random(1, 1000000000)
\set m random(1, 1000000000)
BEGIN;
INSERT INTO ceiling_record VALUES ('inv_' || :client_id || '_' || :n || md5(random()::text), 'rl_assessee',
	decode(md5(random()::text), 'hex'), 'u_admin', now(), now() + interval '7 days');
INSERT INTO ceiling_audit (actor, action, target_id, details) VALUES ('u_admin', 'invite.created', 'inv_' || :n,
	'{"email": "", "intendedRole": "assessee", "sendEmail": false}');
INSERT INTO ceiling_event VALUES ('evt_' || :n || '_' || :m, 'invite.created', now(), 'u_admin',
	'{"id": "inv", "intendedRole": "assessee", "status": "unused"}');
INSERT INTO ceiling_notification VALUES ('nt_' || :client_id || '_' || :n || md5(random()::text), 'u_other',
	'evt_' || :n || '_' || :m, 'Invite created', '{"actor": "Admin"}', now());
END;
`

// runPgbenchWrite runs the write ceiling (writeCeilingScript) in the cluster's maintenance
// database with clients connections for dur.
func runPgbenchWrite(ctx context.Context, bin, dsn, dir string, clients int, dur time.Duration) (*PgbenchResult, error) {
	script := filepath.Join(dir, "write-ceiling.sql")
	if err := os.WriteFile(script, []byte(writeCeilingScript), 0o644); err != nil {
		return nil, err
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	_, err = conn.Exec(ctx, writeCeilingSchema)
	_ = conn.Close(ctx)
	if err != nil {
		return nil, fmt.Errorf("write ceiling schema: %w", err)
	}
	secs := max(1, int(dur.Round(time.Second)/time.Second))
	args := []string{"-M", "prepared", "-c", strconv.Itoa(clients), "-j", strconv.Itoa(min(2, clients)), "-T", strconv.Itoa(secs), "-n", "-f"}
	out, err := exec.CommandContext(ctx, bin, append(args, script, dsn)...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pgbench (write ceiling): %w\n%s", err, out)
	}
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("pgbench (write ceiling): no tps line in its output:\n%s", out)
	}
	return parsePgbench("pgbench "+strings.Join(args, " ")+" write-ceiling.sql", out, m), nil
}
