package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestCombineRoundsTakesTheMedianRate(t *testing.T) {
	t.Parallel()
	round := func(rate float64, latMs ...int) Result {
		var lat []time.Duration
		for _, ms := range latMs {
			lat = append(lat, time.Duration(ms)*time.Millisecond)
		}
		r := summarize("op", lat, time.Duration(float64(len(lat))/rate*float64(time.Second)))
		r.Server = Usage{CPUSeconds: 1, PeakRSSMiB: 50 + rate/100}
		r.Generator = Usage{CPUSeconds: 0.5}
		r.Database = &Usage{CPUSeconds: 2}
		return r
	}
	slow, typical, fast := round(800, 9, 10), round(1000, 1, 2), round(1200, 3, 4)
	fast.setAnswers(answerStats{errs: 2, first: "GET /x answered 500", okBytes: 3000, okAnswer: 1})
	typical.setAnswers(answerStats{okBytes: 2000, okAnswer: 2})

	c := combineRounds([]Result{slow, typical, fast})
	require.InDelta(t, 1000, c.ReqPerSec, 0.001, "the median round, not the mean of the requests")
	require.InDeltaSlice(t, []float64{800, 1000, 1200}, c.Rounds, 0.001, "each round's rate, in round order")
	require.InDelta(t, 0.4, c.Spread, 0.001, "(1200-800)/1000")
	require.Equal(t, 6, c.Requests)
	require.Equal(t, 3.0, c.P50Ms, "percentiles over every request of every round: 1 2 3 4 9 10")
	require.Equal(t, 10.0, c.MaxMs)
	require.Equal(t, 2, c.Errors)
	require.Equal(t, "GET /x answered 500", c.FirstError)
	require.InDelta(t, 5000.0/3, c.AnswerBytes, 0.001, "the mean over every 2xx answer of every round, not of the rounds' means")
	require.Equal(t, 3.0, c.Server.CPUSeconds)
	require.Equal(t, 62.0, c.Server.PeakRSSMiB)
	require.Equal(t, 1.5, c.Generator.CPUSeconds)
	require.Equal(t, 6.0, c.Database.CPUSeconds)
	require.Nil(t, c.lat, "the latencies are not kept once combined")

	one := combineRounds([]Result{typical})
	require.InDelta(t, 1000, one.ReqPerSec, 0.001)
	require.Zero(t, one.Spread)
}

func TestMedianAndSpread(t *testing.T) {
	t.Parallel()
	require.Equal(t, 5.0, median([]float64{9, 1, 5}))
	require.Equal(t, 4.0, median([]float64{6, 2}))
	require.Equal(t, 7.0, median([]float64{7}))
	require.InDelta(t, 0.5, spread([]float64{90, 100, 140}), 0.001)
	require.Zero(t, spread([]float64{0, 0}))

	p := combinePgbench([]*PgbenchResult{{Command: "pgbench -S", TPS: 100, LatencyMs: 3}, {TPS: 90, LatencyMs: 4}, {TPS: 130, LatencyMs: 2}})
	require.Equal(t, "pgbench -S", p.Command)
	require.Equal(t, 100.0, p.TPS)
	require.Equal(t, 3.0, p.LatencyMs)
	require.Equal(t, []float64{100, 90, 130}, p.Rounds)
	require.InDelta(t, 0.4, p.Spread, 0.001)
	require.Nil(t, combinePgbench(nil))
}
