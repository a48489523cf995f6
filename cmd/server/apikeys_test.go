package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	pipeline, ci := ts.newUserNamed(t, "pipeline", "assessor")

	var token, keyID string
	step(t, "a user creates a key", func(t *testing.T) {
		body := ci.post(t, "/api/v1/me/api-keys", `{"name":"CI"}`, 201)
		token = body["token"].(string)
		keyID = body["apiKey"].(map[string]any)["id"].(string)
		require.True(t, strings.HasPrefix(token, "assay_"))
	})

	for _, c := range []struct {
		name string
		key  *apiClient
	}{
		{"as Authorization: Bearer", ts.bearerClient(token)},
		{"as X-Api-Key", ts.apiKeyClient(token)},
	} {
		t.Run("the key acts as its owner "+c.name, func(t *testing.T) {
			res, body := c.key.do(t, "GET", "/api/v1/auth/me", nil)
			require.Equal(t, 200, res.StatusCode, body)
			require.Equal(t, "pipeline", body["user"].(map[string]any)["username"])
			c.key.fails(t, "GET", "/api/v1/admin/encryption/status", nil, 403, "permission_denied")
		})
	}
	key := ts.bearerClient(token)

	// The key acts with the owner's roles at each request: granting or removing a role
	// changes what it may do at once (the credential cache is invalidated by the change).
	t.Run("the key acts with the owner's roles at each request", func(t *testing.T) {
		setRoles := func(roles ...string) {
			u := admin.get(t, "/api/v1/users/"+pipeline.ID, 200)
			admin.patch(t, "/api/v1/users/"+pipeline.ID, map[string]any{"version": u["version"], "roles": roles}, 200)
		}
		key.get(t, "/api/v1/auth/me", 200) // cached now
		setRoles("assessor", "admin")
		res, _ := key.do(t, "GET", "/api/v1/admin/encryption/status", nil)
		require.Equal(t, 200, res.StatusCode)
		setRoles("assessor")
		res, _ = key.do(t, "GET", "/api/v1/admin/encryption/status", nil)
		require.Equal(t, 403, res.StatusCode)
	})

	t.Run("the list shows the key with its last use and never the secret", func(t *testing.T) {
		body := ci.get(t, "/api/v1/me/api-keys", 200)
		items := body["items"].([]any)
		require.Len(t, items, 1)
		require.NotEmpty(t, items[0].(map[string]any)["lastUsedAt"])
		require.NotContains(t, fmt.Sprint(body), token[len(token)-20:])
	})

	t.Run("another user cannot revoke it", func(t *testing.T) {
		admin.delete(t, "/api/v1/me/api-keys/"+keyID, 404)
		key.get(t, "/api/v1/auth/me", 200)
	})
	t.Run("the owner revokes it, effective at once", func(t *testing.T) {
		ci.delete(t, "/api/v1/me/api-keys/"+keyID, 204)
		key.fails(t, "GET", "/api/v1/auth/me", nil, 401, "unauthenticated")
	})

	t.Run("an expired key is refused", func(t *testing.T) {
		expiry := time.Now().Add(2 * time.Second).Truncate(time.Second).Add(time.Second)
		body := ci.post(t, "/api/v1/me/api-keys", fmt.Sprintf(`{"name":"short-lived","expiresAt":%q}`, expiry.UTC().Format(time.RFC3339)), 201)
		short := ts.apiKeyClient(body["token"].(string))
		short.get(t, "/api/v1/auth/me", 200) // cached, but never past its expiry
		time.Sleep(time.Until(expiry) + 50*time.Millisecond)
		short.get(t, "/api/v1/auth/me", 401)
	})
	// Expired keys and garbage are refused with the same 401.
	for _, junk := range []struct{ name, token string }{
		{"a word", "nope"},
		{"the prefix alone", "assay_"},
		{"a malformed key", "assay_x_y"},
		{"a tampered key", token[:len(token)-2] + "zz"},
	} {
		t.Run("garbage is refused: "+junk.name, func(t *testing.T) {
			ts.bearerClient(junk.token).fails(t, "GET", "/api/v1/auth/me", nil, 401, "unauthenticated")
		})
	}

	t.Run("a key needs a name", func(t *testing.T) {
		ci.fails(t, "POST", "/api/v1/me/api-keys", `{"name":"  "}`, 400, "validation_failed")
	})
}

// TestAPIKeyTokenIsNotReplayed: an idempotent retry of a key creation learns that it
// succeeded, but the token is neither repeated nor stored.
func TestAPIKeyTokenIsNotReplayed(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	const path, create = "/api/v1/me/api-keys", `{"name":"deploy"}`
	var token string
	step(t, "the first request creates the key", func(t *testing.T) {
		res, body := admin.do(t, "POST", path, create, "Idempotency-Key", "create-deploy-key")
		require.Equal(t, 201, res.StatusCode, body)
		token = body["token"].(string)
		require.NotEmpty(t, res.Header.Get("X-RateLimit-Limit"))
	})
	t.Run("a retry learns it succeeded, without the token", func(t *testing.T) {
		res, body := admin.do(t, "POST", path, create, "Idempotency-Key", "create-deploy-key")
		requireEnvelope(t, res, body, 409, "conflict")
		require.Equal(t, "true", res.Header.Get("Idempotent-Replayed"))
		require.NotContains(t, fmt.Sprint(body), token)
	})
	t.Run("the token is not kept for replays", func(t *testing.T) {
		conn, err := pgx.Connect(context.Background(), ts.dsn)
		require.NoError(t, err)
		defer conn.Close(context.Background())
		var stored int
		require.NoError(t, conn.QueryRow(context.Background(), `SELECT count(*) FROM idempotency_keys WHERE position($1 in convert_from(body, 'UTF8')) > 0`, token).Scan(&stored))
		require.Zero(t, stored, "the token is not kept for replays")
		admin.get(t, path, 200)
	})
}

func TestAdministratorsManageOtherUsersKeys(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	robot, _ := ts.newUserNamed(t, "robot", "assessor")

	var token, keyID string
	step(t, "an administrator creates a key for another user", func(t *testing.T) {
		body := admin.post(t, "/api/v1/users/"+robot.ID+"/api-keys", `{"name":"pipeline"}`, 201)
		token, keyID = body["token"].(string), body["apiKey"].(map[string]any)["id"].(string)
	})
	t.Run("the key acts as its owner, not its creator", func(t *testing.T) {
		body := ts.bearerClient(token).get(t, "/api/v1/auth/me", 200)
		require.Equal(t, "robot", body["user"].(map[string]any)["username"], "the key acts as its owner, not its creator")
	})
	t.Run("the administrator lists the user's keys", func(t *testing.T) {
		body := admin.get(t, "/api/v1/users/"+robot.ID+"/api-keys", 200)
		require.Len(t, body["items"], 1)
	})
	t.Run("the administrator revokes it, effective at once", func(t *testing.T) {
		admin.delete(t, "/api/v1/users/"+robot.ID+"/api-keys/"+keyID, 204)
		ts.bearerClient(token).get(t, "/api/v1/auth/me", 401)
	})
	t.Run("keys of an unknown user are not found", func(t *testing.T) {
		admin.fails(t, "GET", "/api/v1/users/u_01m82hrkky527408g45wmneht9/api-keys", nil, 404, "not_found")
	})
}
