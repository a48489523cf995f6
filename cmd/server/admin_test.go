package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUsersAndRolesAdministration(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := newBrowser(t, ts)
	res, body := admin.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	adminID := body["user"].(map[string]any)["id"].(string)

	for i := range 5 {
		res, body := admin.do("POST", "/api/v1/users", fmt.Sprintf(
			`{"username":"user%d","email":"user%d@example.com","displayName":"User %d","password":"long enough password","roles":["assessee"]}`, i, i, i))
		require.Equal(t, 201, res.StatusCode, body)
	}
	res, body = admin.do("POST", "/api/v1/users", `{"username":"USER1","email":"x@example.com","displayName":"x","password":"long enough password","roles":[]}`)
	requireEnvelope(t, res, body, 409, "already_exists")
	res, body = admin.do("POST", "/api/v1/users", `{"username":"bad","email":"b@example.com","displayName":"b","password":"long enough password","roles":["wizard"]}`)
	requireEnvelope(t, res, body, 400, "validation_failed")

	// Server-side search, filters and keyset pages.
	res, body = admin.do("GET", "/api/v1/users?q=user&limit=2", "")
	require.Equal(t, 200, res.StatusCode)
	require.Len(t, body["items"], 2)
	require.Equal(t, true, body["hasMore"])
	var names []string
	cursor := ""
	for {
		res, body = admin.do("GET", "/api/v1/users?q=USER&limit=2&cursor="+cursor, "")
		require.Equal(t, 200, res.StatusCode, body)
		for _, it := range body["items"].([]any) {
			names = append(names, it.(map[string]any)["username"].(string))
		}
		if body["hasMore"] != true {
			break
		}
		cursor = body["nextCursor"].(string)
	}
	require.Equal(t, []string{"user0", "user1", "user2", "user3", "user4"}, names)
	res, body = admin.do("GET", "/api/v1/users?role=admin", "")
	require.Equal(t, 200, res.StatusCode)
	require.Len(t, body["items"], 1)

	// user0 signs in; an admin edits them with the version they read.
	u0 := newBrowser(t, ts)
	res, _ = u0.do("POST", "/api/v1/auth/login", `{"username":"user0","password":"long enough password"}`)
	require.Equal(t, 200, res.StatusCode)
	res, body = admin.do("GET", "/api/v1/users?q=user0", "")
	require.Equal(t, 200, res.StatusCode)
	user0 := body["items"].([]any)[0].(map[string]any)
	id0, v0 := user0["id"].(string), user0["version"].(float64)
	res, body = admin.do("PATCH", "/api/v1/users/"+id0, fmt.Sprintf(`{"version":%v,"displayName":"Zero"}`, v0))
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "Zero", body["displayName"])
	res, body = admin.do("PATCH", "/api/v1/users/"+id0, fmt.Sprintf(`{"version":%v,"displayName":"Stale"}`, v0))
	requireEnvelope(t, res, body, 409, "version_conflict")

	// A custom role that really grants what it lists, applied at the next request.
	res, _ = u0.do("GET", "/api/v1/audit", "")
	require.Equal(t, 403, res.StatusCode)
	res, body = admin.do("POST", "/api/v1/roles", `{"name":"auditor","description":"Reads the audit log","permissions":["admin.audit"]}`)
	require.Equal(t, 201, res.StatusCode, body)
	roleID := body["id"].(string)
	res, body = admin.do("POST", "/api/v1/roles", `{"name":"broken","permissions":["audit.everything"]}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
	_, body = admin.do("GET", "/api/v1/users/"+id0, "")
	res, body = admin.do("PATCH", "/api/v1/users/"+id0, fmt.Sprintf(`{"version":%v,"roles":["assessee","auditor"]}`, body["version"]))
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, []any{"assessee", "auditor"}, body["roles"])
	res, _ = u0.do("GET", "/api/v1/audit", "")
	require.Equal(t, 200, res.StatusCode)
	res, body = admin.do("DELETE", "/api/v1/roles/"+roleID, "")
	requireEnvelope(t, res, body, 409, "conflict")

	res, body = admin.do("GET", "/api/v1/roles", "")
	require.Equal(t, 200, res.StatusCode)
	var builtinID string
	for _, it := range body["items"].([]any) {
		if r := it.(map[string]any); r["name"] == "assessee" {
			builtinID = r["id"].(string)
		}
	}
	res, body = admin.do("PATCH", "/api/v1/roles/"+builtinID, `{"version":1,"permissions":["admin.audit"]}`)
	requireEnvelope(t, res, body, 422, "business_rule_violation")
	res, body = admin.do("DELETE", "/api/v1/roles/"+builtinID, "")
	requireEnvelope(t, res, body, 422, "business_rule_violation")

	// Deactivation signs the user out at once; an admin cannot deactivate themselves,
	// and the last administrator keeps the role.
	_, body = admin.do("GET", "/api/v1/users/"+id0, "")
	res, body = admin.do("PATCH", "/api/v1/users/"+id0, fmt.Sprintf(`{"version":%v,"active":false}`, body["version"]))
	require.Equal(t, 200, res.StatusCode, body)
	res, _ = u0.do("GET", "/api/v1/auth/me", "")
	require.Equal(t, 401, res.StatusCode)
	_, body = admin.do("GET", "/api/v1/users/"+adminID, "")
	v := body["version"]
	res, body = admin.do("PATCH", "/api/v1/users/"+adminID, fmt.Sprintf(`{"version":%v,"active":false}`, v))
	requireEnvelope(t, res, body, 422, "business_rule_violation")
	res, body = admin.do("PATCH", "/api/v1/users/"+adminID, fmt.Sprintf(`{"version":%v,"roles":["assessee"]}`, v))
	requireEnvelope(t, res, body, 422, "business_rule_violation")

	// A password reset by an administrator works and ends the user's sessions.
	res, body = admin.do("POST", "/api/v1/users/"+id0+"/password", `{"password":"short"}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
	res, _ = admin.do("POST", "/api/v1/users/"+id0+"/password", `{"password":"a brand new passphrase"}`)
	require.Equal(t, 204, res.StatusCode)
	res, body = admin.do("GET", "/api/v1/users/u_doesnotexist", "")
	requireEnvelope(t, res, body, 404, "not_found")
}
