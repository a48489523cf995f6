package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/postgres/embedpg"
)

// helloWorldOp is the only request of the hello-world ceiling.
var helloWorldOp = &Operation{
	Name: "hello-world", Method: http.MethodGet, Path: "/", Credential: credNone,
	path: template{{literal: "/"}},
}

// environment is the cluster and the server of one run, in a temporary work directory.
type environment struct {
	dir        string
	keep       bool
	statements int
	serverEnv  []string
	cluster    *embedpg.Server
	server     *process
	db         pidsFunc
	out        io.Writer
}

// startEnvironment starts the cluster, then the server on it (which migrates it).
func startEnvironment(ctx context.Context, o options, out io.Writer) (*environment, error) {
	dir, err := os.MkdirTemp("", "assay-bench-")
	if err != nil {
		return nil, err
	}
	// When run as root, PostgreSQL runs as another user, who must traverse the directory.
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, err
	}
	e := &environment{dir: dir, keep: o.Keep, statements: o.Statements, serverEnv: o.ServerEnv, out: out}
	if err := e.start(ctx, o.Server); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

func (e *environment) start(ctx context.Context, serverBin string) error {
	var err error
	settings := map[string]string{"max_connections": "200"}
	if e.statements > 0 {
		statementSettings(settings)
	}
	e.cluster, err = embedpg.Start(ctx, embedpg.Config{
		// The server's default durability (fsync, synchronous commit), so writes cost
		// what they cost in production.
		DataDir: filepath.Join(e.dir, "pg"), Database: "assay",
		Settings: settings,
		Logger:   slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return err
	}
	postmaster, err := postmasterPID(filepath.Join(e.dir, "pg"))
	if err != nil {
		return fmt.Errorf("find the postmaster: %w", err)
	}
	e.db = processTree(postmaster)
	fmt.Fprintf(e.out, "PostgreSQL %s started in %s\n", e.cluster.Version(), e.dir)
	e.server, err = startServer(ctx, serverBin, e.cluster.ConnString(), filepath.Join(e.dir, "server.log"), e.serverEnv)
	return err
}

// postmasterPID reads the first line of the cluster's postmaster.pid.
func postmasterPID(dataDir string) (int, error) {
	data, err := os.ReadFile(filepath.Join(dataDir, "pgdata", "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}

// close stops the server and the cluster and, unless -keep, removes the work directory.
func (e *environment) close() {
	if e.server != nil {
		e.server.stop()
	}
	if e.cluster != nil {
		if err := e.cluster.Stop(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "bench: stop PostgreSQL:", err)
		}
	}
	if e.keep {
		fmt.Fprintln(e.out, "kept:", e.dir)
		return
	}
	_ = os.RemoveAll(e.dir)
}

// measure drives each phase against the server once and returns the results in order.
func (e *environment) measure(ctx context.Context, drv *driver, phases []phase) ([]Result, error) {
	t := target{base: e.server.base, server: onePID(e.server.pid()), db: e.db}
	results := make([]Result, 0, len(phases))
	for _, ph := range phases {
		if err := e.settle(ctx); err != nil {
			return nil, err
		}
		if e.statements > 0 {
			if err := resetStatements(ctx, e.cluster.ConnString()); err != nil {
				return nil, err
			}
		}
		res := drv.run(ctx, t, ph)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e.progress(res)
		if e.statements > 0 {
			if err := printStatements(ctx, e.cluster.ConnString(), e.statements, e.out); err != nil {
				return nil, err
			}
		}
		results = append(results, res)
	}
	return results, nil
}

// ceilingRound is one round's measurement of the ceilings.
type ceilingRound struct {
	hello             Result
	selectOnly, write *PgbenchResult
}

// ceilings measures the hello-world server with the same driver, then pgbench: the
// select-only script and the write ceiling.
func (e *environment) ceilings(ctx context.Context, drv *driver, pgbench string) (ceilingRound, error) {
	var c ceilingRound
	hello, err := startHelloWorld(ctx, filepath.Join(e.dir, "hello-world.log"))
	if err != nil {
		return c, err
	}
	c.hello = drv.run(ctx, target{base: hello.base, server: onePID(hello.pid())}, phase{name: helloWorldOp.Name, pick: only(helloWorldOp)})
	hello.stop()
	if err := ctx.Err(); err != nil {
		return c, err
	}
	e.progress(c.hello)
	c.selectOnly, err = runPgbench(ctx, pgbench, e.cluster.ConnStringFor("postgres"), drv.concurrency, drv.duration)
	if err != nil {
		return c, err
	}
	fmt.Fprintf(e.out, "%-16s %8.0f tps, latency average %.2f ms\n", "pgbench -S", c.selectOnly.TPS, c.selectOnly.LatencyMs)
	c.write, err = runPgbenchWrite(ctx, pgbench, e.cluster.ConnStringFor("postgres"), e.dir, drv.concurrency, drv.duration)
	if err != nil {
		return c, err
	}
	fmt.Fprintf(e.out, "%-16s %8.0f tps, latency average %.2f ms\n", "pgbench write", c.write.TPS, c.write.LatencyMs)
	return c, nil
}

// settle vacuums and analyzes the server's database, then waits (at most 15 s) until
// PostgreSQL is idle, so each phase starts from the same state: without it, autovacuum
// (whose launcher wakes once a minute) cleans up after the seed or a write-heavy phase
// during the next phase, and is measured there.
func (e *environment) settle(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, e.cluster.ConnString())
	if err != nil {
		return err
	}
	_, err = conn.Exec(ctx, "VACUUM (ANALYZE)")
	_ = conn.Close(ctx)
	if err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	began := time.Now()
	for time.Since(began) < 15*time.Second && ctx.Err() == nil {
		before := takeCPU(e.db)
		time.Sleep(500 * time.Millisecond)
		if takeCPU(e.db).since(before) < 0.03 {
			break
		}
	}
	if waited := time.Since(began); waited > 2*time.Second {
		fmt.Fprintf(e.out, "(waited %.0fs for PostgreSQL to go idle)\n", waited.Seconds())
	}
	return nil
}

func (e *environment) progress(res Result) {
	fmt.Fprintf(e.out, "%-16s %8.0f req/s, p99 %7.2f ms, %d errors\n", res.Name, res.ReqPerSec, res.P99Ms, res.Errors)
}
