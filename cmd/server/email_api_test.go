package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func passwordResetOffered(t *testing.T, ts *testServer) bool {
	t.Helper()
	body := ts.browser(t).get(t, "/api/v1/auth/options", 200)
	return body["passwordReset"].(bool)
}

func TestEmailSettingsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	const settings = "/api/v1/admin/email/settings"

	t.Run("by default e-mail is off", func(t *testing.T) {
		body := admin.get(t, settings, 200)
		require.Equal(t, false, body["enabled"])
		require.Equal(t, false, body["passwordSet"])
		require.Equal(t, float64(0), body["version"])
		require.Equal(t, "default", body["sources"].(map[string]any)["host"])
		require.False(t, passwordResetOffered(t, ts))
	})
	t.Run("switched off, there is no test message", func(t *testing.T) {
		body := admin.fails(t, "POST", "/api/v1/admin/email/test", nil, 422, "business_rule_violation")
		require.Equal(t, "email_disabled", detailCode(t, body))
	})

	// Stored settings switch e-mail on; the password is never shown.
	step(t, "stored settings switch e-mail on, never showing the password", func(t *testing.T) {
		body := admin.patch(t, settings,
			`{"version":0,"enabled":true,"host":"mail.example.com","port":2525,"from":"assay@example.com","username":"assay","password":"smtp-pass-123"}`, 200)
		require.Equal(t, true, body["enabled"])
		require.Equal(t, "mail.example.com", body["host"])
		require.Equal(t, float64(2525), body["port"])
		require.Equal(t, true, body["passwordSet"])
		require.NotContains(t, body, "password")
		require.Equal(t, "stored", body["sources"].(map[string]any)["host"])
		require.Positive(t, body["version"])
	})
	t.Run("an update with a stale version conflicts", func(t *testing.T) {
		admin.fails(t, "PATCH", settings, `{"version":0,"port":25}`, 409, "version_conflict")
	})
	t.Run("a port out of range is refused", func(t *testing.T) {
		admin.fails(t, "PATCH", settings, `{"version":1,"port":70000}`, 400, "validation_failed")
	})
	t.Run("with e-mail on, password reset is offered", func(t *testing.T) {
		require.True(t, passwordResetOffered(t, ts))
	})

	// Test messages are queued and logged.
	var toOps, toSelf string
	step(t, "test messages are queued", func(t *testing.T) {
		body := admin.post(t, "/api/v1/admin/email/test", `{"to":"ops@example.com"}`, 202)
		toOps = body["id"].(string)
		require.Equal(t, "email", body["channel"])
		require.Equal(t, "ops@example.com", body["recipient"])
		body = admin.post(t, "/api/v1/admin/email/test", nil, 202)
		require.Equal(t, "admin@example.com", body["recipient"], "the caller's own address by default")
		toSelf = body["id"].(string)
	})
	t.Run("a test to a malformed address is refused", func(t *testing.T) {
		admin.fails(t, "POST", "/api/v1/admin/email/test", `{"to":"not an address"}`, 400, "validation_failed")
	})
	t.Run("the delivery log lists them newest first", func(t *testing.T) {
		ids := idsOf(items(t, admin.get(t, "/api/v1/admin/email/deliveries?limit=50", 200)))
		require.GreaterOrEqual(t, len(ids), 2)
		require.Equal(t, []string{toSelf, toOps}, ids[:2])
	})
	t.Run("a delivery shows its recipient and subject", func(t *testing.T) {
		body := admin.get(t, "/api/v1/admin/email/deliveries/"+toOps, 200)
		require.Equal(t, "ops@example.com", body["recipient"])
		require.NotEmpty(t, body["subject"])
	})
	t.Run("a queued message cannot be redelivered", func(t *testing.T) {
		admin.fails(t, "POST", "/api/v1/admin/email/deliveries/"+toOps+"/redeliver", nil, 409, "conflict")
	})
	t.Run("a failed message is redelivered under its id", func(t *testing.T) {
		execSQL(t, ts, `UPDATE deliveries SET status = 'failed', attempts = max_attempts, completed_at = now() WHERE id = $1`, toOps)
		body := admin.post(t, "/api/v1/admin/email/deliveries/"+toOps+"/redeliver", nil, 202)
		require.Equal(t, toOps, body["id"])
	})
	t.Run("an unknown delivery is not found", func(t *testing.T) {
		admin.fails(t, "GET", "/api/v1/admin/email/deliveries/nope", nil, 404, "not_found")
	})
	t.Run("an unknown status filter is refused", func(t *testing.T) {
		admin.fails(t, "GET", "/api/v1/admin/email/deliveries?status=nope", nil, 400, "validation_failed")
	})
}

// TestEmailSettingsFromEnvironment: what the environment sets cannot be stored.
func TestEmailSettingsFromEnvironment(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "SMTP_HOST=smtp.env.example.com", "SMTP_ENABLED=true", "SMTP_FROM=assay@env.example.com")
	admin := ts.admin(t)
	const settings = "/api/v1/admin/email/settings"

	t.Run("settings show the environment's values and their source", func(t *testing.T) {
		body := admin.get(t, settings, 200)
		require.Equal(t, "smtp.env.example.com", body["host"])
		sources := body["sources"].(map[string]any)
		require.Equal(t, "environment", sources["host"])
		require.Equal(t, "default", sources["port"])
		require.True(t, passwordResetOffered(t, ts))
	})
	t.Run("a value the environment sets cannot be stored", func(t *testing.T) {
		body := admin.fails(t, "PATCH", settings, `{"version":0,"host":"other.example.com"}`, 422, "business_rule_violation")
		require.Equal(t, map[string]any{"field": "host", "code": "set_by_environment", "message": "The environment sets this value; change it there."},
			body["details"].([]any)[0])
	})
	t.Run("other values are stored", func(t *testing.T) {
		body := admin.patch(t, settings, `{"version":0,"port":2526}`, 200)
		require.Equal(t, "stored", body["sources"].(map[string]any)["port"])
		require.Equal(t, "smtp.env.example.com", body["host"])
	})
}
