package main

import (
	"crypto/sha256"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// rawPost sends a public POST and returns the status, the headers that could tell cases
// apart, and the body as sent.
func rawPost(t *testing.T, ts *testServer, path, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest("POST", ts.url+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, res.Header.Get("Content-Type") + "|" + res.Header.Get("Content-Length"), string(raw)
}

func TestPasswordResetAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)

	// E-mail off: every request gets the same answer, and nothing is sent.
	first := [3]any{}
	step(t, "with e-mail off every request gets the same answer", func(t *testing.T) {
		for i, login := range []string{"admin", "ADMIN@example.com", "nobody", "nobody@example.com"} {
			status, hdr, body := rawPost(t, ts, "/api/v1/auth/password-reset", `{"login":"`+login+`"}`)
			require.Equal(t, 202, status, body)
			if i == 0 {
				first = [3]any{status, hdr, body}
			}
			require.Equal(t, first, [3]any{status, hdr, body}, "the answer must not tell whether %q exists", login)
		}
	})

	// E-mail on: the known account gets a message, the answers stay the same.
	step(t, "with e-mail on the answers stay the same", func(t *testing.T) {
		admin.patch(t, "/api/v1/admin/email/settings", `{"version":0,"enabled":true,"host":"mail.example.com","from":"assay@example.com"}`, 200)
		for _, login := range []string{"admin", "nobody"} {
			status, hdr, body := rawPost(t, ts, "/api/v1/auth/password-reset", `{"login":"`+login+`"}`)
			require.Equal(t, first, [3]any{status, hdr, body}, login)
		}
	})
	t.Run("only the existing account gets a message, its link never shown", func(t *testing.T) {
		log := items(t, admin.get(t, "/api/v1/admin/email/deliveries", 200))
		require.Len(t, log, 1, "one message, to the account that exists")
		require.Equal(t, "admin@example.com", log[0]["recipient"])
		require.NotContains(t, log[0], "payload", "the link (token) is never shown in the log")
	})

	// Bad tokens and bad input.
	t.Run("an unknown token is refused", func(t *testing.T) {
		body := ts.browser(t).fails(t, "POST", "/api/v1/auth/password-reset/confirm", `{"token":"not-a-real-token","password":"a brand new passphrase"}`,
			422, "business_rule_violation")
		require.Equal(t, "invalid_token", detailCode(t, body))
	})
	for _, bad := range []struct{ name, body string }{
		{"without a password", `{"token":"abc"}`},
		{"without a token", `{"password":"a brand new passphrase"}`},
		{"with another request's fields", `{"login":""}`},
		{"not JSON", `nope`},
	} {
		t.Run("a malformed confirmation is refused: "+bad.name, func(t *testing.T) {
			ts.browser(t).fails(t, "POST", "/api/v1/auth/password-reset/confirm", bad.body, 400, "validation_failed")
		})
	}
	t.Run("an empty login is refused", func(t *testing.T) {
		ts.browser(t).fails(t, "POST", "/api/v1/auth/password-reset", `{"login":""}`, 400, "validation_failed")
	})

	// A valid link sets the password once and ends every session. The e-mailed token is
	// sealed in the delivery, so the test plants one of its own (the store keeps SHA-256).
	const token = "planted-reset-token-0123456789abcdefghijkl"
	step(t, "a reset link is planted", func(t *testing.T) {
		sum := sha256.Sum256([]byte(token))
		execSQL(t, ts, `INSERT INTO password_resets (id, user_id, token_hash, created_at, expires_at)
			SELECT $1, id, $2, now(), now() + interval '1 hour' FROM users WHERE username = 'admin'`,
			assess.NewID(assess.PrefixPasswordReset, timeNow()), sum[:])
	})
	anon := ts.browser(t)
	t.Run("the new password follows the policy", func(t *testing.T) {
		res, body := anon.do(t, "POST", "/api/v1/auth/password-reset/confirm", `{"token":"`+token+`","password":"short"}`)
		require.Contains(t, []int{400, 422}, res.StatusCode, "the password policy applies: %v", body)
	})
	step(t, "a valid link sets the password and ends every session", func(t *testing.T) {
		anon.post(t, "/api/v1/auth/password-reset/confirm", `{"token":"`+token+`","password":"a brand new passphrase"}`, 204)
		res, _ := admin.do(t, "GET", "/api/v1/auth/me", nil)
		require.Equal(t, 401, res.StatusCode, "the reset ended the existing sessions")
		anon.post(t, "/api/v1/auth/login", `{"username":"admin","password":"a brand new passphrase"}`, 200)
	})
	t.Run("the link works once", func(t *testing.T) {
		ts.browser(t).fails(t, "POST", "/api/v1/auth/password-reset/confirm", `{"token":"`+token+`","password":"yet another passphrase"}`,
			422, "business_rule_violation")
	})
}
