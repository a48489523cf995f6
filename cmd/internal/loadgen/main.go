// Command loadgen sends one GET to a running server from many clients for a while and prints
// the rate and latency percentiles as JSON: the load of scripts/bench-dashboard.sh. Given -url
// more than once, each client sends the URLs in turn (several search queries as one load). Not shipped.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

type result struct {
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	PerSec   float64 `json:"perSecond"`
	P50ms    float64 `json:"p50ms"`
	P95ms    float64 `json:"p95ms"`
	P99ms    float64 `json:"p99ms"`
	MaxMs    float64 `json:"maxMs"`
}

func main() {
	var urls []string
	flag.Func("url", "the URL to GET (repeatable: each client sends them in turn)", func(v string) error {
		urls = append(urls, v)
		return nil
	})
	token := flag.String("token", "", "API key (Authorization: Bearer)")
	clients := flag.Int("c", 32, "concurrent clients")
	duration := flag.Duration("d", 15*time.Second, "how long")
	flag.Parse()
	if len(urls) == 0 {
		fmt.Fprintln(os.Stderr, "loadgen: give -url")
		os.Exit(2)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *clients * 2}, Timeout: time.Minute}
	var mu sync.Mutex
	var took []time.Duration
	errors := 0
	end := time.Now().Add(*duration)
	var wg sync.WaitGroup
	for c := range *clients {
		wg.Go(func() {
			for n := c; time.Now().Before(end); n++ {
				req, _ := http.NewRequest(http.MethodGet, urls[n%len(urls)], nil)
				if *token != "" {
					req.Header.Set("Authorization", "Bearer "+*token)
				}
				start := time.Now()
				resp, err := client.Do(req)
				ok := err == nil && resp.StatusCode == http.StatusOK
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
				}
				d := time.Since(start)
				mu.Lock()
				if ok {
					took = append(took, d)
				} else {
					errors++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(took)
	ms := func(q float64) float64 {
		if len(took) == 0 {
			return 0
		}
		return float64(took[int(float64(len(took)-1)*q)].Microseconds()) / 1000
	}
	out, _ := json.Marshal(result{Requests: len(took), Errors: errors, PerSec: float64(len(took)) / duration.Seconds(),
		P50ms: ms(0.5), P95ms: ms(0.95), P99ms: ms(0.99), MaxMs: ms(1)})
	fmt.Println(string(out))
}
