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
	admin := setUpAdmin(t, ts)

	const slackURL = "https://hooks.slack.com/services/T0001/B0001/SuperSecretToken9876"
	res, body := admin.do("POST", "/api/v1/admin/chat-destinations",
		fmt.Sprintf(`{"platform":"slack","name":"Ops","channelName":"#ops","url":%q,"eventTypes":["user.*"]}`, slackURL))
	require.Equal(t, 201, res.StatusCode, body)
	slack := body["id"].(string)
	require.True(t, strings.HasPrefix(slack, "ch_"), slack)
	require.Equal(t, "slack", body["platform"])
	require.Equal(t, "#ops", body["channelName"])
	require.NotContains(t, body, "url", "the URL is a credential: never shown")
	hint := body["urlHint"].(string)
	require.Contains(t, hint, "hooks.slack.com")
	require.True(t, strings.HasSuffix(hint, "9876"), hint)
	require.NotContains(t, fmt.Sprint(body), "SuperSecretToken")

	res, body = admin.do("GET", "/api/v1/admin/chat-destinations/"+slack, "")
	require.Equal(t, 200, res.StatusCode, body)
	require.NotContains(t, fmt.Sprint(body), "SuperSecretToken")
	require.Equal(t, hint, body["urlHint"])

	// Each platform accepts its own kind of URL.
	for _, bad := range []struct{ platform, url string }{
		{"slack", "https://example.com/services/T/B/x"},
		{"teams", "https://teams.example.com/webhook"},
		{"slack", "http://hooks.slack.com/services/T/B/x"},
		{"mattermost", "https://10.0.0.5/hooks/x"},
	} {
		res, body = admin.do("POST", "/api/v1/admin/chat-destinations",
			fmt.Sprintf(`{"platform":%q,"name":"bad","url":%q,"eventTypes":["*"]}`, bad.platform, bad.url))
		requireEnvelope(t, res, body, 422, "business_rule_violation")
		require.Equal(t, "url_not_allowed", body["details"].([]any)[0].(map[string]any)["code"], bad.url)
	}
	res, body = admin.do("POST", "/api/v1/admin/chat-destinations", `{"platform":"irc","name":"bad","url":"https://irc.example.com/x","eventTypes":["*"]}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
	res, body = admin.do("POST", "/api/v1/admin/chat-destinations",
		`{"platform":"teams","name":"Managers","url":"https://contoso.webhook.office.com/webhookb2/abc/IncomingWebhook/def","eventTypes":["role.*"]}`)
	require.Equal(t, 201, res.StatusCode, body)
	teams := body["id"].(string)
	res, body = admin.do("POST", "/api/v1/admin/chat-destinations",
		`{"platform":"mattermost","name":"Dev","url":"https://chat.example.com/hooks/xyz","eventTypes":["*"]}`)
	require.Equal(t, 201, res.StatusCode, body)

	res, body = admin.do("GET", "/api/v1/admin/chat-destinations?platform=slack", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, []string{slack}, idsOf(items(t, body)))
	require.Len(t, allPages(t, admin, "/api/v1/admin/chat-destinations?limit=1"), 3)
	res, body = admin.do("GET", "/api/v1/admin/chat-destinations?platform=irc", "")
	requireEnvelope(t, res, body, 400, "validation_failed")

	// Updates: version checked, URL replaced but still masked.
	res, body = admin.do("PATCH", "/api/v1/admin/chat-destinations/"+slack,
		`{"version":1,"url":"https://hooks.slack.com/services/T0001/B0002/OtherSecretToken1234"}`)
	require.Equal(t, 200, res.StatusCode, body)
	require.True(t, strings.HasSuffix(body["urlHint"].(string), "1234"))
	require.NotContains(t, fmt.Sprint(body), "OtherSecretToken")
	require.Equal(t, "Ops", body["name"])
	res, body = admin.do("PATCH", "/api/v1/admin/chat-destinations/"+slack, `{"version":1,"name":"Stale"}`)
	requireEnvelope(t, res, body, 409, "version_conflict")
	res, body = admin.do("PATCH", "/api/v1/admin/chat-destinations/"+slack, `{"version":2,"platform":"teams"}`)
	requireEnvelope(t, res, body, 400, "validation_failed")

	// Test message and its log.
	res, body = admin.do("POST", "/api/v1/admin/chat-destinations/"+slack+"/test", "")
	require.Equal(t, 202, res.StatusCode, body)
	delivery := body["id"].(string)
	require.Equal(t, "slack", body["channel"])
	require.Equal(t, "channel.test", body["eventType"])
	res, body = admin.do("GET", "/api/v1/admin/chat-destinations/"+slack+"/deliveries", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Contains(t, idsOf(items(t, body)), delivery)
	res, body = admin.do("GET", "/api/v1/admin/chat-destinations/"+slack+"/deliveries/"+delivery, "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, delivery, body["id"])
	require.NotContains(t, fmt.Sprint(body), "SecretToken")
	res, body = admin.do("POST", "/api/v1/admin/chat-destinations/"+slack+"/deliveries/"+delivery+"/redeliver", "")
	requireEnvelope(t, res, body, 409, "conflict")
	execSQL(t, ts, `UPDATE deliveries SET status = 'succeeded', attempts = 1, completed_at = now() WHERE id = $1`, delivery)
	res, body = admin.do("POST", "/api/v1/admin/chat-destinations/"+slack+"/deliveries/"+delivery+"/redeliver", "")
	require.Equal(t, 202, res.StatusCode, body)
	require.Equal(t, "pending", body["status"])
	res, body = admin.do("GET", "/api/v1/admin/chat-destinations/"+teams+"/deliveries/"+delivery, "")
	requireEnvelope(t, res, body, 404, "not_found")
	res, body = admin.do("GET", "/api/v1/admin/chat-destinations/nope/deliveries", "")
	requireEnvelope(t, res, body, 404, "not_found")

	res, _ = admin.do("DELETE", "/api/v1/admin/chat-destinations/"+slack, "")
	require.Equal(t, 204, res.StatusCode)
	res, body = admin.do("GET", "/api/v1/admin/chat-destinations/"+slack, "")
	requireEnvelope(t, res, body, 404, "not_found")
	res, body = admin.do("DELETE", "/api/v1/admin/chat-destinations/"+slack, "")
	requireEnvelope(t, res, body, 404, "not_found")
}
