package main

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
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

// TestRateBudgetSharedAcrossServers: one API key used on two servers shares one budget,
// counted locally and reconciled in batches: together the servers admit the budget within
// the documented bound (a quarter of it for a second server; usually within a tenth), and
// refuse the rest with 429 and Retry-After.
func TestRateBudgetSharedAcrossServers(t *testing.T) {
	t.Parallel()
	const budget = 60
	dsn := pgtest.NewDatabase(t)
	a := startServerOn(t, dsn, fmt.Sprintf("RATE_LIMIT_PER_MINUTE=%d", budget))
	b := startServerOn(t, dsn, fmt.Sprintf("RATE_LIMIT_PER_MINUTE=%d", budget))
	key := a.newAPIKey(t, a.admin(t))
	clients := []*apiClient{a.bearerClient(key), b.bearerClient(key)}
	for time.Now().Second() > 45 { // one fixed window for the whole test
		time.Sleep(time.Second)
	}
	var mu sync.Mutex
	allowed, refused := 0, 0
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for range 40 {
				res, body := clients[w%2].do(t, http.MethodGet, "/api/v1/roles", nil)
				mu.Lock()
				switch res.StatusCode {
				case http.StatusOK:
					allowed++
				case http.StatusTooManyRequests:
					refused++
					require.NotEmpty(t, res.Header.Get("Retry-After"))
					require.Equal(t, "rate_limited", body["error"])
				default:
					t.Errorf("status %d: %v", res.StatusCode, body)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Logf("allowed %d, refused %d, budget %d (minus the requests that set the key up)", allowed, refused, budget)
	require.Positive(t, refused)
	require.InDelta(t, budget, allowed, budget/4+3, "the two servers admit one shared budget")
}
