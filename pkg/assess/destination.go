package assess

import (
	"context"
	"slices"
	"strings"
	"time"
)

// The outbound destinations of events: webhooks and chat destinations, and the rules their
// requests must follow.

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

// WebhookFilter selects webhook destinations, newest first.
type WebhookFilter struct {
	PageRequest
}

// ChatDestinationFilter selects chat destinations, newest first.
type ChatDestinationFilter struct {
	Platform string `query:"platform" enum:"slack,teams,mattermost" doc:"Only destinations of this platform"`
	PageRequest
}

// Validate checks the platform asked for.
func (f ChatDestinationFilter) Validate() error {
	if f.Platform == "" {
		return nil
	}
	return checkPlatform(f.Platform)
}

// Validate checks a new webhook against policy and normalises it: name and description
// trimmed, the event filter sorted without duplicates, the URL in its canonical form.
func (w *NewWebhook) Validate(policy OutboundPolicy) error {
	name, err := checkName(w.Name)
	if err != nil {
		return err
	}
	filter, err := ValidateEventFilter("eventTypes", w.EventTypes)
	if err != nil {
		return err
	}
	u, err := policy.CheckURL("url", w.URL)
	if err != nil {
		return err
	}
	w.Name, w.Description, w.EventTypes, w.URL = name, strings.TrimSpace(w.Description), filter, u.String()
	return nil
}

// Validate checks the fields the update sets, as NewWebhook.Validate does, and normalises
// them.
func (u *WebhookUpdate) Validate(policy OutboundPolicy) error {
	if u.Name != nil {
		name, err := checkName(*u.Name)
		if err != nil {
			return err
		}
		u.Name = &name
	}
	if u.Description != nil {
		d := strings.TrimSpace(*u.Description)
		u.Description = &d
	}
	if err := validateEventFilterUpdate(u.EventTypes); err != nil {
		return err
	}
	if u.URL != nil {
		checked, err := policy.CheckURL("url", *u.URL)
		if err != nil {
			return err
		}
		s := checked.String()
		u.URL = &s
	}
	return nil
}

// Validate checks a new chat destination against policy and normalises it: a known
// platform, name and channel trimmed, the event filter sorted without duplicates, a URL
// that fits the platform (see OutboundPolicy.CheckChatURL) in its canonical form.
func (c *NewChatDestination) Validate(policy OutboundPolicy) error {
	if err := checkPlatform(c.Platform); err != nil {
		return err
	}
	name, err := checkName(c.Name)
	if err != nil {
		return err
	}
	filter, err := ValidateEventFilter("eventTypes", c.EventTypes)
	if err != nil {
		return err
	}
	u, err := policy.CheckChatURL("url", c.Platform, c.URL)
	if err != nil {
		return err
	}
	c.Name, c.ChannelName, c.EventTypes, c.URL = name, strings.TrimSpace(c.ChannelName), filter, u.String()
	return nil
}

// Validate checks the fields the update sets and normalises them; a new URL must fit
// platform, the destination's (which never changes).
func (u *ChatDestinationUpdate) Validate(platform string, policy OutboundPolicy) error {
	if u.Name != nil {
		name, err := checkName(*u.Name)
		if err != nil {
			return err
		}
		u.Name = &name
	}
	if u.ChannelName != nil {
		s := strings.TrimSpace(*u.ChannelName)
		u.ChannelName = &s
	}
	if err := validateEventFilterUpdate(u.EventTypes); err != nil {
		return err
	}
	if u.URL != nil {
		checked, err := policy.CheckChatURL("url", platform, *u.URL)
		if err != nil {
			return err
		}
		s := checked.String()
		u.URL = &s
	}
	return nil
}

// checkPlatform refuses a chat platform the service does not post to.
func checkPlatform(platform string) error {
	if slices.Contains(ChatPlatforms, platform) {
		return nil
	}
	return &Error{Code: ECodeValidation, Message: "Unknown chat platform " + platform + ".",
		Details: []Detail{{Field: "platform", Code: "invalid", Message: "One of slack, teams, mattermost."}}}
}

// checkName trims and checks the name of a destination or rule.
func checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 200 {
		return "", &Error{Code: ECodeValidation, Message: "A name of 1–200 characters is required.",
			Details: []Detail{{Field: "name", Code: "required", Message: "A name of 1–200 characters is required."}}}
	}
	return name, nil
}

// WebhookService manages webhook destinations.
type WebhookService interface {
	// FindWebhooks returns one page of webhook destinations, newest first; never a secret.
	FindWebhooks(ctx context.Context, f WebhookFilter) (Page[Webhook], error)
	// FindWebhook returns one destination; not_found for an unknown id.
	FindWebhook(ctx context.Context, id string) (Webhook, error)
	// CreateWebhook returns the new destination and its signing secret (whsec_…), which is
	// never shown again.
	CreateWebhook(ctx context.Context, w NewWebhook, actor Actor) (Webhook, string, error)
	// UpdateWebhook changes a destination under optimistic concurrency.
	UpdateWebhook(ctx context.Context, id string, upd WebhookUpdate, actor Actor) (Webhook, error)
	// RotateWebhookSecret replaces the signing secret and returns the new one, shown once.
	RotateWebhookSecret(ctx context.Context, id string, actor Actor) (Webhook, string, error)
	// DeleteWebhook deletes a destination with its deliveries.
	DeleteWebhook(ctx context.Context, id string, actor Actor) error
	// TestWebhook records a channel.test event and queues its delivery to this destination
	// only (even when inactive or not subscribed to channel.test).
	TestWebhook(ctx context.Context, id string, actor Actor) (Delivery, error)
}

// ChatService manages chat destinations.
type ChatService interface {
	// FindChatDestinations returns one page of chat destinations, newest first.
	FindChatDestinations(ctx context.Context, f ChatDestinationFilter) (Page[ChatDestination], error)
	// FindChatDestination returns one destination; not_found for an unknown id.
	FindChatDestination(ctx context.Context, id string) (ChatDestination, error)
	// CreateChatDestination adds a destination; its URL is stored sealed.
	CreateChatDestination(ctx context.Context, c NewChatDestination, actor Actor) (ChatDestination, error)
	// UpdateChatDestination changes a destination under optimistic concurrency.
	UpdateChatDestination(ctx context.Context, id string, upd ChatDestinationUpdate, actor Actor) (ChatDestination, error)
	// DeleteChatDestination deletes a destination with its deliveries.
	DeleteChatDestination(ctx context.Context, id string, actor Actor) error
	// TestChatDestination records a channel.test event and queues a message to this
	// destination only.
	TestChatDestination(ctx context.Context, id string, actor Actor) (Delivery, error)
}
