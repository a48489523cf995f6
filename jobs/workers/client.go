// Package workers implements the River workers and builds the River client used by both
// cmd/server (insert-only, or in-process workers) and cmd/worker.
package workers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/assay-dev/assay/jobs"
	"github.com/assay-dev/assay/pkg/assess"
)

// Config configures the River client.
type Config struct {
	// RunWorkers makes the client fetch and run jobs; false gives an insert-only client.
	RunWorkers bool
	// MaxWorkers bounds concurrent jobs per queue (default 10).
	MaxWorkers int
	// SessionCleanupInterval is the period of the expired-session purge; 0 disables it.
	SessionCleanupInterval time.Duration
	// SessionRetainExpired is how long expired sessions are kept before the purge.
	SessionRetainExpired time.Duration
	// InviteRetainAfterTerminal is how long consumed, revoked and expired invites are kept.
	InviteRetainAfterTerminal time.Duration
	// Maintenance performs the housekeeping queries. When it also implements
	// assess.LimitsMaintenance (the PostgreSQL store does), the purge of rate-limit windows
	// and idempotency keys runs every PurgeLimitsInterval as well.
	Maintenance assess.MaintenanceService
	// Logger receives River's and the workers' logs.
	Logger *slog.Logger
	// Name identifies this process in maintenance records (default hostname:pid).
	Name string
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// NewClient returns a River client on pool configured from cfg.
func NewClient(pool *pgxpool.Pool, cfg Config) (*river.Client[pgx.Tx], error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Name == "" {
		host, _ := os.Hostname()
		cfg.Name = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	if cfg.MaxWorkers <= 0 {
		cfg.MaxWorkers = 10
	}
	rc := &river.Config{Logger: cfg.Logger, ID: sanitizeClientID(cfg.Name)}
	if cfg.RunWorkers {
		if cfg.Maintenance == nil {
			return nil, errors.New("workers: Maintenance service is required to run workers")
		}
		w := river.NewWorkers()
		river.AddWorker(w, &CleanupSessionsWorker{
			Service: cfg.Maintenance, Logger: cfg.Logger, Now: cfg.Now, WorkerName: cfg.Name,
		})
		if lm, ok := cfg.Maintenance.(assess.LimitsMaintenance); ok {
			river.AddWorker(w, &PurgeLimitsWorker{Service: lm, Logger: cfg.Logger, Now: cfg.Now, WorkerName: cfg.Name})
		}
		rc.Workers = w
		rc.Queues = map[string]river.QueueConfig{
			river.QueueDefault:    {MaxWorkers: cfg.MaxWorkers},
			jobs.QueueMaintenance: {MaxWorkers: 2},
		}
		rc.PeriodicJobs = periodicJobs(cfg)
	}
	client, err := river.NewClient(riverpgxv5.New(pool), rc)
	if err != nil {
		return nil, fmt.Errorf("river client: %w", err)
	}
	return client, nil
}

func periodicJobs(cfg Config) []*river.PeriodicJob {
	var out []*river.PeriodicJob
	if cfg.SessionCleanupInterval > 0 {
		args := jobs.CleanupSessionsArgs{RetainExpired: cfg.SessionRetainExpired, InviteRetention: cfg.InviteRetainAfterTerminal}
		out = append(out, river.NewPeriodicJob(
			river.PeriodicInterval(cfg.SessionCleanupInterval),
			func() (river.JobArgs, *river.InsertOpts) {
				// Unique per period: should leadership move between two workers inside one
				// interval, the new leader cannot enqueue the same period's run twice.
				opts := args.InsertOpts()
				opts.UniqueOpts = river.UniqueOpts{ByPeriod: cfg.SessionCleanupInterval}
				return args, &opts
			},
			&river.PeriodicJobOpts{RunOnStart: true, ID: args.Kind()},
		))
	}
	if _, ok := cfg.Maintenance.(assess.LimitsMaintenance); ok {
		args := jobs.PurgeLimitsArgs{RateLimitRetention: assess.RateLimitWindowRetention, IdempotencyRetention: assess.IdempotencyKeyLifetime}
		out = append(out, river.NewPeriodicJob(
			river.PeriodicInterval(PurgeLimitsInterval),
			func() (river.JobArgs, *river.InsertOpts) {
				opts := args.InsertOpts()
				opts.UniqueOpts = river.UniqueOpts{ByPeriod: PurgeLimitsInterval}
				return args, &opts
			},
			&river.PeriodicJobOpts{RunOnStart: true, ID: args.Kind()},
		))
	}
	return out
}

// sanitizeClientID keeps River's client id within the characters it accepts.
func sanitizeClientID(name string) string {
	out := make([]rune, 0, len(name))
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			out = append(out, r)
		default:
			out = append(out, '_')
		}
	}
	if len(out) > 100 {
		out = out[:100]
	}
	return string(out)
}

// Stop stops the client gracefully: no new jobs are fetched and running ones may finish
// within timeout; after that they are cancelled and given a short grace to return.
func Stop(client *river.Client[pgx.Tx], timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := client.Stop(ctx)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	hard, cancelHard := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelHard()
	return client.StopAndCancel(hard)
}
