package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseDataSize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"": 0, "1k": 1000, "100K": 100_000, "1m": 1_000_000, "2500": 2500} {
		got, err := parseDataSize(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"k", "0", "-1k", "999", "1g", "1.5m", "99999999999m"} {
		_, err := parseDataSize(in)
		require.Error(t, err, in)
	}
}

// The data size sizes the bench's own bulk seed, except what the command line set.
func TestApplyDataSizeKeepsExplicitFlags(t *testing.T) {
	t.Parallel()
	o := options{Entities: 7, Requirements: 8, Assessments: 9, Evidence: 10}
	applyDataSize(&o, 1_000_000, map[string]bool{"entities": true})
	require.Equal(t, options{Entities: 7, Requirements: 100_000, Assessments: 0, Evidence: 5000}, o)
	o = options{Entities: 7, Requirements: 8, Assessments: 9, Evidence: 10}
	applyDataSize(&o, 0, nil)
	require.Equal(t, options{Entities: 7, Requirements: 8, Assessments: 9, Evidence: 10}, o, "no data: untouched")
	applyDataSize(&o, 1000, nil)
	require.Equal(t, options{Entities: 200, Requirements: 200, Assessments: 0, Evidence: 30}, o)
}

func TestCompareReadsPairsByNameAndMarksGrowth(t *testing.T) {
	t.Parallel()
	large := []Result{{Name: "a", P99Ms: 20, ReqPerSec: 900, AnswerBytes: 39000}, {Name: "b", P99Ms: 10, ReqPerSec: 2000}, {Name: "create", P99Ms: 5}}
	small := []Result{{Name: "b", P99Ms: 5, ReqPerSec: 2100}, {Name: "a", P99Ms: 16, ReqPerSec: 1000, AnswerBytes: 1500}}
	reads := compareReads(large, small)
	require.Equal(t, []ComparedRead{
		{Name: "b", P99Ms: 10, CompareP99Ms: 5, ReqPerSec: 2000, CompareRPS: 2100, Ratio: 2},
		{Name: "a", P99Ms: 20, CompareP99Ms: 16, ReqPerSec: 900, CompareRPS: 1000, Ratio: 1.25, AnswerBytes: 39000, CompareBytes: 1500},
	}, reads)
	var out bytes.Buffer
	c := &Comparison{Data: "1m", CompareData: "1k", Seed: &Dataset{}, Reads: reads}
	c.print(&out)
	require.Contains(t, out.String(), "2.00 ✗")
	require.Contains(t, out.String(), "1 of 2 reads over 1.5×")
	require.Regexp(t, `\| a +\|.*\| 1\.5 +\| 39\.0 +\|`, out.String(), "the answers' sizes show a short page against a full one")
}

func TestReadPhasesAreTheGets(t *testing.T) {
	t.Parallel()
	sc, err := parseScenario(scenarioJSON)
	require.NoError(t, err)
	phases, err := selectPhases(sc, "")
	require.NoError(t, err)
	reads := readPhases(sc, phases)
	require.NotEmpty(t, reads)
	for _, ph := range reads {
		require.NotEqual(t, mixedPhase, ph.name)
		for _, op := range sc.Operations {
			if op.Name == ph.name {
				require.Equal(t, "GET", op.Method, ph.name)
			}
		}
	}
}
