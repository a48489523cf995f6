package postgres_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/secret"
)

// TestWebhookLifecycle: create, read, update with optimistic concurrency, rotate the
// secret and delete; the URL and secret are sealed at rest and every change is an event
// and an audit row.
func TestWebhookLifecycle(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	carol := f.user("carol", assess.RoleAdmin)
	w, whsec, err := f.svc.Webhooks.CreateWebhook(f.ctx, assess.NewWebhook{Name: " CI ", URL: "https://hooks.example.com/in?token=abc",
		EventTypes: []string{"user.*", "role.created", "user.*"}}, f.actor())
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(whsec, "whsec_"))
	require.Len(t, whsec, len("whsec_")+44)
	require.Equal(t, "CI", w.Name)
	require.Equal(t, []string{"role.created", "user.*"}, w.EventTypes)
	require.True(t, w.Active)
	require.Equal(t, "https://hooks.example.com/in?token=abc", w.URL)

	var rawURL, rawSecret string
	require.NoError(t, f.pool.QueryRow(f.ctx, "SELECT url, secret FROM webhooks WHERE id = $1", w.ID).Scan(&rawURL, &rawSecret))
	require.True(t, secret.IsEncrypted(rawURL))
	require.True(t, secret.IsEncrypted(rawSecret))
	require.NotContains(t, rawSecret, strings.TrimPrefix(whsec, "whsec_"))

	ev := f.lastEvent(assess.EventWebhookCreated)
	require.Equal(t, []string{"carol"}, f.notified(ev))
	var data string
	require.NoError(t, f.pool.QueryRow(f.ctx, "SELECT data::text FROM events WHERE id = $1", ev).Scan(&data))
	require.NotContains(t, data, "token=abc", "event data carries no URL query")
	require.NotContains(t, data, "whsec_")

	list, err := f.svc.Webhooks.FindWebhooks(f.ctx, assess.WebhookFilter{PageRequest: assess.PageRequest{Limit: 10}})
	require.NoError(t, err)
	require.Equal(t, []assess.Webhook{w}, list.Items)
	require.Empty(t, list.NextCursor)

	_, err = f.svc.Webhooks.UpdateWebhook(f.ctx, w.ID, assess.WebhookUpdate{Version: w.Version + 1, Name: ptr("x")}, f.actor())
	requireCode(t, err, assess.ECodeVersionConflict, "stale")
	w2, err := f.svc.Webhooks.UpdateWebhook(f.ctx, w.ID, assess.WebhookUpdate{Version: w.Version, Name: ptr("CI 2"),
		URL: ptr("https://hooks.example.com/v2"), EventTypes: &[]string{"*"}}, assess.Actor{ID: carol.ID})
	require.NoError(t, err)
	require.Equal(t, w.Version+1, w2.Version)
	require.Equal(t, "https://hooks.example.com/v2", w2.URL)
	require.Equal(t, []string{"admin"}, f.notified(f.lastEvent(assess.EventWebhookUpdated)))

	w3, rotated, err := f.svc.Webhooks.RotateWebhookSecret(f.ctx, w.ID, f.actor())
	require.NoError(t, err)
	require.NotEqual(t, whsec, rotated)
	require.Equal(t, w2.Version+1, w3.Version)
	d, err := f.svc.Webhooks.TestWebhook(f.ctx, w.ID, f.actor())
	require.NoError(t, err)
	task, err := f.svc.DeliveryStore.LoadDelivery(f.ctx, d.ID)
	require.NoError(t, err)
	require.Equal(t, rotated, task.Secret, "the worker signs with the new secret")
	require.Equal(t, "https://hooks.example.com/v2", task.URL)

	require.NoError(t, f.svc.Webhooks.DeleteWebhook(f.ctx, w.ID, f.actor()))
	_, err = f.svc.Webhooks.FindWebhook(f.ctx, w.ID)
	requireCode(t, err, assess.ECodeNotFound, "")
	_, err = f.svc.Webhooks.FindWebhook(f.ctx, "wh_bad")
	requireCode(t, err, assess.ECodeNotFound, "")
	require.Zero(t, f.count("SELECT count(*) FROM deliveries WHERE webhook_id = $1", w.ID))
	require.Equal(t, 1, f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventWebhookDeleted))
	for _, action := range []assess.AuditAction{"webhook.created", "webhook.updated", "webhook.secret_rotated", "webhook.tested", "webhook.deleted"} {
		require.Equal(t, 1, auditCount(t, f.pool, action), action)
	}
}

// TestWebhookURLValidation: only http(s) URLs to public addresses, https unless the
// address is in OUTBOUND_ALLOW_NETWORKS.
func TestWebhookURLValidation(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn()) // allows 127.0.0.0/8
	for url, ok := range map[string]bool{
		"https://hooks.example.com/x":       true,
		"http://127.0.0.1:8080/hook":        true,
		"http://localhost:8080/hook":        true,
		"http://hooks.example.com/x":        true, // resolved and checked at delivery time
		"https://10.0.0.1/x":                false,
		"https://169.254.169.254/latest":    false,
		"https://[::1]/x":                   false,
		"https://[::ffff:10.0.0.1]/x":       false,
		"http://93.184.216.34/x":            false, // plain http outside the allowed networks
		"ftp://hooks.example.com/x":         false,
		"https://user:pw@hooks.example.com": false,
		"/relative":                         false,
	} {
		_, _, err := f.svc.Webhooks.CreateWebhook(f.ctx, assess.NewWebhook{Name: "x", URL: url, EventTypes: []string{"*"}}, f.actor())
		if ok {
			require.NoError(t, err, url)
		} else {
			requireCode(t, err, assess.ECodeBusinessRule, "url_not_allowed")
		}
	}
	cfg := allOn()
	cfg.AllowNetworks = nil
	f.db.ConfigureDeliveries(cfg)
	_, _, err := f.svc.Webhooks.CreateWebhook(f.ctx, assess.NewWebhook{Name: "x", URL: "http://hooks.example.com/x", EventTypes: []string{"*"}}, f.actor())
	requireCode(t, err, assess.ECodeBusinessRule, "url_not_allowed")
	_, _, err = f.svc.Webhooks.CreateWebhook(f.ctx, assess.NewWebhook{Name: "x", URL: "https://hooks.example.com/x", EventTypes: []string{"nope.*"}}, f.actor())
	requireCode(t, err, assess.ECodeValidation, "unknown_event_type")
}

// TestTestDeliveryBypassesActiveFlag: a test goes to an inactive destination only,
// unless its channel is switched off.
func TestTestDeliveryBypassesActiveFlag(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	w := f.webhook("quiet", "role.*")
	f.webhook("all", "*")
	w, err := f.svc.Webhooks.UpdateWebhook(f.ctx, w.ID, assess.WebhookUpdate{Version: w.Version, Active: ptr(false)}, f.actor())
	require.NoError(t, err)
	d, err := f.svc.Webhooks.TestWebhook(f.ctx, w.ID, f.actor())
	require.NoError(t, err)
	require.Equal(t, string(assess.EventChannelTest), d.EventType)
	require.Equal(t, assess.DeliveryPending, d.Status)
	require.Equal(t, w.ID, d.DestinationID)
	require.Equal(t, []string{"webhook:" + w.ID}, f.deliveryKeys(d.EventID), "only the tested destination")
	task, err := f.svc.DeliveryStore.LoadDelivery(f.ctx, d.ID)
	require.NoError(t, err)
	require.Empty(t, task.Skip, "tests are sent to inactive destinations")
	require.Contains(t, string(task.Envelope), `"type":"channel.test"`)

	c := f.slack("team", "*")
	f.db.ConfigureDeliveries(allOff())
	_, err = f.svc.Webhooks.TestWebhook(f.ctx, w.ID, f.actor())
	requireCode(t, err, assess.ECodeBusinessRule, "channel_disabled")
	_, err = f.svc.Chat.TestChatDestination(f.ctx, c.ID, f.actor())
	requireCode(t, err, assess.ECodeBusinessRule, "channel_disabled")
	task, err = f.svc.DeliveryStore.LoadDelivery(f.ctx, d.ID)
	require.NoError(t, err)
	require.Contains(t, task.Skip, "switched off")
}

// TestChatDestinations: platform URL rules, the URL shown only as a hint and sealed at
// rest, the platform filter, and a test delivery.
func TestChatDestinations(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	for _, bad := range []assess.NewChatDestination{
		{Platform: assess.ChannelSlack, URL: "https://example.com/services/x"},
		{Platform: assess.ChannelTeams, URL: "https://example.com/x"},
		{Platform: assess.ChannelMattermost, URL: "http://chat.example.com/hooks/x"},
	} {
		bad.Name, bad.EventTypes = "x", []string{"*"}
		_, err := f.svc.Chat.CreateChatDestination(f.ctx, bad, f.actor())
		requireCode(t, err, assess.ECodeBusinessRule, "url_not_allowed")
	}
	_, err := f.svc.Chat.CreateChatDestination(f.ctx, assess.NewChatDestination{Platform: "irc", Name: "x", URL: "https://x", EventTypes: []string{"*"}}, f.actor())
	requireCode(t, err, assess.ECodeValidation, "invalid")
	teams, err := f.svc.Chat.CreateChatDestination(f.ctx, assess.NewChatDestination{Platform: assess.ChannelTeams, Name: "Teams",
		URL: "https://contoso.webhook.office.com/webhookb2/abc", EventTypes: []string{"*"}}, f.actor())
	require.NoError(t, err)
	local, err := f.svc.Chat.CreateChatDestination(f.ctx, assess.NewChatDestination{Platform: assess.ChannelMattermost, Name: "Local",
		URL: "http://127.0.0.1:9/hooks/abcd", EventTypes: []string{"*"}}, f.actor())
	require.NoError(t, err, "hosts inside OUTBOUND_ALLOW_NETWORKS need not match the platform")
	s := f.slack("alerts", "user.*")
	require.Equal(t, "https://hooks.slack.com/…wxyz", s.URLHint)
	require.Equal(t, "https://contoso.webhook.office.com/…/abc", teams.URLHint)
	var raw string
	require.NoError(t, f.pool.QueryRow(f.ctx, "SELECT url FROM chat_destinations WHERE id = $1", s.ID).Scan(&raw))
	require.True(t, secret.IsEncrypted(raw))

	slacks, err := f.svc.Chat.FindChatDestinations(f.ctx, assess.ChatDestinationFilter{Platform: assess.ChannelSlack,
		PageRequest: assess.PageRequest{Limit: 10}})
	require.NoError(t, err)
	require.Equal(t, []assess.ChatDestination{s}, slacks.Items)
	all, err := f.svc.Chat.FindChatDestinations(f.ctx, assess.ChatDestinationFilter{PageRequest: assess.PageRequest{Limit: 10}})
	require.NoError(t, err)
	require.Len(t, all.Items, 3)

	_, err = f.svc.Chat.UpdateChatDestination(f.ctx, local.ID, assess.ChatDestinationUpdate{Version: 7, Name: ptr("y")}, f.actor())
	requireCode(t, err, assess.ECodeVersionConflict, "")
	s2, err := f.svc.Chat.UpdateChatDestination(f.ctx, s.ID, assess.ChatDestinationUpdate{Version: s.Version,
		URL: ptr("https://hooks.slack.com/services/T/B/newone")}, f.actor())
	require.NoError(t, err)
	require.Equal(t, "https://hooks.slack.com/…wone", s2.URLHint)
	d, err := f.svc.Chat.TestChatDestination(f.ctx, s.ID, f.actor())
	require.NoError(t, err)
	require.Equal(t, assess.ChannelSlack, d.Channel)
	task, err := f.svc.DeliveryStore.LoadDelivery(f.ctx, d.ID)
	require.NoError(t, err)
	require.Equal(t, "https://hooks.slack.com/services/T/B/newone", task.URL)
	require.Equal(t, "Test message", task.Title)
	require.NoError(t, f.svc.Chat.DeleteChatDestination(f.ctx, s.ID, f.actor()))
	_, err = f.svc.DeliveryStore.LoadDelivery(f.ctx, d.ID)
	requireCode(t, err, assess.ECodeNotFound, "")
}
