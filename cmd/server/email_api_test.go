package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func passwordResetOffered(t *testing.T, ts *testServer) bool {
	t.Helper()
	res, body := newBrowser(t, ts).do("GET", "/api/v1/auth/options", "")
	require.Equal(t, 200, res.StatusCode, body)
	return body["passwordReset"].(bool)
}

func TestEmailSettingsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := setUpAdmin(t, ts)

	res, body := admin.do("GET", "/api/v1/admin/email/settings", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, false, body["enabled"])
	require.Equal(t, false, body["passwordSet"])
	require.Equal(t, float64(0), body["version"])
	require.Equal(t, "default", body["sources"].(map[string]any)["host"])
	require.False(t, passwordResetOffered(t, ts))

	// Switched off: no test message.
	res, body = admin.do("POST", "/api/v1/admin/email/test", "")
	requireEnvelope(t, res, body, 422, "business_rule_violation")
	require.Equal(t, "email_disabled", body["details"].([]any)[0].(map[string]any)["code"])

	// Stored settings switch e-mail on; the password is never shown.
	res, body = admin.do("PATCH", "/api/v1/admin/email/settings",
		`{"version":0,"enabled":true,"host":"mail.example.com","port":2525,"from":"assay@example.com","username":"assay","password":"smtp-pass-123"}`)
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, true, body["enabled"])
	require.Equal(t, "mail.example.com", body["host"])
	require.Equal(t, float64(2525), body["port"])
	require.Equal(t, true, body["passwordSet"])
	require.NotContains(t, body, "password")
	require.Equal(t, "stored", body["sources"].(map[string]any)["host"])
	version := body["version"]
	require.Positive(t, version)
	res, body = admin.do("PATCH", "/api/v1/admin/email/settings", `{"version":0,"port":25}`)
	requireEnvelope(t, res, body, 409, "version_conflict")
	res, body = admin.do("PATCH", "/api/v1/admin/email/settings", `{"version":1,"port":70000}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
	require.True(t, passwordResetOffered(t, ts))

	// Test messages are queued and logged.
	res, body = admin.do("POST", "/api/v1/admin/email/test", `{"to":"ops@example.com"}`)
	require.Equal(t, 202, res.StatusCode, body)
	toOps := body["id"].(string)
	require.Equal(t, "email", body["channel"])
	require.Equal(t, "ops@example.com", body["recipient"])
	res, body = admin.do("POST", "/api/v1/admin/email/test", "")
	require.Equal(t, 202, res.StatusCode, body)
	require.Equal(t, "admin@example.com", body["recipient"], "the caller's own address by default")
	toSelf := body["id"].(string)
	res, body = admin.do("POST", "/api/v1/admin/email/test", `{"to":"not an address"}`)
	requireEnvelope(t, res, body, 400, "validation_failed")

	res, body = admin.do("GET", "/api/v1/admin/email/deliveries?limit=50", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, []string{toSelf, toOps}, idsOf(items(t, body))[:2])
	res, body = admin.do("GET", "/api/v1/admin/email/deliveries/"+toOps, "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "ops@example.com", body["recipient"])
	require.NotEmpty(t, body["subject"])
	res, body = admin.do("POST", "/api/v1/admin/email/deliveries/"+toOps+"/redeliver", "")
	requireEnvelope(t, res, body, 409, "conflict")
	execSQL(t, ts, `UPDATE deliveries SET status = 'failed', attempts = max_attempts, completed_at = now() WHERE id = $1`, toOps)
	res, body = admin.do("POST", "/api/v1/admin/email/deliveries/"+toOps+"/redeliver", "")
	require.Equal(t, 202, res.StatusCode, body)
	require.Equal(t, toOps, body["id"])
	res, body = admin.do("GET", "/api/v1/admin/email/deliveries/nope", "")
	requireEnvelope(t, res, body, 404, "not_found")
	res, body = admin.do("GET", "/api/v1/admin/email/deliveries?status=nope", "")
	requireEnvelope(t, res, body, 400, "validation_failed")
}

// TestEmailSettingsFromEnvironment: what the environment sets cannot be stored.
func TestEmailSettingsFromEnvironment(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "SMTP_HOST=smtp.env.example.com", "SMTP_ENABLED=true", "SMTP_FROM=assay@env.example.com")
	admin := setUpAdmin(t, ts)
	res, body := admin.do("GET", "/api/v1/admin/email/settings", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "smtp.env.example.com", body["host"])
	sources := body["sources"].(map[string]any)
	require.Equal(t, "environment", sources["host"])
	require.Equal(t, "default", sources["port"])
	require.True(t, passwordResetOffered(t, ts))

	res, body = admin.do("PATCH", "/api/v1/admin/email/settings", `{"version":0,"host":"other.example.com"}`)
	requireEnvelope(t, res, body, 422, "business_rule_violation")
	require.Equal(t, map[string]any{"field": "host", "code": "set_by_environment", "message": "The environment sets this value; change it there."},
		body["details"].([]any)[0])
	res, body = admin.do("PATCH", "/api/v1/admin/email/settings", `{"version":0,"port":2526}`)
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "stored", body["sources"].(map[string]any)["port"])
	require.Equal(t, "smtp.env.example.com", body["host"])
}
