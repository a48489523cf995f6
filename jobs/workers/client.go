// Package workers implements the River workers and builds the River client used by both
// cmd/server (insert-only, or in-process workers) and cmd/worker.
package workers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/assay-dev/assay/jobs"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/metrics"
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

	// Deliveries is the store of the delivery workers. When set (and RunWorkers), the
	// webhook, chat and e-mail workers run on the "deliveries" queue and the delivery-log
	// purge is scheduled; when nil, delivery jobs wait for a process that has it.
	Deliveries assess.DeliveryStore
	// DeliveryMaxWorkers bounds concurrent deliveries (default MaxWorkers).
	DeliveryMaxWorkers int
	// AppURL is the public base URL (APP_URL, no trailing slash) for links in chat
	// messages and e-mails.
	AppURL string
	// Version names the service in the webhook User-Agent (Assay-Webhooks/<version>).
	Version string
	// WebhooksEnabled, SlackEnabled, TeamsEnabled and MattermostEnabled are the channel
	// switches (WEBHOOK_ENABLED, <PLATFORM>_ENABLED); a queued delivery of a channel
	// switched off is skipped. E-mail follows the effective SMTP settings instead.
	WebhooksEnabled, SlackEnabled, TeamsEnabled, MattermostEnabled bool
	// WebhookTimeout, ChatTimeout and SMTPTimeout bound one attempt (WEBHOOK_TIMEOUT,
	// CHAT_TIMEOUT, SMTP_TIMEOUT; default 10 s each). River's job timeout is 5 s longer.
	WebhookTimeout, ChatTimeout, SMTPTimeout time.Duration
	// DeliveryRetryBase is the first retry delay; the n-th waits base·4^(n−1) ±20 %, at
	// most 12 h (DELIVERY_RETRY_BASE_MS, default 30 s).
	DeliveryRetryBase time.Duration
	// OutboundAllowNetworks are the internal networks webhook and chat deliveries may
	// reach anyway, and the only ones plain http may reach (OUTBOUND_ALLOW_NETWORKS).
	OutboundAllowNetworks []netip.Prefix
	// WebhookRetention, ChatRetention and EmailRetention are how long final deliveries
	// stay in each log (*_DELIVERY_RETENTION_DAYS); 0 keeps them.
	WebhookRetention, ChatRetention, EmailRetention time.Duration
	// NotificationRetention is how long read in-app notifications are kept (0: always).
	NotificationRetention time.Duration
	// PurgeDeliveriesInterval is the period of the delivery-log purge (default 1 h).
	PurgeDeliveriesInterval time.Duration
	// RescueStuckJobsAfter is when River reruns a job whose worker died mid-attempt
	// (default: the longest delivery timeout + 30 s, so a killed worker's delivery is
	// retried soon). Jobs with a longer timeout of their own wait for it.
	RescueStuckJobsAfter time.Duration
	// Metrics receives job and delivery measurements (nil: none).
	Metrics Observer

	// Evidence expires evidence and sends the expiry reminders. When set (and RunWorkers),
	// the expiry job runs every EvidenceExpiryInterval (default 1 h).
	Evidence assess.EvidenceExpiry
	// EvidenceExpiryInterval is the period of the evidence expiry job.
	EvidenceExpiryInterval time.Duration
	// DomainMetrics computes the domain gauges' snapshot. When set (and RunWorkers), the
	// refresh runs every DomainMetricsInterval (METRICS_DOMAIN_REFRESH_INTERVAL) on the
	// elected leader; set it where metrics are enabled.
	DomainMetrics         assess.DomainMetricsService
	DomainMetricsInterval time.Duration
	// EvidenceReminderDays is EVIDENCE_EXPIRY_REMINDER_DAYS (0: no reminders).
	EvidenceReminderDays int

	// BlobCollector deletes the stored bytes of deleted attachments; when set, the blob
	// collector runs every CollectBlobsInterval.
	BlobCollector assess.BlobCollector
}

// NewClient returns a River client on pool configured from cfg. Without RunWorkers it
// only inserts jobs, and needs nothing else of cfg.
func NewClient(pool *pgxpool.Pool, cfg Config) (*river.Client[pgx.Tx], error) {
	cfg = withDefaults(cfg)
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
		if cfg.DomainMetrics != nil {
			river.AddWorker(w, &RefreshDomainMetricsWorker{Service: cfg.DomainMetrics, Logger: cfg.Logger})
		}
		if cfg.Evidence != nil {
			river.AddWorker(w, &ExpireEvidenceWorker{Service: cfg.Evidence, Maintenance: cfg.Maintenance, Logger: cfg.Logger,
				Now: cfg.Now, WorkerName: cfg.Name})
		}
		if cfg.BlobCollector != nil {
			river.AddWorker(w, &CollectBlobsWorker{Collector: cfg.BlobCollector, Maintenance: cfg.Maintenance, Logger: cfg.Logger,
				Now: cfg.Now, WorkerName: cfg.Name})
		}
		rc.Workers = w
		rc.Queues = map[string]river.QueueConfig{
			river.QueueDefault:    {MaxWorkers: cfg.MaxWorkers},
			jobs.QueueMaintenance: {MaxWorkers: 2},
		}
		if cfg.Deliveries != nil {
			addDeliveryWorkers(w, cfg)
			rc.Queues[jobs.QueueDeliveries] = river.QueueConfig{MaxWorkers: cfg.DeliveryMaxWorkers}
			rc.RescueStuckJobsAfter = cfg.RescueStuckJobsAfter
			// River refuses a client-wide job timeout above the rescue delay; every
			// worker of ours sets its own timeout anyway.
			rc.JobTimeout = min(river.JobTimeoutDefault, cfg.RescueStuckJobsAfter)
		}
		rc.PeriodicJobs = periodicJobs(cfg)
		// River waits 100 ms between fetches by default, which caps a busy worker at about
		// ten deliveries per second per slot; 20 ms keeps a burst of events moving.
		rc.FetchCooldown = 20 * time.Millisecond
		rc.Middleware = []rivertype.Middleware{&jobMetrics{obs: cfg.Metrics}}
	}
	client, err := river.NewClient(riverpgxv5.New(pool), rc)
	if err != nil {
		return nil, fmt.Errorf("river client: %w", err)
	}
	return client, nil
}

// withDefaults fills the zero fields of cfg.
func withDefaults(cfg Config) Config {
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
	if cfg.DeliveryMaxWorkers <= 0 {
		cfg.DeliveryMaxWorkers = cfg.MaxWorkers
	}
	for _, d := range []*time.Duration{&cfg.WebhookTimeout, &cfg.ChatTimeout, &cfg.SMTPTimeout} {
		if *d <= 0 {
			*d = 10 * time.Second
		}
	}
	if cfg.DeliveryRetryBase <= 0 {
		cfg.DeliveryRetryBase = 30 * time.Second
	}
	if cfg.EvidenceExpiryInterval <= 0 {
		cfg.EvidenceExpiryInterval = ExpireEvidenceInterval
	}
	if cfg.PurgeDeliveriesInterval <= 0 {
		cfg.PurgeDeliveriesInterval = PurgeDeliveriesInterval
	}
	if cfg.RescueStuckJobsAfter <= 0 {
		// The job's own timeout ends an attempt before this, so a rescued job is never one
		// that still runs; a few seconds of margin keep the rescue of a crashed worker's
		// job short (River's rescuer then looks every 30 s).
		cfg.RescueStuckJobsAfter = max(cfg.WebhookTimeout, cfg.ChatTimeout, cfg.SMTPTimeout) + 5*time.Second
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.Metrics == nil {
		cfg.Metrics = (*metrics.JobMetrics)(nil) // observes nothing
	}
	return cfg
}

// addDeliveryWorkers registers the webhook, chat and e-mail workers and the purge.
func addDeliveryWorkers(w *river.Workers, cfg Config) {
	d := newDeliverer(cfg)
	river.AddWorker(w, &DeliverWebhookWorker{d: d})
	river.AddWorker(w, &DeliverChatWorker{d: d})
	river.AddWorker(w, &DeliverEmailWorker{d: d})
	river.AddWorker(w, &PurgeDeliveriesWorker{
		Store: cfg.Deliveries, Maintenance: cfg.Maintenance, Logger: cfg.Logger, Now: cfg.Now, WorkerName: cfg.Name,
	})
}

func periodicJobs(cfg Config) []*river.PeriodicJob {
	var out []*river.PeriodicJob
	if cfg.Deliveries != nil {
		args := jobs.PurgeDeliveriesArgs{WebhookRetention: cfg.WebhookRetention, ChatRetention: cfg.ChatRetention, EmailRetention: cfg.EmailRetention,
			NotificationRetention: cfg.NotificationRetention}
		out = append(out, river.NewPeriodicJob(
			river.PeriodicInterval(cfg.PurgeDeliveriesInterval),
			func() (river.JobArgs, *river.InsertOpts) {
				opts := args.InsertOpts()
				opts.UniqueOpts = river.UniqueOpts{ByPeriod: cfg.PurgeDeliveriesInterval}
				return args, &opts
			},
			&river.PeriodicJobOpts{RunOnStart: true, ID: args.Kind()},
		))
	}
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
	if cfg.Evidence != nil {
		out = append(out, periodicEvidenceExpiry(cfg))
	}
	if cfg.DomainMetrics != nil && cfg.DomainMetricsInterval > 0 {
		out = append(out, refreshDomainMetricsJob(cfg.DomainMetricsInterval))
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
	if cfg.BlobCollector != nil {
		out = append(out, collectBlobsJob())
	}
	return out
}

// periodicEvidenceExpiry is the evidence expiry job, once per interval (River runs
// periodic jobs on the elected leader only, and the job is unique per period).
func periodicEvidenceExpiry(cfg Config) *river.PeriodicJob {
	args := jobs.ExpireEvidenceArgs{ReminderDays: cfg.EvidenceReminderDays}
	return river.NewPeriodicJob(
		river.PeriodicInterval(cfg.EvidenceExpiryInterval),
		func() (river.JobArgs, *river.InsertOpts) {
			opts := args.InsertOpts()
			opts.UniqueOpts = river.UniqueOpts{ByPeriod: cfg.EvidenceExpiryInterval}
			return args, &opts
		},
		&river.PeriodicJobOpts{RunOnStart: true, ID: args.Kind()},
	)
}

// collectBlobsJob schedules the blob collector every CollectBlobsInterval (and at start),
// unique per period so that a change of leader cannot enqueue a period's run twice.
func collectBlobsJob() *river.PeriodicJob {
	args := jobs.CollectBlobsArgs{}
	return river.NewPeriodicJob(river.PeriodicInterval(CollectBlobsInterval),
		func() (river.JobArgs, *river.InsertOpts) {
			opts := args.InsertOpts()
			opts.UniqueOpts = river.UniqueOpts{ByPeriod: CollectBlobsInterval}
			return args, &opts
		},
		&river.PeriodicJobOpts{RunOnStart: true, ID: args.Kind()})
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
