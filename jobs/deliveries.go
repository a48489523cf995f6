package jobs

import (
	"time"

	"github.com/riverqueue/river"
)

// QueueDeliveries is the queue of webhook, chat and e-mail deliveries.
const QueueDeliveries = "deliveries"

// DeliverWebhookArgs delivers one webhook delivery row. The row, not the job, holds the
// state: a job retried after a crash or a redelivery finds everything there.
type DeliverWebhookArgs struct {
	DeliveryID string `json:"deliveryId"`
}

// Kind implements river.JobArgs.
func (DeliverWebhookArgs) Kind() string { return "delivery.webhook" }

// InsertOpts implements river.JobArgsWithInsertOpts; MaxAttempts is set per insert from
// WEBHOOK_MAX_RETRIES.
func (DeliverWebhookArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDeliveries}
}

// DeliverChatArgs delivers one chat delivery row (Slack, Teams or Mattermost).
type DeliverChatArgs struct {
	DeliveryID string `json:"deliveryId"`
}

// Kind implements river.JobArgs.
func (DeliverChatArgs) Kind() string { return "delivery.chat" }

// InsertOpts implements river.JobArgsWithInsertOpts.
func (DeliverChatArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDeliveries}
}

// DeliverEmailArgs sends one e-mail delivery row.
type DeliverEmailArgs struct {
	DeliveryID string `json:"deliveryId"`
}

// Kind implements river.JobArgs.
func (DeliverEmailArgs) Kind() string { return "delivery.email" }

// InsertOpts implements river.JobArgsWithInsertOpts.
func (DeliverEmailArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDeliveries}
}

// PurgeDeliveriesArgs asks for final deliveries older than each log's retention to be
// deleted, with read notifications past theirs and the events nothing refers to any more.
type PurgeDeliveriesArgs struct {
	WebhookRetention time.Duration `json:"webhookRetention"`
	ChatRetention    time.Duration `json:"chatRetention"`
	EmailRetention   time.Duration `json:"emailRetention"`
	// NotificationRetention is how long read in-app notifications are kept; 0 keeps them.
	NotificationRetention time.Duration `json:"notificationRetention,omitempty"`
}

// Kind implements river.JobArgs.
func (PurgeDeliveriesArgs) Kind() string { return "maintenance.purge_deliveries" }

// InsertOpts implements river.JobArgsWithInsertOpts.
func (PurgeDeliveriesArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueMaintenance, MaxAttempts: 3}
}
