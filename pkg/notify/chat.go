package notify

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// ProductName is how messages name the service.
const ProductName = "Assay"

// Message is what a chat post or an event e-mail says about one event.
type Message struct {
	EventID   string
	EventType string
	Title     string // the event in words, such as "Evidence approved"
	Summary   string // the record, such as "alice"
	Actor     string // display name of who caused the event
	Time      time.Time
	// URL is the absolute link into the web UI (APP_URL + the event's link), or APP_URL.
	URL string
}

// envelopeHeader is the part of the event envelope messages need.
type envelopeHeader struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Actor     struct {
		DisplayName string `json:"displayName"`
	} `json:"actor"`
}

// NewMessage builds the message of a delivery task; appURL is APP_URL without a trailing
// slash. Fields the task leaves empty fall back to the envelope.
func NewMessage(task assess.DeliveryTask, appURL string) Message {
	var env envelopeHeader
	_ = json.Unmarshal(task.Envelope, &env) // a missing envelope only loses fallbacks
	m := Message{
		EventID:   env.ID,
		EventType: firstNonEmpty(task.Delivery.EventType, env.Type),
		Title:     task.Title,
		Summary:   task.Summary,
		Actor:     firstNonEmpty(task.ActorName, env.Actor.DisplayName),
		Time:      env.Timestamp,
		URL:       AppLink(appURL, task.Link),
	}
	if m.Title == "" {
		if et, ok := assess.LookupEventType(assess.EventName(m.EventType)); ok {
			m.Title = et.Title
		} else {
			m.Title = m.EventType
		}
	}
	if m.Time.IsZero() {
		m.Time = task.Delivery.CreatedAt
	}
	return m
}

// Headline is the one-line form: "User created: alice".
func (m Message) Headline() string {
	if m.Summary == "" {
		return m.Title
	}
	return m.Title + ": " + m.Summary
}

// AppLink joins APP_URL and an SPA path; an empty path gives APP_URL itself.
func AppLink(appURL, path string) string {
	appURL = strings.TrimRight(appURL, "/")
	switch {
	case path == "":
		return appURL + "/"
	case strings.HasPrefix(path, "/"):
		return appURL + path
	default:
		return appURL + "/" + path
	}
}

// ChatPayload returns the JSON body of m for a chat platform (assess.ChannelSlack,
// ChannelTeams or ChannelMattermost).
func ChatPayload(platform string, m Message) ([]byte, error) {
	var v any
	switch platform {
	case assess.ChannelSlack:
		v = SlackPayload(m)
	case assess.ChannelTeams:
		v = TeamsPayload(m)
	case assess.ChannelMattermost:
		v = MattermostPayload(m)
	default:
		return nil, fmt.Errorf("unknown chat platform %q", platform)
	}
	return json.Marshal(v)
}

// facts are the labelled values every platform shows.
func (m Message) facts() [][2]string {
	out := [][2]string{{"Event", m.EventType}}
	if m.Summary != "" {
		out = append(out, [2]string{"Record", m.Summary})
	}
	if m.Actor != "" {
		out = append(out, [2]string{"By", m.Actor})
	}
	if !m.Time.IsZero() {
		out = append(out, [2]string{"When", m.Time.UTC().Format("2006-01-02 15:04:05 UTC")})
	}
	return out
}

// SlackPayload is a Block Kit message for a Slack incoming webhook: a header, the facts
// as section fields, the actor as context and a button into the web UI. text is the
// fallback notifications show.
func SlackPayload(m Message) map[string]any {
	fields := []map[string]any{}
	for _, f := range m.facts() {
		fields = append(fields, map[string]any{"type": "mrkdwn", "text": "*" + f[0] + "*\n" + truncate(slackEscape(f[1]), 1900)})
	}
	blocks := []map[string]any{
		{"type": "header", "text": map[string]any{"type": "plain_text", "text": truncate(m.Title, 150), "emoji": true}},
		{"type": "section", "fields": fields},
	}
	if m.Actor != "" {
		blocks = append(blocks, map[string]any{"type": "context", "elements": []map[string]any{
			{"type": "mrkdwn", "text": "by " + slackEscape(m.Actor)},
		}})
	}
	blocks = append(blocks, map[string]any{"type": "actions", "elements": []map[string]any{{
		"type": "button", "text": map[string]any{"type": "plain_text", "text": "Open in " + ProductName},
		"url": m.URL, "action_id": "open",
	}}})
	return map[string]any{"text": slackEscape(m.Headline()), "blocks": blocks}
}

// TeamsPayload is a message with an Adaptive Card 1.4 attachment, the format Teams
// Workflows ("Post to a channel when a webhook request is received") accept.
func TeamsPayload(m Message) map[string]any {
	facts := []map[string]any{}
	for _, f := range m.facts() {
		facts = append(facts, map[string]any{"title": f[0], "value": f[1]})
	}
	body := []map[string]any{
		{"type": "TextBlock", "text": m.Title, "weight": "Bolder", "size": "Medium", "wrap": true},
	}
	if m.Summary != "" {
		body = append(body, map[string]any{"type": "TextBlock", "text": m.Summary, "wrap": true})
	}
	body = append(body, map[string]any{"type": "FactSet", "facts": facts})
	card := map[string]any{
		"$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
		"type":    "AdaptiveCard",
		"version": "1.4",
		"body":    body,
		"actions": []map[string]any{{"type": "Action.OpenUrl", "title": "Open in " + ProductName, "url": m.URL}},
	}
	return map[string]any{
		"type": "message",
		"attachments": []map[string]any{{
			"contentType": "application/vnd.microsoft.card.adaptive",
			"contentUrl":  nil,
			"content":     card,
		}},
	}
}

// MattermostPayload is an incoming-webhook post with one message attachment.
func MattermostPayload(m Message) map[string]any {
	fields := []map[string]any{}
	for _, f := range m.facts() {
		fields = append(fields, map[string]any{"short": true, "title": f[0], "value": f[1]})
	}
	return map[string]any{
		"username": ProductName,
		"text":     m.Headline(),
		"attachments": []map[string]any{{
			"fallback":   m.Headline(),
			"color":      "#2F6FDE",
			"title":      m.Title,
			"title_link": m.URL,
			"text":       m.Summary,
			"fields":     fields,
		}},
	}
}

// slackEscape escapes the three characters Slack's mrkdwn treats as control characters.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// truncate cuts s to at most n runes, marking the cut with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
