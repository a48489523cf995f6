package main

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUnknownCredentialsShareTheAddressBudget: a made-up API key buys no budget of its
// own: requests with unknown or invalid credentials count against the client's address,
// while a valid key keeps a budget of its own.
func TestUnknownCredentialsShareTheAddressBudget(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "RATE_LIMIT_PER_MINUTE=20")
	admin := ts.admin(t)
	key := ts.newAPIKey(t, admin)

	remaining := func(c *apiClient) int {
		res, _ := c.do(t, http.MethodGet, "/api/v1/setup/status", nil)
		n, err := strconv.Atoi(res.Header.Get("X-RateLimit-Remaining"))
		require.NoError(t, err, "X-RateLimit-Remaining on %d", res.StatusCode)
		return n
	}
	anonymous := remaining(ts.browser(t))
	for i := range 3 {
		got := remaining(ts.bearerClient(fmt.Sprintf("junk%d", i)))
		require.Equal(t, anonymous-1-i, got, "junk key %d must draw on the address's budget", i)
	}
	require.Equal(t, 19, remaining(ts.bearerClient(key)), "a valid key has its own budget")
}

// TestSignInLimitCountsOnlyCredentialAttempts: after ten failed sign-ins from one
// address, that address cannot try again, but a signed-in user there can still edit
// their profile and sign out.
func TestSignInLimitCountsOnlyCredentialAttempts(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "NODE_ENV=production")
	admin := ts.admin(t)
	for range 10 {
		admin.fails(t, http.MethodPost, "/api/v1/auth/login", `{"username":"nobody","password":"wrong password"}`, 401, "unauthenticated")
	}
	res, body := ts.browser(t).do(t, http.MethodPost, "/api/v1/auth/login", `{"username":"nobody","password":"wrong password"}`)
	requireEnvelope(t, res, body, http.StatusTooManyRequests, "rate_limited")

	me := admin.get(t, "/api/v1/auth/me", http.StatusOK)
	version := me["user"].(map[string]any)["version"]
	admin.patch(t, "/api/v1/auth/me", fmt.Sprintf(`{"version":%v,"displayName":"Still here"}`, version), http.StatusOK)
	res, body = admin.do(t, http.MethodPost, "/api/v1/auth/logout", nil)
	require.Less(t, res.StatusCode, 300, body)
}
