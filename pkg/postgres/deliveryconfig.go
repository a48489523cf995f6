package postgres

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/assay-dev/assay/pkg/assess"
)

// DeliveryConfig configures events and their outbound channels. A switched-off channel
// gets no delivery rows (the event is still recorded and in-app notifications still
// appear); the workers read the same switches for deliveries already queued.
type DeliveryConfig struct {
	// WebhooksEnabled is WEBHOOK_ENABLED.
	WebhooksEnabled bool
	// SlackEnabled, TeamsEnabled and MattermostEnabled are <PLATFORM>_ENABLED.
	SlackEnabled, TeamsEnabled, MattermostEnabled bool
	// WebhookMaxAttempts is WEBHOOK_MAX_RETRIES + 1: the attempts of one webhook delivery,
	// the delivery row's max_attempts and its River job's MaxAttempts.
	WebhookMaxAttempts int
	// ChatMaxAttempts is CHAT_MAX_RETRIES + 1.
	ChatMaxAttempts int
	// EmailMaxAttempts is EMAIL_MAX_RETRIES + 1.
	EmailMaxAttempts int
	// DisableAfterFailures switches a webhook or chat destination off after this many
	// consecutive failed deliveries (DELIVERY_DISABLE_AFTER_FAILURES); 0 never does.
	DisableAfterFailures int
	// SMTP are the SMTP_* variables the environment sets; they win over the stored
	// settings field by field, and cannot be stored.
	SMTP assess.SMTPOverrides
	// PasswordResetTTL is the lifetime of an e-mailed reset link (PASSWORD_RESET_TTL_MINUTES).
	PasswordResetTTL time.Duration
	// AllowNetworks are the private or loopback networks destinations may point to
	// (OUTBOUND_ALLOW_NETWORKS); URLs are checked against them when stored.
	AllowNetworks []netip.Prefix
	// Version is the service version, named in test messages.
	Version string
}

func defaultDeliveryConfig() DeliveryConfig {
	return DeliveryConfig{WebhooksEnabled: true, WebhookMaxAttempts: 6, ChatMaxAttempts: 6, EmailMaxAttempts: 6,
		DisableAfterFailures: 20, PasswordResetTTL: time.Hour, Version: "dev"}
}

// ConfigureDeliveries sets the channel switches and delivery policies. Zero attempt
// counts and a zero reset lifetime keep their defaults (6 attempts, one hour).
func (db *DB) ConfigureDeliveries(cfg DeliveryConfig) *DB {
	def := defaultDeliveryConfig()
	for _, n := range []*int{&cfg.WebhookMaxAttempts, &cfg.ChatMaxAttempts, &cfg.EmailMaxAttempts} {
		if *n <= 0 {
			*n = def.WebhookMaxAttempts
		}
	}
	if cfg.PasswordResetTTL <= 0 {
		cfg.PasswordResetTTL = def.PasswordResetTTL
	}
	if cfg.Version == "" {
		cfg.Version = def.Version
	}
	db.Delivery = cfg
	return db
}

// newInsertOnlyClient returns the River client the store inserts delivery jobs with. It
// runs no workers, so it needs no start; jobs are inserted on the transaction of the
// change that causes them and exist exactly when the change commits.
func newInsertOnlyClient(pool *pgxpool.Pool) *river.Client[pgx.Tx] {
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil { // only an invalid configuration fails, and this one is fixed
		panic(fmt.Sprintf("postgres: river client: %v", err))
	}
	return c
}

// ChatPlatformOn reports whether a chat platform is switched on.
func (db *DB) ChatPlatformOn(platform string) bool {
	switch platform {
	case assess.ChannelSlack:
		return db.Delivery.SlackEnabled
	case assess.ChannelTeams:
		return db.Delivery.TeamsEnabled
	case assess.ChannelMattermost:
		return db.Delivery.MattermostEnabled
	}
	return false
}

// chatPlatformsOn lists the switched-on chat platforms.
func (db *DB) chatPlatformsOn() []string {
	on := []string{}
	for _, p := range assess.ChatPlatforms {
		if db.ChatPlatformOn(p) {
			on = append(on, p)
		}
	}
	return on
}

// MaxAttempts is the attempt budget of a delivery on channel.
func (db *DB) MaxAttempts(channel string) int {
	switch channel {
	case assess.ChannelWebhook:
		return db.Delivery.WebhookMaxAttempts
	case assess.ChannelEmail:
		return db.Delivery.EmailMaxAttempts
	}
	return db.Delivery.ChatMaxAttempts
}

var ErrChannelDisabled = &assess.Error{Code: assess.ECodeBusinessRule, Message: "This channel is switched off on this installation.",
	Details: []assess.Detail{{Code: "channel_disabled", Message: "Switched off by the operator (environment)."}}}

var ErrEmailDisabled = &assess.Error{Code: assess.ECodeBusinessRule, Message: "E-mail is switched off on this installation.",
	Details: []assess.Detail{{Code: "email_disabled", Message: "Enable SMTP (environment or e-mail settings) first."}}}
