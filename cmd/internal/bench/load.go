package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

// phase is one timed run of the load generator: a single operation, the weighted mix of
// all of them, or the hello-world ceiling.
type phase struct {
	name string
	pick func(r *rand.Rand) *Operation
}

// target is the server a phase drives and the processes whose usage it measures.
type target struct {
	base   string   // http://127.0.0.1:<port>
	server pidsFunc // the process answering; its peak RSS is taken from the first pid
	db     pidsFunc // the PostgreSQL processes, or nil
}

// Usage is the resources a group of processes used during a measured phase.
type Usage struct {
	CPUSeconds float64 `json:"cpuSeconds"`
	PeakRSSMiB float64 `json:"peakRssMiB,omitempty"`
}

// Result is the outcome of one phase.
type Result struct {
	Name       string  `json:"name"`
	Requests   int     `json:"requests"`
	Errors     int     `json:"errors"` // non-2xx answers and transport failures
	FirstError string  `json:"firstError,omitempty"`
	Seconds    float64 `json:"seconds"`
	ReqPerSec  float64 `json:"reqPerSec"`
	P50Ms      float64 `json:"p50Ms"`
	P95Ms      float64 `json:"p95Ms"`
	P99Ms      float64 `json:"p99Ms"`
	MaxMs      float64 `json:"maxMs"`
	Server     Usage   `json:"server"`
	Database   *Usage  `json:"database,omitempty"`
	Generator  Usage   `json:"generator"`
	// OfHelloWorld is ReqPerSec as a fraction of the hello-world ceiling's.
	OfHelloWorld float64 `json:"ofHelloWorld,omitempty"`
	// Rounds are the req/s of each round (ReqPerSec is their median), Spread their range
	// as a fraction of the median (see combineRounds).
	Rounds []float64 `json:"roundsReqPerSec,omitempty"`
	Spread float64   `json:"spread"`
	// NotModified counts the 304 answers of a revalidating operation (not errors).
	NotModified int `json:"notModified,omitempty"`
	// AnswerBytes is the mean size of the bodies of the 2xx answers: whether two runs of a
	// read (another data size, another build) answered pages alike.
	AnswerBytes float64 `json:"answerBytes,omitempty"`

	lat               []time.Duration // every request's latency, sorted; until the rounds are combined
	okBytes, okAnswer int64           // the body bytes and the number of the 2xx answers
}

// answerStats are a worker's or a phase's counts besides the latencies.
type answerStats struct {
	errs, notModified int
	first             string
	okBytes, okAnswer int64
}

// add adds o's counts to a (the first error seen stays).
func (a *answerStats) add(o answerStats) {
	a.errs += o.errs
	a.notModified += o.notModified
	a.okBytes += o.okBytes
	a.okAnswer += o.okAnswer
	if a.first == "" {
		a.first = o.first
	}
}

// setAnswers sets res's counts from st.
func (res *Result) setAnswers(st answerStats) {
	res.Errors, res.FirstError, res.NotModified = st.errs, st.first, st.notModified
	res.okBytes, res.okAnswer = st.okBytes, st.okAnswer
	if st.okAnswer > 0 {
		res.AnswerBytes = float64(st.okBytes) / float64(st.okAnswer)
	}
}

// driver runs phases with a fixed number of workers, each a keep-alive client connection.
type driver struct {
	data        *Dataset
	concurrency int
	warmup      time.Duration
	duration    time.Duration
}

// run warms up, then drives ph for the duration and measures it.
func (d *driver) run(ctx context.Context, t target, ph phase) Result {
	client := &http.Client{Transport: &http.Transport{
		MaxIdleConnsPerHost: d.concurrency, MaxIdleConns: d.concurrency, DisableCompression: true,
	}}
	defer client.CloseIdleConnections()
	d.drive(ctx, client, t.base, ph, d.warmup)

	self := onePID(os.Getpid())
	srvBefore, genBefore := takeCPU(t.server), takeCPU(self)
	var dbBefore cpuSnapshot
	if t.db != nil {
		dbBefore = takeCPU(t.db)
	}
	rss := startRSSSampler(t.server()[0])
	start := time.Now()
	lat, st := d.drive(ctx, client, t.base, ph, d.duration)
	elapsed := time.Since(start)
	res := summarize(ph.name, lat, elapsed)
	res.Server = Usage{CPUSeconds: takeCPU(t.server).since(srvBefore), PeakRSSMiB: rss.stop()}
	res.Generator = Usage{CPUSeconds: takeCPU(self).since(genBefore)}
	if t.db != nil {
		res.Database = &Usage{CPUSeconds: takeCPU(t.db).since(dbBefore)}
	}
	res.setAnswers(st)
	return res
}

// drive runs the workers for dur and returns every latency and the answers' counts (errors,
// the first error seen, 304 answers, the 2xx answers and their bytes). Requests in flight
// at the end are let finish, so connections stay open for the next phase.
func (d *driver) drive(ctx context.Context, client *http.Client, base string, ph phase, dur time.Duration) ([]time.Duration, answerStats) {
	end := time.Now().Add(dur)
	var mu sync.Mutex
	var all []time.Duration
	var st answerStats
	var wg sync.WaitGroup
	for w := range d.concurrency {
		wg.Go(func() {
			lat, own := d.work(ctx, client, base, ph, w, end)
			mu.Lock()
			defer mu.Unlock()
			all = append(all, lat...)
			st.add(own)
		})
	}
	wg.Wait()
	return all, st
}

// work is one worker: request after request until end. Answers other than 2xx count as
// errors but are timed too; transport failures are only counted.
func (d *driver) work(ctx context.Context, client *http.Client, base string, ph phase, worker int, end time.Time) (lat []time.Duration, st answerStats) {
	r := rand.New(rand.NewPCG(uint64(worker), uint64(time.Now().UnixNano())))
	fail := func(msg string) {
		st.errs++
		if st.first == "" {
			st.first = msg
		}
	}
	etags := map[string]string{} // of revalidating operations: the last ETag per URL
	for ctx.Err() == nil && time.Now().Before(end) {
		op := ph.pick(r)
		req, err := op.request(base, d.data, r, worker)
		if err != nil {
			fail(err.Error())
			continue
		}
		if tag := etags[req.URL.String()]; op.Revalidate && tag != "" {
			req.Header.Set("If-None-Match", tag)
		}
		t0 := time.Now()
		res, err := client.Do(req.WithContext(ctx))
		if err != nil {
			fail(err.Error())
			continue
		}
		n, err := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lat = append(lat, time.Since(t0))
		switch {
		case err != nil:
			fail(fmt.Sprintf("%s %s: reading the answer: %v", req.Method, req.URL.Path, err))
		case op.Revalidate && res.StatusCode == http.StatusNotModified:
			st.notModified++
		case res.StatusCode < 200 || res.StatusCode > 299:
			fail(fmt.Sprintf("%s %s answered %s", req.Method, req.URL.Path, res.Status))
		default:
			st.okBytes, st.okAnswer = st.okBytes+n, st.okAnswer+1
			if op.Revalidate {
				etags[req.URL.String()] = res.Header.Get("ETag")
			}
		}
	}
	return lat, st
}

// summarize sorts the samples and takes nearest-rank percentiles.
func summarize(name string, lat []time.Duration, elapsed time.Duration) Result {
	slices.Sort(lat)
	ms := func(q float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		i := max(0, int(math.Ceil(q*float64(len(lat))))-1)
		return float64(lat[i]) / float64(time.Millisecond)
	}
	return Result{
		Name: name, Requests: len(lat), Seconds: elapsed.Seconds(),
		ReqPerSec: float64(len(lat)) / elapsed.Seconds(),
		P50Ms:     ms(0.50), P95Ms: ms(0.95), P99Ms: ms(0.99), MaxMs: ms(1),
		lat: lat,
	}
}

// only picks op every time.
func only(op *Operation) func(*rand.Rand) *Operation {
	return func(*rand.Rand) *Operation { return op }
}

// weighted picks the operations in proportion to their weights.
func weighted(ops []*Operation) func(*rand.Rand) *Operation {
	var cum []int
	total := 0
	for _, op := range ops {
		total += op.Weight
		cum = append(cum, total)
	}
	return func(r *rand.Rand) *Operation {
		n := r.IntN(total)
		i, _ := slices.BinarySearch(cum, n+1)
		return ops[i]
	}
}
