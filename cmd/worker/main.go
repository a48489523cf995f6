// Command assay-worker runs the background jobs (deliveries, periodic maintenance). Any
// number of workers may run against one database; River elects one leader for periodic
// jobs, so each runs once per interval.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/assay-dev/assay/cmd/internal/boot"
	"github.com/assay-dev/assay/jobs/workers"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/metrics"
	"github.com/assay-dev/assay/pkg/postgres"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Environ(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, boot.Describe(err))
		os.Exit(1)
	}
}

// options are the inputs of runWorker beyond the environment.
type options struct {
	Environ []string
	Stdout  io.Writer
	// Tune adjusts the River configuration last (tests shorten River's rescue delay).
	Tune func(*workers.Config)
	// MetricsReady is called with the address /metrics listens on, when it does.
	MetricsReady func(addr string)
}

// run starts the workers and blocks until ctx is cancelled; then running jobs get
// SHUTDOWN_TIMEOUT to finish before they are cancelled (and retried later by River).
func run(ctx context.Context, environ []string, stdout io.Writer) error {
	return runWorker(ctx, options{Environ: environ, Stdout: stdout})
}

func runWorker(ctx context.Context, opts options) error {
	cfg, err := config.FromEnviron(opts.Environ)
	if err != nil {
		return err
	}
	log := boot.Logger(cfg, opts.Stdout).With(slog.String("component", "worker"))
	boot.ApplyMemory(ctx, cfg, log)
	db, err := boot.OpenDatabase(ctx, cfg, log, boot.Attach, "assay-worker")
	if err != nil {
		return err
	}
	defer db.Close()
	// The worker never migrates: the schema belongs to the server or `assay-ctl migrate`.
	if err := postgres.CheckSchema(ctx, db.Pool); err != nil {
		return err
	}
	store := postgres.New(db.Pool, nil).WithAcquireTimeout(cfg.DBAcquireTimeout).ConfigureDeliveries(boot.DeliveryConfig(cfg))
	if err := boot.LoadKeys(ctx, store, cfg, log); err != nil {
		return err
	}
	boot.WarnAppURL(ctx, cfg, log)
	files, _, err := boot.Attachments(ctx, store, cfg, log)
	if err != nil {
		return err
	}
	wcfg := boot.WorkersConfig(cfg, store, files, log)
	wcfg.RunWorkers = true
	if cfg.MetricsEnabled {
		m := metrics.New(cfg.MetricsPrefix)
		jobMetrics := metrics.NewJobMetrics()
		domain := metrics.NewDomainCollector(wcfg.DomainMetrics.DomainMetrics) // boot sets it when metrics are enabled
		if err := errors.Join(m.RegisterPool(db.Pool), m.Register(jobMetrics, domain)); err != nil {
			return err
		}
		wcfg.Metrics = jobMetrics
		stopMetrics, err := serveMetrics(ctx, cfg, m.Handler(cfg.MetricsToken), log, opts.MetricsReady)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
	if opts.Tune != nil {
		opts.Tune(&wcfg)
	}
	client, err := workers.NewClient(db.Pool, wcfg)
	if err != nil {
		return err
	}
	if err := client.Start(ctx); err != nil {
		return fmt.Errorf("start workers: %w", err)
	}
	log.InfoContext(ctx, "worker started")
	<-ctx.Done()
	log.Info("worker stopping", slog.Duration("timeout", cfg.ShutdownTimeout))
	return workers.Stop(client, cfg.ShutdownTimeout)
}

// serveMetrics serves /metrics on WORKER_METRICS_PORT (with METRICS_TOKEN, as the server
// does) and returns the function that stops it.
func serveMetrics(ctx context.Context, cfg *config.Config, h http.Handler, log *slog.Logger, ready func(string)) (func(), error) {
	ln, err := net.Listen("tcp", fmt.Sprintf(":%d", cfg.WorkerMetricsPort))
	if err != nil {
		return nil, fmt.Errorf("metrics listener on :%d (WORKER_METRICS_PORT): %w", cfg.WorkerMetricsPort, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	srv := &http.Server{
		Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener", slog.String("error", err.Error()))
		}
	}()
	log.InfoContext(ctx, "metrics listening", slog.String("addr", ln.Addr().String()))
	if ready != nil {
		ready(ln.Addr().String())
	}
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}, nil
}
