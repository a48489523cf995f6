package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func TestPersonalNotificationRulesAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := setUpAdmin(t, ts)
	bob, _ := newAccount(t, ts, admin, "bob", assess.RoleAssessee)
	_, body := admin.do("GET", "/api/v1/auth/me", "")
	adminID := body["user"].(map[string]any)["id"].(string)

	// A user may subscribe only to events they may receive.
	res, body := bob.do("POST", "/api/v1/notification-rules", `{"name":"New users","eventTypes":["user.created"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`)
	requireEnvelope(t, res, body, 422, "business_rule_violation")
	res, body = bob.do("POST", "/api/v1/notification-rules", `{"name":"Typo","eventTypes":["user.creatd"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
	require.Equal(t, "unknown_event_type", body["details"].([]any)[0].(map[string]any)["code"])
	for _, bad := range []string{
		`{"name":"","eventTypes":["user.created"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`,
		`{"name":"No types","eventTypes":[],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`,
		`{"name":"Extra","eventTypes":["user.created"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]},"owner":"u_1"}`,
		`not json`,
	} {
		res, body = admin.do("POST", "/api/v1/notification-rules", bad)
		requireEnvelope(t, res, body, 400, "validation_failed")
	}
	res, body = admin.do("POST", "/api/v1/notification-rules", `{"name":"To a webhook","eventTypes":["user.*"],"channels":{"inApp":true,"email":false,"webhookIds":["wh_01hx8n6q7k3m2v9c4t5r6s7p8a"],"chatIds":[]}}`)
	require.Contains(t, []int{400, 422}, res.StatusCode, "webhooks are for global rules: %v", body)

	// E-mail is off on this installation, so a rule cannot ask for it.
	res, body = admin.do("POST", "/api/v1/notification-rules", `{"name":"New users","eventTypes":["user.created","role.*"],"channels":{"inApp":true,"email":true,"webhookIds":[],"chatIds":[]}}`)
	requireEnvelope(t, res, body, 422, "business_rule_violation")
	require.Equal(t, "email_disabled", body["details"].([]any)[0].(map[string]any)["code"])

	// Create, read, update, delete.
	res, body = admin.do("POST", "/api/v1/notification-rules", `{"name":"New users","eventTypes":["user.created","role.*"],"channels":{"inApp":true,"email":false}}`)
	require.Equal(t, 201, res.StatusCode, body)
	id := body["id"].(string)
	require.Equal(t, "personal", body["scope"])
	require.Equal(t, adminID, body["ownerId"])
	require.Equal(t, true, body["enabled"])
	require.Equal(t, float64(1), body["version"])
	require.Equal(t, true, body["channels"].(map[string]any)["inApp"])

	res, body = admin.do("GET", "/api/v1/notification-rules?limit=10", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, []string{id}, idsOf(items(t, body)))
	require.Equal(t, false, body["hasMore"])

	res, body = admin.do("PATCH", "/api/v1/notification-rules/"+id, `{"version":1,"enabled":false,"name":"Quiet"}`)
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, false, body["enabled"])
	require.Equal(t, "Quiet", body["name"])
	require.Equal(t, []any{"role.*", "user.created"}, body["eventTypes"], "absent fields stay")
	require.Equal(t, float64(2), body["version"])
	res, body = admin.do("PATCH", "/api/v1/notification-rules/"+id, `{"version":1,"name":"Stale"}`)
	requireEnvelope(t, res, body, 409, "version_conflict")
	res, body = admin.do("PATCH", "/api/v1/notification-rules/"+id, `{"name":"No version"}`)
	requireEnvelope(t, res, body, 400, "validation_failed")

	// Another user's rule, or a global one, is not there.
	res, body = bob.do("PATCH", "/api/v1/notification-rules/"+id, `{"version":2,"name":"Mine now"}`)
	requireEnvelope(t, res, body, 404, "not_found")
	res, body = bob.do("DELETE", "/api/v1/notification-rules/"+id, "")
	requireEnvelope(t, res, body, 404, "not_found")
	res, body = bob.do("GET", "/api/v1/notification-rules", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Empty(t, items(t, body))
	res, body = admin.do("DELETE", "/api/v1/admin/notification-rules/"+id, "")
	requireEnvelope(t, res, body, 404, "not_found")

	res, _ = admin.do("DELETE", "/api/v1/notification-rules/"+id, "")
	require.Equal(t, 204, res.StatusCode)
	res, body = admin.do("DELETE", "/api/v1/notification-rules/"+id, "")
	requireEnvelope(t, res, body, 404, "not_found")
	res, body = admin.do("PATCH", "/api/v1/notification-rules/x", `{"version":1}`)
	requireEnvelope(t, res, body, 404, "not_found")
}

// TestPersonalRuleNotifies: a personal rule brings events the default audience would not.
func TestPersonalRuleNotifies(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := setUpAdmin(t, ts)
	carol, _ := newAccount(t, ts, admin, "carol", assess.RoleAdmin)

	// By default only the owner hears of a new API key (and not when they made it themselves).
	res, body := carol.do("POST", "/api/v1/notification-rules", `{"name":"Keys","eventTypes":["apikey.*"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`)
	require.Equal(t, 201, res.StatusCode, body)
	before := unreadCount(t, carol)
	res, body = admin.do("POST", "/api/v1/me/api-keys", `{"name":"ci"}`)
	require.Equal(t, 201, res.StatusCode, body)
	require.Equal(t, before+1, unreadCount(t, carol), "carol holds admin.settings and asked for apikey events")
	res, body = carol.do("GET", "/api/v1/notifications?limit=1", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "apikey.created", items(t, body)[0]["type"])
}

func TestGlobalNotificationRulesAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := setUpAdmin(t, ts)
	bob, _ := newAccount(t, ts, admin, "bob", assess.RoleAssessee)

	res, body := bob.do("GET", "/api/v1/admin/notification-rules", "")
	requireEnvelope(t, res, body, 403, "permission_denied")
	require.Contains(t, body["message"], "admin.notification_rules")

	res, body = admin.do("POST", "/api/v1/admin/notification-rules",
		`{"name":"Role changes to admins and ops","eventTypes":["role.*"],"channels":{"inApp":true,"email":true,"webhookIds":[],"chatIds":[]},"roles":["admin"],"emails":["ops@example.com"]}`)
	requireEnvelope(t, res, body, 422, "business_rule_violation")
	require.Equal(t, "email_disabled", body["details"].([]any)[0].(map[string]any)["code"])
	res, body = admin.do("PATCH", "/api/v1/admin/email/settings", `{"version":0,"enabled":true,"host":"mail.example.com","from":"assay@example.com"}`)
	require.Equal(t, 200, res.StatusCode, body)
	res, body = admin.do("POST", "/api/v1/admin/notification-rules",
		`{"name":"Role changes to admins and ops","eventTypes":["role.*"],"channels":{"inApp":true,"email":true,"webhookIds":[],"chatIds":[]},"roles":["admin"],"emails":["ops@example.com"]}`)
	require.Equal(t, 201, res.StatusCode, body)
	id := body["id"].(string)
	require.Equal(t, "global", body["scope"])
	require.Empty(t, body["ownerId"])
	require.Equal(t, []any{"admin"}, body["roles"])
	require.Equal(t, []any{"ops@example.com"}, body["emails"])
	require.NotNil(t, body["warnings"], "warnings is always a list")

	res, body = admin.do("GET", "/api/v1/admin/notification-rules", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, []string{id}, idsOf(items(t, body)))

	// The rule delivers: a new role is e-mailed to the address it names.
	res, body = admin.do("POST", "/api/v1/roles", `{"name":"auditor","permissions":["admin.audit"]}`)
	require.Equal(t, 201, res.StatusCode, body)
	res, body = admin.do("GET", "/api/v1/admin/email/deliveries", "")
	require.Equal(t, 200, res.StatusCode, body)
	var recipients []any
	for _, d := range items(t, body) {
		require.Equal(t, "role.created", d["eventType"])
		recipients = append(recipients, d["recipient"])
	}
	require.Contains(t, recipients, "ops@example.com")
	res, body = admin.do("GET", "/api/v1/notification-rules", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Empty(t, items(t, body), "global rules are not the administrator's personal ones")
	res, body = admin.do("PATCH", "/api/v1/notification-rules/"+id, `{"version":1,"name":"x"}`)
	requireEnvelope(t, res, body, 404, "not_found")

	res, body = admin.do("PATCH", "/api/v1/admin/notification-rules/"+id, `{"version":1,"roles":["admin","assessor"]}`)
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, float64(2), body["version"])
	res, body = admin.do("PATCH", "/api/v1/admin/notification-rules/"+id, `{"version":1,"roles":[]}`)
	requireEnvelope(t, res, body, 409, "version_conflict")
	res, body = admin.do("POST", "/api/v1/admin/notification-rules",
		`{"name":"Nowhere","eventTypes":["role.*"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]},"roles":["no_such_role"]}`)
	require.Contains(t, []int{400, 422}, res.StatusCode, "an unknown role: %v", body)
	res, body = admin.do("POST", "/api/v1/admin/notification-rules",
		fmt.Sprintf(`{"name":"Ghost hook","eventTypes":["role.*"],"channels":{"inApp":false,"email":false,"webhookIds":[%q],"chatIds":[]}}`, "wh_01hx8n6q7k3m2v9c4t5r6s7p8a"))
	require.Contains(t, []int{400, 404, 422}, res.StatusCode, "an unknown webhook: %v", body)

	res, _ = admin.do("DELETE", "/api/v1/admin/notification-rules/"+id, "")
	require.Equal(t, 204, res.StatusCode)
	res, body = admin.do("DELETE", "/api/v1/admin/notification-rules/"+id, "")
	requireEnvelope(t, res, body, 404, "not_found")
}
