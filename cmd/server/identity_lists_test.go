package main

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

// detailField is the field of the first detail of an error envelope.
func detailField(t *testing.T, body map[string]any) string {
	t.Helper()
	details, _ := body["details"].([]any)
	require.NotEmpty(t, details, body)
	return details[0].(map[string]any)["field"].(string)
}

// pageThrough follows nextCursor from the first page of path (which asks for one item
// per page) to the last and returns the ids seen, in order; no id twice.
func pageThrough(t *testing.T, b *apiClient, path string) []string {
	t.Helper()
	var ids []string
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		require.Less(t, page, 20)
		res, body := b.do(t, "GET", path+"&cursor="+url.QueryEscape(cursor), nil)
		require.Equal(t, 200, res.StatusCode, body)
		for _, it := range body["items"].([]any) {
			id := it.(map[string]any)["id"].(string)
			require.False(t, seen[id], "no item twice")
			seen[id] = true
			ids = append(ids, id)
		}
		if body["hasMore"] != true {
			return ids
		}
		cursor = body["nextCursor"].(string)
	}
}

// TestIdentityListsPageAndRefuseBadCursors: the API-key, invite and audit lists page
// newest first with opaque cursors, and refuse a cursor they did not hand out (garbage,
// or another list's) with 400 validation_failed on the cursor field.
func TestIdentityListsPageAndRefuseBadCursors(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	adminID := admin.user.ID
	var res *http.Response
	var body map[string]any
	var keys, invites []string
	for i := range 3 {
		res, body = admin.do(t, "POST", "/api/v1/me/api-keys", fmt.Sprintf(`{"name":"key %d"}`, i))
		require.Equal(t, 201, res.StatusCode, body)
		keys = append([]string{body["apiKey"].(map[string]any)["id"].(string)}, keys...)
		res, body = admin.do(t, "POST", "/api/v1/admin/invites", `{"intendedRole":"assessee"}`)
		require.Equal(t, 201, res.StatusCode, body)
		invites = append([]string{body["id"].(string)}, invites...)
	}
	require.Equal(t, keys, pageThrough(t, admin, "/api/v1/me/api-keys?limit=1"), "newest first")
	require.Equal(t, keys, pageThrough(t, admin, "/api/v1/users/"+adminID+"/api-keys?limit=1"))
	require.Equal(t, invites, pageThrough(t, admin, "/api/v1/admin/invites?limit=1"))
	require.GreaterOrEqual(t, len(pageThrough(t, admin, "/api/v1/audit?action=invite.created&limit=1")), 3)

	res, body = admin.do(t, "GET", "/api/v1/audit?limit=1", nil)
	require.Equal(t, 200, res.StatusCode, body)
	auditCursor := url.QueryEscape(body["nextCursor"].(string))
	res, body = admin.do(t, "GET", "/api/v1/admin/invites?limit=1", nil)
	require.Equal(t, 200, res.StatusCode, body)
	inviteCursor := url.QueryEscape(body["nextCursor"].(string))
	// Each list with garbage, and with a cursor of another list.
	lists := map[string]string{"/api/v1/me/api-keys": inviteCursor, "/api/v1/users/" + adminID + "/api-keys": inviteCursor,
		"/api/v1/admin/invites": auditCursor, "/api/v1/audit": inviteCursor}
	for list, foreign := range lists {
		for _, bad := range []string{"not-a-cursor", "MTIz", "%00", foreign} {
			res, body = admin.do(t, "GET", list+"?cursor="+bad, nil)
			requireEnvelope(t, res, body, 400, "validation_failed")
			require.Equal(t, "cursor", detailField(t, body), "%s?cursor=%s", list, bad)
		}
	}
	res, body = admin.do(t, "GET", "/api/v1/audit?cursor="+auditCursor+"&action=auth.", nil)
	requireEnvelope(t, res, body, 400, "validation_failed")
	require.Equal(t, "cursor", detailField(t, body), "a cursor is bound to the filters it was handed out with")
}

// TestInviteAndProfileValidation: an invite names a well-formed address (when it names
// one) and an existing role; a profile keeps a display name.
func TestInviteAndProfileValidation(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	res, body := admin.do(t, "GET", "/api/v1/auth/me", nil)
	require.Equal(t, 200, res.StatusCode, body)
	version := body["user"].(map[string]any)["version"]

	res, body = admin.do(t, "POST", "/api/v1/admin/invites", `{"email":"not-an-email","intendedRole":"assessor"}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
	require.Equal(t, "email", detailField(t, body))
	res, body = admin.do(t, "POST", "/api/v1/admin/invites", `{"email":"Ann <ann@example.com>","intendedRole":"assessor"}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
	require.Equal(t, "email", detailField(t, body))
	res, body = admin.do(t, "POST", "/api/v1/admin/invites", `{"email":"ann@example.com","intendedRole":"wizard"}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
	require.Equal(t, "intendedRole", detailField(t, body))
	res, body = admin.do(t, "POST", "/api/v1/admin/invites", `{"email":" ann@example.com ","intendedRole":"assessor"}`)
	require.Equal(t, 201, res.StatusCode, body)
	require.Equal(t, "ann@example.com", body["email"])

	res, body = admin.do(t, "PATCH", "/api/v1/auth/me", fmt.Sprintf(`{"version":%v,"displayName":"   "}`, version))
	requireEnvelope(t, res, body, 400, "validation_failed")
	require.Equal(t, "displayName", detailField(t, body))
	res, body = admin.do(t, "PATCH", "/api/v1/auth/me", fmt.Sprintf(`{"version":%v,"displayName":" Ada "}`, version))
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "Ada", body["user"].(map[string]any)["displayName"])
}
