package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func TestEventCatalogueAndChannelsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "SLACK_ENABLED=true", "WEBHOOK_ENABLED=false")
	_, bob := ts.newUser(t, assess.RoleAssessee)

	t.Run("the catalogue describes every event type", func(t *testing.T) {
		body := bob.get(t, "/api/v1/events/types", 200)
		types := items(t, body)
		require.Len(t, types, len(assess.EventTypes))
		require.Equal(t, map[string]any{
			"type": "user.created", "category": "user", "title": "User created",
			"description": "An account was created (setup, administrator, registration or invite).",
			"permission":  "admin.users", "notifyHolders": true, "notifySubject": false, "emailDefault": false,
		}, types[0])
	})
	t.Run("the channels say which are switched on", func(t *testing.T) {
		body := bob.get(t, "/api/v1/notification-channels", 200)
		require.Equal(t, map[string]any{"inApp": true, "email": false, "webhook": false, "slack": true, "teams": false, "mattermost": false}, body)
	})
}

// TestEventsAPIBadInput: malformed requests to the event, rule and channel endpoints are
// client errors with the envelope, never internal errors.
func TestEventsAPIBadInput(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "OUTBOUND_ALLOW_NETWORKS=127.0.0.0/8", "SLACK_ENABLED=true")
	admin := ts.admin(t)
	var wh, ch, rule string
	step(t, "a webhook, a chat destination and a rule exist", func(t *testing.T) {
		wh = admin.post(t, "/api/v1/admin/webhooks", `{"name":"w","url":"http://127.0.0.1:9/x","eventTypes":["*"]}`, 201)["id"].(string)
		ch = admin.post(t, "/api/v1/admin/chat-destinations", `{"platform":"slack","name":"c","url":"https://hooks.slack.com/services/A/B/C","eventTypes":["*"]}`, 201)["id"].(string)
		rule = admin.post(t, "/api/v1/notification-rules", `{"name":"r","eventTypes":["*"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`, 201)["id"].(string)
	})

	huge := strings.Repeat("x", 3000)
	for _, c := range []struct{ name, method, path, body string }{
		{"webhook without event types", "PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":1,"eventTypes":[]}`},
		{"webhook with version 0", "PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":0,"name":"x"}`},
		{"webhook with an overflowing version", "PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":99999999999999999999}`},
		{"webhook with a huge URL", "PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":1,"url":"` + huge + `"}`},
		{"webhook with a malformed URL", "PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":1,"url":"::not a url"}`},
		{"webhook with an unknown event pattern", "PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":1,"eventTypes":["user.*","*","nope.*"]}`},
		{"new webhook to IPv6 loopback", "POST", "/api/v1/admin/webhooks", `{"name":"w","url":"http://[::1]:9/x","eventTypes":["*"]}`},
		{"new webhook without a host", "POST", "/api/v1/admin/webhooks", `{"name":"w","url":"https://","eventTypes":["*"]}`},
		{"new webhook with an empty event type", "POST", "/api/v1/admin/webhooks", `{"name":"w","url":"https://hooks.example.com/x","eventTypes":[""]}`},
		{"chat destination to another host", "PATCH", "/api/v1/admin/chat-destinations/" + ch, `{"version":1,"url":"https://evil.example.com/x"}`},
		{"chat destination without a name", "PATCH", "/api/v1/admin/chat-destinations/" + ch, `{"version":1,"name":""}`},
		{"rule without channels", "PATCH", "/api/v1/notification-rules/" + rule, `{"version":1,"channels":{"inApp":false,"email":false,"webhookIds":[],"chatIds":[]}}`},
		{"personal rule with roles", "PATCH", "/api/v1/notification-rules/" + rule, `{"version":1,"roles":["admin"]}`},
		{"personal rule with a malformed address", "PATCH", "/api/v1/notification-rules/" + rule, `{"version":1,"emails":["not an address"]}`},
		{"global rule with ids swapped", "POST", "/api/v1/admin/notification-rules", `{"name":"g","eventTypes":["*"],"channels":{"inApp":true,"email":false,"webhookIds":["` + ch + `"],"chatIds":["` + wh + `"]}}`},
		{"global rule without channels", "POST", "/api/v1/admin/notification-rules", `{"name":"g","eventTypes":["*"],"channels":{"inApp":false,"email":false,"webhookIds":[],"chatIds":[]}}`},
		{"e-mail sender malformed", "PATCH", "/api/v1/admin/email/settings", `{"version":0,"from":"not an address"}`},
		{"e-mail host huge", "PATCH", "/api/v1/admin/email/settings", `{"version":0,"host":"` + huge + `"}`},
		{"e-mail settings with a negative version", "PATCH", "/api/v1/admin/email/settings", `{"version":-1}`},
		{"e-mail test to a huge address", "POST", "/api/v1/admin/email/test", `{"to":"` + huge + `@example.com"}`},
		{"e-mail deliveries with a huge cursor", "GET", "/api/v1/admin/email/deliveries?cursor=" + huge, ""},
		{"webhooks with a NUL cursor", "GET", "/api/v1/admin/webhooks?cursor=%00", ""},
		{"chat destinations with a bad cursor", "GET", "/api/v1/admin/chat-destinations?cursor=bad&limit=5", ""},
		{"global rules with a bad cursor", "GET", "/api/v1/admin/notification-rules?cursor=bad", ""},
		{"password reset for a huge login", "POST", "/api/v1/auth/password-reset", `{"login":"` + huge + `"}`},
		{"password reset with a huge token", "POST", "/api/v1/auth/password-reset/confirm", `{"token":"` + huge + `","password":"a brand new passphrase"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := admin.do(t, c.method, c.path, c.body)
			require.True(t, res.StatusCode >= 400 && res.StatusCode < 500, "%s %s %.80s: %d %v", c.method, c.path, c.body, res.StatusCode, body)
			require.NotEmpty(t, body["error"], "%s %s: the error envelope", c.method, c.path)
		})
	}
}
