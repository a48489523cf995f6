package main

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// projectRefIDs returns the ids of the objects of a project's standards, entities or tags.
func projectRefIDs(v any) []string {
	var out []string
	for _, it := range v.([]any) {
		out = append(out, it.(map[string]any)["id"].(string))
	}
	return out
}

// envelopeFieldCodes returns "field:code" of every detail of an error envelope.
func envelopeFieldCodes(body map[string]any) []string {
	var out []string
	details, _ := body["details"].([]any)
	for _, d := range details {
		m := d.(map[string]any)
		out = append(out, fmt.Sprintf("%v:%v", m["field"], m["code"]))
	}
	return out
}

func TestProjectsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	rows := newCatalogueRows(t, ts)
	const projects = "/api/v1/projects"
	asvs, ssdf := rows.standard("ASVS", assess.StandardPublished), rows.standard("SSDF", assess.StandardPublished)
	draft := rows.standard("Draft standard", assess.StandardDraft)
	shop, payments := rows.entity("Web shop", "product", "active"), rows.entity("Payments", "service", "active")
	oldApp := rows.entity("Old app", "product", "archived")
	pci := admin.post(t, "/api/v1/tags", map[string]any{"name": "PCI"}, 201)["id"].(string)
	owner, ownerClient := ts.newUser(t, assess.RoleAssessor)
	today := time.Now().UTC()
	day := func(d int) string { return today.AddDate(0, 0, d).Format(time.DateOnly) }

	var p map[string]any
	step(t, "a project is created with its standards, entities, tags, owner and dates", func(t *testing.T) {
		p = admin.post(t, projects, map[string]any{"name": " Shop assessment ", "description": "Yearly", "ownerId": owner.ID,
			"startDate": day(-10), "dueDate": day(30), "standardIds": []string{ssdf, asvs, asvs}, "entityIds": []string{shop},
			"tagIds": []string{pci}}, 201)
		require.Regexp(t, `^pr_`, p["id"])
		require.Equal(t, "Shop assessment", p["name"])
		require.Equal(t, "new", p["state"])
		require.Equal(t, owner.ID, p["ownerId"])
		require.Equal(t, owner.Username, p["ownerName"])
		require.Equal(t, day(-10), p["startDate"])
		require.Equal(t, day(30), p["dueDate"])
		require.Equal(t, []string{asvs, ssdf}, projectRefIDs(p["standards"]), "ordered by name")
		require.Equal(t, map[string]any{"id": asvs, "name": "ASVS", "standardVersion": "1.0", "state": "published"}, p["standards"].([]any)[0])
		require.Equal(t, map[string]any{"id": shop, "name": "Web shop", "type": "product"}, p["entities"].([]any)[0])
		require.Equal(t, []string{pci}, projectRefIDs(p["tags"]))
		require.Equal(t, false, p["overdue"])
		require.Equal(t, float64(1), p["version"])
		require.NotContains(t, p, "archivedAt")
	})
	pid := p["id"].(string)
	t.Run("the owner is told in-app", func(t *testing.T) {
		list := items(t, ownerClient.get(t, "/api/v1/notifications?limit=50", 200))
		require.True(t, slices.ContainsFunc(list, func(n map[string]any) bool { return n["type"] == string(assess.EventProjectCreated) }), list)
	})
	t.Run("a minimal project has empty sets and no dates", func(t *testing.T) {
		body := admin.post(t, projects, map[string]any{"name": "Bare"}, 201)
		require.Equal(t, []any{}, body["standards"])
		require.Equal(t, []any{}, body["entities"])
		require.Equal(t, []any{}, body["tags"])
		require.NotContains(t, body, "dueDate")
		require.NotContains(t, body, "ownerId")
		admin.delete(t, projects+"/"+body["id"].(string), 204)
	})

	for _, c := range []struct {
		name, code string
		status     int
		body       map[string]any
		want       string
	}{
		{"the due date before the start", "validation_failed", 400, map[string]any{"name": "x", "startDate": "2025-02-01", "dueDate": "2025-01-31"}, "dueDate:before_start"},
		{"a malformed date", "validation_failed", 400, map[string]any{"name": "x", "dueDate": "2025-02-30"}, "dueDate:invalid"},
		{"an unknown standard", "validation_failed", 400, map[string]any{"name": "x", "standardIds": []string{"st_00000000000000000000000000"}}, "standardIds:unknown"},
		{"a malformed standard id", "validation_failed", 400, map[string]any{"name": "x", "standardIds": []string{"nonsense"}}, "standardIds:unknown"},
		{"a draft standard", "business_rule_violation", 422, map[string]any{"name": "x", "standardIds": []string{draft}}, "standardIds:standard_not_published"},
		{"an unknown entity", "validation_failed", 400, map[string]any{"name": "x", "entityIds": []string{"en_00000000000000000000000000"}}, "entityIds:unknown"},
		{"an archived entity", "business_rule_violation", 422, map[string]any{"name": "x", "entityIds": []string{oldApp}}, "entityIds:entity_archived"},
		{"an unknown tag", "validation_failed", 400, map[string]any{"name": "x", "tagIds": []string{"tg_00000000000000000000000000"}}, "tagIds:unknown"},
		{"an unknown owner", "validation_failed", 400, map[string]any{"name": "x", "ownerId": "u_00000000000000000000000000"}, "ownerId:unknown"},
		{"a retired start", "validation_failed", 400, map[string]any{"name": "x", "state": "retired"}, "state:"},
		{"a blank name", "validation_failed", 400, map[string]any{"name": "  "}, "name:required"},
	} {
		t.Run("creation is refused with "+c.name, func(t *testing.T) {
			body := admin.fails(t, "POST", projects, c.body, c.status, c.code)
			require.Contains(t, envelopeFieldCodes(body)[0], c.want, body)
		})
	}

	t.Run("reading it", func(t *testing.T) {
		body := admin.get(t, projects+"/"+pid, 200)
		require.Equal(t, p, body)
		for _, id := range []string{"pr_00000000000000000000000000", "nonsense", "st_00000000000000000000000000"} {
			admin.fails(t, "GET", projects+"/"+id, nil, 404, "not_found")
			admin.fails(t, "PATCH", projects+"/"+id, map[string]any{"version": 1}, 404, "not_found")
			admin.fails(t, "POST", projects+"/"+id+"/state", map[string]any{"version": 1, "state": "in_progress"}, 404, "not_found")
			admin.fails(t, "POST", projects+"/"+id+"/archive", map[string]any{"version": 1}, 404, "not_found")
			admin.fails(t, "GET", projects+"/"+id+"/figures", nil, 404, "not_found")
			admin.fails(t, "DELETE", projects+"/"+id, nil, 404, "not_found")
		}
	})

	step(t, "an update replaces the sets it names and keeps the rest", func(t *testing.T) {
		body := admin.patch(t, projects+"/"+pid, map[string]any{"version": 1, "description": "Twice a year",
			"standardIds": []string{asvs}, "entityIds": []string{shop, payments}, "tagIds": []string{}}, 200)
		require.Equal(t, "Shop assessment", body["name"])
		require.Equal(t, "Twice a year", body["description"])
		require.Equal(t, []string{asvs}, projectRefIDs(body["standards"]))
		require.ElementsMatch(t, []string{shop, payments}, projectRefIDs(body["entities"]))
		require.Equal(t, []any{}, body["tags"], "an empty set clears the tags")
		require.Equal(t, owner.ID, body["ownerId"])
		require.Equal(t, float64(2), body["version"])
	})
	t.Run("a stale version conflicts", func(t *testing.T) {
		body := admin.fails(t, "PATCH", projects+"/"+pid, map[string]any{"version": 1, "name": "Stale"}, 409, "version_conflict")
		require.Contains(t, fmt.Sprint(body["details"]), "2")
	})
	t.Run("the due date is checked against the start date the project keeps", func(t *testing.T) {
		body := admin.fails(t, "PATCH", projects+"/"+pid, map[string]any{"version": 2, "dueDate": day(-20)}, 400, "validation_failed")
		require.Equal(t, []string{"dueDate:before_start"}, envelopeFieldCodes(body))
	})
	t.Run("a standard retired since it was added stays; a draft cannot be added", func(t *testing.T) {
		rows.exec("UPDATE standards SET state = 'retired' WHERE id = $1", asvs)
		defer rows.exec("UPDATE standards SET state = 'published' WHERE id = $1", asvs)
		body := admin.patch(t, projects+"/"+pid, map[string]any{"version": 2, "standardIds": []string{asvs}}, 200)
		require.Equal(t, "retired", body["standards"].([]any)[0].(map[string]any)["state"])
		admin.fails(t, "PATCH", projects+"/"+pid, map[string]any{"version": 3, "standardIds": []string{asvs, draft}}, 422, "business_rule_violation")
		admin.patch(t, projects+"/"+pid, map[string]any{"version": 3, "ownerId": "", "startDate": ""}, 200)
	})

	t.Run("state changes follow the lifecycle", func(t *testing.T) {
		body := admin.post(t, projects+"/"+pid+"/state", map[string]any{"version": 4, "state": "in_progress"}, 200)
		require.Equal(t, "in_progress", body["state"])
		require.Equal(t, float64(5), body["version"])
		refused := admin.fails(t, "POST", projects+"/"+pid+"/state", map[string]any{"version": 5, "state": "operational"}, 409, "invalid_state_transition")
		require.Equal(t, []string{"state:allowed", "state:allowed", "state:allowed"}, envelopeFieldCodes(refused))
		var allowed []string
		for _, d := range refused["details"].([]any) {
			allowed = append(allowed, d.(map[string]any)["message"].(string))
		}
		require.Equal(t, []string{"on_hold", "complete", "retired"}, allowed)
		admin.fails(t, "POST", projects+"/"+pid+"/state", map[string]any{"version": 4, "state": "on_hold"}, 409, "version_conflict")
		admin.fails(t, "POST", projects+"/"+pid+"/state", map[string]any{"version": 5, "state": "done"}, 400, "validation_failed")
	})

	t.Run("the figures are zeros and nulls until assessments exist (TestProjectFiguresFromAssessments fills them)", func(t *testing.T) {
		body := admin.get(t, projects+"/"+pid+"/figures", 200)
		byState := map[string]any{}
		for _, st := range assess.AssessmentLifecycle.States() {
			byState[string(st)] = float64(0)
		}
		require.Equal(t, map[string]any{"total": float64(0), "complete": float64(0), "inProgress": float64(0), "byState": byState,
			"requirements": float64(0), "answered": float64(0), "percentComplete": nil}, body["assessments"])
		require.Equal(t, map[string]any{"project": false, "assessments": float64(0)}, body["overdue"])
		require.Equal(t, map[string]any{"requirements": float64(0), "withEvidence": float64(0), "percent": nil}, body["evidenceCoverage"])
		require.Equal(t, map[string]any{"averageScore": nil, "assessed": float64(0)}, body["conformance"])
		require.Equal(t, []any{}, body["warnings"])
	})
	t.Run("a project past its due date is overdue until it is complete", func(t *testing.T) {
		late := admin.post(t, projects, map[string]any{"name": "Late", "state": "in_progress", "startDate": day(-30), "dueDate": day(-1)}, 201)
		require.Equal(t, true, late["overdue"])
		figures := admin.get(t, projects+"/"+late["id"].(string)+"/figures", 200)
		require.Equal(t, true, figures["overdue"].(map[string]any)["project"])
		done := admin.post(t, projects+"/"+late["id"].(string)+"/state", map[string]any{"version": 1, "state": "complete"}, 200)
		require.Equal(t, false, done["overdue"])
		admin.delete(t, projects+"/"+late["id"].(string), 204)
	})

	testProjectList(t, rows, admin, listFixture{pid: pid, asvs: asvs, ssdf: ssdf, shop: shop, payments: payments, pci: pci})
	testProjectArchive(t, admin, pid)
	testProjectPermissions(t, ts, pid)

	t.Run("deleting a project removes it for good", func(t *testing.T) {
		body := admin.get(t, projects+"/"+pid, 200)
		admin.delete(t, projects+"/"+pid, 204)
		admin.fails(t, "GET", projects+"/"+pid, nil, 404, "not_found")
		audit := items(t, admin.get(t, "/api/v1/audit?action=project.&targetId="+pid+"&limit=50", 200))
		require.Equal(t, string(assess.ChangeProjectDeleted.Action), audit[0]["action"])
		require.Equal(t, body["name"], audit[0]["details"].(map[string]any)["name"])
	})
}

type listFixture struct{ pid, asvs, ssdf, shop, payments, pci string }

// testProjectList checks the filters, the orders and the paging of the project list.
func testProjectList(t *testing.T, rows *catalogueRows, admin *apiClient, f listFixture) {
	const projects = "/api/v1/projects"
	var others []string
	step(t, "more projects for the list", func(t *testing.T) {
		for i, c := range []map[string]any{
			{"name": "beta", "dueDate": "2030-01-05", "standardIds": []string{f.ssdf}, "tagIds": []string{f.pci}},
			{"name": "Älpha", "dueDate": "2030-01-01", "entityIds": []string{f.payments}},
			{"name": "gamma"},
			{"name": "Delta on hold", "state": "on_hold", "dueDate": "2030-01-01"},
		} {
			c["description"] = fmt.Sprintf("listed %d", i)
			others = append(others, admin.post(t, projects, c, 201)["id"].(string))
		}
	})
	beta, alpha, gamma, delta := others[0], others[1], others[2], others[3]
	for _, c := range []struct {
		name, query string
		want        []string
	}{
		{"by name, case-insensitively", "sort=name", byName(t, rows)},
		{"newest first", "sort=-createdAt", []string{delta, gamma, alpha, beta, f.pid}},
		{"by due date, undated last", "sort=dueDate", sortedDue(f.pid, alpha, delta, beta, gamma)},
		{"by state", "state=on_hold", []string{delta}},
		{"by tag", "tag=" + f.pci, []string{beta}},
		{"by standard", "standard=" + f.asvs, []string{f.pid}},
		{"by entity", "entity=" + f.payments, []string{alpha, f.pid}},
		{"by search in the description", "q=LISTED%201", []string{alpha}},
		{"by an unknown tag", "tag=tg_00000000000000000000000000", nil},
	} {
		t.Run("the list pages one by one "+c.name, func(t *testing.T) {
			got := idsOf(allPages(t, admin, projects+"?limit=1&"+c.query))
			if c.want == nil {
				c.want = []string{}
			}
			if c.query == "entity="+f.payments { // two names whose order depends on the collation
				require.ElementsMatch(t, c.want, got)
				return
			}
			require.Equal(t, c.want, got)
		})
	}
	t.Run("a cursor is bound to its filters", func(t *testing.T) {
		body := admin.get(t, projects+"?limit=1&sort=dueDate", 200)
		cursor := url.QueryEscape(body["nextCursor"].(string))
		admin.fails(t, "GET", projects+"?limit=1&sort=name&cursor="+cursor, nil, 400, "validation_failed")
		admin.fails(t, "GET", projects+"?limit=1&sort=dueDate&state=new&cursor="+cursor, nil, 400, "validation_failed")
	})
	t.Run("the list shows the links of each project", func(t *testing.T) {
		list := items(t, admin.get(t, projects+"?tag="+f.pci, 200))
		require.Equal(t, []string{f.ssdf}, projectRefIDs(list[0]["standards"]))
		require.Equal(t, []string{f.pci}, projectRefIDs(list[0]["tags"]))
	})
	for _, id := range others {
		admin.delete(t, projects+"/"+id, 204)
	}
}

// byName is the name order of the projects not archived as the database sorts them
// (lower() folds only ASCII under the C locale, so Älpha sorts after the ASCII names);
// ASCII names must come case-insensitively.
func byName(t *testing.T, rows *catalogueRows) []string {
	t.Helper()
	r, err := rows.conn.Query(context.Background(), "SELECT id, name FROM projects WHERE archived_at IS NULL ORDER BY lower(name), id")
	require.NoError(t, err)
	var ids, names []string
	for r.Next() {
		var id, name string
		require.NoError(t, r.Scan(&id, &name))
		ids, names = append(ids, id), append(names, name)
	}
	require.NoError(t, r.Err())
	ascii := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "Älpha" })
	require.Equal(t, []string{"beta", "Delta on hold", "gamma", "Shop assessment"}, ascii)
	return ids
}

// sortedDue is the dueDate order of the list fixture: pid is due in 30 days, alpha and
// delta on 2030-01-01 (by id), beta on 2030-01-05, gamma undated.
func sortedDue(pid, alpha, delta, beta, gamma string) []string {
	same := []string{alpha, delta}
	slices.Sort(same)
	return append(append([]string{pid}, same...), beta, gamma)
}

// testProjectArchive checks that archiving hides a project and makes it read-only.
func testProjectArchive(t *testing.T, admin *apiClient, pid string) {
	const projects = "/api/v1/projects"
	version := admin.get(t, projects+"/"+pid, 200)["version"].(float64)
	step(t, "archiving hides the project from the default list", func(t *testing.T) {
		body := admin.post(t, projects+"/"+pid+"/archive", map[string]any{"version": version}, 200)
		require.NotEmpty(t, body["archivedAt"])
		require.Equal(t, version+1, body["version"])
		require.NotContains(t, idsOf(allPages(t, admin, projects+"?limit=50")), pid)
		require.Equal(t, []string{pid}, idsOf(allPages(t, admin, projects+"?limit=50&archived=true")))
		again := admin.post(t, projects+"/"+pid+"/archive", map[string]any{"version": version + 1}, 200)
		require.Equal(t, version+1, again["version"], "archiving again changes nothing")
	})
	t.Run("an archived project is read-only", func(t *testing.T) {
		body := admin.fails(t, "PATCH", projects+"/"+pid, map[string]any{"version": version + 1, "name": "Changed"}, 422, "business_rule_violation")
		require.Equal(t, "project_archived", detailCode(t, body))
		admin.fails(t, "POST", projects+"/"+pid+"/state", map[string]any{"version": version + 1, "state": "on_hold"}, 422, "business_rule_violation")
	})
	step(t, "restoring brings it back", func(t *testing.T) {
		body := admin.post(t, projects+"/"+pid+"/archive", map[string]any{"version": version + 1, "archived": false}, 200)
		require.NotContains(t, body, "archivedAt")
		require.Contains(t, idsOf(allPages(t, admin, projects+"?limit=50")), pid)
		audit := items(t, admin.get(t, "/api/v1/audit?action=project.&targetId="+pid+"&limit=2", 200))
		require.Equal(t, string(assess.ChangeProjectRestored.Action), audit[0]["action"])
		require.Equal(t, string(assess.ChangeProjectArchived.Action), audit[1]["action"])
	})
}

// testProjectPermissions checks who may read and change projects.
func testProjectPermissions(t *testing.T, ts *testServer, pid string) {
	const projects = "/api/v1/projects"
	t.Run("assessees read projects but do not change them", func(t *testing.T) {
		_, c := ts.newUser(t, assess.RoleAssessee)
		c.get(t, projects+"/"+pid, 200)
		c.get(t, projects+"/"+pid+"/figures", 200)
		c.fails(t, "POST", projects, map[string]any{"name": "Mine"}, 403, "permission_denied")
		c.fails(t, "PATCH", projects+"/"+pid, map[string]any{"version": 1}, 403, "permission_denied")
		c.fails(t, "POST", projects+"/"+pid+"/state", map[string]any{"version": 1, "state": "on_hold"}, 403, "permission_denied")
		c.fails(t, "POST", projects+"/"+pid+"/archive", map[string]any{"version": 1}, 403, "permission_denied")
		c.fails(t, "DELETE", projects+"/"+pid, nil, 403, "permission_denied")
	})
	t.Run("standards managers do not see projects", func(t *testing.T) {
		_, c := ts.newUser(t, assess.RoleStandardsManager)
		c.fails(t, "GET", projects, nil, 403, "permission_denied")
		c.fails(t, "GET", projects+"/"+pid, nil, 403, "permission_denied")
	})
	t.Run("a custom role may edit without deleting", func(t *testing.T) {
		r := ts.newRole(t, string(assess.PermProjectsView), string(assess.PermProjectsEdit))
		_, c := ts.newUser(t, r.Name)
		version := c.get(t, projects+"/"+pid, 200)["version"]
		c.patch(t, projects+"/"+pid, map[string]any{"version": version, "description": "Edited by a custom role"}, 200)
		c.fails(t, "DELETE", projects+"/"+pid, nil, 403, "permission_denied")
	})
}
