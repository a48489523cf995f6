package assess

import (
	"context"
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
	Unread bool   `query:"unread" doc:"Only unread notifications"`
	Cursor string `query:"cursor" maxLength:"100" doc:"nextCursor of the previous page"`
	Limit  int    `query:"limit" minimum:"1" maximum:"200" default:"50"`
}

// NotificationService serves a user their own notifications; other users' rows are 404.
type NotificationService interface {
	FindNotifications(ctx context.Context, userID string, f NotificationFilter) ([]Notification, string, error)
	CountUnreadNotifications(ctx context.Context, userID string) (int, error)
	MarkNotificationRead(ctx context.Context, userID, id string) (Notification, error)
	MarkAllNotificationsRead(ctx context.Context, userID string) (int, error)
}

// Webhook is an outbound webhook destination. Its secret is never part of it: it is shown
// once, at creation and at rotation.
type Webhook struct {
	ID                  string     `json:"id"`
	Name                string     `json:"name"`
	Description         string     `json:"description"`
	URL                 string     `json:"url"`
	EventTypes          []string   `json:"eventTypes" doc:"'*', '<category>.*' or exact event types"`
	Active              bool       `json:"active"`
	ConsecutiveFailures int        `json:"consecutiveFailures"`
	DisabledAt          *time.Time `json:"disabledAt,omitempty" doc:"When it was switched off after consecutive failures"`
	Version             int64      `json:"version"`
	CreatedBy           string     `json:"createdBy"`
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
}

// NewWebhook is a request to add a webhook destination.
type NewWebhook struct {
	Name        string   `json:"name" minLength:"1" maxLength:"200"`
	Description string   `json:"description,omitempty" maxLength:"2000"`
	URL         string   `json:"url" minLength:"1" maxLength:"2000" doc:"https URL; plain http only to networks in OUTBOUND_ALLOW_NETWORKS"`
	EventTypes  []string `json:"eventTypes" minItems:"1" maxItems:"200"`
	Active      *bool    `json:"active,omitempty" doc:"Default true"`
}

// WebhookUpdate changes a webhook; absent fields stay. Setting active to true re-enables a
// destination that was switched off and clears its failure count.
type WebhookUpdate struct {
	Version     int64     `json:"version" minimum:"1"`
	Name        *string   `json:"name,omitempty" minLength:"1" maxLength:"200"`
	Description *string   `json:"description,omitempty" maxLength:"2000"`
	URL         *string   `json:"url,omitempty" minLength:"1" maxLength:"2000"`
	EventTypes  *[]string `json:"eventTypes,omitempty" minItems:"1" maxItems:"200"`
	Active      *bool     `json:"active,omitempty"`
}

// ChatDestination is a Slack, Microsoft Teams or Mattermost incoming webhook. Its URL is
// the credential: the API shows only URLHint.
type ChatDestination struct {
	ID                  string     `json:"id"`
	Platform            string     `json:"platform" enum:"slack,teams,mattermost"`
	Name                string     `json:"name"`
	ChannelName         string     `json:"channelName,omitempty"`
	URLHint             string     `json:"urlHint" doc:"Scheme and host of the incoming-webhook URL and its last four characters"`
	EventTypes          []string   `json:"eventTypes" doc:"'*', '<category>.*' or exact event types"`
	Active              bool       `json:"active"`
	ConsecutiveFailures int        `json:"consecutiveFailures"`
	DisabledAt          *time.Time `json:"disabledAt,omitempty"`
	Version             int64      `json:"version"`
	CreatedBy           string     `json:"createdBy"`
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
}

// NewChatDestination is a request to add a chat destination.
type NewChatDestination struct {
	Platform    string   `json:"platform" enum:"slack,teams,mattermost"`
	Name        string   `json:"name" minLength:"1" maxLength:"200"`
	ChannelName string   `json:"channelName,omitempty" maxLength:"200"`
	URL         string   `json:"url" minLength:"1" maxLength:"2000" doc:"The platform's incoming-webhook URL; write-only"`
	EventTypes  []string `json:"eventTypes" minItems:"1" maxItems:"200"`
	Active      *bool    `json:"active,omitempty" doc:"Default true"`
}

// ChatDestinationUpdate changes a chat destination; absent fields stay.
type ChatDestinationUpdate struct {
	Version     int64     `json:"version" minimum:"1"`
	Name        *string   `json:"name,omitempty" minLength:"1" maxLength:"200"`
	ChannelName *string   `json:"channelName,omitempty" maxLength:"200"`
	URL         *string   `json:"url,omitempty" minLength:"1" maxLength:"2000"`
	EventTypes  *[]string `json:"eventTypes,omitempty" minItems:"1" maxItems:"200"`
	Active      *bool     `json:"active,omitempty"`
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

// DeliveryFilter selects deliveries, newest first. Kind and DestinationID are set by the
// endpoint; Status and the cursor by the caller.
type DeliveryFilter struct {
	Kind          string
	DestinationID string
	Status        string `query:"status" enum:"pending,retrying,succeeded,failed,skipped" doc:"Only deliveries in this state"`
	Cursor        string `query:"cursor" maxLength:"100" doc:"nextCursor of the previous page"`
	Limit         int    `query:"limit" minimum:"1" maximum:"200" default:"50"`
}

// DeliveryLogService reads the delivery logs and redelivers.
type DeliveryLogService interface {
	FindDeliveries(ctx context.Context, f DeliveryFilter) ([]Delivery, string, error)
	// FindDelivery returns one delivery of kind (and of destinationID when not empty) with
	// its attempt log; anything else is not_found.
	FindDelivery(ctx context.Context, kind, destinationID, id string) (Delivery, error)
	// Redeliver queues a finished delivery again under the same id (so the same
	// webhook-id); one still pending or retrying is a 409 conflict.
	Redeliver(ctx context.Context, kind, destinationID, id string, actor Actor) (Delivery, error)
}

// WebhookService manages webhook destinations.
type WebhookService interface {
	FindWebhooks(ctx context.Context, cursor string, limit int) ([]Webhook, string, error)
	FindWebhook(ctx context.Context, id string) (Webhook, error)
	// CreateWebhook returns the new destination and its signing secret (whsec_…), which is
	// never shown again.
	CreateWebhook(ctx context.Context, w NewWebhook, actor Actor) (Webhook, string, error)
	UpdateWebhook(ctx context.Context, id string, upd WebhookUpdate, actor Actor) (Webhook, error)
	RotateWebhookSecret(ctx context.Context, id string, actor Actor) (Webhook, string, error)
	DeleteWebhook(ctx context.Context, id string, actor Actor) error
	// TestWebhook records a channel.test event and queues its delivery to this destination
	// only (even when inactive or not subscribed to channel.test).
	TestWebhook(ctx context.Context, id string, actor Actor) (Delivery, error)
}

// ChatService manages chat destinations.
type ChatService interface {
	FindChatDestinations(ctx context.Context, platform, cursor string, limit int) ([]ChatDestination, string, error)
	FindChatDestination(ctx context.Context, id string) (ChatDestination, error)
	CreateChatDestination(ctx context.Context, c NewChatDestination, actor Actor) (ChatDestination, error)
	UpdateChatDestination(ctx context.Context, id string, upd ChatDestinationUpdate, actor Actor) (ChatDestination, error)
	DeleteChatDestination(ctx context.Context, id string, actor Actor) error
	TestChatDestination(ctx context.Context, id string, actor Actor) (Delivery, error)
}

// Rule scopes.
const (
	RuleGlobal   = "global"
	RulePersonal = "personal"
)

// RuleChannels are where a rule sends the events it matches.
type RuleChannels struct {
	InApp      bool     `json:"inApp"`
	Email      bool     `json:"email"`
	WebhookIDs []string `json:"webhookIds,omitempty" maxItems:"50" doc:"Global rules only"`
	ChatIDs    []string `json:"chatIds,omitempty" maxItems:"50" doc:"Global rules only"`
}

// NotificationRule routes events to channels. A personal rule belongs to one user and
// sends to that user (in-app, e-mail) only events the user may see: they hold the type's
// permission or the event concerns them. A global rule sends to the members of Roles
// (in-app, e-mail; again only where they may see the event), to Emails, and to the chosen
// webhook and chat destinations.
type NotificationRule struct {
	ID         string       `json:"id"`
	Scope      string       `json:"scope" enum:"global,personal"`
	OwnerID    string       `json:"ownerId,omitempty"`
	Name       string       `json:"name"`
	EventTypes []string     `json:"eventTypes"`
	Channels   RuleChannels `json:"channels"`
	Roles      []string     `json:"roles" doc:"Global rules: role names whose members receive in-app and e-mail"`
	Emails     []string     `json:"emails" doc:"Global rules: further e-mail addresses"`
	Enabled    bool         `json:"enabled"`
	Warnings   []string     `json:"warnings" doc:"Why a chosen channel will not deliver now (switched off, destination inactive)"`
	Version    int64        `json:"version"`
	CreatedAt  time.Time    `json:"createdAt"`
	UpdatedAt  time.Time    `json:"updatedAt"`
}

// NewNotificationRule is a request to add a rule.
type NewNotificationRule struct {
	Name       string       `json:"name" minLength:"1" maxLength:"200"`
	EventTypes []string     `json:"eventTypes" minItems:"1" maxItems:"200"`
	Channels   RuleChannels `json:"channels"`
	Roles      []string     `json:"roles,omitempty" maxItems:"50"`
	Emails     []string     `json:"emails,omitempty" maxItems:"50"`
	Enabled    *bool        `json:"enabled,omitempty" doc:"Default true"`
}

// NotificationRuleUpdate changes a rule; absent fields stay.
type NotificationRuleUpdate struct {
	Version    int64         `json:"version" minimum:"1"`
	Name       *string       `json:"name,omitempty" minLength:"1" maxLength:"200"`
	EventTypes *[]string     `json:"eventTypes,omitempty" minItems:"1" maxItems:"200"`
	Channels   *RuleChannels `json:"channels,omitempty"`
	Roles      *[]string     `json:"roles,omitempty" maxItems:"50"`
	Emails     *[]string     `json:"emails,omitempty" maxItems:"50"`
	Enabled    *bool         `json:"enabled,omitempty"`
}

// RuleService manages notification rules. For personal rules ownerID is the caller; a
// rule of another owner (or of the other scope) is not_found.
type RuleService interface {
	FindRules(ctx context.Context, scope, ownerID, cursor string, limit int) ([]NotificationRule, string, error)
	CreateRule(ctx context.Context, scope, ownerID string, r NewNotificationRule, actor Actor) (NotificationRule, error)
	UpdateRule(ctx context.Context, scope, ownerID, id string, upd NotificationRuleUpdate, actor Actor) (NotificationRule, error)
	DeleteRule(ctx context.Context, scope, ownerID, id string, actor Actor) error
}

// ChannelStatus tells which channels deliver on this installation.
type ChannelStatus struct {
	InApp      bool `json:"inApp"`
	Email      bool `json:"email" doc:"SMTP_ENABLED (or the stored setting) and a host are set"`
	Webhook    bool `json:"webhook" doc:"WEBHOOK_ENABLED"`
	Slack      bool `json:"slack"`
	Teams      bool `json:"teams"`
	Mattermost bool `json:"mattermost"`
}

// SMTPConfig is the effective mail-server configuration, password included; only the
// e-mail worker sees it.
type SMTPConfig struct {
	Enabled               bool
	Host                  string
	Port                  int
	Secure                bool // implicit TLS; otherwise STARTTLS when offered
	Username              string
	Password              string
	From                  string
	TLSRejectUnauthorized bool
}

// SMTPOverrides are the SMTP_* variables the environment sets; nil fields are unset, and
// there the stored settings apply.
type SMTPOverrides struct {
	Enabled               *bool
	Host                  *string
	Port                  *int
	Secure                *bool
	Username              *string
	Password              *string
	From                  *string
	TLSRejectUnauthorized *bool
}

// EmailSettings is the SMTP configuration as administrators see it; the password is
// never shown. Sources says where each field's value comes from.
type EmailSettings struct {
	Enabled               bool              `json:"enabled"`
	Host                  string            `json:"host"`
	Port                  int               `json:"port"`
	Secure                bool              `json:"secure" doc:"Implicit TLS (usually port 465); otherwise STARTTLS"`
	Username              string            `json:"username"`
	PasswordSet           bool              `json:"passwordSet"`
	From                  string            `json:"from"`
	TLSRejectUnauthorized bool              `json:"tlsRejectUnauthorized"`
	Sources               map[string]string `json:"sources" doc:"Field name → environment, stored or default; the environment wins"`
	Version               int64             `json:"version"`
}

// EmailSettingsUpdate stores SMTP settings; fields the environment sets cannot be stored
// (422). An empty password clears the stored one.
type EmailSettingsUpdate struct {
	Version               int64   `json:"version" minimum:"0" doc:"0 when nothing is stored yet"`
	Enabled               *bool   `json:"enabled,omitempty"`
	Host                  *string `json:"host,omitempty" maxLength:"253"`
	Port                  *int    `json:"port,omitempty" minimum:"1" maximum:"65535"`
	Secure                *bool   `json:"secure,omitempty"`
	Username              *string `json:"username,omitempty" maxLength:"254"`
	Password              *string `json:"password,omitempty" maxLength:"1024" doc:"Write-only"`
	From                  *string `json:"from,omitempty" maxLength:"320"`
	TLSRejectUnauthorized *bool   `json:"tlsRejectUnauthorized,omitempty"`
}

// EmailService manages the SMTP settings and test messages.
type EmailService interface {
	EmailSettings(ctx context.Context) (EmailSettings, error)
	UpdateEmailSettings(ctx context.Context, upd EmailSettingsUpdate, actor Actor) (EmailSettings, error)
	// SendTestEmail queues a test message to to; e-mail switched off is a 422.
	SendTestEmail(ctx context.Context, to string, actor Actor) (Delivery, error)
	ChannelStatus(ctx context.Context) (ChannelStatus, error)
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
	// Summary and Link come from the event (NewEvent); Title from the catalogue.
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
