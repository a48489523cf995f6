package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestDashboardLayoutAPI (issue 25 item 1): each user's dashboard layout over HTTP — the
// default of one's role until one saves a layout, the saved one afterwards (through a session
// and an API key alike), nobody else's, strict validation in the envelope, and DELETE back to
// the default.
func TestDashboardLayoutAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	_, ann := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	_, bob := ts.newUserNamed(t, "bob", assess.RoleAssessee)
	_, sam := ts.newUserNamed(t, "sam", assess.RoleStandardsManager)
	_, cus := ts.newUser(t, ts.newRole(t, string(assess.PermProjectsView)).Name)
	const path = "/api/v1/me/dashboard-layout"

	tiles := func(role string) []any {
		_, def := assess.DefaultDashboardLayout([]string{role})
		return jsonValue(t, def).([]any)
	}
	mine := []map[string]any{
		{"widget": "health", "x": 6, "y": 0, "w": 6, "h": 4},
		{"widget": "overdueAssessments", "x": 0, "y": 0, "w": 3, "h": 2},
		{"widget": "conformance", "x": 0, "y": 4, "w": 12, "h": 8},
	}
	inReadingOrder := []any{jsonValue(t, mine[1]), jsonValue(t, mine[0]), jsonValue(t, mine[2])}

	step(t, "without a saved layout each role gets its default", func(t *testing.T) {
		for _, c := range []struct {
			client *apiClient
			role   string
			tiles  []any
		}{
			{ann, assess.RoleAssessor, tiles(assess.RoleAssessor)},
			{bob, assess.RoleAssessee, tiles(assess.RoleAssessee)},
			{sam, assess.RoleStandardsManager, tiles(assess.RoleStandardsManager)},
			{admin, assess.RoleAdmin, tiles(assess.RoleAdmin)},
			{cus, "", tiles("")},
		} {
			body := c.client.get(t, path, http.StatusOK)
			require.Equal(t, true, body["isDefault"], c.role)
			require.Equal(t, c.role, body["defaultRole"])
			require.Equal(t, c.tiles, body["widgets"], c.role)
			require.NotContains(t, body, "updatedAt")
			require.Equal(t, jsonValue(t, assess.DashboardCatalogue()), body["catalogue"])
		}
		require.NotEqual(t, tiles(assess.RoleAssessor), tiles(assess.RoleAssessee), "the roles' defaults differ")
	})

	step(t, "a saved layout is what the user reads back, in reading order, also with an API key", func(t *testing.T) {
		body := ann.expect(t, http.StatusOK, http.MethodPut, path, map[string]any{"widgets": mine})
		require.Equal(t, false, body["isDefault"])
		require.Equal(t, inReadingOrder, body["widgets"])
		require.NotEmpty(t, body["updatedAt"])
		again := ann.get(t, path, http.StatusOK)
		require.Equal(t, inReadingOrder, again["widgets"])
		require.Equal(t, false, again["isDefault"])
		require.Equal(t, assess.RoleAssessor, again["defaultRole"], "the role whose default a reset brings back")
		key := ts.bearerClient(ts.newAPIKey(t, ann))
		require.Equal(t, inReadingOrder, key.get(t, path, http.StatusOK)["widgets"])
	})

	step(t, "another user does not see it", func(t *testing.T) {
		body := bob.get(t, path, http.StatusOK)
		require.Equal(t, true, body["isDefault"])
		require.Equal(t, tiles(assess.RoleAssessee), body["widgets"])
		other := admin.get(t, path, http.StatusOK)
		require.Equal(t, tiles(assess.RoleAdmin), other["widgets"])
	})

	step(t, "an empty dashboard is a layout too", func(t *testing.T) {
		body := sam.expect(t, http.StatusOK, http.MethodPut, path, map[string]any{"widgets": []any{}})
		require.Equal(t, []any{}, body["widgets"])
		require.Equal(t, false, sam.get(t, path, http.StatusOK)["isDefault"])
	})

	step(t, "invalid layouts are refused in the envelope and change nothing", func(t *testing.T) {
		tile := func(widget string, x, y, w, h int) map[string]any {
			return map[string]any{"widget": widget, "x": x, "y": y, "w": w, "h": h}
		}
		tooMany := []any{}
		for i := range 33 {
			tooMany = append(tooMany, tile("health", 0, i, 1, 1))
		}
		for _, c := range []struct {
			name  string
			body  any
			field string // of a detail; "" when the message alone tells
			code  string
		}{
			{"an unknown widget", map[string]any{"widgets": []any{tile("weather", 0, 0, 2, 2)}}, "widgets[0].widget", ""},
			{"a widget twice", map[string]any{"widgets": []any{tile("health", 0, 0, 2, 2), tile("health", 4, 0, 2, 2)}}, "widgets[1].widget", "duplicate"},
			{"past the last column", map[string]any{"widgets": []any{tile("health", 8, 0, 6, 2)}}, "widgets[0].x", "out_of_range"},
			{"wider than the grid", map[string]any{"widgets": []any{tile("health", 0, 0, 13, 2)}}, "widgets[0].w", ""},
			{"no height", map[string]any{"widgets": []any{tile("health", 0, 0, 2, 0)}}, "widgets[0].h", ""},
			{"below the last row", map[string]any{"widgets": []any{tile("health", 0, 399, 2, 2)}}, "widgets[0].y", "out_of_range"},
			{"negative", map[string]any{"widgets": []any{tile("health", -1, 0, 2, 2)}}, "widgets[0].x", ""},
			{"overlapping", map[string]any{"widgets": []any{tile("health", 0, 0, 6, 4), tile("welcome", 5, 3, 6, 4)}}, "widgets[1]", "overlap"},
			{"too many", map[string]any{"widgets": tooMany}, "widgets", ""},
			{"a size missing", map[string]any{"widgets": []any{map[string]any{"widget": "health", "x": 0, "y": 0, "w": 2}}}, "widgets[0].h", ""},
			{"an unknown field", map[string]any{"widgets": []any{}, "owner": "bob"}, "owner", ""},
			{"no widgets", map[string]any{}, "widgets", ""},
			{"a fraction", `{"widgets":[{"widget":"health","x":0.5,"y":0,"w":2,"h":2}]}`, "widgets[0].x", ""},
			{"a NUL character", `{"widgets":[{"widget":"health\u0000","x":0,"y":0,"w":2,"h":2}]}`, "widgets[0].widget", ""},
			{"invalid UTF-8", "{\"widgets\":[{\"widget\":\"he\xffalth\",\"x\":0,\"y\":0,\"w\":2,\"h\":2}]}", "widgets[0].widget", ""},
		} {
			res, body := ann.do(t, http.MethodPut, path, c.body)
			requireEnvelope(t, res, body, http.StatusBadRequest, assess.ECodeValidation)
			details, _ := body["details"].([]any)
			var fields, codes []string
			for _, d := range details {
				fields = append(fields, d.(map[string]any)["field"].(string))
				code, _ := d.(map[string]any)["code"].(string)
				codes = append(codes, code)
			}
			require.Contains(t, fields, c.field, "%s: %v", c.name, body)
			if c.code != "" {
				require.Contains(t, codes, c.code, "%s: %v", c.name, body)
			}
		}
		res, body := ann.do(t, http.MethodPut, path, "not json", "Content-Type", "text/plain")
		requireEnvelope(t, res, body, http.StatusUnsupportedMediaType, "unsupported_media_type")
		huge := `{"widgets":[],"pad":"` + strings.Repeat("x", 2<<20) + `"}`
		res, body = ann.do(t, http.MethodPut, path, huge)
		requireEnvelope(t, res, body, http.StatusRequestEntityTooLarge, assess.ECodePayloadTooLarge)
		require.Equal(t, inReadingOrder, ann.get(t, path, http.StatusOK)["widgets"], "the saved layout stands")
	})

	step(t, "signed out, there is no layout", func(t *testing.T) {
		ts.browser(t).fails(t, http.MethodGet, path, nil, http.StatusUnauthorized, assess.ECodeUnauthenticated)
		ts.browser(t).fails(t, http.MethodPut, path, map[string]any{"widgets": mine}, http.StatusUnauthorized, assess.ECodeUnauthenticated)
	})

	step(t, "DELETE brings the default back, and again changes nothing", func(t *testing.T) {
		for range 2 {
			body := ann.delete(t, path, http.StatusOK)
			require.Equal(t, true, body["isDefault"])
			require.Equal(t, tiles(assess.RoleAssessor), body["widgets"])
			got := ann.get(t, path, http.StatusOK)
			require.Equal(t, true, got["isDefault"])
			require.Equal(t, tiles(assess.RoleAssessor), got["widgets"])
		}
		require.Equal(t, false, sam.get(t, path, http.StatusOK)["isDefault"], "only the caller's layout is forgotten")
	})
}

// jsonValue is v as the API's JSON decodes into any.
func jsonValue(t testing.TB, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}
