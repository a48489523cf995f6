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

	"github.com/assay-dev/assay/pkg/postgres/embedpg"
)

// PgbenchResult is the database ceiling: pgbench's select-only script (one primary-key
// SELECT per transaction, prepared statements) against the same cluster.
type PgbenchResult struct {
	Command   string  `json:"command"`
	TPS       float64 `json:"tps"`
	LatencyMs float64 `json:"latencyAvgMs"`
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

// runPgbench initialises pgbench's tables (scale 1: 100 000 accounts) in the cluster's
// maintenance database, away from the server's, and runs the select-only script with
// clients connections for dur. (Its backends exit with it, so their CPU time is not
// measured.)
func runPgbench(ctx context.Context, bin, dsn string, clients int, dur time.Duration) (*PgbenchResult, error) {
	init := exec.CommandContext(ctx, bin, "-i", "-s", "1", "-q", dsn)
	if out, err := init.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pgbench -i: %w\n%s", err, out)
	}
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
	res := &PgbenchResult{Command: "pgbench " + strings.Join(args, " ")}
	res.TPS, _ = strconv.ParseFloat(string(m[1]), 64)
	if m := latencyLine.FindSubmatch(out); m != nil {
		res.LatencyMs, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	return res, nil
}
