package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

const entitiesPath = "/api/v1/entities"

// sqlExec runs a statement on the test server's database: for records whose API is not
// this test's subject (tags, standards, projects).
func (ts *testServer) sqlExec(t testing.TB, query string, args ...any) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), query, args...)
	require.NoError(t, err)
}

// newTagSQL inserts a tag directly and returns its id.
func (ts *testServer) newTagSQL(t testing.TB, name string) string {
	t.Helper()
	id := assess.NewID(assess.PrefixTag, time.Now())
	ts.sqlExec(t, `INSERT INTO tags (id, name, color) VALUES ($1, $2, '#123456')`, id, name)
	return id
}

// newStandardSQL inserts a standard in the given state directly and returns its id.
func (ts *testServer) newStandardSQL(t testing.TB, name, state string) string {
	t.Helper()
	id := assess.NewID(assess.PrefixStandard, time.Now())
	ts.sqlExec(t, `INSERT INTO standards (id, identifier, standard_version, name, state) VALUES ($1, $2, '1.0', $3, $4)`,
		id, strings.ToLower(strings.ReplaceAll(name, " ", "-")), name, state)
	return id
}

// newLevelSQL inserts a level of a standard directly and returns its id.
func (ts *testServer) newLevelSQL(t testing.TB, standardID, identifier string) string {
	t.Helper()
	id := assess.NewID(assess.PrefixLevel, time.Now())
	ts.sqlExec(t, `INSERT INTO levels (id, standard_id, identifier, title) VALUES ($1, $2, $3, $4)`, id, standardID, identifier, "Level "+identifier)
	return id
}

// newEntity creates an entity of a type through the API and returns its id.
func newEntity(t testing.TB, c *apiClient, name, typ string) string {
	t.Helper()
	body := c.post(t, entitiesPath, map[string]any{"name": name, "type": typ}, http.StatusCreated)
	id, _ := body["id"].(string)
	require.True(t, strings.HasPrefix(id, assess.PrefixEntity), "%v", body)
	return id
}

// relate adds the relationship source <typ> target and returns its id.
func relate(t testing.TB, c *apiClient, source, typ, target string) string {
	t.Helper()
	body := c.post(t, entitiesPath+"/"+source+"/relationships", map[string]any{"targetId": target, "type": typ}, http.StatusCreated)
	id, _ := body["id"].(string)
	require.True(t, strings.HasPrefix(id, assess.PrefixRelationship), "%v", body)
	return id
}

func TestEntitiesAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	red, blue := ts.newTagSQL(t, "red"), ts.newTagSQL(t, "blue")

	var acme string
	step(t, "an entity is created with its tags", func(t *testing.T) {
		body := admin.post(t, entitiesPath, map[string]any{"name": " Acme ", "type": "organization",
			"description": "The company", "tagIds": []string{red}}, http.StatusCreated)
		acme = body["id"].(string)
		require.True(t, strings.HasPrefix(acme, "en_"), acme)
		require.Equal(t, "Acme", body["name"])
		require.Equal(t, "active", body["state"])
		require.Equal(t, acme, body["bomRef"])
		require.Equal(t, float64(1), body["version"])
		require.Len(t, body["tags"], 1)
		require.Equal(t, "red", body["tags"].([]any)[0].(map[string]any)["name"])
	})
	for _, bad := range []struct{ name, body, field string }{
		{"without a name", `{"type":"team"}`, ""},
		{"with a blank name", `{"name":"  ","type":"team"}`, "name"},
		{"with an unknown type", `{"name":"x","type":"planet"}`, ""},
		{"created archived", `{"name":"x","type":"team","state":"archived"}`, ""},
		{"with an unknown tag", fmt.Sprintf(`{"name":"x","type":"team","tagIds":[%q]}`, assess.NewID(assess.PrefixTag, time.Now())), "tagIds"},
		{"with an unknown owner", fmt.Sprintf(`{"name":"x","type":"team","ownerId":%q}`, assess.NewID(assess.PrefixUser, time.Now())), "ownerId"},
		{"with an unknown field", `{"name":"x","type":"team","colour":"red"}`, ""},
	} {
		t.Run("an entity is refused "+bad.name, func(t *testing.T) {
			body := admin.fails(t, "POST", entitiesPath, bad.body, 400, "validation_failed")
			if bad.field != "" {
				require.Equal(t, bad.field, body["details"].([]any)[0].(map[string]any)["field"], body)
			}
		})
	}
	t.Run("unknown and malformed ids are 404", func(t *testing.T) {
		for _, id := range []string{assess.NewID(assess.PrefixEntity, time.Now()), "en_nope", "x", assess.NewID(assess.PrefixUser, time.Now())} {
			admin.fails(t, "GET", entitiesPath+"/"+id, nil, 404, "not_found")
			admin.fails(t, "PATCH", entitiesPath+"/"+id, `{"version":1,"name":"x"}`, 404, "not_found")
			admin.fails(t, "DELETE", entitiesPath+"/"+id, nil, 404, "not_found")
			admin.fails(t, "GET", entitiesPath+"/"+id+"/relationships", nil, 404, "not_found")
			admin.fails(t, "GET", entitiesPath+"/"+id+"/graph", nil, 404, "not_found")
			admin.fails(t, "GET", entitiesPath+"/"+id+"/policies", nil, 404, "not_found")
		}
	})

	step(t, "an update carries the version, keeps what it leaves out and replaces the tags", func(t *testing.T) {
		body := admin.patch(t, entitiesPath+"/"+acme, map[string]any{"version": 1, "name": "Acme Corp",
			"tagIds": []string{blue, red}, "ownerId": admin.user.ID}, 200)
		require.Equal(t, "Acme Corp", body["name"])
		require.Equal(t, "The company", body["description"])
		require.Equal(t, float64(2), body["version"])
		require.Equal(t, admin.user.ID, body["ownerId"])
		require.Equal(t, "Ada Admin", body["ownerName"])
		tags := body["tags"].([]any)
		require.Len(t, tags, 2)
		require.Equal(t, "blue", tags[0].(map[string]any)["name"], "tags by name")
	})
	t.Run("a stale version conflicts", func(t *testing.T) {
		admin.fails(t, "PATCH", entitiesPath+"/"+acme, `{"version":1,"name":"Stale"}`, 409, "version_conflict")
	})
	step(t, "an empty tag set and an empty owner clear them", func(t *testing.T) {
		body := admin.patch(t, entitiesPath+"/"+acme, map[string]any{"version": 2, "tagIds": []string{}, "ownerId": ""}, 200)
		require.Empty(t, body["tags"])
		require.NotContains(t, body, "ownerId")
		require.Equal(t, float64(3), body["version"])
	})
	step(t, "the state follows the lifecycle", func(t *testing.T) {
		body := admin.patch(t, entitiesPath+"/"+acme, `{"version":3,"state":"archived"}`, 200)
		require.Equal(t, "archived", body["state"])
		refused := admin.fails(t, "PATCH", entitiesPath+"/"+acme, `{"version":4,"state":"inactive"}`, 409, "invalid_state_transition")
		require.Equal(t, "allowed", detailCode(t, refused))
		body = admin.patch(t, entitiesPath+"/"+acme, `{"version":4,"state":"active"}`, 200)
		require.Equal(t, "active", body["state"])
		body = admin.patch(t, entitiesPath+"/"+acme, `{"version":5,"state":"inactive"}`, 200)
		require.Equal(t, "inactive", body["state"])
		admin.patch(t, entitiesPath+"/"+acme, `{"version":6,"state":"active"}`, 200)
	})

	t.Run("deletion", func(t *testing.T) {
		gone := newEntity(t, admin, "Temporary", "team")
		relate(t, admin, acme, "owns", gone)
		admin.delete(t, entitiesPath+"/"+gone, 204)
		admin.fails(t, "GET", entitiesPath+"/"+gone, nil, 404, "not_found")
		require.Empty(t, items(t, admin.get(t, entitiesPath+"/"+acme+"/relationships", 200)), "relationships cascade")

		used := newEntity(t, admin, "In a project", "product")
		project := assess.NewID(assess.PrefixProject, time.Now())
		ts.sqlExec(t, `INSERT INTO projects (id, name) VALUES ($1, 'P')`, project)
		ts.sqlExec(t, `INSERT INTO project_entities (project_id, entity_id) VALUES ($1, $2)`, project, used)
		body := admin.fails(t, "DELETE", entitiesPath+"/"+used, nil, 409, "conflict")
		require.Equal(t, "in_use", detailCode(t, body))
		require.Contains(t, body["message"], "1 project(s) and 0 assessment(s)")
		admin.get(t, entitiesPath+"/"+used, 200)

		// An assessment of the entity keeps it too; the answer counts, never names.
		assessed := newEntity(t, admin, "Assessed", "product")
		ts.sqlExec(t, `INSERT INTO assessments (id, title, entity_id) VALUES ($1, 'Hidden title', $2)`,
			assess.NewID(assess.PrefixAssessment, time.Now()), assessed)
		body = admin.fails(t, "DELETE", entitiesPath+"/"+assessed, nil, 409, "conflict")
		require.Contains(t, body["message"], "0 project(s) and 1 assessment(s)")
		require.NotContains(t, fmt.Sprint(body), "Hidden title")
		admin.get(t, entitiesPath+"/"+assessed, 200)
	})

	t.Run("permissions", func(t *testing.T) {
		_, viewer := ts.newUser(t, assess.RoleAssessee)
		viewer.get(t, entitiesPath+"/"+acme, 200)
		viewer.fails(t, "POST", entitiesPath, `{"name":"x","type":"team"}`, 403, "permission_denied")
		viewer.fails(t, "DELETE", entitiesPath+"/"+acme, nil, 403, "permission_denied")
	})
}

func TestEntityListAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	red := ts.newTagSQL(t, "red")

	names := []string{"delta", "Alpha", "charlie", "Echo", "bravo", "foxtrot", "golf"}
	ids := map[string]string{}
	for i, n := range names {
		typ := "product"
		if i%2 == 1 {
			typ = "service"
		}
		ids[n] = newEntity(t, admin, n, typ)
	}
	admin.patch(t, entitiesPath+"/"+ids["golf"], `{"version":1,"state":"archived"}`, 200)
	admin.patch(t, entitiesPath+"/"+ids["foxtrot"], map[string]any{"version": 1, "state": "inactive", "tagIds": []string{red},
		"description": "Has a needle inside", "ownerId": admin.user.ID}, 200)

	namesOf := func(list []map[string]any) []string {
		out := make([]string, 0, len(list))
		for _, it := range list {
			out = append(out, it["name"].(string))
		}
		return out
	}
	t.Run("by name, case-insensitively, without the archived ones", func(t *testing.T) {
		require.Equal(t, []string{"Alpha", "bravo", "charlie", "delta", "Echo", "foxtrot"}, namesOf(items(t, admin.get(t, entitiesPath, 200))))
	})
	t.Run("keyset pages visit each entity once, in order", func(t *testing.T) {
		all := allPages(t, admin, entitiesPath+"?limit=2")
		require.Equal(t, []string{"Alpha", "bravo", "charlie", "delta", "Echo", "foxtrot"}, namesOf(all))
		newest := allPages(t, admin, entitiesPath+"?limit=4&sort=-createdAt")
		require.Equal(t, []string{"foxtrot", "bravo", "Echo", "charlie", "Alpha", "delta"}, namesOf(newest))
	})
	t.Run("a cursor is bound to its filters", func(t *testing.T) {
		body := admin.get(t, entitiesPath+"?limit=2", 200)
		cursor := body["nextCursor"].(string)
		admin.fails(t, "GET", entitiesPath+"?limit=2&type=product&cursor="+cursor, nil, 400, "validation_failed")
		admin.fails(t, "GET", entitiesPath+"?limit=2&sort=-createdAt&cursor="+cursor, nil, 400, "validation_failed")
	})
	t.Run("filters", func(t *testing.T) {
		require.Equal(t, []string{"bravo", "charlie", "delta"}, namesOf(items(t, admin.get(t, entitiesPath+"?type=product", 200))))
		require.Equal(t, []string{"golf"}, namesOf(items(t, admin.get(t, entitiesPath+"?state=archived", 200))))
		require.Equal(t, []string{"foxtrot"}, namesOf(items(t, admin.get(t, entitiesPath+"?state=inactive", 200))))
		require.Equal(t, []string{"foxtrot"}, namesOf(items(t, admin.get(t, entitiesPath+"?tag="+red, 200))))
		require.Equal(t, []string{"foxtrot"}, namesOf(items(t, admin.get(t, entitiesPath+"?owner="+admin.user.ID, 200))))
		require.Equal(t, []string{"foxtrot"}, namesOf(items(t, admin.get(t, entitiesPath+"?q=NEEDLE", 200))))
		require.Equal(t, []string{"charlie"}, namesOf(items(t, admin.get(t, entitiesPath+"?q=arl", 200))))
		require.Empty(t, items(t, admin.get(t, entitiesPath+"?q=%25", 200)), "wildcards match themselves")
		admin.fails(t, "GET", entitiesPath+"?type=planet", nil, 400, "validation_failed")
	})
}

func TestEntityRelationshipsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	a, b, c := newEntity(t, admin, "A", "organization"), newEntity(t, admin, "B", "team"), newEntity(t, admin, "C", "product")
	rels := func(id string) string { return entitiesPath + "/" + id + "/relationships" }

	var ab string
	step(t, "a relationship is added", func(t *testing.T) {
		body := admin.post(t, rels(a), map[string]any{"targetId": b, "type": "owns"}, 201)
		ab = body["id"].(string)
		require.Equal(t, a, body["sourceId"])
		require.Equal(t, "A", body["sourceName"])
		require.Equal(t, b, body["targetId"])
		require.Equal(t, "B", body["targetName"])
		require.Equal(t, "owns", body["type"])
	})
	t.Run("a relationship to itself is refused", func(t *testing.T) {
		body := admin.fails(t, "POST", rels(a), map[string]any{"targetId": a, "type": "owns"}, 422, "business_rule_violation")
		require.Equal(t, "self_relationship", detailCode(t, body))
	})
	t.Run("the same relationship twice is refused", func(t *testing.T) {
		body := admin.fails(t, "POST", rels(a), map[string]any{"targetId": b, "type": "owns"}, 409, "already_exists")
		require.Equal(t, "targetId", body["details"].([]any)[0].(map[string]any)["field"])
		relate(t, admin, a, "governs", b) // another type is another relationship
		relate(t, admin, b, "owns", a)    // and so is the reverse: cycles are allowed
	})
	t.Run("an unknown target is 404 naming targetId", func(t *testing.T) {
		for _, target := range []string{assess.NewID(assess.PrefixEntity, time.Now()), "en_bad"} {
			body := admin.fails(t, "POST", rels(a), map[string]any{"targetId": target, "type": "owns"}, 404, "not_found")
			require.Equal(t, "targetId", body["details"].([]any)[0].(map[string]any)["field"])
		}
		admin.fails(t, "POST", rels(assess.NewID(assess.PrefixEntity, time.Now())), map[string]any{"targetId": a, "type": "owns"}, 404, "not_found")
		admin.fails(t, "POST", rels(a), map[string]any{"targetId": b, "type": "likes"}, 400, "validation_failed")
	})
	t.Run("an archived end is refused", func(t *testing.T) {
		archived := newEntity(t, admin, "Old", "vendor")
		admin.patch(t, entitiesPath+"/"+archived, `{"version":1,"state":"archived"}`, 200)
		body := admin.fails(t, "POST", rels(a), map[string]any{"targetId": archived, "type": "supplies"}, 422, "business_rule_violation")
		require.Equal(t, "entity_archived", detailCode(t, body))
		admin.fails(t, "POST", rels(archived), map[string]any{"targetId": a, "type": "supplies"}, 422, "business_rule_violation")
	})
	t.Run("an entity lists its relationships both ways", func(t *testing.T) {
		relate(t, admin, c, "depends_on", b)
		all := items(t, admin.get(t, rels(b)+"?limit=10", 200))
		require.Len(t, all, 4)
		directions := map[string]int{}
		for _, r := range all {
			directions[r["direction"].(string)]++
		}
		require.Equal(t, map[string]int{"incoming": 3, "outgoing": 1}, directions)
		require.Len(t, items(t, admin.get(t, rels(b)+"?direction=outgoing", 200)), 1)
		require.Len(t, items(t, admin.get(t, rels(b)+"?direction=incoming&type=owns", 200)), 1)
		paged := allPages(t, admin, rels(b)+"?limit=1")
		require.Len(t, paged, 4)
	})
	t.Run("a relationship is removed from either end, once", func(t *testing.T) {
		admin.fails(t, "DELETE", rels(c)+"/"+ab, nil, 404, "not_found")
		admin.delete(t, rels(b)+"/"+ab, 204)
		admin.fails(t, "DELETE", rels(a)+"/"+ab, nil, 404, "not_found")
		admin.fails(t, "DELETE", rels(a)+"/er_bad", nil, 404, "not_found")
	})
}

// graphOf returns the node names (with their depth) and the number of edges of a graph.
func graphOf(t testing.TB, body map[string]any) (map[string]float64, int) {
	t.Helper()
	nodes := map[string]float64{}
	for _, n := range body["nodes"].([]any) {
		m := n.(map[string]any)
		d, _ := m["depth"].(float64)
		nodes[m["name"].(string)] = d
	}
	return nodes, len(body["edges"].([]any))
}

func TestEntityGraphAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	// A ring n0 → n1 → … → n5 → n0, plus n2 → x (archived) → n4.
	var ring []string
	for i := range 6 {
		ring = append(ring, newEntity(t, admin, fmt.Sprintf("n%d", i), "component"))
	}
	for i := range ring {
		relate(t, admin, ring[i], "depends_on", ring[(i+1)%len(ring)])
	}
	x := newEntity(t, admin, "x", "service")
	relate(t, admin, ring[2], "consumes", x)
	relate(t, admin, x, "supplies", ring[4])
	admin.patch(t, entitiesPath+"/"+x, `{"version":1,"state":"archived"}`, 200)
	graph := func(id, query string) string { return entitiesPath + "/" + id + "/graph" + query }

	t.Run("the depth limits the walk", func(t *testing.T) {
		nodes, edges := graphOf(t, admin.get(t, graph(ring[0], "?depth=2&direction=outgoing"), 200))
		require.Equal(t, map[string]float64{"n0": 0, "n1": 1, "n2": 2}, nodes)
		require.Equal(t, 2, edges)
		nodes, _ = graphOf(t, admin.get(t, graph(ring[0], "?depth=1"), 200))
		require.Equal(t, map[string]float64{"n0": 0, "n1": 1, "n5": 1}, nodes, "both directions by default")
		nodes, _ = graphOf(t, admin.get(t, graph(ring[0], "?depth=1&direction=incoming"), 200))
		require.Equal(t, map[string]float64{"n0": 0, "n5": 1}, nodes)
	})
	t.Run("a cycle is walked once and archived entities are left out", func(t *testing.T) {
		body := admin.get(t, graph(ring[0], "?depth=10"), 200)
		nodes, edges := graphOf(t, body)
		require.Equal(t, map[string]float64{"n0": 0, "n1": 1, "n2": 2, "n3": 3, "n4": 2, "n5": 1}, nodes)
		require.Equal(t, 6, edges)
		require.Equal(t, false, body["truncated"])
		require.Equal(t, "n0", body["nodes"].([]any)[0].(map[string]any)["name"], "the entity comes first")
	})
	t.Run("an archived entity still has its own graph", func(t *testing.T) {
		nodes, edges := graphOf(t, admin.get(t, graph(x, "?depth=1"), 200))
		require.Equal(t, map[string]float64{"x": 0, "n2": 1, "n4": 1}, nodes)
		require.Equal(t, 2, edges)
	})
	t.Run("the depth is bounded", func(t *testing.T) {
		for _, q := range []string{"?depth=0", "?depth=11", "?depth=two", "?direction=sideways"} {
			res, body := admin.do(t, "GET", graph(ring[0], q), nil)
			require.Contains(t, []int{400, 422}, res.StatusCode, "%s: %v", q, body)
			require.Equal(t, "validation_failed", body["error"])
		}
	})
	t.Run("the whole graph leaves archived entities out", func(t *testing.T) {
		body := admin.get(t, entitiesPath+"/graph", 200)
		nodes, edges := graphOf(t, body)
		require.Len(t, nodes, 6)
		require.NotContains(t, nodes, "x")
		require.Equal(t, 6, edges)
		require.Equal(t, false, body["truncated"])
	})
}

// effective returns an entity's effective policies as standard id → where it comes from
// ("direct", or the name of the ancestor).
func effective(t testing.TB, c *apiClient, entityID string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range items(t, c.get(t, entitiesPath+"/"+entityID+"/policies", 200)) {
		from := "direct"
		if src, ok := p["inheritedFrom"].(map[string]any); ok {
			from = src["name"].(string)
			require.Equal(t, src["id"], p["entityId"], "an inherited policy is the ancestor's")
		} else {
			require.Equal(t, entityID, p["entityId"])
		}
		out[p["standardId"].(string)] = from
	}
	return out
}

func TestEntityPoliciesAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	asvs, ssdf, samm := ts.newStandardSQL(t, "ASVS", "published"), ts.newStandardSQL(t, "SSDF", "published"), ts.newStandardSQL(t, "SAMM", "draft")
	retired := ts.newStandardSQL(t, "Old standard", "retired")
	l1, otherLevel := ts.newLevelSQL(t, asvs, "L1"), ts.newLevelSQL(t, ssdf, "L1")

	// org owns bu owns team owns product contains component; component governs org.
	org, bu, team := newEntity(t, admin, "Org", "organization"), newEntity(t, admin, "BU", "business_unit"), newEntity(t, admin, "Team", "team")
	product, component := newEntity(t, admin, "Product", "product"), newEntity(t, admin, "Component", "component")
	relate(t, admin, org, "owns", bu)
	relate(t, admin, bu, "owns", team)
	relate(t, admin, team, "owns", product)
	relate(t, admin, product, "contains", component)
	relate(t, admin, component, "governs", org)
	vendor := newEntity(t, admin, "Vendor", "vendor")
	relate(t, admin, vendor, "supplies", product) // supplies carries no policies
	policies := func(id string) string { return entitiesPath + "/" + id + "/policies" }

	var orgPolicy string
	step(t, "policies are added", func(t *testing.T) {
		body := admin.post(t, policies(org), map[string]any{"standardId": asvs, "levelId": l1, "description": "Everything we build"}, 201)
		orgPolicy = body["id"].(string)
		require.True(t, strings.HasPrefix(orgPolicy, "cp_"))
		require.Equal(t, "ASVS", body["standardName"])
		require.Equal(t, "1.0", body["standardVersion"])
		require.Equal(t, l1, body["levelId"])
		require.Equal(t, "Level L1", body["levelName"])
		require.NotContains(t, body, "inheritedFrom")
		admin.post(t, policies(team), map[string]any{"standardId": ssdf}, 201)
		admin.post(t, policies(vendor), map[string]any{"standardId": samm}, 201)
	})
	t.Run("policies flow down owns, contains and governs, around the cycle", func(t *testing.T) {
		require.Equal(t, map[string]string{asvs: "direct", ssdf: "Team"}, effective(t, admin, org))
		require.Equal(t, map[string]string{asvs: "Org", ssdf: "Team"}, effective(t, admin, bu))
		require.Equal(t, map[string]string{asvs: "Org", ssdf: "direct"}, effective(t, admin, team))
		require.Equal(t, map[string]string{asvs: "Org", ssdf: "Team"}, effective(t, admin, product))
		require.Equal(t, map[string]string{asvs: "Org", ssdf: "Team"}, effective(t, admin, component))
		require.Equal(t, map[string]string{samm: "direct"}, effective(t, admin, vendor))
	})
	t.Run("direct policies come first", func(t *testing.T) {
		list := items(t, admin.get(t, policies(team), 200))
		require.Equal(t, ssdf, list[0]["standardId"])
		require.NotContains(t, list[0], "inheritedFrom")
		require.Equal(t, "Org", list[1]["inheritedFrom"].(map[string]any)["name"])
		require.Equal(t, false, admin.get(t, policies(team), 200)["hasMore"])
	})
	t.Run("a direct policy wins, and the nearest ancestor wins", func(t *testing.T) {
		body := admin.post(t, policies(product), map[string]any{"standardId": asvs, "description": "Product's own"}, 201)
		require.Equal(t, map[string]string{asvs: "direct", ssdf: "Team"}, effective(t, admin, product))
		require.Equal(t, map[string]string{asvs: "Product", ssdf: "Team"}, effective(t, admin, component), "Product is nearer than Org")
		admin.delete(t, policies(product)+"/"+body["id"].(string), 204)
		require.Equal(t, map[string]string{asvs: "Org", ssdf: "Team"}, effective(t, admin, component))
	})
	t.Run("an archived ancestor is skipped and not looked through", func(t *testing.T) {
		admin.patch(t, entitiesPath+"/"+bu, `{"version":1,"state":"archived"}`, 200)
		require.Equal(t, map[string]string{ssdf: "direct"}, effective(t, admin, team))
		require.Equal(t, map[string]string{ssdf: "Team"}, effective(t, admin, component))
		require.Equal(t, map[string]string{asvs: "direct", ssdf: "Team"}, effective(t, admin, org), "Team still reaches Org around the cycle")
		require.Equal(t, map[string]string{asvs: "Org", ssdf: "Team"}, effective(t, admin, bu), "an archived entity still inherits")
		admin.patch(t, entitiesPath+"/"+bu, `{"version":2,"state":"active"}`, 200)
		require.Equal(t, map[string]string{asvs: "Org", ssdf: "Team"}, effective(t, admin, component))
	})

	t.Run("the standard must exist and not be retired", func(t *testing.T) {
		for _, std := range []string{assess.NewID(assess.PrefixStandard, time.Now()), "st_bad"} {
			body := admin.fails(t, "POST", policies(bu), map[string]any{"standardId": std}, 404, "not_found")
			require.Equal(t, "standardId", body["details"].([]any)[0].(map[string]any)["field"])
		}
		body := admin.fails(t, "POST", policies(bu), map[string]any{"standardId": retired}, 422, "business_rule_violation")
		require.Equal(t, "standard_retired", detailCode(t, body))
		admin.fails(t, "POST", policies(bu), map[string]any{}, 400, "validation_failed")
	})
	t.Run("the level must be the standard's", func(t *testing.T) {
		for _, level := range []string{otherLevel, assess.NewID(assess.PrefixLevel, time.Now()), "lv_bad"} {
			body := admin.fails(t, "POST", policies(bu), map[string]any{"standardId": asvs, "levelId": level}, 422, "business_rule_violation")
			require.Equal(t, "level_not_in_standard", detailCode(t, body))
		}
	})
	t.Run("a standard applies once per entity", func(t *testing.T) {
		body := admin.fails(t, "POST", policies(org), map[string]any{"standardId": asvs}, 409, "already_exists")
		require.Equal(t, "standardId", body["details"].([]any)[0].(map[string]any)["field"])
	})
	t.Run("a policy is updated under its version", func(t *testing.T) {
		body := admin.patch(t, policies(org)+"/"+orgPolicy, map[string]any{"version": 1, "levelId": "", "description": "All"}, 200)
		require.NotContains(t, body, "levelId")
		require.Equal(t, "All", body["description"])
		require.Equal(t, float64(2), body["version"])
		admin.fails(t, "PATCH", policies(org)+"/"+orgPolicy, `{"version":1,"description":"Stale"}`, 409, "version_conflict")
		body = admin.fails(t, "PATCH", policies(org)+"/"+orgPolicy, map[string]any{"version": 2, "levelId": otherLevel}, 422, "business_rule_violation")
		require.Equal(t, "level_not_in_standard", detailCode(t, body))
		admin.fails(t, "PATCH", policies(team)+"/"+orgPolicy, `{"version":2,"description":"Not Team's"}`, 404, "not_found")
		admin.fails(t, "DELETE", policies(team)+"/"+orgPolicy, nil, 404, "not_found")
		admin.fails(t, "DELETE", policies(team)+"/cp_bad", nil, 404, "not_found")
	})
	t.Run("an archived entity takes no new policy", func(t *testing.T) {
		old := newEntity(t, admin, "Old", "product")
		admin.patch(t, entitiesPath+"/"+old, `{"version":1,"state":"archived"}`, 200)
		body := admin.fails(t, "POST", policies(old), map[string]any{"standardId": ssdf}, 422, "business_rule_violation")
		require.Equal(t, "entity_archived", detailCode(t, body))
	})
	t.Run("a standard in use cannot be deleted, an entity with policies can", func(t *testing.T) {
		conn, err := pgx.Connect(context.Background(), ts.dsn)
		require.NoError(t, err)
		defer conn.Close(context.Background())
		_, err = conn.Exec(context.Background(), "DELETE FROM standards WHERE id = $1", samm)
		require.Error(t, err, "compliance_policies restricts")
		admin.delete(t, entitiesPath+"/"+vendor, 204)
		_, err = conn.Exec(context.Background(), "DELETE FROM standards WHERE id = $1", samm)
		require.NoError(t, err)
	})
	t.Run("each change is an event", func(t *testing.T) {
		var types []string
		conn, err := pgx.Connect(context.Background(), ts.dsn)
		require.NoError(t, err)
		defer conn.Close(context.Background())
		rows, err := conn.Query(context.Background(), "SELECT DISTINCT type FROM events WHERE type LIKE 'entity.%' ORDER BY type")
		require.NoError(t, err)
		types, err = pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		for _, want := range []assess.EventName{assess.EventEntityCreated, assess.EventEntityUpdated, assess.EventEntityDeleted,
			assess.EventEntityRelationshipAdded, assess.EventEntityPolicyAdded, assess.EventEntityPolicyUpdated, assess.EventEntityPolicyRemoved} {
			require.True(t, slices.Contains(types, string(want)), "%s in %v", want, types)
		}
	})
}
