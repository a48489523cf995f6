package main

import (
	"context"
	"crypto/sha1" //nolint:gosec // the range protocol's hash
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

func registration(username, email, token string) string {
	return fmt.Sprintf(`{"username":%q,"email":%q,"displayName":"New Person","password":"a long enough password","inviteToken":%q}`, username, email, token)
}

func countUsers(t *testing.T, dsn, username string) int {
	conn, err := pgx.Connect(context.Background(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var n int
	require.NoError(t, conn.QueryRow(context.Background(), "SELECT count(*) FROM users WHERE lower(username) = lower($1)", username).Scan(&n))
	return n
}

func TestRegistrationModes(t *testing.T) {
	t.Parallel()
	closed := startServer(t, "REGISTRATION_MODE=disabled")
	res, body := newBrowser(t, closed).do("POST", "/api/v1/auth/register", registration("newbie", "newbie@example.com", ""))
	requireEnvelope(t, res, body, 503, "setup_required") // before setup everything points to /setup
	res, _ = newBrowser(t, closed).do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	res, body = newBrowser(t, closed).do("POST", "/api/v1/auth/register", registration("newbie", "newbie@example.com", ""))
	requireEnvelope(t, res, body, 403, "registration_closed")

	open := startServer(t, "REGISTRATION_MODE=open")
	res, _ = newBrowser(t, open).do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	anon := newBrowser(t, open)
	res, first := anon.do("POST", "/api/v1/auth/register", registration("newbie", "newbie@example.com", ""))
	require.Equal(t, 202, res.StatusCode, first)
	for _, dup := range []string{registration("NEWBIE", "other@example.com", ""), registration("someone", "Newbie@example.com", "")} {
		res, again := anon.do("POST", "/api/v1/auth/register", dup)
		require.Equal(t, 202, res.StatusCode)
		require.Equal(t, first, again, "a duplicate gets the very same answer")
	}
	require.Equal(t, 1, countUsers(t, open.dsn, "newbie"))
	require.Equal(t, 0, countUsers(t, open.dsn, "someone"))
	res, body = anon.do("POST", "/api/v1/auth/login", `{"username":"newbie","password":"a long enough password"}`)
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, []any{"assessee"}, body["user"].(map[string]any)["roles"])
	res, body = anon.do("POST", "/api/v1/auth/register", `{"username":"x","email":"bad","displayName":"","password":"short"}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
}

func TestInvites(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "REGISTRATION_MODE=invite_only")
	admin := newBrowser(t, ts)
	res, _ := admin.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	anon := newBrowser(t, ts)
	res, body := anon.do("POST", "/api/v1/auth/register", registration("guest", "guest@example.com", ""))
	requireEnvelope(t, res, body, 403, "registration_closed")

	res, body = admin.do("POST", "/api/v1/admin/invites", `{"email":"auditor@example.com","intendedRole":"assessor"}`)
	require.Equal(t, 201, res.StatusCode, body)
	require.Equal(t, "true", res.Header.Get("X-One-Time-Secret"))
	token, inviteID := body["token"].(string), body["id"].(string)
	require.Equal(t, "unused", body["status"])
	res, body = admin.do("POST", "/api/v1/admin/invites", `{"intendedRole":"wizard"}`)
	requireEnvelope(t, res, body, 400, "validation_failed")

	res, body = anon.do("POST", "/api/v1/auth/register", registration("guest", "guest@example.com", token))
	requireEnvelope(t, res, body, 400, "validation_failed")
	require.Equal(t, "invite_email_mismatch", body["details"].([]any)[0].(map[string]any)["code"])
	res, body = anon.do("POST", "/api/v1/auth/register", registration("guest", "auditor@example.com", "not-a-token"))
	requireEnvelope(t, res, body, 400, "validation_failed")

	// Two redemptions of one invite at once: exactly one account.
	var wg sync.WaitGroup
	codes := make([]int, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, _ := newBrowser(t, ts).do("POST", "/api/v1/auth/register", registration(fmt.Sprintf("racer%d", i), "auditor@example.com", token))
			codes[i] = res.StatusCode
		}()
	}
	wg.Wait()
	require.ElementsMatch(t, []int{202, 400}, codes)
	require.Equal(t, 1, countUsers(t, ts.dsn, "racer0")+countUsers(t, ts.dsn, "racer1"))

	res, body = admin.do("GET", "/api/v1/admin/invites", "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "consumed", body["items"].([]any)[0].(map[string]any)["status"])
	res, body = admin.do("DELETE", "/api/v1/admin/invites/"+inviteID, "")
	requireEnvelope(t, res, body, 409, "invalid_state_transition")

	res, body = admin.do("POST", "/api/v1/admin/invites", `{"intendedRole":"assessee","expiresInHours":1}`)
	require.Equal(t, 201, res.StatusCode)
	second := body["id"].(string)
	for range 2 {
		res, _ = admin.do("DELETE", "/api/v1/admin/invites/"+second, "")
		require.Equal(t, 204, res.StatusCode)
	}
	res, body = anon.do("POST", "/api/v1/auth/register", registration("late", "late@example.com", body["token"].(string)))
	requireEnvelope(t, res, body, 400, "validation_failed")
	res, body = admin.do("DELETE", "/api/v1/admin/invites/inv_nope", "")
	requireEnvelope(t, res, body, 404, "not_found")
}

func TestRegistrationModeChangeIsAudited(t *testing.T) {
	t.Parallel()
	first := startServer(t, "REGISTRATION_MODE=open")
	startServerOn(t, first.dsn, "REGISTRATION_MODE=disabled")
	conn, err := pgx.Connect(context.Background(), first.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var from, to string
	require.NoError(t, conn.QueryRow(context.Background(), `SELECT details->>'from', details->>'to' FROM audit_log
		WHERE action = 'config.registration_mode_changed'`).Scan(&from, &to))
	require.Equal(t, "open", from)
	require.Equal(t, "disabled", to)
}

// TestBreachedPasswordsAreRefused uses a local range server: a breached password is
// refused at setup, and the check fails open when the service is down.
func TestBreachedPasswordsAreRefused(t *testing.T) {
	t.Parallel()
	// SHA-1("correct horse battery") starts with the prefix the fake answers for.
	rangeSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sum := sha1.Sum([]byte("correct horse battery")) //nolint:gosec // protocol hash
		h := strings.ToUpper(hex.EncodeToString(sum[:]))
		if strings.TrimPrefix(r.URL.Path, "/range/") == h[:5] {
			fmt.Fprintf(w, "%s:7\n", h[5:])
		}
	}))
	defer rangeSrv.Close()
	ts := startServer(t, "PASSWORD_HIBP_CHECK_ENABLED=true", "PASSWORD_HIBP_API_URL="+rangeSrv.URL)
	res, body := newBrowser(t, ts).do("POST", "/api/v1/setup", adminJSON)
	requireEnvelope(t, res, body, 400, "validation_failed")
	require.Equal(t, "breached", body["details"].([]any)[0].(map[string]any)["code"])
	res, _ = newBrowser(t, ts).do("POST", "/api/v1/setup", strings.Replace(adminJSON, "correct horse battery", "an unbreached passphrase", 1))
	require.Equal(t, 201, res.StatusCode)

	down := startServer(t, "PASSWORD_HIBP_CHECK_ENABLED=true", "PASSWORD_HIBP_API_URL=http://127.0.0.1:1", "PASSWORD_HIBP_TIMEOUT_MS=500")
	res, _ = newBrowser(t, down).do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode, "an unreachable range service does not block setup")
}
