package main

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func TestDemoDataAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t) // right after setup, as the wizard calls it
	rows := newCatalogueRows(t, ts)
	published := rows.standard("OWASP ASVS", assess.StandardPublished)
	rows.standard("Unfinished", assess.StandardDraft)
	const demo = "/api/v1/admin/demo-data"

	t.Run("only holders of admin.settings load it", func(t *testing.T) {
		_, c := ts.newUser(t, assess.RoleAssessor)
		c.fails(t, "POST", demo, nil, 403, "permission_denied")
	})
	step(t, "the first load creates the demo organisation", func(t *testing.T) {
		body := admin.post(t, demo, nil, 200)
		require.Equal(t, false, body["alreadyLoaded"])
		require.Equal(t, map[string]any{"entities": float64(10), "relationships": float64(12), "projects": float64(2),
			"tags": float64(4), "users": float64(4)}, body["created"])
	})
	t.Run("a second load creates nothing", func(t *testing.T) {
		body := admin.post(t, demo, nil, 200)
		require.Equal(t, true, body["alreadyLoaded"])
		require.Equal(t, map[string]any{"entities": float64(0), "relationships": float64(0), "projects": float64(0),
			"tags": float64(0), "users": float64(0)}, body["created"])
		var entities int
		require.NoError(t, rows.conn.QueryRow(context.Background(), "SELECT count(*) FROM entities").Scan(&entities))
		require.Equal(t, 10, entities)
	})
	t.Run("the project in progress covers the shop and the published standards", func(t *testing.T) {
		list := items(t, admin.get(t, "/api/v1/projects?state=in_progress", 200))
		require.Len(t, list, 1)
		p := list[0]
		require.Equal(t, []string{published}, projectRefIDs(p["standards"]), "published standards only")
		require.Len(t, p["entities"], 2)
		require.Len(t, p["tags"], 2)
		require.Contains(t, p["ownerName"], "(demo)")
		require.Len(t, items(t, admin.get(t, "/api/v1/projects?limit=50", 200)), 2)
	})
	t.Run("the tags count what carries them", func(t *testing.T) {
		pci := items(t, admin.get(t, "/api/v1/tags?q=PCI", 200))[0]
		require.Equal(t, map[string]any{"standards": float64(0), "entities": float64(2), "projects": float64(1)}, pci["usage"])
	})
	t.Run("no demo account can sign in", func(t *testing.T) {
		users := items(t, admin.get(t, "/api/v1/users?q=demo.&limit=50", 200))
		require.Len(t, users, 4)
		var roles []string
		for _, u := range users {
			require.Equal(t, false, u["active"], u)
			roles = append(roles, u["roles"].([]any)[0].(string))
			var hasPassword bool
			require.NoError(t, rows.conn.QueryRow(context.Background(), "SELECT password_hash IS NOT NULL FROM users WHERE id = $1",
				u["id"]).Scan(&hasPassword))
			require.False(t, hasPassword, "a demo account has no password at all")
			for _, pw := range []string{"demo", "password", fixturePassword, u["username"].(string)} {
				res, body := ts.browser(t).do(t, "POST", "/api/v1/auth/login", map[string]any{"username": u["username"], "password": pw})
				require.Equal(t, http.StatusUnauthorized, res.StatusCode, body)
			}
		}
		require.ElementsMatch(t, []string{assess.RoleAssessor, assess.RoleAssessee, assess.RoleStandardsManager, assess.RoleStandardsApprover}, roles)
	})
	t.Run("an administrator can bring a demo account to life", func(t *testing.T) {
		u := items(t, admin.get(t, "/api/v1/users?q=demo.assessee", 200))[0]
		admin.post(t, "/api/v1/users/"+u["id"].(string)+"/password", map[string]any{"password": "a brand new password"}, 204)
		version := admin.get(t, "/api/v1/users/"+u["id"].(string), 200)["version"]
		admin.patch(t, "/api/v1/users/"+u["id"].(string), map[string]any{"version": version, "active": true}, 200)
		c := ts.login(t, "demo.assessee", "a brand new password")
		c.get(t, "/api/v1/projects", 200)
	})
	t.Run("the load is audited", func(t *testing.T) {
		audit := items(t, admin.get(t, "/api/v1/audit?action="+string(assess.ChangeDemoDataLoaded.Action), 200))
		require.Len(t, audit, 1)
		created := audit[0]["details"].(map[string]any)["created"].(map[string]any)
		require.Equal(t, float64(10), created["entities"], "the audit row records what was created: %v", created)
	})
}

// TestDemoDataConcurrentWithoutStandards: without any published standard the demo still
// loads (its project names none), and two loads at once create it once.
func TestDemoDataConcurrentWithoutStandards(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	results := make(chan map[string]any, 2)
	for range 2 {
		go func() {
			_, body := admin.do(t, "POST", "/api/v1/admin/demo-data", nil)
			results <- body
		}()
	}
	a, b := <-results, <-results
	require.ElementsMatch(t, []any{true, false}, []any{a["alreadyLoaded"], b["alreadyLoaded"]}, "%v %v", a, b)
	list := items(t, admin.get(t, "/api/v1/projects?state=in_progress", 200))
	require.Len(t, list, 1)
	require.Equal(t, []any{}, list[0]["standards"])
	figures := admin.get(t, "/api/v1/projects/"+list[0]["id"].(string)+"/figures", 200)
	require.Equal(t, "no_standards", figures["warnings"].([]any)[0].(map[string]any)["code"])
}

// TestDemoDataUsesEntitiesThatExistByName: an installation that has an "Acme Corp" already
// gets no second one from the demo data; the demo relationships and projects use the
// existing entity, and the answer names it.
func TestDemoDataUsesEntitiesThatExistByName(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	rows := newCatalogueRows(t, ts)
	existing := admin.post(t, "/api/v1/entities", map[string]any{"name": "ACME Corp", "type": "organization"}, 201)["id"]

	body := admin.post(t, "/api/v1/admin/demo-data", nil, 200)
	require.Equal(t, map[string]any{"entities": float64(9), "relationships": float64(12), "projects": float64(2),
		"tags": float64(4), "users": float64(4)}, body["created"])
	require.Equal(t, map[string]any{"entities": []any{"Acme Corp"}, "tags": []any{}, "users": []any{}}, body["existing"])
	var named, owned int
	require.NoError(t, rows.conn.QueryRow(context.Background(), "SELECT count(*) FROM entities WHERE lower(name) = 'acme corp'").Scan(&named))
	require.Equal(t, 1, named, "no second entity of a name that exists")
	require.NoError(t, rows.conn.QueryRow(context.Background(),
		"SELECT count(*) FROM entity_relationships WHERE source_id = $1", existing).Scan(&owned))
	require.Equal(t, 2, owned, "the existing entity owns the demo business units")
}
