package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestChatDestinationsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "SLACK_ENABLED=true", "TEAMS_ENABLED=true", "MATTERMOST_ENABLED=true")
	admin := ts.admin(t)
	const base = "/api/v1/admin/chat-destinations"

	const slackURL = "https://hooks.slack.com/services/T0001/B0001/SuperSecretToken9876"
	var slack, hint string
	step(t, "a Slack destination is created and its URL never shown", func(t *testing.T) {
		body := admin.post(t, base,
			fmt.Sprintf(`{"platform":"slack","name":"Ops","channelName":"#ops","url":%q,"eventTypes":["user.*"]}`, slackURL), 201)
		slack = body["id"].(string)
		require.True(t, strings.HasPrefix(slack, "ch_"), slack)
		require.Equal(t, "slack", body["platform"])
		require.Equal(t, "#ops", body["channelName"])
		require.NotContains(t, body, "url", "the URL is a credential: never shown")
		hint = body["urlHint"].(string)
		require.Contains(t, hint, "hooks.slack.com")
		require.True(t, strings.HasSuffix(hint, "9876"), hint)
		require.NotContains(t, fmt.Sprint(body), "SuperSecretToken")
	})
	t.Run("reading it shows the hint only", func(t *testing.T) {
		body := admin.get(t, base+"/"+slack, 200)
		require.NotContains(t, fmt.Sprint(body), "SuperSecretToken")
		require.Equal(t, hint, body["urlHint"])
	})

	// Each platform accepts its own kind of URL.
	for _, bad := range []struct{ name, platform, url string }{
		{"slack to another host", "slack", "https://example.com/services/T/B/x"},
		{"teams to another host", "teams", "https://teams.example.com/webhook"},
		{"slack over plain HTTP", "slack", "http://hooks.slack.com/services/T/B/x"},
		{"mattermost to a private address", "mattermost", "https://10.0.0.5/hooks/x"},
	} {
		t.Run("a URL the platform does not accept is refused: "+bad.name, func(t *testing.T) {
			body := admin.fails(t, "POST", base,
				fmt.Sprintf(`{"platform":%q,"name":"bad","url":%q,"eventTypes":["*"]}`, bad.platform, bad.url), 422, "business_rule_violation")
			require.Equal(t, "url_not_allowed", detailCode(t, body), bad.url)
		})
	}
	t.Run("an unknown platform is refused", func(t *testing.T) {
		admin.fails(t, "POST", base, `{"platform":"irc","name":"bad","url":"https://irc.example.com/x","eventTypes":["*"]}`, 400, "validation_failed")
	})

	var teams string
	step(t, "Teams and Mattermost destinations are created", func(t *testing.T) {
		body := admin.post(t, base,
			`{"platform":"teams","name":"Managers","url":"https://contoso.webhook.office.com/webhookb2/abc/IncomingWebhook/def","eventTypes":["role.*"]}`, 201)
		teams = body["id"].(string)
		admin.post(t, base, `{"platform":"mattermost","name":"Dev","url":"https://chat.example.com/hooks/xyz","eventTypes":["*"]}`, 201)
	})
	t.Run("the list filters by platform", func(t *testing.T) {
		body := admin.get(t, base+"?platform=slack", 200)
		require.Equal(t, []string{slack}, idsOf(items(t, body)))
	})
	t.Run("the list pages through every destination", func(t *testing.T) {
		require.Len(t, allPages(t, admin, base+"?limit=1"), 3)
	})
	t.Run("an unknown platform filter is refused", func(t *testing.T) {
		admin.fails(t, "GET", base+"?platform=irc", nil, 400, "validation_failed")
	})

	// Updates: version checked, URL replaced but still masked.
	step(t, "an update replaces the URL, still masked", func(t *testing.T) {
		body := admin.patch(t, base+"/"+slack, `{"version":1,"url":"https://hooks.slack.com/services/T0001/B0002/OtherSecretToken1234"}`, 200)
		require.True(t, strings.HasSuffix(body["urlHint"].(string), "1234"))
		require.NotContains(t, fmt.Sprint(body), "OtherSecretToken")
		require.Equal(t, "Ops", body["name"])
	})
	t.Run("an update with a stale version conflicts", func(t *testing.T) {
		admin.fails(t, "PATCH", base+"/"+slack, `{"version":1,"name":"Stale"}`, 409, "version_conflict")
	})
	t.Run("the platform cannot change", func(t *testing.T) {
		admin.fails(t, "PATCH", base+"/"+slack, `{"version":2,"platform":"teams"}`, 400, "validation_failed")
	})

	// Test message and its log.
	var delivery string
	step(t, "a test message is queued", func(t *testing.T) {
		body := admin.post(t, base+"/"+slack+"/test", nil, 202)
		delivery = body["id"].(string)
		require.Equal(t, "slack", body["channel"])
		require.Equal(t, "channel.test", body["eventType"])
	})
	t.Run("the delivery log lists it", func(t *testing.T) {
		body := admin.get(t, base+"/"+slack+"/deliveries", 200)
		require.Contains(t, idsOf(items(t, body)), delivery)
	})
	t.Run("a delivery reads without the secret", func(t *testing.T) {
		body := admin.get(t, base+"/"+slack+"/deliveries/"+delivery, 200)
		require.Equal(t, delivery, body["id"])
		require.NotContains(t, fmt.Sprint(body), "SecretToken")
	})
	t.Run("a queued delivery cannot be redelivered", func(t *testing.T) {
		admin.fails(t, "POST", base+"/"+slack+"/deliveries/"+delivery+"/redeliver", nil, 409, "conflict")
	})
	t.Run("a final delivery is redelivered", func(t *testing.T) {
		execSQL(t, ts, `UPDATE deliveries SET status = 'succeeded', attempts = 1, completed_at = now() WHERE id = $1`, delivery)
		body := admin.post(t, base+"/"+slack+"/deliveries/"+delivery+"/redeliver", nil, 202)
		require.Equal(t, "pending", body["status"])
	})
	t.Run("a delivery asked for under another destination is not found", func(t *testing.T) {
		admin.fails(t, "GET", base+"/"+teams+"/deliveries/"+delivery, nil, 404, "not_found")
	})
	t.Run("deliveries of an unknown destination are not found", func(t *testing.T) {
		admin.fails(t, "GET", base+"/nope/deliveries", nil, 404, "not_found")
	})

	t.Run("deletion is final", func(t *testing.T) {
		admin.delete(t, base+"/"+slack, 204)
		admin.fails(t, "GET", base+"/"+slack, nil, 404, "not_found")
		admin.fails(t, "DELETE", base+"/"+slack, nil, 404, "not_found")
	})
}
