package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUsersAndRolesAdministration(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	adminID := admin.user.ID

	step(t, "an administrator creates users", func(t *testing.T) {
		for i := range 5 {
			admin.post(t, "/api/v1/users", fmt.Sprintf(
				`{"username":"user%d","email":"user%d@example.com","displayName":"User %d","password":"long enough password","roles":["assessee"]}`, i, i, i), 201)
		}
	})
	t.Run("a username differing only in case already exists", func(t *testing.T) {
		admin.fails(t, "POST", "/api/v1/users", `{"username":"USER1","email":"x@example.com","displayName":"x","password":"long enough password","roles":[]}`,
			409, "already_exists")
	})
	t.Run("an unknown role is refused", func(t *testing.T) {
		admin.fails(t, "POST", "/api/v1/users", `{"username":"bad","email":"b@example.com","displayName":"b","password":"long enough password","roles":["wizard"]}`,
			400, "validation_failed")
	})

	// Server-side search, filters and keyset pages.
	t.Run("a search answers a page of the limit", func(t *testing.T) {
		body := admin.get(t, "/api/v1/users?q=user&limit=2", 200)
		require.Len(t, body["items"], 2)
		require.Equal(t, true, body["hasMore"])
	})
	t.Run("following the cursor finds every match once, case-insensitively", func(t *testing.T) {
		var names []string
		cursor := ""
		for {
			body := admin.get(t, "/api/v1/users?q=USER&limit=2&cursor="+cursor, 200)
			for _, it := range body["items"].([]any) {
				names = append(names, it.(map[string]any)["username"].(string))
			}
			if body["hasMore"] != true {
				break
			}
			cursor = body["nextCursor"].(string)
		}
		require.Equal(t, []string{"user0", "user1", "user2", "user3", "user4"}, names)
	})
	t.Run("users are filtered by role", func(t *testing.T) {
		body := admin.get(t, "/api/v1/users?role=admin", 200)
		require.Len(t, body["items"], 1)
	})

	// user0 signs in; an admin edits them with the version they read.
	var u0 *apiClient
	var id0 string
	var v0 any
	step(t, "a user signs in and an administrator finds them", func(t *testing.T) {
		u0 = ts.login(t, "user0", "long enough password")
		body := admin.get(t, "/api/v1/users?q=user0", 200)
		user0 := body["items"].([]any)[0].(map[string]any)
		id0, v0 = user0["id"].(string), user0["version"].(float64)
	})
	versionOf := func(t *testing.T, id string) any {
		t.Helper()
		return admin.get(t, "/api/v1/users/"+id, 200)["version"]
	}
	t.Run("an edit needs the version read", func(t *testing.T) {
		body := admin.patch(t, "/api/v1/users/"+id0, fmt.Sprintf(`{"version":%v,"displayName":"Zero"}`, v0), 200)
		require.Equal(t, "Zero", body["displayName"])
		admin.fails(t, "PATCH", "/api/v1/users/"+id0, fmt.Sprintf(`{"version":%v,"displayName":"Stale"}`, v0), 409, "version_conflict")
	})

	// A custom role that really grants what it lists, applied at the next request.
	var roleID string
	step(t, "a custom role grants its permissions at the next request", func(t *testing.T) {
		res, _ := u0.do(t, "GET", "/api/v1/audit", nil)
		require.Equal(t, 403, res.StatusCode)
		body := admin.post(t, "/api/v1/roles", `{"name":"auditor","description":"Reads the audit log","permissions":["admin.audit"]}`, 201)
		roleID = body["id"].(string)
		body = admin.patch(t, "/api/v1/users/"+id0, fmt.Sprintf(`{"version":%v,"roles":["assessee","auditor"]}`, versionOf(t, id0)), 200)
		require.Equal(t, []any{"assessee", "auditor"}, body["roles"])
		res, _ = u0.do(t, "GET", "/api/v1/audit", nil)
		require.Equal(t, 200, res.StatusCode)
	})
	t.Run("a role with an unknown permission is refused", func(t *testing.T) {
		admin.fails(t, "POST", "/api/v1/roles", `{"name":"broken","permissions":["audit.everything"]}`, 400, "validation_failed")
	})
	t.Run("a role in use cannot be deleted", func(t *testing.T) {
		admin.fails(t, "DELETE", "/api/v1/roles/"+roleID, nil, 409, "conflict")
	})
	t.Run("built-in roles cannot be changed or deleted", func(t *testing.T) {
		body := admin.get(t, "/api/v1/roles", 200)
		var builtinID string
		for _, it := range body["items"].([]any) {
			if r := it.(map[string]any); r["name"] == "assessee" {
				builtinID = r["id"].(string)
			}
		}
		admin.fails(t, "PATCH", "/api/v1/roles/"+builtinID, `{"version":1,"permissions":["admin.audit"]}`, 422, "business_rule_violation")
		admin.fails(t, "DELETE", "/api/v1/roles/"+builtinID, nil, 422, "business_rule_violation")
	})

	// Deactivation signs the user out at once; an admin cannot deactivate themselves,
	// and the last administrator keeps the role.
	t.Run("deactivation signs the user out at once", func(t *testing.T) {
		admin.patch(t, "/api/v1/users/"+id0, fmt.Sprintf(`{"version":%v,"active":false}`, versionOf(t, id0)), 200)
		res, _ := u0.do(t, "GET", "/api/v1/auth/me", nil)
		require.Equal(t, 401, res.StatusCode)
	})
	t.Run("an administrator cannot deactivate themselves", func(t *testing.T) {
		admin.fails(t, "PATCH", "/api/v1/users/"+adminID, fmt.Sprintf(`{"version":%v,"active":false}`, versionOf(t, adminID)),
			422, "business_rule_violation")
	})
	t.Run("the last administrator keeps the role", func(t *testing.T) {
		admin.fails(t, "PATCH", "/api/v1/users/"+adminID, fmt.Sprintf(`{"version":%v,"roles":["assessee"]}`, versionOf(t, adminID)),
			422, "business_rule_violation")
	})

	// A password reset by an administrator.
	t.Run("an administrator's password reset applies the policy", func(t *testing.T) {
		admin.fails(t, "POST", "/api/v1/users/"+id0+"/password", `{"password":"short"}`, 400, "validation_failed")
	})
	t.Run("an administrator resets a user's password", func(t *testing.T) {
		admin.post(t, "/api/v1/users/"+id0+"/password", `{"password":"a brand new passphrase"}`, 204)
	})
	t.Run("an unknown user is not found", func(t *testing.T) {
		admin.fails(t, "GET", "/api/v1/users/u_doesnotexist", nil, 404, "not_found")
	})
}
