// Command loadcheck measures how sign-in floods affect other requests: the latency of an
// authenticated GET /api/v1/auth/me unloaded, then with N concurrent sign-ins in flight
// (password hashing is bounded, so it should stay close). It drives a running server on
// loopback; scripts/bench-auth-load.sh starts one. Not shipped.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:3001", "server base URL")
	samples := flag.Int("samples", 400, "GET /auth/me requests per phase")
	logins := flag.Int("logins", 50, "concurrent sign-ins during the loaded phase")
	flag.Parse()
	if err := run(*base, *samples, *logins); err != nil {
		fmt.Fprintln(os.Stderr, "loadcheck:", err)
		os.Exit(1)
	}
}

func post(url, origin, body string, hdr map[string]string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewBufferString(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", origin)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return http.DefaultClient.Do(req)
}

func run(base string, samples, logins int) error {
	const admin = `{"username":"loadadmin","email":"load@example.com","displayName":"Load","password":"load check password"}`
	res, err := post(base+"/api/v1/setup", base, admin, nil)
	if err != nil {
		return err
	}
	res.Body.Close()
	res, err = post(base+"/api/v1/auth/login", base, `{"username":"loadadmin","password":"load check password"}`, nil)
	if err != nil {
		return fmt.Errorf("sign-in: %w", err)
	}
	if res.StatusCode != 200 {
		return fmt.Errorf("sign-in answered %s", res.Status)
	}
	cookie := res.Header.Get("Set-Cookie")
	res.Body.Close()
	res, err = post(base+"/api/v1/me/api-keys", base, `{"name":"loadcheck"}`, map[string]string{"Cookie": cookie})
	if err != nil {
		return fmt.Errorf("api key: %w", err)
	}
	if res.StatusCode != 201 {
		return fmt.Errorf("api key creation answered %s", res.Status)
	}
	var created struct{ Token string }
	_ = json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()

	unloaded, err := measure(base, created.Token, samples)
	if err != nil {
		return err
	}
	var stop atomic.Bool
	var done atomic.Int64
	var wg sync.WaitGroup
	for range logins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				r, err := post(base+"/api/v1/auth/login", base, `{"username":"loadadmin","password":"load check password"}`, nil)
				if err == nil {
					r.Body.Close()
					done.Add(1)
				}
			}
		}()
	}
	time.Sleep(500 * time.Millisecond) // let the flood build up
	start := time.Now()
	loaded, err := measure(base, created.Token, samples)
	elapsed := time.Since(start)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		return err
	}
	p := func(d []time.Duration, q float64) time.Duration { return d[int(float64(len(d)-1)*q)] }
	fmt.Printf("GET /api/v1/auth/me, %d samples per phase\n", samples)
	fmt.Printf("  unloaded: p50 %v  p99 %v\n", p(unloaded, .5), p(unloaded, .99))
	fmt.Printf("  with %d sign-ins in flight (%.0f sign-ins/s): p50 %v  p99 %v\n", logins,
		float64(done.Load())/elapsed.Seconds(), p(loaded, .5), p(loaded, .99))
	fmt.Printf("  p99 ratio loaded/unloaded: %.2f (target ≤ 3)\n", float64(p(loaded, .99))/float64(p(unloaded, .99)))
	return nil
}

func measure(base, token string, n int) ([]time.Duration, error) {
	out := make([]time.Duration, 0, n)
	for range n {
		req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/auth/me", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		t := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			return nil, fmt.Errorf("GET /auth/me answered %d", res.StatusCode)
		}
		out = append(out, time.Since(t))
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}
