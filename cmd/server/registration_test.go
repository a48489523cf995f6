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
	open := startServer(t, "REGISTRATION_MODE=open")

	t.Run("disabled", func(t *testing.T) {
		t.Run("before setup registration points to setup", func(t *testing.T) {
			closed.browser(t).fails(t, "POST", "/api/v1/auth/register", registration("newbie", "newbie@example.com", ""), 503, "setup_required")
		})
		step(t, "setup", func(t *testing.T) { closed.admin(t) })
		t.Run("registration is closed", func(t *testing.T) {
			closed.browser(t).fails(t, "POST", "/api/v1/auth/register", registration("newbie", "newbie@example.com", ""), 403, "registration_closed")
		})
	})

	t.Run("open", func(t *testing.T) {
		open.admin(t)
		anon := open.browser(t)
		var first map[string]any
		step(t, "a new person registers", func(t *testing.T) {
			first = anon.post(t, "/api/v1/auth/register", registration("newbie", "newbie@example.com", ""), 202)
		})
		for _, dup := range []struct{ name, body string }{
			{"username in another case", registration("NEWBIE", "other@example.com", "")},
			{"e-mail in another case", registration("someone", "Newbie@example.com", "")},
		} {
			t.Run("a duplicate gets the very same answer: "+dup.name, func(t *testing.T) {
				res, again := anon.do(t, "POST", "/api/v1/auth/register", dup.body)
				require.Equal(t, 202, res.StatusCode)
				require.Equal(t, first, again, "a duplicate gets the very same answer")
			})
		}
		t.Run("duplicates create no account", func(t *testing.T) {
			require.Equal(t, 1, countUsers(t, open.dsn, "newbie"))
			require.Equal(t, 0, countUsers(t, open.dsn, "someone"))
		})
		t.Run("the new account signs in as an assessee", func(t *testing.T) {
			body := anon.post(t, "/api/v1/auth/login", `{"username":"newbie","password":"a long enough password"}`, 200)
			require.Equal(t, []any{"assessee"}, body["user"].(map[string]any)["roles"])
		})
		t.Run("bad input is refused", func(t *testing.T) {
			anon.fails(t, "POST", "/api/v1/auth/register", `{"username":"x","email":"bad","displayName":"","password":"short"}`, 400, "validation_failed")
		})
	})
}

// TestAuthOptionsTellTheRegistrationMode: the sign-in page offers registration, and the
// invites page warns, from the mode the public options report; the default is disabled.
func TestAuthOptionsTellTheRegistrationMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ env, want string }{
		{"", "disabled"},
		{"REGISTRATION_MODE=disabled", "disabled"},
		{"REGISTRATION_MODE=invite_only", "invite_only"},
		{"REGISTRATION_MODE=open", "open"},
	} {
		t.Run(tc.want+" "+tc.env, func(t *testing.T) {
			t.Parallel()
			var env []string
			if tc.env != "" {
				env = append(env, tc.env)
			}
			ts := startServer(t, env...)
			ts.admin(t)
			body := ts.browser(t).get(t, "/api/v1/auth/options", 200)
			require.Equal(t, tc.want, body["registrationMode"])
		})
	}
}

func TestInvites(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "REGISTRATION_MODE=invite_only")
	admin := ts.admin(t)
	anon := ts.browser(t)

	t.Run("registration needs an invite", func(t *testing.T) {
		anon.fails(t, "POST", "/api/v1/auth/register", registration("guest", "guest@example.com", ""), 403, "registration_closed")
	})
	var token, inviteID string
	step(t, "an administrator creates an invite, shown once", func(t *testing.T) {
		res, body := admin.do(t, "POST", "/api/v1/admin/invites", `{"email":"auditor@example.com","intendedRole":"assessor"}`)
		require.Equal(t, 201, res.StatusCode, body)
		require.Equal(t, "true", res.Header.Get("X-One-Time-Secret"))
		token, inviteID = body["token"].(string), body["id"].(string)
		require.Equal(t, "unused", body["status"])
	})
	t.Run("an invite for an unknown role is refused", func(t *testing.T) {
		admin.fails(t, "POST", "/api/v1/admin/invites", `{"intendedRole":"wizard"}`, 400, "validation_failed")
	})
	t.Run("the invite is for its e-mail address", func(t *testing.T) {
		body := anon.fails(t, "POST", "/api/v1/auth/register", registration("guest", "guest@example.com", token), 400, "validation_failed")
		require.Equal(t, "invite_email_mismatch", detailCode(t, body))
	})
	t.Run("an unknown invite token is refused", func(t *testing.T) {
		anon.fails(t, "POST", "/api/v1/auth/register", registration("guest", "auditor@example.com", "not-a-token"), 400, "validation_failed")
	})

	// Two redemptions of one invite at once: exactly one account.
	t.Run("two redemptions at once create one account", func(t *testing.T) {
		var wg sync.WaitGroup
		codes := make([]int, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, _ := ts.browser(t).do(t, "POST", "/api/v1/auth/register", registration(fmt.Sprintf("racer%d", i), "auditor@example.com", token))
				codes[i] = res.StatusCode
			}()
		}
		wg.Wait()
		require.ElementsMatch(t, []int{202, 400}, codes)
		require.Equal(t, 1, countUsers(t, ts.dsn, "racer0")+countUsers(t, ts.dsn, "racer1"))
	})
	t.Run("a consumed invite is listed as such and cannot be revoked", func(t *testing.T) {
		body := admin.get(t, "/api/v1/admin/invites", 200)
		require.Equal(t, "consumed", body["items"].([]any)[0].(map[string]any)["status"])
		admin.fails(t, "DELETE", "/api/v1/admin/invites/"+inviteID, nil, 409, "invalid_state_transition")
	})

	t.Run("a revoked invite no longer registers", func(t *testing.T) {
		body := admin.post(t, "/api/v1/admin/invites", `{"intendedRole":"assessee","expiresInHours":1}`, 201)
		second := body["id"].(string)
		for range 2 {
			admin.delete(t, "/api/v1/admin/invites/"+second, 204)
		}
		anon.fails(t, "POST", "/api/v1/auth/register", registration("late", "late@example.com", body["token"].(string)), 400, "validation_failed")
	})
	t.Run("an unknown invite is not found", func(t *testing.T) {
		admin.fails(t, "DELETE", "/api/v1/admin/invites/inv_nope", nil, 404, "not_found")
	})
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
	down := startServer(t, "PASSWORD_HIBP_CHECK_ENABLED=true", "PASSWORD_HIBP_API_URL=http://127.0.0.1:1", "PASSWORD_HIBP_TIMEOUT_MS=500")

	t.Run("a breached password is refused at setup", func(t *testing.T) {
		body := ts.browser(t).fails(t, "POST", "/api/v1/setup", adminJSON, 400, "validation_failed")
		require.Equal(t, "breached", detailCode(t, body))
	})
	t.Run("a password not in the range is accepted", func(t *testing.T) {
		ts.browser(t).post(t, "/api/v1/setup", strings.Replace(adminJSON, "correct horse battery", "an unbreached passphrase", 1), 201)
	})
	t.Run("an unreachable range service does not block setup", func(t *testing.T) {
		res, _ := down.browser(t).do(t, "POST", "/api/v1/setup", adminJSON)
		require.Equal(t, 201, res.StatusCode, "an unreachable range service does not block setup")
	})
}
