package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
)

// Report is everything one run measured; it is written as JSON to -out.
type Report struct {
	Date          string   `json:"date"`
	Command       string   `json:"command"`
	ServerVersion string   `json:"serverVersion"`
	Host          Host     `json:"host"`
	Settings      Settings `json:"settings"`
	Seed          *Dataset `json:"seed"`
	// Operations are the scenario's operations, each driven alone.
	Operations []Result `json:"operations"`
	// Mixed drives all operations at once, in proportion to their weights.
	Mixed *Result `json:"mixed,omitempty"`
	// HelloWorld and Pgbench are the ceilings: the fastest an HTTP server and the
	// database answer on this machine, with the same concurrency.
	HelloWorld *Result        `json:"helloWorld,omitempty"`
	Pgbench    *PgbenchResult `json:"pgbench,omitempty"`
	// PgbenchWrite is the write ceiling: create-shaped transactions (four inserts and a
	// synchronous commit) per second, see writeCeilingScript.
	PgbenchWrite *PgbenchResult `json:"pgbenchWrite,omitempty"`
	TotalSeconds float64        `json:"totalSeconds"`
	// Comparison is every read measured again on a second data size (-compare-data).
	Comparison *Comparison `json:"comparison,omitempty"`
	// Goals are issue 27's goals for the operations measured, against this run's ceilings.
	Goals []Goal `json:"goals,omitempty"`
}

// Host describes the machine, to tell runs on different machines apart.
type Host struct {
	Cores     int    `json:"cores"`
	CPU       string `json:"cpu"`
	GoVersion string `json:"goVersion"`
	LoadAvg   string `json:"loadAverageAtStart"`
	// LoadAvgEnd, against Cores, shows whether other programs competed for the CPU.
	LoadAvgEnd string `json:"loadAverageAtEnd"`
}

// Settings are the load parameters of the run.
type Settings struct {
	Concurrency int     `json:"concurrency"`
	DurationS   float64 `json:"durationSeconds"`
	WarmupS     float64 `json:"warmupSeconds"`
	Rounds      int     `json:"rounds"`
	// ServerEnv are the settings the bench gave the server beyond its fixed ones: the
	// pool size (serverEnvironment) and any -server-env.
	ServerEnv []string `json:"serverEnv,omitempty"`
}

func describeHost() Host {
	h := Host{Cores: runtime.NumCPU(), GoVersion: runtime.Version()}
	h.LoadAvg = loadAverage()
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				h.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	return h
}

// loadAverage is the 1, 5 and 15 minute load averages of /proc/loadavg.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

// fillFractions sets each result's share of the hello-world ceiling.
func (r *Report) fillFractions() {
	if r.HelloWorld == nil || r.HelloWorld.ReqPerSec == 0 {
		return
	}
	for i := range r.Operations {
		r.Operations[i].OfHelloWorld = r.Operations[i].ReqPerSec / r.HelloWorld.ReqPerSec
	}
	if r.Mixed != nil {
		r.Mixed.OfHelloWorld = r.Mixed.ReqPerSec / r.HelloWorld.ReqPerSec
	}
	r.HelloWorld.OfHelloWorld = 1
}

// printTable writes the results as a Markdown table followed by the ceilings.
func (r *Report) printTable(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprintln(tw, "| operation\t| req/s\t| spread\t| of hello\t| p50 ms\t| p95 ms\t| p99 ms\t| errors\t| srv CPU s\t| srv µs/req\t| db µs/req\t| gen CPU s\t| srv RSS MiB\t|")
	fmt.Fprintln(tw, "|---\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|")
	rows := append([]Result(nil), r.Operations...)
	if r.Mixed != nil {
		rows = append(rows, *r.Mixed)
	}
	if r.HelloWorld != nil {
		rows = append(rows, *r.HelloWorld)
	}
	for _, res := range rows {
		fmt.Fprintln(tw, tableRow(res))
	}
	_ = tw.Flush()
	fmt.Fprintln(w)
	for _, res := range rows {
		if res.FirstError != "" {
			fmt.Fprintf(w, "%s: first error: %s\n", res.Name, res.FirstError)
		}
		if res.NotModified > 0 {
			fmt.Fprintf(w, "%s: %d of %d answers were 304 Not Modified\n", res.Name, res.NotModified, res.Requests)
		}
	}
	if r.Pgbench != nil {
		fmt.Fprintf(w, "database ceiling: %s: %.0f tps (spread %.0f%%), latency average %.2f ms\n", r.Pgbench.Command, r.Pgbench.TPS, 100*r.Pgbench.Spread, r.Pgbench.LatencyMs)
	}
	if r.PgbenchWrite != nil {
		fmt.Fprintf(w, "write ceiling: %s: %.0f tps (spread %.0f%%), latency average %.2f ms\n", r.PgbenchWrite.Command, r.PgbenchWrite.TPS, 100*r.PgbenchWrite.Spread, r.PgbenchWrite.LatencyMs)
	}
	fmt.Fprintf(w, "req/s and tps: the median of %d rounds; spread: the rounds' range as a share of that median; "+
		"percentiles over every request of every round; CPU: all rounds together\n", r.Settings.Rounds)
	s := r.Seed
	fmt.Fprintf(w, "concurrency %d, %d rounds of %gs per operation after %gs warm-up; %d users, %d custom roles, %d unread notifications, %d API keys and sessions; "+
		"%d assessments, %d evidence, %d claims (seeded in %.0fs)\n",
		r.Settings.Concurrency, r.Settings.Rounds, r.Settings.DurationS, r.Settings.WarmupS, s.Users, s.CustomRoles, s.UnreadNotifications, s.Credentials,
		s.Assessments, s.Evidence, s.Claims, s.Seconds)
	if g := s.Generated; g != nil {
		fmt.Fprintf(w, "realistic data (pkg/datagen): %d assessments on %d standards, %d results, %d evidence, %d claims, %d audit rows, %d notes, %d policies, %d users (generated in %.0fs)\n",
			g.Assessments, g.Standards, g.Results, g.Evidence, g.Claims, g.Audit, g.Notes, g.Policies, g.Users, g.Seconds)
	}
	if s.PublishedStandard != "" {
		fmt.Fprintf(w, "published standard (asvs-tree): %s\n", s.PublishedStandard)
	}
	if len(r.Settings.ServerEnv) > 0 {
		fmt.Fprintf(w, "server environment: %s\n", strings.Join(r.Settings.ServerEnv, " "))
	}
	fmt.Fprintf(w, "assay-server %s; %d cores (%s), load average %s at start, %s at end; %s; whole run %.0fs\n",
		r.ServerVersion, r.Host.Cores, r.Host.CPU, r.Host.LoadAvg, r.Host.LoadAvgEnd, r.Host.GoVersion, r.TotalSeconds)
}

// tableRow is one line of the table; the µs/req columns are CPU time per request.
func tableRow(res Result) string {
	perReq := func(cpuSeconds float64) float64 { return cpuSeconds / float64(max(1, res.Requests)) * 1e6 }
	frac, db := "–", "–"
	if res.OfHelloWorld > 0 {
		frac = fmt.Sprintf("%.1f%%", 100*res.OfHelloWorld)
	}
	if res.Database != nil {
		db = fmt.Sprintf("%.0f", perReq(res.Database.CPUSeconds))
	}
	return fmt.Sprintf("| %s\t| %.0f\t| %.0f%%\t| %s\t| %.2f\t| %.2f\t| %.2f\t| %d\t| %.1f\t| %.0f\t| %s\t| %.1f\t| %.0f\t|",
		res.Name, res.ReqPerSec, 100*res.Spread, frac, res.P50Ms, res.P95Ms, res.P99Ms, res.Errors,
		res.Server.CPUSeconds, perReq(res.Server.CPUSeconds), db, res.Generator.CPUSeconds, res.Server.PeakRSSMiB)
}

// writeJSON writes the report to path, creating its directory.
func (r *Report) writeJSON(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
