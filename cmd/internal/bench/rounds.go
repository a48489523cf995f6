package main

import (
	"slices"
	"time"
)

// Rounds. One measurement of a few seconds varies by ±10–15 % on a shared machine, the
// hello-world ceiling by as much (docs/performance.md, "Noise"), so a ratio of two single
// measurements cannot tell 10 % from 12 %. A run therefore measures every phase and every
// ceiling once per round, the rounds one after the other, and reports per phase the
// median of its rounds' rates, with their spread.

// combineRounds merges one phase's results of the rounds, in round order: req/s is the
// median of the rounds' rates (one round that met a busy moment does not move it), the
// latency percentiles are over every request of every round, requests, errors and CPU
// time add up, and the peak RSS is the highest.
func combineRounds(rounds []Result) Result {
	rates := make([]float64, len(rounds))
	var lat []time.Duration
	var seconds float64
	for i, r := range rounds {
		rates[i] = r.ReqPerSec
		lat = append(lat, r.lat...)
		seconds += r.Seconds
	}
	c := summarize(rounds[0].Name, lat, time.Duration(seconds*float64(time.Second)))
	c.lat = nil
	c.ReqPerSec, c.Rounds, c.Spread = median(rates), rates, spread(rates)
	var st answerStats
	for _, r := range rounds {
		st.add(answerStats{errs: r.Errors, notModified: r.NotModified, first: r.FirstError, okBytes: r.okBytes, okAnswer: r.okAnswer})
		c.Server.CPUSeconds += r.Server.CPUSeconds
		c.Server.PeakRSSMiB = max(c.Server.PeakRSSMiB, r.Server.PeakRSSMiB)
		c.Generator.CPUSeconds += r.Generator.CPUSeconds
		if r.Database != nil {
			if c.Database == nil {
				c.Database = &Usage{}
			}
			c.Database.CPUSeconds += r.Database.CPUSeconds
		}
	}
	c.setAnswers(st)
	return c
}

// combinePgbench merges a pgbench ceiling's rounds: the median rate and latency.
func combinePgbench(rounds []*PgbenchResult) *PgbenchResult {
	if len(rounds) == 0 {
		return nil
	}
	tps := make([]float64, len(rounds))
	latency := make([]float64, len(rounds))
	for i, r := range rounds {
		tps[i], latency[i] = r.TPS, r.LatencyMs
	}
	return &PgbenchResult{Command: rounds[0].Command, TPS: median(tps), LatencyMs: median(latency), Rounds: tps, Spread: spread(tps)}
}

// median of xs (not empty): the middle value, or the mean of the middle two.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// spread is the range of xs as a fraction of their median: 0.2 when the slowest round
// was 20 % of the median below the fastest.
func spread(xs []float64) float64 {
	m := median(xs)
	if m == 0 {
		return 0
	}
	return (slices.Max(xs) - slices.Min(xs)) / m
}
