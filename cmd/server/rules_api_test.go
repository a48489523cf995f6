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
	admin := ts.admin(t)
	_, bob := ts.newUser(t, assess.RoleAssessee)
	const rules = "/api/v1/notification-rules"

	t.Run("a user may subscribe only to events they may receive", func(t *testing.T) {
		bob.fails(t, "POST", rules, `{"name":"New users","eventTypes":["user.created"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`,
			422, "business_rule_violation")
	})
	t.Run("an unknown event type is refused", func(t *testing.T) {
		body := bob.fails(t, "POST", rules, `{"name":"Typo","eventTypes":["user.creatd"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`,
			400, "validation_failed")
		require.Equal(t, "unknown_event_type", detailCode(t, body))
	})
	for _, bad := range []struct{ name, body string }{
		{"without a name", `{"name":"","eventTypes":["user.created"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`},
		{"without event types", `{"name":"No types","eventTypes":[],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`},
		{"naming an owner", `{"name":"Extra","eventTypes":["user.created"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]},"owner":"u_1"}`},
		{"not JSON", `not json`},
	} {
		t.Run("a malformed rule is refused: "+bad.name, func(t *testing.T) {
			admin.fails(t, "POST", rules, bad.body, 400, "validation_failed")
		})
	}
	t.Run("webhooks are for global rules", func(t *testing.T) {
		res, body := admin.do(t, "POST", rules, `{"name":"To a webhook","eventTypes":["user.*"],"channels":{"inApp":true,"email":false,"webhookIds":["wh_01hx8n6q7k3m2v9c4t5r6s7p8a"],"chatIds":[]}}`)
		require.Contains(t, []int{400, 422}, res.StatusCode, "webhooks are for global rules: %v", body)
	})
	t.Run("with e-mail off a rule cannot ask for it", func(t *testing.T) {
		body := admin.fails(t, "POST", rules, `{"name":"New users","eventTypes":["user.created","role.*"],"channels":{"inApp":true,"email":true,"webhookIds":[],"chatIds":[]}}`,
			422, "business_rule_violation")
		require.Equal(t, "email_disabled", detailCode(t, body))
	})

	var id string
	step(t, "a user creates a personal rule", func(t *testing.T) {
		body := admin.post(t, rules, `{"name":"New users","eventTypes":["user.created","role.*"],"channels":{"inApp":true,"email":false}}`, 201)
		id = body["id"].(string)
		require.Equal(t, "personal", body["scope"])
		require.Equal(t, admin.user.ID, body["ownerId"])
		require.Equal(t, true, body["enabled"])
		require.Equal(t, float64(1), body["version"])
		require.Equal(t, true, body["channels"].(map[string]any)["inApp"])
	})
	t.Run("the user's list shows it", func(t *testing.T) {
		body := admin.get(t, rules+"?limit=10", 200)
		require.Equal(t, []string{id}, idsOf(items(t, body)))
		require.Equal(t, false, body["hasMore"])
	})

	step(t, "an update keeps the fields it leaves out", func(t *testing.T) {
		body := admin.patch(t, rules+"/"+id, `{"version":1,"enabled":false,"name":"Quiet"}`, 200)
		require.Equal(t, false, body["enabled"])
		require.Equal(t, "Quiet", body["name"])
		require.Equal(t, []any{"role.*", "user.created"}, body["eventTypes"], "absent fields stay")
		require.Equal(t, float64(2), body["version"])
	})
	t.Run("an update with a stale version conflicts", func(t *testing.T) {
		admin.fails(t, "PATCH", rules+"/"+id, `{"version":1,"name":"Stale"}`, 409, "version_conflict")
	})
	t.Run("an update needs the version", func(t *testing.T) {
		admin.fails(t, "PATCH", rules+"/"+id, `{"name":"No version"}`, 400, "validation_failed")
	})

	// Another user's rule, or a global one, is not there.
	t.Run("another user's rule is not there", func(t *testing.T) {
		bob.fails(t, "PATCH", rules+"/"+id, `{"version":2,"name":"Mine now"}`, 404, "not_found")
		bob.fails(t, "DELETE", rules+"/"+id, nil, 404, "not_found")
		require.Empty(t, items(t, bob.get(t, rules, 200)))
	})
	t.Run("a personal rule is not a global one", func(t *testing.T) {
		admin.fails(t, "DELETE", "/api/v1/admin/notification-rules/"+id, nil, 404, "not_found")
	})

	t.Run("deletion is final", func(t *testing.T) {
		admin.delete(t, rules+"/"+id, 204)
		admin.fails(t, "DELETE", rules+"/"+id, nil, 404, "not_found")
	})
	t.Run("an unknown rule is not found", func(t *testing.T) {
		admin.fails(t, "PATCH", rules+"/x", `{"version":1}`, 404, "not_found")
	})
}

// TestPersonalRuleNotifies: a personal rule brings events the default audience would not.
func TestPersonalRuleNotifies(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	_, carol := ts.newUser(t, assess.RoleAdmin)

	// By default only the owner hears of a new API key (and not when they made it themselves).
	carol.post(t, "/api/v1/notification-rules", `{"name":"Keys","eventTypes":["apikey.*"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`, 201)
	before := unreadCount(t, carol)
	ts.newAPIKey(t, admin)
	require.Equal(t, before+1, unreadCount(t, carol), "carol holds admin.settings and asked for apikey events")
	body := carol.get(t, "/api/v1/notifications?limit=1", 200)
	require.Equal(t, "apikey.created", items(t, body)[0]["type"])
}

func TestGlobalNotificationRulesAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	_, bob := ts.newUser(t, assess.RoleAssessee)
	const rules = "/api/v1/admin/notification-rules"
	const roleChanges = `{"name":"Role changes to admins and ops","eventTypes":["role.*"],"channels":{"inApp":true,"email":true,"webhookIds":[],"chatIds":[]},"roles":["admin"],"emails":["ops@example.com"]}`

	t.Run("global rules need admin.notification_rules", func(t *testing.T) {
		body := bob.fails(t, "GET", rules, nil, 403, "permission_denied")
		require.Contains(t, body["message"], "admin.notification_rules")
	})
	t.Run("with e-mail off a rule cannot e-mail", func(t *testing.T) {
		body := admin.fails(t, "POST", rules, roleChanges, 422, "business_rule_violation")
		require.Equal(t, "email_disabled", detailCode(t, body))
	})

	var id string
	step(t, "with e-mail on an administrator creates a global rule", func(t *testing.T) {
		admin.patch(t, "/api/v1/admin/email/settings", `{"version":0,"enabled":true,"host":"mail.example.com","from":"assay@example.com"}`, 200)
		body := admin.post(t, rules, roleChanges, 201)
		id = body["id"].(string)
		require.Equal(t, "global", body["scope"])
		require.Empty(t, body["ownerId"])
		require.Equal(t, []any{"admin"}, body["roles"])
		require.Equal(t, []any{"ops@example.com"}, body["emails"])
		require.NotNil(t, body["warnings"], "warnings is always a list")
	})
	t.Run("the global list shows it", func(t *testing.T) {
		require.Equal(t, []string{id}, idsOf(items(t, admin.get(t, rules, 200))))
	})

	t.Run("the rule e-mails a new role to the address it names", func(t *testing.T) {
		ts.newRole(t, "admin.audit")
		var recipients []any
		for _, d := range items(t, admin.get(t, "/api/v1/admin/email/deliveries", 200)) {
			require.Equal(t, "role.created", d["eventType"])
			recipients = append(recipients, d["recipient"])
		}
		require.Contains(t, recipients, "ops@example.com")
	})
	t.Run("global rules are not the administrator's personal ones", func(t *testing.T) {
		require.Empty(t, items(t, admin.get(t, "/api/v1/notification-rules", 200)), "global rules are not the administrator's personal ones")
		admin.fails(t, "PATCH", "/api/v1/notification-rules/"+id, `{"version":1,"name":"x"}`, 404, "not_found")
	})

	step(t, "an update checks the version", func(t *testing.T) {
		body := admin.patch(t, rules+"/"+id, `{"version":1,"roles":["admin","assessor"]}`, 200)
		require.Equal(t, float64(2), body["version"])
		admin.fails(t, "PATCH", rules+"/"+id, `{"version":1,"roles":[]}`, 409, "version_conflict")
	})
	t.Run("a rule for an unknown role is refused", func(t *testing.T) {
		res, body := admin.do(t, "POST", rules,
			`{"name":"Nowhere","eventTypes":["role.*"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]},"roles":["no_such_role"]}`)
		require.Contains(t, []int{400, 422}, res.StatusCode, "an unknown role: %v", body)
	})
	t.Run("a rule for an unknown webhook is refused", func(t *testing.T) {
		res, body := admin.do(t, "POST", rules,
			fmt.Sprintf(`{"name":"Ghost hook","eventTypes":["role.*"],"channels":{"inApp":false,"email":false,"webhookIds":[%q],"chatIds":[]}}`, "wh_01hx8n6q7k3m2v9c4t5r6s7p8a"))
		require.Contains(t, []int{400, 404, 422}, res.StatusCode, "an unknown webhook: %v", body)
	})

	t.Run("deletion is final", func(t *testing.T) {
		admin.delete(t, rules+"/"+id, 204)
		admin.fails(t, "DELETE", rules+"/"+id, nil, 404, "not_found")
	})
}
