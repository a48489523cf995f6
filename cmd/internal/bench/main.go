// Command bench is the request hot-path benchmark of PRODUCT P10.1 (make bench). It starts
// a throw-away PostgreSQL cluster and the real assay-server binary, seeds a dataset through
// the API, then drives each operation of scenario.json in turn at a fixed concurrency over
// keep-alive connections, and prints req/s, latency percentiles, errors and the server's
// CPU and memory. In the same run and with the same generator it measures the ceilings: a
// hello-world net/http server, and pgbench's select-only script on the same cluster. Phases
// and ceilings are measured -rounds times, in whole rounds, and reported as medians with
// their spread. docs/performance.md describes the method. Not shipped.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/assay-dev/assay/pkg/config"
)

// options are the flags of the command.
type options struct {
	Concurrency  int
	Duration     time.Duration
	Warmup       time.Duration
	Users        int
	Entities     int
	Requirements int
	Assessments  int
	Evidence     int
	Credentials  int
	Op           string // operations by name, comma-separated ("mixed": the mix); empty for all
	Out          string
	Server       string
	Pgbench      string
	Scenario     string
	SkipCeilings bool
	Keep         bool
	Statements   int             // statements printed per phase from pg_stat_statements; 0: off
	Rounds       int             // times every phase and ceiling is measured; the report gives medians
	Data         string          // realistic data added by pkg/datagen ("1k", "1m", …; dataset.go); "": none
	CompareData  string          // a second size on which every read is measured again; "": none
	StandardsDir string          // CycloneDX standards the generated assessments start on; "": generated standards
	set          map[string]bool // the flags given on the command line
	dataSize     int             // Data in rows
	ServerEnv    []string        // NAME=VALUE settings of the server's environment on top of the bench's own
}

// Validate checks the flags before anything is started.
func (o *options) Validate() error {
	switch {
	case o.Concurrency < 1:
		return errors.New("-concurrency must be at least 1")
	case o.Duration < time.Second:
		return errors.New("-duration must be at least 1s")
	case o.Warmup < 0:
		return errors.New("-warmup must not be negative")
	case o.Users < 1:
		return errors.New("-users must be at least 1")
	case o.Entities < 0:
		return errors.New("-entities must not be negative")
	case o.Requirements != 0 && o.Requirements < 200:
		return errors.New("-requirements must be 0 or at least 200")
	case o.Assessments < 0:
		return errors.New("-assessments must not be negative")
	case o.Evidence < 3:
		return errors.New("-evidence must be at least 3 (every third is linked to the seeded assessment)")
	case o.Credentials < 1:
		return errors.New("-credentials must be at least 1")
	case o.Rounds < 1:
		return errors.New("-rounds must be at least 1")
	case o.Statements < 0:
		return errors.New("-statements must not be negative")
	case o.Out == "":
		return errors.New("-out is required")
	case o.CompareData != "" && o.Data == "":
		return errors.New("-compare-data needs -data")
	}
	for name, v := range map[string]string{"-data": o.Data, "-compare-data": o.CompareData} {
		if _, err := parseDataSize(v); err != nil {
			return fmt.Errorf("%s %w", name, err)
		}
	}
	for _, kv := range o.ServerEnv {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" || strings.ContainsAny(name, " \t") {
			return fmt.Errorf("-server-env %q: want NAME=VALUE", kv)
		}
	}
	if _, err := os.Stat(o.Server); err != nil {
		return fmt.Errorf("-server: %w (make go-build builds it)", err)
	}
	return nil
}

func main() {
	var o options
	flag.IntVar(&o.Concurrency, "concurrency", 32, "concurrent connections, each with one request in flight")
	flag.DurationVar(&o.Duration, "duration", 3*time.Second, "measured time per operation and round")
	flag.DurationVar(&o.Warmup, "warmup", time.Second, "unmeasured load before each measurement")
	flag.IntVar(&o.Rounds, "rounds", 3, "times every operation and ceiling is measured, one round after the other; the table gives the median")
	flag.IntVar(&o.Users, "users", 1000, "users to seed")
	flag.IntVar(&o.Entities, "entities", 100000, "entities to seed (inserted in SQL) for the entity list operations")
	flag.IntVar(&o.Requirements, "requirements", 100000, "requirements of the large seeded standard (inserted in SQL) for the requirement list operations; 0: none")
	flag.IntVar(&o.Assessments, "assessments", 1000, "assessments to seed (inserted in SQL) besides the ASVS one; the participant is on every tenth")
	flag.IntVar(&o.Evidence, "evidence", 5000, "evidence to seed (inserted in SQL), authored by the seeded users; every third is linked to the ASVS assessment")
	flag.IntVar(&o.Credentials, "credentials", 0, "API keys, and sessions, the workers share round-robin (default: one each per worker)")
	flag.StringVar(&o.Op, "op", "", "run only these operations (names from the scenario, or mixed; comma-separated)")
	flag.StringVar(&o.Out, "out", filepath.Join(os.TempDir(), "assay-bench", "bench-results.json"), "JSON results file")
	flag.StringVar(&o.Server, "server", "bin/assay-server", "assay-server binary")
	flag.StringVar(&o.Pgbench, "pgbench", "", "pgbench binary (default: next to the PostgreSQL server binaries, else on PATH)")
	flag.StringVar(&o.Scenario, "scenario", "", "scenario file (default: the built-in scenario.json)")
	flag.BoolVar(&o.SkipCeilings, "skip-ceilings", false, "do not measure the hello-world and pgbench ceilings")
	flag.BoolVar(&o.Keep, "keep", false, "keep the work directory (cluster, server log)")
	flag.Func("server-env", "a NAME=VALUE setting of the server's environment (e.g. DB_MAX_CONNS=12), over the bench's own; repeat for more", func(kv string) error {
		o.ServerEnv = append(o.ServerEnv, kv)
		return nil
	})
	flag.IntVar(&o.Statements, "statements", 0, "print each phase's N statements with the most database time (loads pg_stat_statements; slows the database a little)")
	flag.StringVar(&o.Data, "data", "", "add realistic data (pkg/datagen): rows in each of the biggest tables — results, audit log, claims — e.g. 1k, 100k, 1m; sizes the bench's own bulk seed to match unless its flags are given")
	flag.StringVar(&o.CompareData, "compare-data", "", "measure every read again on a second database with this much realistic data and print each read's p99 on both and their ratio")
	flag.StringVar(&o.StandardsDir, "standards", os.Getenv("STANDARDS_DATA"), "CycloneDX standards (*.cdx.json below it) the generated assessments start on (default STANDARDS_DATA); empty: generated standards of real sizes")
	hello := flag.String("serve-hello-world", "", "internal: serve the hello-world ceiling on this address")
	flag.Parse()
	o.set = map[string]bool{}
	flag.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	if *hello != "" {
		fmt.Fprintln(os.Stderr, serveHelloWorld(*hello))
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.Credentials == 0 {
		o.Credentials = o.Concurrency
	}
	err := o.Validate()
	if err == nil {
		err = run(ctx, o, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// serverEnvironment is the server's environment beyond the bench's fixed settings: the
// pool size the embedded database gets by default on cpus CPUs (the bench's cluster runs
// on the same cores, as the embedded database does, while the server is told it is
// external), unless extra (-server-env) sets DB_MAX_CONNS, then extra.
func serverEnvironment(extra []string, cpus int) []string {
	if slices.ContainsFunc(extra, func(kv string) bool { return strings.HasPrefix(kv, "DB_MAX_CONNS=") }) {
		return extra
	}
	return append([]string{"DB_MAX_CONNS=" + strconv.Itoa(config.EmbeddedMaxConns(cpus))}, extra...)
}

// measureRounds measures every phase, then the ceilings (unless pgbench is ""), rounds
// times over, and files each phase's and ceiling's combined rounds in rep.
func measureRounds(ctx context.Context, env *environment, drv *driver, rep *Report, phases []phase, rounds int, pgbench string) error {
	byPhase := make([][]Result, len(phases))
	var hello []Result
	var selects, writes []*PgbenchResult
	if pgbench != "" {
		if err := initPgbench(ctx, pgbench, env.cluster.ConnStringFor("postgres")); err != nil {
			return err
		}
	}
	for round := 1; round <= rounds; round++ {
		if rounds > 1 {
			fmt.Fprintf(env.out, "round %d of %d\n", round, rounds)
		}
		results, err := env.measure(ctx, drv, phases)
		if err != nil {
			return err
		}
		for i, res := range results {
			byPhase[i] = append(byPhase[i], res)
		}
		if pgbench == "" {
			continue
		}
		c, err := env.ceilings(ctx, drv, pgbench)
		if err != nil {
			return err
		}
		hello, selects, writes = append(hello, c.hello), append(selects, c.selectOnly), append(writes, c.write)
	}
	for i, ph := range phases {
		res := combineRounds(byPhase[i])
		if ph.name == mixedPhase {
			rep.Mixed = &res
		} else {
			rep.Operations = append(rep.Operations, res)
		}
	}
	if len(hello) > 0 {
		h := combineRounds(hello)
		rep.HelloWorld, rep.Pgbench, rep.PgbenchWrite = &h, combinePgbench(selects), combinePgbench(writes)
	}
	return nil
}

// mixedPhase names the phase driving every operation at once, by weight.
const mixedPhase = "mixed"

// selectPhases returns what to measure: each operation alone, then the mix; or, with
// -op, the one operation (or the mix) named.
func selectPhases(sc *Scenario, op string) ([]phase, error) {
	var phases []phase
	wanted := strings.Split(op, ",")
	for _, o := range sc.Operations {
		if op == "" || slices.Contains(wanted, o.Name) {
			phases = append(phases, phase{name: o.Name, pick: only(o)})
		}
	}
	var weightedOps []*Operation
	for _, o := range sc.Operations {
		if o.Weight > 0 {
			weightedOps = append(weightedOps, o)
		}
	}
	if (op == "" || slices.Contains(wanted, mixedPhase)) && len(weightedOps) > 0 {
		phases = append(phases, phase{name: mixedPhase, pick: weighted(weightedOps)})
	}
	if len(phases) < len(wanted) && op != "" {
		names := make([]string, 0, len(sc.Operations))
		for _, o := range sc.Operations {
			names = append(names, o.Name)
		}
		return nil, fmt.Errorf("-op %q: not in the scenario (%s, %s)", op, strings.Join(names, ", "), mixedPhase)
	}
	return phases, nil
}

func loadScenario(path string) (*Scenario, error) {
	if path == "" {
		return parseScenario(scenarioJSON)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseScenario(data)
}

// run is the whole benchmark: services up, seed, phases, ceilings, report.
func run(ctx context.Context, o options, out io.Writer) error {
	began := time.Now()
	sc, err := loadScenario(o.Scenario)
	if err != nil {
		return err
	}
	phases, err := selectPhases(sc, o.Op)
	if err != nil {
		return err
	}
	pgbench := ""
	if !o.SkipCeilings {
		if pgbench, err = findPgbench(o.Pgbench); err != nil {
			return err
		}
	}
	o.ServerEnv = serverEnvironment(o.ServerEnv, runtime.GOMAXPROCS(0))
	o.dataSize, _ = parseDataSize(o.Data)
	applyDataSize(&o, o.dataSize, o.set)
	rep := &Report{
		Date: began.Format(time.RFC3339), Command: strings.Join(os.Args, " "), Host: describeHost(),
		Settings: Settings{Concurrency: o.Concurrency, DurationS: o.Duration.Seconds(), WarmupS: o.Warmup.Seconds(), Rounds: o.Rounds, ServerEnv: o.ServerEnv},
	}
	if err := measureData(ctx, o, phases, pgbench, rep, out); err != nil {
		return err
	}
	if reads := readPhases(sc, phases); o.CompareData != "" && len(reads) > 0 {
		small := o
		small.Data = o.CompareData
		small.dataSize, _ = parseDataSize(o.CompareData)
		applyDataSize(&small, small.dataSize, o.set)
		fmt.Fprintf(out, "\nthe reads again on a database with %s rows of realistic data\n", o.CompareData)
		other := &Report{Settings: rep.Settings}
		if err := measureData(ctx, small, reads, "", other, out); err != nil {
			return err
		}
		rep.Comparison = &Comparison{Data: o.Data, CompareData: o.CompareData, Seed: other.Seed, Reads: compareReads(rep.Operations, other.Operations)}
		rep.Comparison.Host.LoadAvgEnd = loadAverage()
	}
	rep.TotalSeconds, rep.Host.LoadAvgEnd = time.Since(began).Seconds(), loadAverage()
	rep.fillFractions()
	fmt.Fprintln(out)
	rep.printTable(out)
	if rep.Comparison != nil {
		fmt.Fprintln(out)
		rep.Comparison.print(out)
	}
	if rep.Goals = rep.goals(); len(rep.Goals) > 0 {
		fmt.Fprintln(out)
		printGoals(out, rep.Goals)
	}
	if err := rep.writeJSON(o.Out); err != nil {
		return err
	}
	fmt.Fprintln(out, "results:", o.Out)
	return ctx.Err()
}

// measureData starts a cluster and a server, seeds them as o says and measures phases (and
// the ceilings, unless pgbench is "") into rep.
func measureData(ctx context.Context, o options, phases []phase, pgbench string, rep *Report, out io.Writer) error {
	env, err := startEnvironment(ctx, o, out)
	if err != nil {
		return err
	}
	defer env.close()
	rep.ServerVersion = serverVersion(ctx, env.server.base)
	if rep.Seed, err = seed(ctx, env.server.base, env.cluster.ConnString(), o, out); err != nil {
		return err
	}
	drv := &driver{data: rep.Seed, concurrency: o.Concurrency, warmup: o.Warmup, duration: o.Duration}
	return measureRounds(ctx, env, drv, rep, phases, o.Rounds, pgbench)
}
