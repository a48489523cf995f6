// Package metrics exposes the service's Prometheus metrics: HTTP requests by route
// template, method and status, request latency, the database pool and the Go runtime.
// Every name carries the configured prefix (METRICS_PREFIX).
package metrics

import (
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics owns a registry and the service's collectors.
type Metrics struct {
	registry   *prometheus.Registry
	registerer prometheus.Registerer
	requests   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
}

// New returns metrics whose names all start with prefix.
func New(prefix string) *Metrics {
	reg := prometheus.NewRegistry()
	r := prometheus.WrapRegistererWithPrefix(prefix, reg)
	m := &Metrics{
		registry:   reg,
		registerer: r,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "http_requests_total", Help: "HTTP requests by route template, method and status code.",
		}, []string{"route", "method", "status_code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "http_request_duration_seconds", Help: "HTTP request latency by route template and method.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
	}
	r.MustRegister(m.requests, m.latency,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// ObserveHTTP records one finished request.
func (m *Metrics) ObserveHTTP(route, method string, status int, elapsed time.Duration) {
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route, method).Observe(elapsed.Seconds())
}

// Register adds further collectors (River jobs, deliveries, domain gauges) under the prefix.
func (m *Metrics) Register(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := m.registerer.Register(c); err != nil {
			return err
		}
	}
	return nil
}

// Gatherer is the registry, for tests that read what /metrics would show.
func (m *Metrics) Gatherer() prometheus.Gatherer { return m.registry }

// RegisterPool exports the statistics of a pgx pool.
func (m *Metrics) RegisterPool(pool *pgxpool.Pool) error {
	return m.Register(poolCollector{pool: pool})
}

// Handler serves the exposition format. With a non-empty token, scrapers must send it as
// a bearer token; it is compared in constant time.
func (m *Metrics) Handler(token string) http.Handler {
	h := promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	if token == "" {
		return h
	}
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(http.StatusUnauthorized)
			_ = json.NewEncoder(w).Encode(map[string]string{
				"error": "unauthenticated", "message": "A valid metrics bearer token is required.",
				"requestId": w.Header().Get("X-Request-Id"),
			})
			return
		}
		h.ServeHTTP(w, r)
	})
}

var (
	poolTotal    = prometheus.NewDesc("db_pool_connections", "Open connections in the database pool by state.", []string{"state"}, nil)
	poolMax      = prometheus.NewDesc("db_pool_max_connections", "Maximum size of the database pool.", nil, nil)
	poolAcquires = prometheus.NewDesc("db_pool_acquires_total", "Connections acquired from the pool.", nil, nil)
	poolWaits    = prometheus.NewDesc("db_pool_empty_acquires_total", "Acquires that had to wait for a connection.", nil, nil)
	poolWaitTime = prometheus.NewDesc("db_pool_acquire_wait_seconds_total", "Time spent waiting for a connection.", nil, nil)
)

type poolCollector struct{ pool *pgxpool.Pool }

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolTotal, poolMax, poolAcquires, poolWaits, poolWaitTime} {
		ch <- d
	}
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	ch <- prometheus.MustNewConstMetric(poolTotal, prometheus.GaugeValue, float64(s.AcquiredConns()), "acquired")
	ch <- prometheus.MustNewConstMetric(poolTotal, prometheus.GaugeValue, float64(s.IdleConns()), "idle")
	ch <- prometheus.MustNewConstMetric(poolTotal, prometheus.GaugeValue, float64(s.ConstructingConns()), "constructing")
	ch <- prometheus.MustNewConstMetric(poolMax, prometheus.GaugeValue, float64(s.MaxConns()))
	ch <- prometheus.MustNewConstMetric(poolAcquires, prometheus.CounterValue, float64(s.AcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(s.EmptyAcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaitTime, prometheus.CounterValue, s.AcquireDuration().Seconds())
}
