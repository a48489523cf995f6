package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/pkg/datagen"
)

// Realistic data (issue 27 item 1; docs/performance.md, "Realistic data"): with -data, the
// seed adds pkg/datagen's data of that size — assessments started on real standards, results,
// linked evidence, claims, notes, timelines and sign-ins in the audit log, policies — with
// the bench's participant on the team of every tenth generated assessment, so that the
// operations read what an organisation's database holds. -compare-data then measures every
// read of the scenario again on a second database of another size and prints, per read, the
// p99 of both and their ratio: whether a list stays flat from a thousand to a million rows.

// parseDataSize reads a -data value: a number of rows of each of the biggest tables, with k
// or m for thousands or millions ("1k", "100k", "1m"); "" is none.
func parseDataSize(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	mult := 1
	switch {
	case strings.HasSuffix(strings.ToLower(s), "k"):
		mult, s = 1_000, s[:len(s)-1]
	case strings.HasSuffix(strings.ToLower(s), "m"):
		mult, s = 1_000_000, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > math.MaxInt32/mult {
		return 0, fmt.Errorf("%q: want a number of rows such as 1000, 1k, 100k or 1m", s)
	}
	if n*mult < 1000 {
		return 0, fmt.Errorf("%d rows: at least 1k", n*mult)
	}
	return n * mult, nil
}

// applyDataSize sizes the bench's own bulk seed to the data size n, for each of the flags
// not given on the command line (set): entities and the large standard's requirements a
// tenth of n (at least 200), the bench's evidence n/200 (at least 30), and no bench
// assessments inserted in SQL — the generated ones, started on real standards, take
// their place.
func applyDataSize(o *options, n int, set map[string]bool) {
	if n == 0 {
		return
	}
	if !set["entities"] {
		o.Entities = max(n/10, 200)
	}
	if !set["requirements"] {
		o.Requirements = max(n/10, 200)
	}
	if !set["assessments"] {
		o.Assessments = 0
	}
	if !set["evidence"] {
		o.Evidence = max(n/200, 30)
	}
}

// realisticData is the seed step of -data: pkg/datagen's Scaled(n) in the bench's database.
func (s *seeder) realisticData(ctx context.Context) error {
	if s.dataSize == 0 {
		return nil
	}
	pool, err := pgxpool.New(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer pool.Close()
	sizes := datagen.Scaled(s.dataSize)
	sizes.ParticipantID, sizes.StandardsDir = s.data.participantID, s.standardsDir
	sum, err := datagen.Generate(ctx, pool, sizes)
	if err != nil {
		return err
	}
	s.data.Generated = &sum
	s.data.Assessments += sum.Assessments
	s.data.Evidence += sum.Evidence
	s.data.Claims += sum.Claims
	// The busiest generated assessment the participant works on: the most claims, then notes.
	err = pool.QueryRow(ctx, `SELECT a.id FROM assessments a JOIN assessment_members m ON m.assessment_id = a.id AND m.user_id = $1
		WHERE a.id <> $2 AND a.state IN ('in_progress', 'on_hold', 'complete')
		ORDER BY (SELECT count(*) FROM claims c WHERE c.assessment_id = a.id) DESC,
			(SELECT count(*) FROM work_notes n WHERE n.assessment_id = a.id) DESC, a.id LIMIT 1`,
		s.data.participantID, s.data.AssessmentID).Scan(&s.data.BusyAssessmentID)
	if errors.Is(err, pgx.ErrNoRows) {
		return errors.New("no generated assessment has the participant on its team")
	}
	return err
}

// Comparison is -compare-data's answer: each read's p99 on both data sizes.
type Comparison struct {
	Data        string         `json:"data"`        // the run's own size (-data)
	CompareData string         `json:"compareData"` // the second database's size
	Seed        *Dataset       `json:"seed"`
	Reads       []ComparedRead `json:"reads"`
	Host        Host           `json:"host"`
}

// ComparedRead is one read on both sizes; Ratio is the p99 on -data over that on -compare-data.
type ComparedRead struct {
	Name         string  `json:"name"`
	P99Ms        float64 `json:"p99Ms"`
	CompareP99Ms float64 `json:"compareP99Ms"`
	ReqPerSec    float64 `json:"reqPerSec"`
	CompareRPS   float64 `json:"compareReqPerSec"`
	Ratio        float64 `json:"ratio"`
	// AnswerBytes and CompareBytes are the mean answers' sizes: where the smaller data
	// cannot fill a page (a participant of two assessments at a thousand rows), the ratio
	// compares a short page with a full one, not one page at two sizes of data.
	AnswerBytes  float64 `json:"answerBytes,omitempty"`
	CompareBytes float64 `json:"compareAnswerBytes,omitempty"`
}

// readPhases are the phases of the reads among phases (GET operations; not the mix).
func readPhases(sc *Scenario, phases []phase) []phase {
	var out []phase
	for _, ph := range phases {
		i := slices.IndexFunc(sc.Operations, func(o *Operation) bool { return o.Name == ph.name })
		if i >= 0 && sc.Operations[i].Method == "GET" {
			out = append(out, ph)
		}
	}
	return out
}

// compareReads pairs the reads measured on both sizes.
func compareReads(main, other []Result) []ComparedRead {
	var out []ComparedRead
	for _, o := range other {
		i := slices.IndexFunc(main, func(r Result) bool { return r.Name == o.Name })
		if i < 0 {
			continue
		}
		m := main[i]
		c := ComparedRead{Name: o.Name, P99Ms: m.P99Ms, CompareP99Ms: o.P99Ms, ReqPerSec: m.ReqPerSec, CompareRPS: o.ReqPerSec,
			AnswerBytes: m.AnswerBytes, CompareBytes: o.AnswerBytes}
		if o.P99Ms > 0 {
			c.Ratio = m.P99Ms / o.P99Ms
		}
		out = append(out, c)
	}
	return out
}

// flatLimit is the most a read's p99 may grow from the small to the large data (issue 27).
const flatLimit = 1.5

// print writes the comparison as a Markdown table, each ratio over flatLimit marked.
func (c *Comparison) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprintf(tw, "| read\t| p99 ms (%s)\t| p99 ms (%s)\t| ratio\t| req/s (%s)\t| req/s (%s)\t| answer KB (%s)\t| answer KB (%s)\t|\n",
		c.CompareData, c.Data, c.CompareData, c.Data, c.CompareData, c.Data)
	fmt.Fprintln(tw, "|---\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|")
	over := 0
	for _, r := range c.Reads {
		mark := ""
		if r.Ratio > flatLimit {
			mark, over = " ✗", over+1
		}
		fmt.Fprintf(tw, "| %s\t| %.2f\t| %.2f\t| %.2f%s\t| %.0f\t| %.0f\t| %.1f\t| %.1f\t|\n", r.Name, r.CompareP99Ms, r.P99Ms, r.Ratio, mark,
			r.CompareRPS, r.ReqPerSec, r.CompareBytes/1000, r.AnswerBytes/1000)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "ratio: p99 on %s over p99 on %s; %d of %d reads over %.1f× (✗); answer KB: the mean 2xx answer (a page the smaller data cannot fill is smaller)\n",
		c.Data, c.CompareData, over, len(c.Reads), flatLimit)
	if g := c.Seed.Generated; g != nil {
		fmt.Fprintf(w, "%s data: %d assessments, %d results, %d evidence, %d claims, %d audit rows, %d notes (generated in %.0fs); load average at end %s\n",
			c.CompareData, g.Assessments, g.Results, g.Evidence, g.Claims, g.Audit, g.Notes, g.Seconds, c.Host.LoadAvgEnd)
	}
}
