package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// catalogueRows inserts catalogue rows the tests need before the standards and entities
// APIs exist, straight into the server's database.
type catalogueRows struct {
	t    *testing.T
	conn *pgx.Conn
}

func newCatalogueRows(t *testing.T, ts *testServer) *catalogueRows {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return &catalogueRows{t: t, conn: conn}
}

// exec runs one statement.
func (c *catalogueRows) exec(sql string, args ...any) {
	c.t.Helper()
	_, err := c.conn.Exec(context.Background(), sql, args...)
	require.NoError(c.t, err, sql)
}

// standard inserts a standard in state and returns its id.
func (c *catalogueRows) standard(name string, state assess.StandardState) string {
	c.t.Helper()
	id := assess.NewID(assess.PrefixStandard, time.Now())
	c.exec(`INSERT INTO standards (id, identifier, standard_version, name, state) VALUES ($1, $2, '1.0', $3, $4)`,
		id, fmt.Sprintf("%s-%s", name, id[len(id)-6:]), name, state)
	return id
}

// entity inserts an entity of type typ in state and returns its id.
func (c *catalogueRows) entity(name, typ, state string) string {
	c.t.Helper()
	id := assess.NewID(assess.PrefixEntity, time.Now())
	c.exec(`INSERT INTO entities (id, name, entity_type, state) VALUES ($1, $2, $3, $4)`, id, name, typ, state)
	return id
}

func TestTagsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	const tags = "/api/v1/tags"

	var critical map[string]any
	step(t, "an administrator creates a tag; the colour is stored in lower case", func(t *testing.T) {
		critical = admin.post(t, tags, map[string]any{"name": " Critical ", "color": "#DC2626", "description": "Stops the business"}, 201)
		require.Regexp(t, `^tg_`, critical["id"])
		require.Equal(t, "Critical", critical["name"])
		require.Equal(t, "#dc2626", critical["color"])
		require.Equal(t, float64(1), critical["version"])
		require.Equal(t, map[string]any{"standards": float64(0), "entities": float64(0), "projects": float64(0)}, critical["usage"])
	})
	t.Run("a tag without a colour gets the palette colour of its name", func(t *testing.T) {
		body := admin.post(t, tags, map[string]any{"name": "Customer-facing"}, 201)
		require.Equal(t, assess.DefaultTagColor("Customer-facing"), body["color"])
	})
	t.Run("a name taken in another letter case is refused", func(t *testing.T) {
		body := admin.fails(t, "POST", tags, map[string]any{"name": "CRITICAL"}, 409, "already_exists")
		require.Equal(t, "name", body["details"].([]any)[0].(map[string]any)["field"])
	})
	for _, bad := range []string{"red", "#12345", "#1234567", "dc2626", "#gggggg"} {
		t.Run("a malformed colour is refused: "+bad, func(t *testing.T) {
			body := admin.fails(t, "POST", tags, map[string]any{"name": "Colour " + bad, "color": bad}, 400, "validation_failed")
			require.Contains(t, fmt.Sprint(body["details"]), "color")
		})
	}
	t.Run("a name with a control character is refused", func(t *testing.T) {
		admin.fails(t, "POST", tags, map[string]any{"name": "a\u0007b"}, 400, "validation_failed")
	})

	step(t, "an update carries the version; a stale one conflicts", func(t *testing.T) {
		body := admin.patch(t, tags+"/"+critical["id"].(string), map[string]any{"version": 1, "color": "#EA580C"}, 200)
		require.Equal(t, "#ea580c", body["color"])
		require.Equal(t, "Critical", body["name"])
		require.Equal(t, float64(2), body["version"])
		admin.fails(t, "PATCH", tags+"/"+critical["id"].(string), map[string]any{"version": 1, "name": "Stale"}, 409, "version_conflict")
	})
	t.Run("renaming onto a taken name is refused", func(t *testing.T) {
		admin.fails(t, "PATCH", tags+"/"+critical["id"].(string), map[string]any{"version": 2, "name": "customer-FACING"}, 409, "already_exists")
	})

	t.Run("the list is ordered by name, searchable and pages", func(t *testing.T) {
		for _, n := range []string{"Äpfel", "beta", "Zulu"} {
			admin.post(t, tags, map[string]any{"name": n}, 201)
		}
		var names []string
		for _, it := range allPages(t, admin, tags+"?limit=2") {
			names = append(names, it["name"].(string))
		}
		require.Len(t, names, 5)
		require.Contains(t, names, "Äpfel")
		found := items(t, admin.get(t, tags+"?q=RITIC", 200))
		require.Equal(t, []string{critical["id"].(string)}, idsOf(found))
	})

	t.Run("every signed-in user reads the tags, with the counts they may see", func(t *testing.T) {
		_, assessee := ts.newUser(t, assess.RoleAssessee)
		list := items(t, assessee.get(t, tags+"?q=Critical", 200))
		require.Len(t, list, 1)
		require.Equal(t, map[string]any{"standards": float64(0), "entities": float64(0), "projects": float64(0)}, list[0]["usage"])
		_, manager := ts.newUser(t, assess.RoleStandardsManager)
		list = items(t, manager.get(t, tags+"?q=Critical", 200))
		require.Equal(t, map[string]any{"standards": float64(0)}, list[0]["usage"], "no counts of entities or projects")
		ts.browser(t).fails(t, "GET", tags, nil, 401, "unauthenticated")
	})
	t.Run("only holders of admin.tags change tags", func(t *testing.T) {
		_, assessor := ts.newUser(t, assess.RoleAssessor)
		assessor.fails(t, "POST", tags, map[string]any{"name": "Mine"}, 403, "permission_denied")
		assessor.fails(t, "PATCH", tags+"/"+critical["id"].(string), map[string]any{"version": 2}, 403, "permission_denied")
		assessor.fails(t, "DELETE", tags+"/"+critical["id"].(string), nil, 403, "permission_denied")
	})

	t.Run("deleting a tag detaches it everywhere", func(t *testing.T) {
		rows := newCatalogueRows(t, ts)
		tagID := critical["id"].(string)
		st, en := rows.standard("Tagged standard", assess.StandardPublished), rows.entity("Tagged entity", "product", "active")
		rows.exec(`INSERT INTO standard_tags (standard_id, tag_id) VALUES ($1, $2)`, st, tagID)
		rows.exec(`INSERT INTO entity_tags (entity_id, tag_id) VALUES ($1, $2)`, en, tagID)
		project := admin.post(t, "/api/v1/projects", map[string]any{"name": "Tagged project", "tagIds": []string{tagID}}, 201)
		require.Equal(t, tagID, project["tags"].([]any)[0].(map[string]any)["id"])
		usage := items(t, admin.get(t, tags+"?q=Critical", 200))[0]["usage"]
		require.Equal(t, map[string]any{"standards": float64(1), "entities": float64(1), "projects": float64(1)}, usage)

		admin.delete(t, tags+"/"+tagID, 204)
		require.Empty(t, admin.get(t, "/api/v1/projects/"+project["id"].(string), 200)["tags"])
		require.Equal(t, project["version"], admin.get(t, "/api/v1/projects/"+project["id"].(string), 200)["version"], "the record's version stays")
		var left int
		require.NoError(t, rows.conn.QueryRow(context.Background(),
			`SELECT (SELECT count(*) FROM standard_tags) + (SELECT count(*) FROM entity_tags) + (SELECT count(*) FROM project_tags)`).Scan(&left))
		require.Zero(t, left)
		admin.fails(t, "DELETE", tags+"/"+tagID, nil, 404, "not_found")
	})
	for _, id := range []string{"tg_00000000000000000000000000", "nonsense", "u_01hzzzzzzzzzzzzzzzzzzzzzzz"} {
		t.Run("an unknown or malformed id is not found: "+id, func(t *testing.T) {
			admin.fails(t, "PATCH", tags+"/"+id, map[string]any{"version": 1}, 404, "not_found")
			admin.fails(t, "DELETE", tags+"/"+id, nil, 404, "not_found")
		})
	}
	t.Run("tag changes are audited", func(t *testing.T) {
		body := admin.get(t, "/api/v1/audit?action=tag.&limit=200", 200)
		actions := map[string]bool{}
		for _, it := range items(t, body) {
			actions[it["action"].(string)] = true
		}
		for _, a := range []assess.AuditAction{assess.ChangeTagCreated.Action, assess.ChangeTagUpdated.Action, assess.ChangeTagDeleted.Action} {
			require.True(t, actions[string(a)], "audit log has %s", a)
		}
	})
}
