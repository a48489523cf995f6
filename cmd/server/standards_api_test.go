package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

const standardsPath = "/api/v1/standards"

// newStandard creates a draft as c and returns it.
func newStandard(t testing.TB, c *apiClient, identifier, version string) map[string]any {
	t.Helper()
	return c.post(t, standardsPath, map[string]any{"identifier": identifier, "standardVersion": version,
		"name": "Standard " + identifier, "owner": "OWASP"}, http.StatusCreated)
}

// addRequirements bulk-writes requirements (identifier → parent identifier, "" for top level).
func addRequirements(t testing.TB, c *apiClient, standardID string, pairs ...string) map[string]any {
	t.Helper()
	var reqs []map[string]any
	for i := 0; i+1 < len(pairs); i += 2 {
		reqs = append(reqs, map[string]any{"identifier": pairs[i], "parentIdentifier": pairs[i+1], "name": "Requirement " + pairs[i]})
	}
	return c.post(t, standardsPath+"/"+standardID+"/requirements/bulk", map[string]any{"requirements": reqs}, http.StatusOK)
}

// treeOf returns the tree of a standard as "identifier/depth/childCount" lines, and the
// requirement ids by identifier.
func treeOf(t testing.TB, c *apiClient, standardID string) ([]string, map[string]string) {
	t.Helper()
	body := c.get(t, standardsPath+"/"+standardID+"/tree", http.StatusOK)
	var lines []string
	ids := map[string]string{}
	for _, it := range body["requirements"].([]any) {
		r := it.(map[string]any)
		lines = append(lines, fmt.Sprintf("%s/%v/%v", r["identifier"], r["depth"], r["childCount"]))
		ids[r["identifier"].(string)] = r["id"].(string)
	}
	return lines, ids
}

// sqlExec runs statements directly on the test database, for rows whose API is not built.
func sqlExec(t testing.TB, ts *testServer, sql string, args ...any) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), sql, args...)
	require.NoError(t, err)
}

func TestStandardsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	_, manager := ts.newUser(t, "standards_manager")
	_, approver := ts.newUser(t, "standards_approver")
	_, assessee := ts.newUser(t, "assessee")

	var st map[string]any
	var id string
	step(t, "a standards manager authors a draft", func(t *testing.T) {
		st = newStandard(t, manager, "owasp-asvs", "5.0.0")
		id = st["id"].(string)
		require.True(t, strings.HasPrefix(id, "st_"), id)
		require.Equal(t, "draft", st["state"])
		require.Equal(t, "manual", st["source"])
		require.Equal(t, float64(1), st["version"])
		require.Equal(t, []any{}, st["tags"])
		require.Equal(t, []any{}, st["externalReferences"])
		require.Equal(t, manager.user.ID, st["createdBy"])
	})
	t.Run("the same identifier and version again is already_exists", func(t *testing.T) {
		body := manager.fails(t, "POST", standardsPath, `{"identifier":"owasp-asvs","standardVersion":"5.0.0","name":"Again"}`, 409, "already_exists")
		require.Contains(t, fmt.Sprint(body["details"]), "standardVersion")
	})
	for _, bad := range []struct{ name, body, field string }{
		{"without a name", `{"identifier":"x","standardVersion":"1"}`, "name"},
		{"with a blank name", `{"identifier":"x","standardVersion":"1","name":"   "}`, "name"},
		{"with a control character in the identifier", `{"identifier":"a\u0007b","standardVersion":"1","name":"n"}`, "identifier"},
		{"with a NUL", `{"identifier":"a\u0000b","standardVersion":"1","name":"n"}`, "identifier"},
	} {
		t.Run("a standard "+bad.name+" is refused", func(t *testing.T) {
			body := manager.fails(t, "POST", standardsPath, bad.body, 400, "validation_failed")
			require.Contains(t, fmt.Sprint(body["details"]), bad.field)
		})
	}
	t.Run("an assessee reads standards but cannot author them", func(t *testing.T) {
		assessee.get(t, standardsPath+"/"+id, 200)
		assessee.fails(t, "POST", standardsPath, `{"identifier":"x","standardVersion":"1","name":"n"}`, 403, "permission_denied")
	})
	t.Run("malformed and unknown ids are not found", func(t *testing.T) {
		for _, p := range []string{"/st_nope", "/u_01hx8n6q7k3m2v9c4t5r6s7p8a", "/st_01hx8n6q7k3m2v9c4t5r6s7p8a", "/st_nope/tree",
			"/" + id + "/requirements/rq_bad", "/" + id + "/requirements/rq_01hx8n6q7k3m2v9c4t5r6s7p8a", "/st_nope/requirements", "/st_nope/levels"} {
			manager.fails(t, "GET", standardsPath+p, nil, 404, "not_found")
		}
		manager.fails(t, "PATCH", standardsPath+"/"+id+"/levels/lv_bad", `{"version":1}`, 404, "not_found")
	})
	t.Run("a stale version conflicts", func(t *testing.T) {
		manager.patch(t, standardsPath+"/"+id, `{"version":1,"description":"Application Security Verification Standard"}`, 200)
		manager.fails(t, "PATCH", standardsPath+"/"+id, `{"version":1,"name":"Stale"}`, 409, "version_conflict")
	})

	testRequirementTree(t, manager, id)
	testLifecycle(t, ts, id)
	testStandardLists(t, ts, manager, approver)
}

// testRequirementTree builds the tree of draft id: natural order, tree shape, moves,
// cycles, deletes and levels.
func testRequirementTree(t *testing.T, manager *apiClient, id string) {
	reqs := standardsPath + "/" + id + "/requirements"
	step(t, "a bulk write creates a tree, then updates it by identifier", func(t *testing.T) {
		body := addRequirements(t, manager, id, "V1", "", "V1.10.1", "V1", "V1.2.10", "V1", "V1.2.9", "V1", "V2", "", "V2.a", "V2", "V10", "")
		require.Equal(t, float64(7), body["created"])
		body = addRequirements(t, manager, id, "V1.2.9", "V1", "V2.b", "V2")
		require.Equal(t, float64(1), body["created"])
		require.Equal(t, float64(1), body["updated"])
	})
	t.Run("the tree is depth-first in natural order with depth and child counts", func(t *testing.T) {
		lines, _ := treeOf(t, manager, id)
		require.Equal(t, []string{"V1/0/3", "V1.2.9/1/0", "V1.2.10/1/0", "V1.10.1/1/0", "V2/0/2", "V2.a/1/0", "V2.b/1/0", "V10/0/0"}, lines)
	})
	t.Run("the list pages in natural order", func(t *testing.T) {
		var got []string
		for _, r := range allPages(t, manager, reqs+"?limit=3") {
			got = append(got, r["identifier"].(string))
		}
		require.Equal(t, []string{"V1", "V1.2.9", "V1.2.10", "V1.10.1", "V2", "V2.a", "V2.b", "V10"}, got)
	})
	_, ids := treeOf(t, manager, id)
	t.Run("the list filters by parent and search", func(t *testing.T) {
		require.Len(t, items(t, manager.get(t, reqs+"?parentId="+ids["V2"], 200)), 2)
		require.Len(t, items(t, manager.get(t, reqs+"?q=v1.2", 200)), 2)
	})
	t.Run("a requirement identifier is unique within the standard", func(t *testing.T) {
		body := manager.fails(t, "POST", reqs, `{"identifier":"V1","name":"again"}`, 409, "already_exists")
		require.Contains(t, fmt.Sprint(body["details"]), "identifier")
	})
	step(t, "a requirement is added at a position among its siblings", func(t *testing.T) {
		body := manager.post(t, reqs, map[string]any{"identifier": "V1.1", "name": "First", "parentId": ids["V1"], "position": 0,
			"openCre": []string{"CRE:764-507"}, "properties": []map[string]any{{"name": "cwe", "value": "79"}}}, 201)
		require.Equal(t, float64(0), body["position"])
		require.Equal(t, []any{"CRE:764-507"}, body["openCre"])
		lines, _ := treeOf(t, manager, id)
		require.Equal(t, "V1.1/1/0", lines[1])
		require.Equal(t, "V1.2.9/1/0", lines[2])
	})
	_, ids = treeOf(t, manager, id)
	t.Run("a move under its own descendant is a cycle", func(t *testing.T) {
		body := manager.fails(t, "POST", reqs+"/"+ids["V1"]+"/move", map[string]any{"parentId": ids["V1.1"], "position": 0}, 422, "business_rule_violation")
		require.Equal(t, "cycle", detailCode(t, body))
		manager.fails(t, "POST", reqs+"/"+ids["V1"]+"/move", map[string]any{"parentId": ids["V1"], "position": 0}, 422, "business_rule_violation")
	})
	step(t, "a move reparents and renumbers old and new siblings", func(t *testing.T) {
		body := manager.post(t, reqs+"/"+ids["V2.a"]+"/move", map[string]any{"parentId": nil, "position": 0}, 200)
		require.Equal(t, float64(0), body["position"])
		require.NotContains(t, body, "parentId")
		tree := manager.get(t, standardsPath+"/"+id+"/tree", 200)["requirements"].([]any)
		positions := map[string]float64{}
		for _, it := range tree {
			r := it.(map[string]any)
			positions[r["identifier"].(string)] = r["position"].(float64)
		}
		require.Equal(t, map[string]float64{"V2.a": 0, "V1": 1, "V2": 2, "V10": 3, "V1.1": 0, "V1.2.9": 1, "V1.2.10": 2, "V1.10.1": 3, "V2.b": 0}, positions)
	})
	t.Run("an update keeps the natural order in step with the identifier", func(t *testing.T) {
		r := manager.get(t, reqs+"/"+ids["V10"], 200)
		manager.patch(t, reqs+"/"+ids["V10"], map[string]any{"version": r["version"], "identifier": "V0"}, 200)
		got := items(t, manager.get(t, reqs+"?limit=1", 200))
		require.Equal(t, "V0", got[0]["identifier"])
		manager.fails(t, "PATCH", reqs+"/"+ids["V10"], map[string]any{"version": r["version"], "name": "stale"}, 409, "version_conflict")
	})
	testLevels(t, manager, id, ids)
	step(t, "deleting a requirement deletes its subtree", func(t *testing.T) {
		manager.delete(t, reqs+"/"+ids["V2"], 204)
		lines, _ := treeOf(t, manager, id)
		require.NotContains(t, strings.Join(lines, " "), "V2.b")
		manager.fails(t, "GET", reqs+"/"+ids["V2.b"], nil, 404, "not_found")
	})
	t.Run("a parent of another standard is refused", func(t *testing.T) {
		other := newStandard(t, manager, "other", "1")
		manager.fails(t, "POST", reqs, map[string]any{"identifier": "X", "parentId": ids["V1"] + "x"}, 400, "validation_failed")
		body := manager.post(t, standardsPath+"/"+other["id"].(string)+"/requirements", `{"identifier":"O1"}`, 201)
		body = manager.fails(t, "POST", reqs, map[string]any{"identifier": "X", "parentId": body["id"]}, 400, "validation_failed")
		require.Contains(t, fmt.Sprint(body["details"]), "parentId")
		manager.fails(t, "GET", standardsPath+"/"+other["id"].(string)+"/requirements/"+ids["V1"], nil, 404, "not_found")
	})
	t.Run("a bulk cycle and an unknown parent are refused", func(t *testing.T) {
		body := manager.fails(t, "POST", reqs+"/bulk", `{"requirements":[{"identifier":"V1","parentIdentifier":"V1.1"}]}`, 422, "business_rule_violation")
		require.Equal(t, "cycle", detailCode(t, body))
		body = manager.fails(t, "POST", reqs+"/bulk", `{"requirements":[{"identifier":"V9","parentIdentifier":"nowhere"}]}`, 400, "validation_failed")
		require.Contains(t, fmt.Sprint(body["details"]), "requirements[0].parentIdentifier")
	})
}

// testLevels checks levels of draft id and their requirement sets.
func testLevels(t *testing.T, manager *apiClient, id string, ids map[string]string) {
	levels := standardsPath + "/" + id + "/levels"
	var level map[string]any
	step(t, "a level holds requirements of its standard", func(t *testing.T) {
		level = manager.post(t, levels, map[string]any{"identifier": "L1", "title": "Level 1",
			"requirementIds": []string{ids["V1.1"], ids["V2.b"], ids["V1.1"]}}, 201)
		require.Equal(t, float64(2), level["requirementCount"])
		r := manager.get(t, standardsPath+"/"+id+"/requirements/"+ids["V1.1"], 200)
		require.Equal(t, []any{level["id"]}, r["levels"])
		got := items(t, manager.get(t, standardsPath+"/"+id+"/requirements?level="+level["id"].(string), 200))
		require.Len(t, got, 2)
	})
	t.Run("a level identifier is unique and requirements must be of the standard", func(t *testing.T) {
		manager.fails(t, "POST", levels, `{"identifier":"L1"}`, 409, "already_exists")
		body := manager.fails(t, "POST", levels, `{"identifier":"L2","requirementIds":["rq_01hx8n6q7k3m2v9c4t5r6s7p8a"]}`, 400, "validation_failed")
		require.Contains(t, fmt.Sprint(body["details"]), "requirementIds")
	})
	step(t, "requirementIds replaces the set, an empty one clears it", func(t *testing.T) {
		level = manager.patch(t, levels+"/"+level["id"].(string), map[string]any{"version": level["version"], "requirementIds": []string{ids["V1"]}}, 200)
		require.Equal(t, float64(1), level["requirementCount"])
		level = manager.patch(t, levels+"/"+level["id"].(string), map[string]any{"version": level["version"], "requirementIds": []string{}}, 200)
		require.Equal(t, float64(0), level["requirementCount"])
		level = manager.patch(t, levels+"/"+level["id"].(string), map[string]any{"version": level["version"], "requirementIds": []string{ids["V1.1"], ids["V1.2.9"]}}, 200)
		tree := manager.get(t, standardsPath+"/"+id+"/tree", 200)
		require.Len(t, tree["levels"], 1)
	})
	t.Run("a second level and its deletion", func(t *testing.T) {
		l2 := manager.post(t, levels, `{"identifier":"L2"}`, 201)
		require.Equal(t, float64(1), l2["position"])
		require.Len(t, items(t, manager.get(t, levels, 200)), 2)
		manager.delete(t, levels+"/"+l2["id"].(string), 204)
		manager.fails(t, "DELETE", levels+"/"+l2["id"].(string), nil, 404, "not_found")
	})
}
