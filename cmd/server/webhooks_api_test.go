package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWebhooksAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "OUTBOUND_ALLOW_NETWORKS=127.0.0.0/8")
	admin := setUpAdmin(t, ts)

	// Creation shows the secret once.
	res, body := admin.do("POST", "/api/v1/admin/webhooks",
		`{"name":"CI","description":"Build system","url":"http://127.0.0.1:9/hook","eventTypes":["user.*"]}`)
	require.Equal(t, 201, res.StatusCode, body)
	require.Equal(t, "true", res.Header.Get("X-One-Time-Secret"))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	id := body["id"].(string)
	require.True(t, strings.HasPrefix(id, "wh_"), id)
	secret := body["secret"].(string)
	require.True(t, strings.HasPrefix(secret, "whsec_"), secret)
	require.Equal(t, "http://127.0.0.1:9/hook", body["url"])
	require.Equal(t, true, body["active"])
	require.Equal(t, float64(1), body["version"])
	require.Equal(t, []any{"user.*"}, body["eventTypes"])

	res, body = admin.do("GET", "/api/v1/admin/webhooks/"+id, "")
	require.Equal(t, 200, res.StatusCode, body)
	require.NotContains(t, body, "secret")
	require.Empty(t, res.Header.Get("X-One-Time-Secret"))
	require.Equal(t, "CI", body["name"])
	res, body = admin.do("GET", "/api/v1/admin/webhooks?limit=10", "")
	require.Equal(t, 200, res.StatusCode, body)
	list := items(t, body)
	require.Equal(t, []string{id}, idsOf(list))
	require.NotContains(t, list[0], "secret")

	// Refused destinations and malformed requests.
	for _, bad := range []string{"http://10.1.2.3/hook", "https://169.254.169.254/latest", "https://user:pw@hooks.example.com/x", "ftp://hooks.example.com/x"} {
		res, body = admin.do("POST", "/api/v1/admin/webhooks", fmt.Sprintf(`{"name":"bad","url":%q,"eventTypes":["*"]}`, bad))
		requireEnvelope(t, res, body, 422, "business_rule_violation")
		require.Equal(t, "url_not_allowed", body["details"].([]any)[0].(map[string]any)["code"], bad)
	}
	for _, bad := range []string{
		`{"name":"no types","url":"https://hooks.example.com/x","eventTypes":[]}`,
		`{"name":"unknown type","url":"https://hooks.example.com/x","eventTypes":["user.exploded"]}`,
		`{"url":"https://hooks.example.com/x","eventTypes":["*"]}`,
		`{"name":"secret chosen","url":"https://hooks.example.com/x","eventTypes":["*"],"secret":"whsec_mine"}`,
		`[]`,
	} {
		res, body = admin.do("POST", "/api/v1/admin/webhooks", bad)
		requireEnvelope(t, res, body, 400, "validation_failed")
	}

	// Updates carry the version; a stale one conflicts.
	res, body = admin.do("PATCH", "/api/v1/admin/webhooks/"+id, `{"version":1,"name":"CI pipeline","eventTypes":["user.*","channel.*"]}`)
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "CI pipeline", body["name"])
	require.Equal(t, "Build system", body["description"])
	require.Equal(t, float64(2), body["version"])
	require.NotContains(t, body, "secret")
	res, body = admin.do("PATCH", "/api/v1/admin/webhooks/"+id, `{"version":1,"name":"Stale"}`)
	requireEnvelope(t, res, body, 409, "version_conflict")
	res, body = admin.do("PATCH", "/api/v1/admin/webhooks/"+id, `{"version":2,"url":"http://192.168.0.10/x"}`)
	requireEnvelope(t, res, body, 422, "business_rule_violation")

	// Rotation: a new secret, shown once.
	res, body = admin.do("POST", "/api/v1/admin/webhooks/"+id+"/rotate-secret", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "true", res.Header.Get("X-One-Time-Secret"))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	rotated := body["secret"].(string)
	require.True(t, strings.HasPrefix(rotated, "whsec_"))
	require.NotEqual(t, secret, rotated)
	require.Equal(t, id, body["id"])

	// An event the destination subscribes to is queued for it.
	res, body = admin.do("POST", "/api/v1/users", `{"username":"dora","email":"dora@example.com","displayName":"Dora","password":"long enough password","roles":["assessee"]}`)
	require.Equal(t, 201, res.StatusCode, body)
	res, body = admin.do("GET", "/api/v1/admin/webhooks/"+id+"/deliveries", "")
	require.Equal(t, 200, res.StatusCode, body)
	var userDelivery string
	for _, d := range items(t, body) {
		if d["eventType"] == "user.created" {
			userDelivery = d["id"].(string)
			require.Equal(t, "webhook", d["channel"])
			require.Equal(t, id, d["destinationId"])
			require.Equal(t, "pending", d["status"])
		}
	}
	require.NotEmpty(t, userDelivery, "user.created was queued for the webhook: %v", body)
	res, body = admin.do("GET", "/api/v1/admin/webhooks/"+id+"/deliveries/"+userDelivery, "")
	require.Equal(t, 200, res.StatusCode, body)
	payload := body["payload"].(map[string]any)
	require.Equal(t, "user.created", payload["type"])
	require.Equal(t, "dora", payload["data"].(map[string]any)["username"])
	require.Equal(t, "Ada Admin", payload["actor"].(map[string]any)["displayName"])
	require.NotContains(t, fmt.Sprint(body), "whsec_", "the delivery never shows the secret")

	// A test goes to this destination only, at once.
	res, body = admin.do("POST", "/api/v1/admin/webhooks/"+id+"/test", "")
	require.Equal(t, 202, res.StatusCode, body)
	testDelivery := body["id"].(string)
	require.True(t, strings.HasPrefix(testDelivery, "dl_"), testDelivery)
	require.Equal(t, "channel.test", body["eventType"])
	require.Equal(t, id, body["destinationId"])
	log := idsOf(allPages(t, admin, "/api/v1/admin/webhooks/"+id+"/deliveries?limit=1"))
	require.Equal(t, []string{testDelivery, userDelivery}, log[:2], "newest first")

	// Redelivery: refused while queued, accepted once final, under the same id.
	res, body = admin.do("POST", "/api/v1/admin/webhooks/"+id+"/deliveries/"+userDelivery+"/redeliver", "")
	requireEnvelope(t, res, body, 409, "conflict")
	execSQL(t, ts, `UPDATE deliveries SET status = 'failed', attempts = max_attempts, completed_at = now() WHERE id = $1`, userDelivery)
	res, body = admin.do("GET", "/api/v1/admin/webhooks/"+id+"/deliveries?status=failed", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, []string{userDelivery}, idsOf(items(t, body)))
	res, body = admin.do("POST", "/api/v1/admin/webhooks/"+id+"/deliveries/"+userDelivery+"/redeliver", "")
	require.Equal(t, 202, res.StatusCode, body)
	require.Equal(t, userDelivery, body["id"])
	require.Equal(t, "pending", body["status"])
	res, body = admin.do("GET", "/api/v1/admin/webhooks/"+id+"/deliveries?status=bogus", "")
	requireEnvelope(t, res, body, 400, "validation_failed")

	// Unknown and malformed ids are 404, also a delivery asked for under another webhook.
	res, body = admin.do("POST", "/api/v1/admin/webhooks", `{"name":"Other","url":"https://hooks.example.com/other","eventTypes":["role.*"],"active":false}`)
	require.Equal(t, 201, res.StatusCode, body)
	other := body["id"].(string)
	require.Equal(t, false, body["active"])
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/api/v1/admin/webhooks/" + other + "/deliveries/" + userDelivery, ""},
		{"POST", "/api/v1/admin/webhooks/" + other + "/deliveries/" + userDelivery + "/redeliver", ""},
		{"GET", "/api/v1/admin/webhooks/wh_01hx8n6q7k3m2v9c4t5r6s7p8a", ""},
		{"GET", "/api/v1/admin/webhooks/not-an-id", ""},
		{"GET", "/api/v1/admin/webhooks/" + id + "/deliveries/dl_nope", ""},
		{"GET", "/api/v1/admin/webhooks/nope/deliveries", ""},
		{"PATCH", "/api/v1/admin/webhooks/nope", `{"version":1}`},
		{"DELETE", "/api/v1/admin/webhooks/nope", ""},
		{"POST", "/api/v1/admin/webhooks/nope/test", ""},
		{"POST", "/api/v1/admin/webhooks/nope/rotate-secret", ""},
	} {
		res, body = admin.do(c.method, c.path, c.body)
		requireEnvelope(t, res, body, 404, "not_found")
	}

	// Deletion.
	res, _ = admin.do("DELETE", "/api/v1/admin/webhooks/"+id, "")
	require.Equal(t, 204, res.StatusCode)
	res, body = admin.do("GET", "/api/v1/admin/webhooks/"+id, "")
	requireEnvelope(t, res, body, 404, "not_found")
	res, body = admin.do("GET", "/api/v1/admin/webhooks", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, []string{other}, idsOf(items(t, body)))
}
