package main

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// testLifecycle takes draft id through review, rejection, publication, retirement,
// duplication and deletion, with the four-eyes rule and the in-use rules.
func testLifecycle(t *testing.T, ts *testServer, id string) {
	_, author := ts.newUser(t, "standards_manager", "standards_approver")
	_, approver := ts.newUser(t, "standards_approver")
	admin := ts.admin(t)
	path := standardsPath + "/" + id
	t.Run("only a draft can be submitted; nothing else moves a draft", func(t *testing.T) {
		body := author.fails(t, "POST", path+"/approve", nil, 409, "invalid_state_transition")
		require.Contains(t, fmt.Sprint(body["details"]), "in_review")
		author.fails(t, "POST", path+"/retire", nil, 409, "invalid_state_transition")
		approver.fails(t, "POST", path+"/reject", `{"reason":"no"}`, 409, "invalid_state_transition")
	})
	step(t, "the author submits", func(t *testing.T) {
		st := author.post(t, path+"/submit", nil, 200)
		require.Equal(t, "in_review", st["state"])
		require.Equal(t, author.user.ID, st["submittedBy"])
		require.NotEmpty(t, st["submittedAt"])
		author.fails(t, "POST", path+"/submit", nil, 409, "invalid_state_transition")
	})
	t.Run("approvers are told there is work", func(t *testing.T) {
		var types []any
		for _, n := range items(t, approver.get(t, "/api/v1/notifications", 200)) {
			types = append(types, n["type"])
		}
		require.Contains(t, fmt.Sprint(types), "standard.submitted")
	})
	t.Run("content cannot change outside draft, tags can", func(t *testing.T) {
		st := author.get(t, path, 200)
		body := author.fails(t, "PATCH", path, map[string]any{"version": st["version"], "name": "Changed"}, 409, "conflict")
		require.Equal(t, "not_draft", detailCode(t, body))
		body = author.fails(t, "POST", path+"/requirements", `{"identifier":"V99"}`, 409, "conflict")
		require.Equal(t, "not_draft", detailCode(t, body))
		author.fails(t, "POST", path+"/requirements/bulk", `{"requirements":[{"identifier":"V99"}]}`, 409, "conflict")
		author.fails(t, "POST", path+"/levels", `{"identifier":"L9"}`, 409, "conflict")
		st = author.patch(t, path, map[string]any{"version": st["version"], "tagIds": []string{}}, 200)
		require.Equal(t, "in_review", st["state"])
	})
	t.Run("the submitter cannot decide on their own submission", func(t *testing.T) {
		body := author.fails(t, "POST", path+"/approve", nil, 422, "business_rule_violation")
		require.Equal(t, "four_eyes", detailCode(t, body))
		body = author.fails(t, "POST", path+"/reject", `{"reason":"mine"}`, 422, "business_rule_violation")
		require.Equal(t, "four_eyes", detailCode(t, body))
	})
	t.Run("a rejection needs a reason", func(t *testing.T) {
		approver.fails(t, "POST", path+"/reject", `{}`, 400, "validation_failed")
		approver.fails(t, "POST", path+"/reject", `{"reason":"   "}`, 400, "validation_failed")
		approver.fails(t, "POST", path+"/reject", nil, 400, "validation_failed")
	})
	step(t, "another approver rejects with a reason, kept on the standard", func(t *testing.T) {
		st := approver.post(t, path+"/reject", `{"reason":"Chapter V2 is missing."}`, 200)
		require.Equal(t, "draft", st["state"])
		require.Equal(t, "Chapter V2 is missing.", st["rejectionReason"])
		require.Equal(t, approver.user.ID, st["rejectedBy"])
		audit := admin.get(t, "/api/v1/audit?limit=50", 200)
		require.Contains(t, fmt.Sprint(items(t, audit)), "Chapter V2 is missing.")
	})
	step(t, "resubmitted, another approver publishes it", func(t *testing.T) {
		author.post(t, path+"/submit", nil, 200)
		st := approver.post(t, path+"/approve", nil, 200)
		require.Equal(t, "published", st["state"])
		require.Equal(t, approver.user.ID, st["approvedBy"])
		require.NotContains(t, st, "rejectionReason")
	})
	t.Run("a published standard cannot be deleted", func(t *testing.T) {
		body := approver.fails(t, "DELETE", path, nil, 409, "conflict")
		require.Equal(t, "not_deletable", detailCode(t, body))
	})
	testRetireAndDuplicate(t, ts, id, approver)
}

// testRetireAndDuplicate retires published standard id while in use, copies it and
// deletes what may be deleted.
func testRetireAndDuplicate(t *testing.T, ts *testServer, id string, approver *apiClient) {
	path := standardsPath + "/" + id
	manager := ts.admin(t)
	sqlExec(t, ts, `INSERT INTO projects (id, name) VALUES ('pr_01hx8n6q7k3m2v9c4t5r6s7p8a', 'Web shop')`)
	sqlExec(t, ts, `INSERT INTO project_standards (project_id, standard_id) VALUES ('pr_01hx8n6q7k3m2v9c4t5r6s7p8a', $1)`, id)
	sqlExec(t, ts, `INSERT INTO entities (id, name, entity_type) VALUES ('en_01hx8n6q7k3m2v9c4t5r6s7p8a', 'Payments', 'service'),
		('en_01hx8n6q7k3m2v9c4t5r6s7p8b', 'Old system', 'service')`)
	sqlExec(t, ts, `UPDATE entities SET state = 'archived' WHERE id = 'en_01hx8n6q7k3m2v9c4t5r6s7p8b'`)
	sqlExec(t, ts, `INSERT INTO compliance_policies (id, entity_id, standard_id) VALUES
		('cp_01hx8n6q7k3m2v9c4t5r6s7p8a', 'en_01hx8n6q7k3m2v9c4t5r6s7p8a', $1),
		('cp_01hx8n6q7k3m2v9c4t5r6s7p8b', 'en_01hx8n6q7k3m2v9c4t5r6s7p8b', $1)`, id)
	t.Run("retiring a standard in use is refused, naming the users", func(t *testing.T) {
		body := approver.fails(t, "POST", path+"/retire", `{}`, 422, "business_rule_violation")
		require.Equal(t, "in_use", detailCode(t, body))
		details := fmt.Sprint(body["details"])
		require.Contains(t, details, "Web shop")
		require.Contains(t, details, "Payments")
		require.NotContains(t, details, "Old system", "archived entities do not count")
		require.Contains(t, body["message"], "1 project(s) and 1 entity(ies)")
	})
	step(t, "forced, it retires", func(t *testing.T) {
		st := approver.post(t, path+"/retire", `{"force":true}`, 200)
		require.Equal(t, "retired", st["state"])
		require.NotEmpty(t, st["retiredAt"])
	})
	t.Run("a retired standard in use cannot be deleted", func(t *testing.T) {
		body := approver.fails(t, "DELETE", path, nil, 409, "conflict")
		require.Equal(t, "in_use", detailCode(t, body))
	})
	var copyID string
	step(t, "a duplicate is a deep copy in a new draft version", func(t *testing.T) {
		manager.fails(t, "POST", path+"/duplicate", `{"standardVersion":"5.0.0"}`, 409, "already_exists")
		st := manager.post(t, path+"/duplicate", `{"standardVersion":"5.1.0"}`, 201)
		copyID = st["id"].(string)
		require.Equal(t, "draft", st["state"])
		require.Equal(t, "duplicate", st["source"])
		require.Equal(t, id, st["duplicatedFrom"])
		require.Equal(t, "owasp-asvs", st["identifier"])
		original, _ := treeOf(t, manager, id)
		copied, copyIDs := treeOf(t, manager, copyID)
		require.Equal(t, original, copied)
		tree := manager.get(t, standardsPath+"/"+copyID+"/tree", 200)
		levels := tree["levels"].([]any)
		require.Len(t, levels, 1)
		level := levels[0].(map[string]any)
		require.Equal(t, float64(2), level["requirementCount"])
		r := manager.get(t, standardsPath+"/"+copyID+"/requirements/"+copyIDs["V1.1"], 200)
		require.Equal(t, []any{level["id"]}, r["levels"])
		require.Equal(t, []any{"CRE:764-507"}, r["openCre"])
		require.Equal(t, copyIDs["V1"], r["parentId"])
	})
	t.Run("the versions of an identifier are listed newest first", func(t *testing.T) {
		got := idsOf(items(t, manager.get(t, path+"/versions", 200)))
		require.Equal(t, []string{copyID, id}, got)
	})
	t.Run("a draft is deleted, with its tree", func(t *testing.T) {
		manager.delete(t, standardsPath+"/"+copyID, 204)
		manager.fails(t, "GET", standardsPath+"/"+copyID+"/tree", nil, 404, "not_found")
	})
	t.Run("a retired standard nobody uses is deleted", func(t *testing.T) {
		sqlExec(t, ts, `DELETE FROM project_standards; DELETE FROM compliance_policies`)
		approver.delete(t, path, 204)
		approver.fails(t, "GET", path, nil, 404, "not_found")
	})
}

// testStandardLists checks the list's filters, search, sorts and paging.
func testStandardLists(t *testing.T, ts *testServer, manager, approver *apiClient) {
	for _, v := range []string{"1.0", "2.0"} {
		newStandard(t, manager, "nist-ssdf", v)
	}
	tag := ts.admin(t)
	var tagID string
	if res, body := tag.do(t, "POST", "/api/v1/tags", `{"name":"Security"}`); res.StatusCode == http.StatusCreated {
		tagID = body["id"].(string)
	} else {
		tagID = "tg_01hx8n6q7k3m2v9c4t5r6s7p8a"
		sqlExec(t, ts, `INSERT INTO tags (id, name) VALUES ($1, 'Security')`, tagID)
	}
	ssdf := items(t, manager.get(t, standardsPath+"?identifier=nist-ssdf&sort=identifier", 200))
	require.Len(t, ssdf, 2)
	st := manager.patch(t, standardsPath+"/"+ssdf[0]["id"].(string), map[string]any{"version": ssdf[0]["version"], "tagIds": []string{tagID}}, 200)
	require.Equal(t, "Security", st["tags"].([]any)[0].(map[string]any)["name"])
	t.Run("filters: tag, state, q, owner", func(t *testing.T) {
		require.Equal(t, []string{ssdf[0]["id"].(string)}, idsOf(items(t, approver.get(t, standardsPath+"?tag="+tagID, 200))))
		require.Len(t, items(t, approver.get(t, standardsPath+"?q=SSDF", 200)), 2)
		require.Len(t, items(t, approver.get(t, standardsPath+"?state=published", 200)), 0)
		require.Len(t, items(t, approver.get(t, standardsPath+"?owner=OWASP&state=draft", 200)), 3)
		approver.fails(t, "GET", standardsPath+"?state=gone", nil, 400, "validation_failed")
	})
	t.Run("every sort pages through every standard once", func(t *testing.T) {
		for _, sort := range []string{"name", "-createdAt", "identifier"} {
			all := allPages(t, approver, standardsPath+"?limit=1&sort="+sort)
			require.Len(t, all, 3, sort)
		}
		newest := items(t, approver.get(t, standardsPath+"?sort=-createdAt&limit=1", 200))
		require.Equal(t, "2.0", newest[0]["standardVersion"])
	})
	t.Run("an empty tag set clears the tags", func(t *testing.T) {
		cleared := manager.patch(t, standardsPath+"/"+st["id"].(string), map[string]any{"version": st["version"], "tagIds": []string{}}, 200)
		require.Equal(t, []any{}, cleared["tags"])
		require.Empty(t, items(t, approver.get(t, standardsPath+"?tag="+tagID, 200)))
	})
	t.Run("a cursor of another filter is refused", func(t *testing.T) {
		body := approver.get(t, standardsPath+"?limit=1", 200)
		approver.fails(t, "GET", standardsPath+"?limit=1&state=draft&cursor="+body["nextCursor"].(string), nil, 400, "validation_failed")
	})
}
