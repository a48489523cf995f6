package boot

import (
	"log/slog"

	"github.com/assay-dev/assay/jobs/workers"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// DeliveryConfig is the store's side of events and deliveries: the channel switches,
// attempt budgets, the auto-disable threshold and the SMTP variables the environment sets.
func DeliveryConfig(cfg *config.Config) postgres.DeliveryConfig {
	return postgres.DeliveryConfig{
		WebhooksEnabled: cfg.WebhookEnabled,
		SlackEnabled:    cfg.SlackEnabled, TeamsEnabled: cfg.TeamsEnabled, MattermostEnabled: cfg.MattermostEnabled,
		WebhookMaxAttempts: cfg.WebhookMaxRetries + 1, ChatMaxAttempts: cfg.ChatMaxRetries + 1, EmailMaxAttempts: cfg.EmailMaxRetries + 1,
		DisableAfterFailures: cfg.DeliveryDisableAfterFailures,
		SMTP:                 SMTPOverrides(cfg),
		PasswordResetTTL:     cfg.PasswordResetTTL,
		AllowNetworks:        cfg.OutboundAllowNetworks,
		Version:              Version,
	}
}

// SMTPOverrides are the SMTP_* variables the environment sets; the others stay nil so
// the settings an administrator stored apply.
func SMTPOverrides(cfg *config.Config) assess.SMTPOverrides {
	var o assess.SMTPOverrides
	set := func(name string) bool { return cfg.IsSet(name) }
	if set("SMTP_ENABLED") {
		o.Enabled = &cfg.SMTPEnabled
	}
	if set("SMTP_HOST") {
		o.Host = &cfg.SMTPHost
	}
	if set("SMTP_PORT") {
		o.Port = &cfg.SMTPPort
	}
	if set("SMTP_SECURE") {
		o.Secure = &cfg.SMTPSecure
	}
	if set("SMTP_USER") {
		o.Username = &cfg.SMTPUser
	}
	if set("SMTP_PASS") {
		o.Password = &cfg.SMTPPass
	}
	if set("SMTP_FROM") {
		o.From = &cfg.SMTPFrom
	}
	if set("SMTP_TLS_REJECT_UNAUTHORIZED") {
		o.TLSRejectUnauthorized = &cfg.SMTPTLSRejectUnauthorized
	}
	return o
}

// WorkersConfig is the River client configuration of a process that runs the workers:
// maintenance and deliveries on store, the blob collector through files (Attachments).
// The caller sets RunWorkers and, when it exports metrics, Metrics.
func WorkersConfig(cfg *config.Config, store *postgres.DB, files assess.BlobCollector, log *slog.Logger) workers.Config {
	wc := workers.Config{
		Maintenance: store, Deliveries: services.New(store).DeliveryStore, Logger: log,
		SessionCleanupInterval: cfg.SessionCleanupInterval, SessionRetainExpired: cfg.SessionRetainExpired,
		InviteRetainAfterTerminal: cfg.InviteRetainAfterTerminal,
		AppURL:                    cfg.AppURL, Version: Version,
		WebhooksEnabled: cfg.WebhookEnabled, SlackEnabled: cfg.SlackEnabled, TeamsEnabled: cfg.TeamsEnabled, MattermostEnabled: cfg.MattermostEnabled,
		WebhookTimeout: cfg.WebhookTimeout, ChatTimeout: cfg.ChatTimeout, SMTPTimeout: cfg.SMTPTimeout,
		DeliveryRetryBase:     cfg.DeliveryRetryBase,
		OutboundAllowNetworks: cfg.OutboundAllowNetworks,
		WebhookRetention:      cfg.WebhookDeliveryRetention, ChatRetention: cfg.ChatDeliveryRetention, EmailRetention: cfg.EmailDeliveryRetention,
		NotificationRetention: cfg.NotificationRetention,
		Evidence:              services.New(store).Evidence, EvidenceReminderDays: cfg.EvidenceExpiryReminderDays,
		BlobCollector: files,
	}
	if cfg.MetricsEnabled {
		wc.DomainMetrics, wc.DomainMetricsInterval = services.New(store).DomainMetrics, cfg.MetricsDomainRefreshInterval
	}
	return wc
}
