package main

import (
	"compress/gzip"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// Conditional reads (issue 27 item 3): the reads of a standard's content and an
// assessment's workspace answer with a strong ETag derived from the database's revision of
// what they show; If-None-Match naming it answers 304 Not Modified until something shown
// changes — on this server or another one — and the permission and visibility checks run
// before anything kept in memory is used.

// revalidated gets path with If-None-Match inm and returns the answer.
func revalidated(t testing.TB, c *apiClient, path, inm string) (*http.Response, map[string]any) {
	t.Helper()
	return c.do(t, http.MethodGet, path, nil, "If-None-Match", inm)
}

// requireNotModified requires 304 without a body for path with If-None-Match inm.
func requireNotModified(t testing.TB, c *apiClient, path, inm string) {
	t.Helper()
	res, body := revalidated(t, c, path, inm)
	require.Equal(t, http.StatusNotModified, res.StatusCode, "%s with If-None-Match %s: %v", path, inm, body)
	require.Nil(t, body)
	require.NotEmpty(t, res.Header.Get("ETag"))
}

// requireChanged requires the full answer for path with If-None-Match old, under a new
// ETag that itself revalidates; it returns the answer and its ETag.
func requireChanged(t testing.TB, c *apiClient, path, old string) (map[string]any, string) {
	t.Helper()
	res, body := revalidated(t, c, path, old)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s: %v", path, body)
	etag := res.Header.Get("ETag")
	require.NotEqual(t, old, etag, "a change gives a new ETag")
	requireNotModified(t, c, path, etag)
	return body, etag
}

// etagOf gets path and returns the answer and its ETag, checking that it is strong and
// that the answer may be kept only by the browser, revalidated before each use.
func etagOf(t testing.TB, c *apiClient, path string) (map[string]any, string) {
	t.Helper()
	res, body := c.do(t, http.MethodGet, path, nil)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s: %v", path, body)
	etag := res.Header.Get("ETag")
	require.Regexp(t, `^"[0-9a-f]{32}"$`, etag)
	require.Equal(t, "private, no-cache", res.Header.Get("Cache-Control"))
	return body, etag
}

func TestConditionalStandardReads(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	_, approver := ts.newUser(t, "admin")
	st := admin.post(t, "/api/v1/standards", map[string]any{"identifier": "etag-std", "standardVersion": "1.0", "name": "ETag standard"},
		http.StatusCreated)
	id := st["id"].(string)
	base := "/api/v1/standards/" + id
	admin.post(t, base+"/requirements/bulk", map[string]any{"requirements": []map[string]any{
		{"identifier": "V1", "name": "Chapter"}, {"identifier": "V1.1", "parentIdentifier": "V1", "name": "First"},
		{"identifier": "V1.2", "parentIdentifier": "V1", "name": "Second"},
	}}, http.StatusOK)
	first := items(t, admin.get(t, base+"/requirements?q=First", http.StatusOK))[0]["id"].(string)
	level := admin.post(t, base+"/levels", map[string]any{"identifier": "L1", "title": "Level one", "requirementIds": []string{first}},
		http.StatusCreated)
	reads := map[string]string{"tree": base + "/tree", "levels": base + "/levels", "requirements": base + "/requirements?limit=2",
		"requirement": base + "/requirements/" + first}
	etags := map[string]string{}
	for name, path := range reads {
		_, etags[name] = etagOf(t, admin, path)
	}

	step(t, "a draft answers 304 while unchanged, whatever the list or validator form", func(t *testing.T) {
		for name, path := range reads {
			requireNotModified(t, admin, path, etags[name])
			requireNotModified(t, admin, path, `W/`+etags[name])
			requireNotModified(t, admin, path, `"other", `+etags[name]+` , "more"`)
			requireNotModified(t, admin, path, "*")
			res, _ := revalidated(t, admin, path, `"`+etags[name][1:9]+`"`)
			require.Equal(t, http.StatusOK, res.StatusCode, "another ETag is another answer")
		}
	})
	step(t, "every change of a draft's content changes the answers", func(t *testing.T) {
		admin.patch(t, base+"/requirements/"+first, map[string]any{"version": 1, "name": "First, renamed"}, http.StatusOK)
		tree, etag := requireChanged(t, admin, reads["tree"], etags["tree"])
		require.Contains(t, mustJSON(t, tree), "First, renamed")
		etags["tree"] = etag
		admin.patch(t, base+"/levels/"+level["id"].(string), map[string]any{"version": level["version"], "title": "Level 1"}, http.StatusOK)
		body, etag := requireChanged(t, admin, reads["levels"], etags["levels"])
		require.Equal(t, "Level 1", items(t, body)[0]["title"])
		etags["levels"] = etag
		tree, _ = requireChanged(t, admin, reads["tree"], etags["tree"])
		require.Contains(t, mustJSON(t, tree), "Level 1", "the tree shows the levels too")
	})
	step(t, "publishing changes them; a published standard's answers are kept but the same", func(t *testing.T) {
		admin.post(t, base+"/submit", nil, http.StatusOK)
		approver.post(t, base+"/approve", nil, http.StatusOK)
		for name, path := range reads {
			body, etag := requireChanged(t, admin, path, etags[name])
			again, same := etagOf(t, admin, path) // from memory now
			require.Equal(t, etag, same)
			require.Equal(t, body, again)
			etags[name] = etag
		}
		tree := admin.get(t, reads["tree"], http.StatusOK)
		require.Equal(t, "published", tree["standard"].(map[string]any)["state"])
	})
	step(t, "a kept answer is sent compressed to clients that accept gzip, under the same ETag", func(t *testing.T) {
		res, _ := admin.do(t, http.MethodGet, reads["tree"], nil)
		plain := mustJSON(t, admin.get(t, reads["tree"], http.StatusOK))
		req, err := http.NewRequest(http.MethodGet, ts.url+reads["tree"], nil)
		require.NoError(t, err)
		for name, values := range admin.header {
			req.Header[name] = values
		}
		req.Header.Set("Accept-Encoding", "gzip")
		zres, err := admin.http.Do(req)
		require.NoError(t, err)
		defer zres.Body.Close()
		require.Equal(t, "gzip", zres.Header.Get("Content-Encoding"))
		require.Equal(t, "Accept-Encoding", zres.Header.Get("Vary"))
		require.Equal(t, res.Header.Get("ETag"), zres.Header.Get("ETag"))
		zr, err := gzip.NewReader(zres.Body)
		require.NoError(t, err)
		unzipped, err := io.ReadAll(zr)
		require.NoError(t, err)
		require.JSONEq(t, plain, string(unzipped))
	})
	step(t, "tags and retirement change a published standard's answers", func(t *testing.T) {
		tag := admin.post(t, "/api/v1/tags", map[string]any{"name": "Crypto", "color": "#112233"}, http.StatusCreated)
		cur := admin.get(t, base, http.StatusOK)
		admin.patch(t, base, map[string]any{"version": cur["version"], "tagIds": []string{tag["id"].(string)}}, http.StatusOK)
		tree, etag := requireChanged(t, admin, reads["tree"], etags["tree"])
		require.Equal(t, "Crypto", tree["standard"].(map[string]any)["tags"].([]any)[0].(map[string]any)["name"])
		admin.patch(t, "/api/v1/tags/"+tag["id"].(string), map[string]any{"version": tag["version"], "name": "Cryptography"}, http.StatusOK)
		tree, etag = requireChanged(t, admin, reads["tree"], etag)
		require.Equal(t, "Cryptography", tree["standard"].(map[string]any)["tags"].([]any)[0].(map[string]any)["name"],
			"a renamed tag is not served from the kept answer")
		admin.post(t, base+"/retire", nil, http.StatusOK)
		tree, _ = requireChanged(t, admin, reads["tree"], etag)
		require.Equal(t, "retired", tree["standard"].(map[string]any)["state"])
	})
	step(t, "the permission check runs before a kept answer or a 304", func(t *testing.T) {
		noStandards := ts.newRole(t, string(assess.PermAssessmentsView))
		_, outsider := ts.newUser(t, noStandards.Name)
		for _, path := range reads {
			body := admin.get(t, path, http.StatusOK)
			require.NotEmpty(t, body)
			res, _ := admin.do(t, http.MethodGet, path, nil)
			outsider.fails(t, http.MethodGet, path, nil, http.StatusForbidden, "permission_denied")
			res2, body2 := revalidated(t, outsider, path, res.Header.Get("ETag"))
			require.Equal(t, http.StatusForbidden, res2.StatusCode, "%v", body2)
			require.Empty(t, res2.Header.Get("ETag"))
		}
		missing := "/api/v1/standards/" + assess.NewID(assess.PrefixStandard, time.Now()) + "/tree"
		res, body := revalidated(t, admin, missing, "*")
		require.Equal(t, http.StatusNotFound, res.StatusCode, "%v", body)
		res, body = revalidated(t, admin, base+"/requirements/"+assess.NewID(assess.PrefixRequirement, time.Now()), "*")
		require.Equal(t, http.StatusNotFound, res.StatusCode, "a missing requirement of a standard that exists: %v", body)
	})
}

func TestConditionalWorkspaceAcrossReplicas(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	a := startServerOn(t, dsn)
	b := startServerOn(t, dsn)
	admin := a.admin(t)
	adminOnB := *admin
	adminOnB.ts, adminOnB.origin = b, b.url
	assessor, assessorC := a.newUser(t, assess.RoleAssessor)
	_, outsider := a.newUser(t, assess.RoleAssessor) // not on the team
	w := newClaimWorld(t, a)
	aid, ars := w.assessment("Workspace", []string{assessor.ID, admin.user.ID}, nil)
	path := "/api/v1/assessments/" + aid + "/requirements"
	_, etag := etagOf(t, assessorC, path)

	step(t, "unchanged, it is 304 on both replicas, with one ETag for every caller who may see it", func(t *testing.T) {
		requireNotModified(t, assessorC, path, etag)
		requireNotModified(t, &adminOnB, path, etag)
		_, onB := etagOf(t, &adminOnB, path)
		require.Equal(t, etag, onB)
	})
	step(t, "a result recorded on the other replica changes it", func(t *testing.T) {
		adminOnB.post(t, path+"/bulk", map[string]any{"items": []map[string]any{{"id": ars[0], "result": "yes", "rationale": rationale15}}},
			http.StatusOK)
		body, e := requireChanged(t, assessorC, path, etag)
		require.Equal(t, "yes", items(t, body)[0]["result"])
		etag = e
	})
	step(t, "evidence linked and unlinked on the other replica changes it", func(t *testing.T) {
		ev := adminOnB.post(t, "/api/v1/evidence", map[string]any{"name": "Scan", "requirementIds": []string{ars[1]}}, http.StatusCreated)
		body, e := requireChanged(t, assessorC, path, etag)
		require.Equal(t, float64(1), items(t, body)[1]["evidenceCount"])
		adminOnB.delete(t, "/api/v1/evidence/"+ev["id"].(string)+"/links/"+ars[1], http.StatusNoContent)
		body, etag = requireChanged(t, assessorC, path, e)
		require.Equal(t, float64(0), items(t, body)[1]["evidenceCount"])
	})
	step(t, "a claim on the other replica changes it", func(t *testing.T) {
		adminOnB.post(t, "/api/v1/assessments/"+aid+"/claims", map[string]any{"name": "Claim", "target": "The service",
			"predicate": "It holds.", "requirementIds": []string{ars[2]}}, http.StatusCreated)
		body, e := requireChanged(t, assessorC, path, etag)
		require.Equal(t, float64(1), items(t, body)[2]["claimCount"])
		etag = e
	})
	step(t, "a change of the assessment itself changes it", func(t *testing.T) {
		cur := adminOnB.get(t, "/api/v1/assessments/"+aid, http.StatusOK)
		adminOnB.patch(t, "/api/v1/assessments/"+aid, map[string]any{"version": cur["version"], "title": "Workspace, renamed"}, http.StatusOK)
		_, etag = requireChanged(t, assessorC, path, etag)
	})
	step(t, "a caller who may not see the assessment gets 404, ETag or not", func(t *testing.T) {
		outsider.fails(t, http.MethodGet, path, nil, http.StatusNotFound, "not_found")
		res, body := revalidated(t, outsider, path, etag)
		require.Equal(t, http.StatusNotFound, res.StatusCode, "%v", body)
		res, body = revalidated(t, outsider, path, "*")
		require.Equal(t, http.StatusNotFound, res.StatusCode, "%v", body)
	})
	step(t, "the caller's own filter (mine) has the caller's own ETag; a bad filter is 400 still", func(t *testing.T) {
		adminOnB.post(t, path+"/bulk", map[string]any{"items": []map[string]any{{"id": ars[1], "result": "no", "rationale": rationale15}}},
			http.StatusOK)
		cur := adminOnB.get(t, path+"/"+ars[1], http.StatusOK)
		adminOnB.expect(t, http.StatusOK, http.MethodPut, path+"/"+ars[1], map[string]any{"version": cur["version"], "result": "no",
			"rationale": rationale15, "assigneeId": assessor.ID})
		mine, mineETag := etagOf(t, assessorC, path+"?mine=true")
		require.Equal(t, []string{ars[1]}, idsOf(items(t, mine)))
		theirs, theirETag := etagOf(t, admin, path+"?mine=true")
		require.Empty(t, items(t, theirs))
		require.NotEqual(t, mineETag, theirETag)
		res, body := revalidated(t, admin, path+"?mine=true", mineETag)
		require.Equal(t, http.StatusOK, res.StatusCode, "another caller's ETag does not match: %v", body)
		res, body = revalidated(t, assessorC, path+"?result=perhaps", "*")
		require.Equal(t, http.StatusBadRequest, res.StatusCode, "%v", body)
	})
}
