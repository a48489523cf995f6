package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// keyClient calls the API with an API key in the given header style.
func keyClient(t *testing.T, ts *testServer, token string, bearer bool) func(method, path string) (*http.Response, map[string]any) {
	return func(method, path string) (*http.Response, map[string]any) {
		hdr := []string{"X-Api-Key", token}
		if bearer {
			hdr = []string{"Authorization", "Bearer " + token}
		}
		return ts.request(t, method, path, "", hdr...)
	}
}

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := newBrowser(t, ts)
	res, _ := admin.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	addUser(t, ts, "pipeline", "assessor")
	ci := newBrowser(t, ts)
	res, _ = ci.do("POST", "/api/v1/auth/login", `{"username":"pipeline","password":"matrix password 1"}`)
	require.Equal(t, 200, res.StatusCode)

	res, body := ci.do("POST", "/api/v1/me/api-keys", `{"name":"CI"}`)
	require.Equal(t, 201, res.StatusCode, body)
	token := body["token"].(string)
	keyID := body["apiKey"].(map[string]any)["id"].(string)
	require.True(t, strings.HasPrefix(token, "assay_"))

	for _, bearer := range []bool{true, false} {
		call := keyClient(t, ts, token, bearer)
		res, body := call("GET", "/api/v1/auth/me")
		require.Equal(t, 200, res.StatusCode, body)
		require.Equal(t, "pipeline", body["user"].(map[string]any)["username"])
		res, body = call("GET", "/api/v1/admin/encryption/status")
		requireEnvelope(t, res, body, 403, "permission_denied")
	}
	call := keyClient(t, ts, token, true)

	// The key acts with the owner's roles at each request: granting or removing a role
	// changes what it may do at once.
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), `INSERT INTO user_roles SELECT u.id, r.id FROM users u, roles r WHERE u.username = 'pipeline' AND r.name = 'admin'`)
	require.NoError(t, err)
	res, _ = call("GET", "/api/v1/admin/encryption/status")
	require.Equal(t, 200, res.StatusCode)
	_, err = conn.Exec(context.Background(), `DELETE FROM user_roles WHERE role_id = (SELECT id FROM roles WHERE name = 'admin') AND user_id = (SELECT id FROM users WHERE username = 'pipeline')`)
	require.NoError(t, err)
	res, _ = call("GET", "/api/v1/admin/encryption/status")
	require.Equal(t, 403, res.StatusCode)

	// The list shows the key with its last use and never the secret.
	res, body = ci.do("GET", "/api/v1/me/api-keys", "")
	require.Equal(t, 200, res.StatusCode)
	items := body["items"].([]any)
	require.Len(t, items, 1)
	require.NotEmpty(t, items[0].(map[string]any)["lastUsedAt"])
	require.NotContains(t, fmt.Sprint(body), token[len(token)-20:])

	// Another user cannot revoke it; the owner can, effective at once.
	res, _ = admin.do("DELETE", "/api/v1/me/api-keys/"+keyID, "")
	require.Equal(t, 404, res.StatusCode)
	res, _ = call("GET", "/api/v1/auth/me")
	require.Equal(t, 200, res.StatusCode)
	res, _ = ci.do("DELETE", "/api/v1/me/api-keys/"+keyID, "")
	require.Equal(t, 204, res.StatusCode)
	res, body = call("GET", "/api/v1/auth/me")
	requireEnvelope(t, res, body, 401, "unauthenticated")

	// Expired keys and garbage are refused with the same 401.
	expires := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339)
	res, body = ci.do("POST", "/api/v1/me/api-keys", fmt.Sprintf(`{"name":"short-lived","expiresAt":%q}`, expires))
	require.Equal(t, 201, res.StatusCode, body)
	short := keyClient(t, ts, body["token"].(string), false)
	res, _ = short("GET", "/api/v1/auth/me")
	require.Equal(t, 200, res.StatusCode)
	_, err = conn.Exec(context.Background(), `UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE name = 'short-lived'`)
	require.NoError(t, err)
	res, _ = short("GET", "/api/v1/auth/me")
	require.Equal(t, 401, res.StatusCode)
	for _, junk := range []string{"nope", "assay_", "assay_x_y", token[:len(token)-2] + "zz"} {
		res, body := keyClient(t, ts, junk, true)("GET", "/api/v1/auth/me")
		requireEnvelope(t, res, body, 401, "unauthenticated")
	}

	res, body = ci.do("POST", "/api/v1/me/api-keys", `{"name":"  "}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
}

// TestAPIKeyTokenIsNotReplayed: an idempotent retry of a key creation learns that it
// succeeded, but the token is neither repeated nor stored.
func TestAPIKeyTokenIsNotReplayed(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := newBrowser(t, ts)
	res, _ := admin.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	post := func() (*http.Response, map[string]any) {
		req, _ := http.NewRequest("POST", ts.url+"/api/v1/me/api-keys", strings.NewReader(`{"name":"deploy"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", ts.url)
		req.Header.Set("Idempotency-Key", "create-deploy-key")
		r, err := admin.client.Do(req)
		require.NoError(t, err)
		defer r.Body.Close()
		var m map[string]any
		require.NoError(t, json.NewDecoder(r.Body).Decode(&m))
		return r, m
	}
	res, body := post()
	require.Equal(t, 201, res.StatusCode, body)
	token := body["token"].(string)
	require.NotEmpty(t, res.Header.Get("X-RateLimit-Limit"))

	res, body = post()
	requireEnvelope(t, res, body, 409, "conflict")
	require.Equal(t, "true", res.Header.Get("Idempotent-Replayed"))
	require.NotContains(t, fmt.Sprint(body), token)

	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var stored int
	require.NoError(t, conn.QueryRow(context.Background(), `SELECT count(*) FROM idempotency_keys WHERE position($1 in convert_from(body, 'UTF8')) > 0`, token).Scan(&stored))
	require.Zero(t, stored, "the token is not kept for replays")
	res, _ = admin.do("GET", "/api/v1/me/api-keys", "")
	require.Equal(t, 200, res.StatusCode)
}

func TestAdministratorsManageOtherUsersKeys(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := newBrowser(t, ts)
	res, _ := admin.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	res, body := admin.do("POST", "/api/v1/users", `{"username":"robot","email":"robot@example.com","displayName":"CI robot","password":"robot password 123","roles":["assessor"]}`)
	require.Equal(t, 201, res.StatusCode, body)
	robot := body["id"].(string)

	res, body = admin.do("POST", "/api/v1/users/"+robot+"/api-keys", `{"name":"pipeline"}`)
	require.Equal(t, 201, res.StatusCode, body)
	token, keyID := body["token"].(string), body["apiKey"].(map[string]any)["id"].(string)
	res, body = keyClient(t, ts, token, true)("GET", "/api/v1/auth/me")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "robot", body["user"].(map[string]any)["username"], "the key acts as its owner, not its creator")

	res, body = admin.do("GET", "/api/v1/users/"+robot+"/api-keys", "")
	require.Equal(t, 200, res.StatusCode)
	require.Len(t, body["items"], 1)
	res, _ = admin.do("DELETE", "/api/v1/users/"+robot+"/api-keys/"+keyID, "")
	require.Equal(t, 204, res.StatusCode)
	res, _ = keyClient(t, ts, token, true)("GET", "/api/v1/auth/me")
	require.Equal(t, 401, res.StatusCode)
	res, body = admin.do("GET", "/api/v1/users/u_01m82hrkky527408g45wmneht9/api-keys", "")
	requireEnvelope(t, res, body, 404, "not_found")
}
