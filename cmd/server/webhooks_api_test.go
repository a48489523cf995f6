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
	admin := ts.admin(t)
	const hooks = "/api/v1/admin/webhooks"

	var id, secret string
	step(t, "creation shows the secret once", func(t *testing.T) {
		res, body := admin.do(t, "POST", hooks, `{"name":"CI","description":"Build system","url":"http://127.0.0.1:9/hook","eventTypes":["user.*"]}`)
		require.Equal(t, 201, res.StatusCode, body)
		require.Equal(t, "true", res.Header.Get("X-One-Time-Secret"))
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
		id = body["id"].(string)
		require.True(t, strings.HasPrefix(id, "wh_"), id)
		secret = body["secret"].(string)
		require.True(t, strings.HasPrefix(secret, "whsec_"), secret)
		require.Equal(t, "http://127.0.0.1:9/hook", body["url"])
		require.Equal(t, true, body["active"])
		require.Equal(t, float64(1), body["version"])
		require.Equal(t, []any{"user.*"}, body["eventTypes"])
	})
	t.Run("reading it never shows the secret", func(t *testing.T) {
		res, body := admin.do(t, "GET", hooks+"/"+id, nil)
		require.Equal(t, 200, res.StatusCode, body)
		require.NotContains(t, body, "secret")
		require.Empty(t, res.Header.Get("X-One-Time-Secret"))
		require.Equal(t, "CI", body["name"])
	})
	t.Run("the list never shows the secret", func(t *testing.T) {
		list := items(t, admin.get(t, hooks+"?limit=10", 200))
		require.Equal(t, []string{id}, idsOf(list))
		require.NotContains(t, list[0], "secret")
	})

	// Refused destinations and malformed requests.
	for _, bad := range []string{"http://10.1.2.3/hook", "https://169.254.169.254/latest", "https://user:pw@hooks.example.com/x", "ftp://hooks.example.com/x"} {
		t.Run("a refused destination: "+bad, func(t *testing.T) {
			body := admin.fails(t, "POST", hooks, fmt.Sprintf(`{"name":"bad","url":%q,"eventTypes":["*"]}`, bad), 422, "business_rule_violation")
			require.Equal(t, "url_not_allowed", detailCode(t, body), bad)
		})
	}
	for _, bad := range []struct{ name, body string }{
		{"without event types", `{"name":"no types","url":"https://hooks.example.com/x","eventTypes":[]}`},
		{"with an unknown event type", `{"name":"unknown type","url":"https://hooks.example.com/x","eventTypes":["user.exploded"]}`},
		{"without a name", `{"url":"https://hooks.example.com/x","eventTypes":["*"]}`},
		{"with a chosen secret", `{"name":"secret chosen","url":"https://hooks.example.com/x","eventTypes":["*"],"secret":"whsec_mine"}`},
		{"not an object", `[]`},
	} {
		t.Run("a malformed webhook is refused: "+bad.name, func(t *testing.T) {
			admin.fails(t, "POST", hooks, bad.body, 400, "validation_failed")
		})
	}

	// Updates carry the version; a stale one conflicts.
	step(t, "an update carries the version and keeps what it leaves out", func(t *testing.T) {
		body := admin.patch(t, hooks+"/"+id, `{"version":1,"name":"CI pipeline","eventTypes":["user.*","channel.*"]}`, 200)
		require.Equal(t, "CI pipeline", body["name"])
		require.Equal(t, "Build system", body["description"])
		require.Equal(t, float64(2), body["version"])
		require.NotContains(t, body, "secret")
	})
	t.Run("an update with a stale version conflicts", func(t *testing.T) {
		admin.fails(t, "PATCH", hooks+"/"+id, `{"version":1,"name":"Stale"}`, 409, "version_conflict")
	})
	t.Run("an update to a refused destination is refused", func(t *testing.T) {
		admin.fails(t, "PATCH", hooks+"/"+id, `{"version":2,"url":"http://192.168.0.10/x"}`, 422, "business_rule_violation")
	})

	t.Run("rotation shows a new secret once", func(t *testing.T) {
		res, body := admin.do(t, "POST", hooks+"/"+id+"/rotate-secret", nil)
		require.Equal(t, 200, res.StatusCode, body)
		require.Equal(t, "true", res.Header.Get("X-One-Time-Secret"))
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
		rotated := body["secret"].(string)
		require.True(t, strings.HasPrefix(rotated, "whsec_"))
		require.NotEqual(t, secret, rotated)
		require.Equal(t, id, body["id"])
	})

	// An event the destination subscribes to is queued for it.
	var userDelivery string
	step(t, "an event the destination subscribes to is queued for it", func(t *testing.T) {
		admin.post(t, "/api/v1/users", `{"username":"dora","email":"dora@example.com","displayName":"Dora","password":"long enough password","roles":["assessee"]}`, 201)
		body := admin.get(t, hooks+"/"+id+"/deliveries", 200)
		for _, d := range items(t, body) {
			if d["eventType"] == "user.created" {
				userDelivery = d["id"].(string)
				require.Equal(t, "webhook", d["channel"])
				require.Equal(t, id, d["destinationId"])
				require.Equal(t, "pending", d["status"])
			}
		}
		require.NotEmpty(t, userDelivery, "user.created was queued for the webhook: %v", body)
	})
	t.Run("the delivery shows the payload, never the secret", func(t *testing.T) {
		body := admin.get(t, hooks+"/"+id+"/deliveries/"+userDelivery, 200)
		payload := body["payload"].(map[string]any)
		require.Equal(t, "user.created", payload["type"])
		require.Equal(t, "dora", payload["data"].(map[string]any)["username"])
		require.Equal(t, "Ada Admin", payload["actor"].(map[string]any)["displayName"])
		require.NotContains(t, fmt.Sprint(body), "whsec_", "the delivery never shows the secret")
	})

	t.Run("a test goes to this destination at once", func(t *testing.T) {
		body := admin.post(t, hooks+"/"+id+"/test", nil, 202)
		testDelivery := body["id"].(string)
		require.True(t, strings.HasPrefix(testDelivery, "dl_"), testDelivery)
		require.Equal(t, "channel.test", body["eventType"])
		require.Equal(t, id, body["destinationId"])
		log := idsOf(allPages(t, admin, hooks+"/"+id+"/deliveries?limit=1"))
		require.GreaterOrEqual(t, len(log), 2)
		require.Equal(t, []string{testDelivery, userDelivery}, log[:2], "newest first")
	})

	// Redelivery: refused while queued, accepted once final, under the same id.
	t.Run("a queued delivery cannot be redelivered", func(t *testing.T) {
		admin.fails(t, "POST", hooks+"/"+id+"/deliveries/"+userDelivery+"/redeliver", nil, 409, "conflict")
	})
	t.Run("a failed delivery is listed by status and redelivered under its id", func(t *testing.T) {
		execSQL(t, ts, `UPDATE deliveries SET status = 'failed', attempts = max_attempts, completed_at = now() WHERE id = $1`, userDelivery)
		body := admin.get(t, hooks+"/"+id+"/deliveries?status=failed", 200)
		require.Equal(t, []string{userDelivery}, idsOf(items(t, body)))
		body = admin.post(t, hooks+"/"+id+"/deliveries/"+userDelivery+"/redeliver", nil, 202)
		require.Equal(t, userDelivery, body["id"])
		require.Equal(t, "pending", body["status"])
	})
	t.Run("an unknown status filter is refused", func(t *testing.T) {
		admin.fails(t, "GET", hooks+"/"+id+"/deliveries?status=bogus", nil, 400, "validation_failed")
	})

	// Unknown and malformed ids are 404, also a delivery asked for under another webhook.
	var other string
	step(t, "a second, inactive webhook is created", func(t *testing.T) {
		body := admin.post(t, hooks, `{"name":"Other","url":"https://hooks.example.com/other","eventTypes":["role.*"],"active":false}`, 201)
		other = body["id"].(string)
		require.Equal(t, false, body["active"])
	})
	for _, c := range []struct{ name, method, path, body string }{
		{"a delivery under another webhook", "GET", hooks + "/" + other + "/deliveries/" + userDelivery, ""},
		{"redelivery under another webhook", "POST", hooks + "/" + other + "/deliveries/" + userDelivery + "/redeliver", ""},
		{"an unknown webhook", "GET", hooks + "/wh_01hx8n6q7k3m2v9c4t5r6s7p8a", ""},
		{"a malformed id", "GET", hooks + "/not-an-id", ""},
		{"an unknown delivery", "GET", hooks + "/" + id + "/deliveries/dl_nope", ""},
		{"deliveries of an unknown webhook", "GET", hooks + "/nope/deliveries", ""},
		{"an update of an unknown webhook", "PATCH", hooks + "/nope", `{"version":1}`},
		{"deletion of an unknown webhook", "DELETE", hooks + "/nope", ""},
		{"a test of an unknown webhook", "POST", hooks + "/nope/test", ""},
		{"rotation of an unknown webhook", "POST", hooks + "/nope/rotate-secret", ""},
	} {
		t.Run("not found: "+c.name, func(t *testing.T) {
			admin.fails(t, c.method, c.path, c.body, 404, "not_found")
		})
	}

	t.Run("deletion removes it from reads and the list", func(t *testing.T) {
		admin.delete(t, hooks+"/"+id, 204)
		admin.fails(t, "GET", hooks+"/"+id, nil, 404, "not_found")
		require.Equal(t, []string{other}, idsOf(items(t, admin.get(t, hooks, 200))))
	})
}
