package assess

import (
	"context"
	"slices"
	"time"
)

// Delivery channels.
const (
	ChannelInApp      = "in_app"
	ChannelEmail      = "email"
	ChannelWebhook    = "webhook"
	ChannelSlack      = "slack"
	ChannelTeams      = "teams"
	ChannelMattermost = "mattermost"
)

// ChatPlatforms are the chat channels, in display order.
var ChatPlatforms = []string{ChannelSlack, ChannelTeams, ChannelMattermost}

// Delivery states. pending: waiting for its first attempt; retrying: an attempt failed and
// another is scheduled; succeeded and failed are final; skipped: not sent because the
// destination or its channel was switched off (or deleted) before the attempt.
const (
	DeliveryPending   = "pending"
	DeliveryRetrying  = "retrying"
	DeliverySucceeded = "succeeded"
	DeliveryFailed    = "failed"
	DeliverySkipped   = "skipped"
)

// Notification is one in-app notification of one user.
type Notification struct {
	ID        string            `json:"id"`
	EventID   string            `json:"eventId,omitempty"`
	Type      string            `json:"type" doc:"The event type"`
	Title     string            `json:"title"`
	Message   string            `json:"message"`
	Link      string            `json:"link,omitempty" doc:"Path of the record in the web UI"`
	Params    map[string]string `json:"params" doc:"Values for localised rendering: actor, summary"`
	Read      bool              `json:"read"`
	ReadAt    *time.Time        `json:"readAt,omitempty"`
	CreatedAt time.Time         `json:"createdAt"`
}

// NotificationFilter selects a user's notifications, newest first.
type NotificationFilter struct {
	Unread bool `query:"unread" doc:"Only unread notifications"`
	PageRequest
}

// NotificationService serves a user their own notifications; other users' rows are 404.
type NotificationService interface {
	// FindNotifications returns one page of the user's notifications, newest first.
	FindNotifications(ctx context.Context, userID string, f NotificationFilter) (Page[Notification], error)
	// CountUnreadNotifications counts the user's unread notifications.
	CountUnreadNotifications(ctx context.Context, userID string) (int, error)
	// MarkNotificationRead marks one of the user's notifications read; marking it again
	// keeps the first read time.
	MarkNotificationRead(ctx context.Context, userID, id string) (Notification, error)
	// MarkAllNotificationsRead marks every unread notification of the user read and says
	// how many it marked.
	MarkAllNotificationsRead(ctx context.Context, userID string) (int, error)
}

// Delivery is one message to one destination: a webhook POST, a chat post or an e-mail.
type Delivery struct {
	ID            string            `json:"id" doc:"Also the webhook-id header: stable per event and destination"`
	EventID       string            `json:"eventId,omitempty"`
	EventType     string            `json:"eventType" doc:"Event type, or email.<template> for direct e-mails"`
	Channel       string            `json:"channel" enum:"webhook,email,slack,teams,mattermost"`
	DestinationID string            `json:"destinationId,omitempty" doc:"The webhook or chat destination"`
	Recipient     string            `json:"recipient,omitempty" doc:"E-mail address"`
	Subject       string            `json:"subject,omitempty" doc:"E-mail subject"`
	Status        string            `json:"status" enum:"pending,retrying,succeeded,failed,skipped"`
	Attempts      int               `json:"attempts"`
	MaxAttempts   int               `json:"maxAttempts"`
	LastStatus    int               `json:"lastStatus,omitempty" doc:"HTTP status of the last attempt"`
	LastError     string            `json:"lastError,omitempty"`
	NextAttemptAt *time.Time        `json:"nextAttemptAt,omitempty"`
	CreatedAt     time.Time         `json:"createdAt"`
	UpdatedAt     time.Time         `json:"updatedAt"`
	CompletedAt   *time.Time        `json:"completedAt,omitempty"`
	AttemptLog    []DeliveryAttempt `json:"attemptLog,omitempty" doc:"Every attempt, oldest first (single-delivery reads only)"`
	Payload       any               `json:"payload,omitempty" doc:"The event envelope as sent (webhook single-delivery reads only)"`
}

// DeliveryAttempt is one try of a delivery.
type DeliveryAttempt struct {
	Attempt    int       `json:"attempt"`
	StartedAt  time.Time `json:"startedAt"`
	Duration   string    `json:"duration" doc:"Such as 153ms"`
	Outcome    string    `json:"outcome" enum:"succeeded,failed"`
	HTTPStatus int       `json:"httpStatus,omitempty"`
	Error      string    `json:"error,omitempty"`
	Response   string    `json:"response,omitempty" doc:"First 1 KiB of the response body"`
}

// Delivery log kinds: which destinations a log lists.
const (
	DeliveryKindWebhook = "webhook"
	DeliveryKindChat    = "chat"
	DeliveryKindEmail   = "email"
)

// DeliveryLogChannels returns the channels whose deliveries the log of kind lists.
func DeliveryLogChannels(kind string) ([]string, error) {
	switch kind {
	case DeliveryKindWebhook:
		return []string{ChannelWebhook}, nil
	case DeliveryKindChat:
		return slices.Clone(ChatPlatforms), nil
	case DeliveryKindEmail:
		return []string{ChannelEmail}, nil
	}
	return nil, &Error{Code: ECodeValidation, Message: "Unknown delivery log " + kind + "."}
}

// deliveryStates are the states of a delivery, in the order of the API's enum.
var deliveryStates = []string{DeliveryPending, DeliveryRetrying, DeliverySucceeded, DeliveryFailed, DeliverySkipped}

// DeliveryFilter selects deliveries, newest first. Kind and DestinationID are set by the
// endpoint; Status and the page by the caller.
type DeliveryFilter struct {
	Kind          string
	DestinationID string
	Status        string `query:"status" enum:"pending,retrying,succeeded,failed,skipped" doc:"Only deliveries in this state"`
	PageRequest
}

// Validate checks the log's kind and the state asked for.
func (f DeliveryFilter) Validate() error {
	if _, err := DeliveryLogChannels(f.Kind); err != nil {
		return err
	}
	if f.Status != "" && !slices.Contains(deliveryStates, f.Status) {
		return &Error{Code: ECodeValidation, Message: "Unknown delivery status " + f.Status + ".",
			Details: []Detail{{Field: "status", Code: "invalid"}}}
	}
	return nil
}

// CheckRedeliver refuses to queue a delivery again while it has not finished: it would
// run twice at once under the same id.
func (d Delivery) CheckRedeliver() error {
	if d.Status == DeliveryPending || d.Status == DeliveryRetrying {
		return &Error{Code: ECodeConflict, Message: "The delivery is still " + d.Status + "; redeliver it once it has finished.",
			Details: []Detail{{Field: "status", Code: d.Status}}}
	}
	return nil
}

// DeliveryLogService reads the delivery logs and redelivers.
type DeliveryLogService interface {
	// FindDeliveries returns one page of a delivery log, newest first.
	FindDeliveries(ctx context.Context, f DeliveryFilter) (Page[Delivery], error)
	// FindDelivery returns one delivery of kind (and of destinationID when not empty) with
	// its attempt log; anything else is not_found.
	FindDelivery(ctx context.Context, kind, destinationID, id string) (Delivery, error)
	// Redeliver queues a finished delivery again under the same id (so the same
	// webhook-id); one still pending or retrying is a 409 conflict.
	Redeliver(ctx context.Context, kind, destinationID, id string, actor Actor) (Delivery, error)
}

// PasswordResetService runs the e-mailed password reset.
type PasswordResetService interface {
	// RequestPasswordReset e-mails a single-use link when login names an active user with
	// an e-mail address and e-mail is on. It answers the same way in every case.
	RequestPasswordReset(ctx context.Context, login string, actor Actor) error
	// ConfirmPasswordReset sets the password, clears a lockout, ends every session and
	// consumes the token; an unknown, used or expired token is a 422 invalid_token.
	ConfirmPasswordReset(ctx context.Context, token, password string, actor Actor) error
}

// E-mail templates a delivery can name.
const (
	EmailTemplateEvent         = "event"
	EmailTemplateInvite        = "invite"
	EmailTemplatePasswordReset = "password_reset"
	EmailTemplateTest          = "test"
)

// DeliveryTask is everything a worker needs to make one attempt. The store decrypts
// secrets (webhook secret, chat URL, e-mail parameters) only into this value.
type DeliveryTask struct {
	Delivery Delivery
	// Skip, when not empty, says why nothing is to be sent (destination deleted or
	// inactive, delivery already final); the worker records it and stops.
	Skip string
	// Envelope is the event as JSON (webhook body; source of chat and event e-mails).
	Envelope []byte
	// Summary and Link come from the event (NewEvent); Title is the event in words
	// (assess.DescribeEvent), or its type's catalogue title for an event recorded before.
	Summary, Link, Title string
	// ActorName is the display name of the event's actor.
	ActorName string
	URL       string // webhook or chat URL
	Secret    string // webhook signing secret (whsec_…)
	// Email is set for e-mail deliveries.
	Email *EmailMessage
}

// EmailMessage is an e-mail to render and send.
type EmailMessage struct {
	To       string
	Template string            // EmailTemplate*
	Params   map[string]string // template values (may contain a token: stored sealed)
}

// DeliveryOutcome is the result of one attempt, as the worker reports it.
type DeliveryOutcome struct {
	StartedAt  time.Time
	Duration   time.Duration
	Succeeded  bool
	HTTPStatus int
	Error      string
	Response   string
	// Final marks the last attempt: a failure is then final (failed) and counts towards
	// the destination's consecutive failures.
	Final bool
	// NextAttemptAt is when River will retry (for the log) after a non-final failure.
	NextAttemptAt time.Time
}

// DeliveryStore is what the delivery workers need from the database.
type DeliveryStore interface {
	LoadDelivery(ctx context.Context, id string) (DeliveryTask, error)
	// RecordDeliveryAttempt appends the attempt and updates the delivery. A success resets
	// the destination's failure count; a final failure increments it and, at the
	// threshold, switches the destination off and emits channel.*.disabled in the same
	// transaction.
	RecordDeliveryAttempt(ctx context.Context, id string, o DeliveryOutcome) error
	SkipDelivery(ctx context.Context, id, reason string) error
	EffectiveSMTP(ctx context.Context) (SMTPConfig, error)
	// PurgeDeliveries deletes final deliveries of kind completed before olderThan, and
	// events no delivery or notification needs any more.
	PurgeDeliveries(ctx context.Context, kind string, olderThan time.Time) (int64, error)
	// PurgeReadNotifications deletes read in-app notifications created before olderThan.
	PurgeReadNotifications(ctx context.Context, olderThan time.Time) (int64, error)
}
