// Command assay-worker runs the background jobs (deliveries, periodic maintenance). Any
// number of workers may run against one database; River elects one leader for periodic
// jobs, so each runs once per interval.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/assay-dev/assay/cmd/internal/boot"
	"github.com/assay-dev/assay/jobs/workers"
	"github.com/assay-dev/assay/pkg/config"
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

// run starts the workers and blocks until ctx is cancelled; then running jobs get
// SHUTDOWN_TIMEOUT to finish before they are cancelled (and retried later by River).
func run(ctx context.Context, environ []string, stdout io.Writer) error {
	cfg, err := config.FromEnviron(environ)
	if err != nil {
		return err
	}
	log := boot.Logger(cfg, stdout).With(slog.String("component", "worker"))
	db, err := boot.OpenDatabase(ctx, cfg, log, boot.Attach, "assay-worker")
	if err != nil {
		return err
	}
	defer db.Close()
	// The worker never migrates: the schema belongs to the server or `assay-ctl migrate`.
	if err := postgres.CheckSchema(ctx, db.Pool); err != nil {
		return err
	}
	store := postgres.New(db.Pool, nil)
	if err := boot.LoadKeys(ctx, store, cfg, log); err != nil {
		return err
	}
	client, err := workers.NewClient(db.Pool, workers.Config{
		RunWorkers: true, Maintenance: store, Logger: log,
		SessionCleanupInterval: cfg.SessionCleanupInterval, SessionRetainExpired: cfg.SessionRetainExpired,
		InviteRetainAfterTerminal: cfg.InviteRetainAfterTerminal,
	})
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
