package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// claimWorld builds, directly in SQL, the assessments, teams, requirements and evidence
// the claim and work-note tests stand on (their own API belongs to other features): one
// published standard with requirements and one entity.
type claimWorld struct {
	t          testing.TB
	ts         *testServer
	standardID string
	entityID   string
	reqIDs     []string // catalogue requirements (rq_) of the standard
}

func newClaimWorld(t testing.TB, ts *testServer) *claimWorld {
	t.Helper()
	w := &claimWorld{t: t, ts: ts, standardID: ts.newStandardSQL(t, "Claims Standard", "published")}
	for i := range 3 {
		id := assess.NewID(assess.PrefixRequirement, time.Now())
		ts.sqlExec(t, `INSERT INTO requirements (id, standard_id, identifier, natural_key, name, position) VALUES ($1, $2, $3, $3, $4, $5)`,
			id, w.standardID, fmt.Sprintf("C%d", i+1), fmt.Sprintf("Requirement C%d", i+1), i)
		w.reqIDs = append(w.reqIDs, id)
	}
	w.entityID = assess.NewID(assess.PrefixEntity, time.Now())
	ts.sqlExec(t, `INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Payments API', 'service')`, w.entityID)
	return w
}

// assessment inserts an in-progress assessment with its team and one assessment
// requirement per catalogue requirement, and returns its id and the ar_ ids.
func (w *claimWorld) assessment(title string, assessors, assessees []string) (string, []string) {
	w.t.Helper()
	id := assess.NewID(assess.PrefixAssessment, time.Now())
	w.ts.sqlExec(w.t, `INSERT INTO assessments (id, title, entity_id, state, started_at) VALUES ($1, $2, $3, 'in_progress', now())`,
		id, title, w.entityID)
	w.ts.sqlExec(w.t, `INSERT INTO assessment_standards (assessment_id, standard_id) VALUES ($1, $2)`, id, w.standardID)
	for role, users := range map[string][]string{"assessor": assessors, "assessee": assessees} {
		for _, u := range users {
			w.ts.sqlExec(w.t, `INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, $3)`, id, u, role)
		}
	}
	var ars []string
	for _, rq := range w.reqIDs {
		ar := assess.NewID(assess.PrefixAssessmentRequirement, time.Now())
		w.ts.sqlExec(w.t, `INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ($1, $2, $3, $4)`,
			ar, id, rq, w.standardID)
		ars = append(ars, ar)
	}
	return id, ars
}

// evidence inserts evidence authored by authorID, linked to the assessment requirements
// given, and returns its id.
func (w *claimWorld) evidence(name, authorID string, linkTo ...string) string {
	w.t.Helper()
	id := assess.NewID(assess.PrefixEvidence, time.Now())
	w.ts.sqlExec(w.t, `INSERT INTO evidence (id, name, author_id) VALUES ($1, $2, $3)`, id, name, authorID)
	for _, ar := range linkTo {
		w.ts.sqlExec(w.t, `INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
			SELECT $1, $2, assessment_id FROM assessment_requirements WHERE id = $1`, ar, id)
	}
	return id
}

// setState moves an assessment to state directly.
func (w *claimWorld) setState(assessmentID, state string) {
	w.t.Helper()
	w.ts.sqlExec(w.t, `UPDATE assessments SET state = $2 WHERE id = $1`, assessmentID, state)
}

// count runs a counting query on the test database.
func (w *claimWorld) count(query string, args ...any) int {
	w.t.Helper()
	conn, err := pgx.Connect(context.Background(), w.ts.dsn)
	require.NoError(w.t, err)
	defer conn.Close(context.Background())
	var n int
	require.NoError(w.t, conn.QueryRow(context.Background(), query, args...).Scan(&n))
	return n
}

func evidenceIDsOf(v any) []string {
	var out []string
	for _, it := range v.([]any) {
		out = append(out, it.(map[string]any)["id"].(string))
	}
	return out
}

func TestClaimsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	w := newClaimWorld(t, ts)
	ann, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	bea, beaC := ts.newUserNamed(t, "bea", assess.RoleAssessee)
	eve, _ := ts.newUserNamed(t, "eve", assess.RoleAssessee)
	oz, ozC := ts.newUserNamed(t, "ozzy", assess.RoleAssessor) // holds claims.* but is on no team
	aid, ars := w.assessment("Payments review", []string{ann.ID}, []string{bea.ID})
	otherAID, otherARs := w.assessment("Other review", []string{oz.ID}, nil)
	evOwn := w.evidence("Encryption config", ann.ID)
	evLinked := w.evidence("Pentest report", eve.ID, ars[0])
	evHidden := w.evidence("Oz's private notes", oz.ID)
	claims := "/api/v1/assessments/" + aid + "/claims"

	var claimID string
	step(t, "a claim with every relation is created", func(t *testing.T) {
		body := annC.post(t, claims, map[string]any{
			"name": " Data encrypted at rest ", "targetEntityId": w.entityID, "predicate": "All stored data is encrypted.",
			"reasoning": "The configuration and the pentest show it.", "evidenceIds": []string{evOwn, evLinked, evOwn},
			"counterEvidenceIds": []string{evLinked}, "mitigationEvidenceIds": []string{evOwn}, "requirementIds": []string{ars[0], ars[1]},
			"externalReferences": []map[string]any{{"type": "pentest-report", "url": "https://reports.example.com/p1.pdf", "comment": "2026"}},
		}, http.StatusCreated)
		claimID = body["id"].(string)
		require.True(t, strings.HasPrefix(claimID, "cl_"))
		require.Equal(t, aid, body["assessmentId"])
		require.Equal(t, "Data encrypted at rest", body["name"])
		require.Equal(t, "Payments API", body["target"], "the entity names the target")
		require.Equal(t, "Payments API", body["targetEntityName"])
		require.Equal(t, []string{evOwn, evLinked}, evidenceIDsOf(body["evidence"]))
		require.Equal(t, []string{evLinked}, evidenceIDsOf(body["counterEvidence"]))
		require.Equal(t, []string{evOwn}, evidenceIDsOf(body["mitigationStrategies"]))
		require.ElementsMatch(t, []any{ars[0], ars[1]}, body["requirementIds"])
		require.Equal(t, []any{map[string]any{"type": "pentest-report", "url": "https://reports.example.com/p1.pdf", "comment": "2026"}}, body["externalReferences"])
		require.Equal(t, false, body["isCounterClaim"])
		require.Equal(t, ann.ID, body["createdBy"])
		require.Equal(t, float64(1), body["version"])
	})
	t.Run("cited evidence is recorded, which locks it", func(t *testing.T) {
		require.Equal(t, 4, w.count(`SELECT count(*) FROM claim_evidence WHERE claim_id = $1`, claimID))
		require.Equal(t, 1, w.count(`SELECT count(*) FROM claim_evidence WHERE evidence_id = $1 AND kind = 'counter_evidence'`, evLinked))
	})
	t.Run("the team reads it; the list filters by requirement", func(t *testing.T) {
		require.Equal(t, claimID, beaC.get(t, "/api/v1/claims/"+claimID, 200)["id"])
		require.Equal(t, []string{claimID}, idsOf(items(t, beaC.get(t, claims, 200))))
		require.Equal(t, []string{claimID}, idsOf(items(t, annC.get(t, claims+"?requirement="+ars[1], 200))))
		require.Empty(t, items(t, annC.get(t, claims+"?requirement="+ars[2], 200)))
	})

	var counterID string
	step(t, "a counter-claim names the claim it disputes", func(t *testing.T) {
		body := annC.post(t, claims, map[string]any{"name": "Backups are not encrypted", "target": "Backup store",
			"predicate": "Nightly backups are stored in plain text.", "countersClaimId": claimID}, http.StatusCreated)
		counterID = body["id"].(string)
		require.Equal(t, true, body["isCounterClaim"])
		require.Equal(t, claimID, body["countersClaimId"])
		require.Equal(t, "Backup store", body["target"])
		require.Empty(t, body["targetEntityId"])
		require.Equal(t, []string{claimID, counterID}, idsOf(items(t, annC.get(t, claims, 200))), "oldest first")
	})
	t.Run("refused references", func(t *testing.T) {
		valid := func(change map[string]any) map[string]any {
			b := map[string]any{"name": "N", "target": "T", "predicate": "P"}
			for k, v := range change {
				b[k] = v
			}
			return b
		}
		for _, tc := range []struct {
			name   string
			body   map[string]any
			status int
			code   string
			field  string
		}{
			{"no target", map[string]any{"name": "N", "predicate": "P"}, 400, "required", "target"},
			{"a blank name", valid(map[string]any{"name": "  "}), 400, "invalid", "name"},
			{"an unknown reference type", valid(map[string]any{"externalReferences": []map[string]any{{"type": "blog", "url": "https://x.example.com"}}}), 400, "invalid", "externalReferences[0].type"},
			{"an ftp reference", valid(map[string]any{"externalReferences": []map[string]any{{"type": "website", "url": "ftp://x.example.com/a"}}}), 400, "invalid", "externalReferences[0].url"},
			{"evidence the caller cannot see", valid(map[string]any{"counterEvidenceIds": []string{evHidden}}), 422, "unknown_evidence", "counterEvidenceIds"},
			{"evidence that does not exist", valid(map[string]any{"evidenceIds": []string{"ev_nope"}}), 422, "unknown_evidence", "evidenceIds"},
			{"a requirement of another assessment", valid(map[string]any{"requirementIds": []string{otherARs[0]}}), 422, "unknown_requirement", "requirementIds"},
			{"an unknown entity", valid(map[string]any{"targetEntityId": "en_00000000000000000000000000"}), 422, "unknown_entity", "targetEntityId"},
			{"a claim of another assessment countered", valid(map[string]any{"countersClaimId": "cl_00000000000000000000000000"}), 422, "unknown_claim", "countersClaimId"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code := map[int]string{400: assess.ECodeValidation, 422: assess.ECodeBusinessRule}[tc.status]
				body := annC.fails(t, "POST", claims, tc.body, tc.status, code)
				d := body["details"].([]any)[0].(map[string]any)
				require.Equal(t, tc.code, d["code"], body)
				require.Equal(t, tc.field, d["field"], body)
			})
		}
		require.Equal(t, 2, w.count(`SELECT count(*) FROM claims WHERE assessment_id = $1`, aid), "nothing was stored")
	})
	testClaimUpdates(t, annC, claimID, counterID, evOwn, evLinked, ars)
	testClaimBOLA(t, ozC, beaC, aid, claimID, otherAID)

	t.Run("a read-only assessment refuses claim changes", func(t *testing.T) {
		w.setState(aid, "complete")
		defer w.setState(aid, "in_progress")
		current := annC.get(t, "/api/v1/claims/"+claimID, 200)
		for _, req := range []struct {
			method, path string
			body         any
		}{
			{"POST", claims, map[string]any{"name": "N", "target": "T", "predicate": "P"}},
			{"PATCH", "/api/v1/claims/" + claimID, map[string]any{"version": current["version"], "name": "N"}},
			{"DELETE", fmt.Sprintf("/api/v1/claims/%s?version=%v", claimID, current["version"]), nil},
		} {
			body := annC.fails(t, req.method, req.path, req.body, 409, "conflict")
			require.Equal(t, "read_only", detailCode(t, body), req.method)
		}
		require.Equal(t, claimID, annC.get(t, "/api/v1/claims/"+claimID, 200)["id"], "still readable")
	})
	t.Run("a deleted claim is gone; its counter-claim stays, countering nothing", func(t *testing.T) {
		current := annC.get(t, "/api/v1/claims/"+claimID, 200)
		annC.fails(t, "DELETE", "/api/v1/claims/"+claimID+"?version=1", nil, 409, "version_conflict")
		annC.delete(t, fmt.Sprintf("/api/v1/claims/%s?version=%v", claimID, current["version"]), 204)
		annC.fails(t, "GET", "/api/v1/claims/"+claimID, nil, 404, "not_found")
		require.Equal(t, 0, w.count(`SELECT count(*) FROM claim_evidence WHERE claim_id = $1`, claimID))
		counter := annC.get(t, "/api/v1/claims/"+counterID, 200)
		require.Equal(t, true, counter["isCounterClaim"])
		require.Empty(t, counter["countersClaimId"])
	})
	t.Run("claim changes are on the assessment's timeline", func(t *testing.T) {
		var actions []string
		for _, e := range items(t, beaC.get(t, "/api/v1/assessments/"+aid+"/timeline", 200)) {
			require.Equal(t, "claim", e["targetType"])
			actions = append(actions, e["action"].(string))
			require.Equal(t, "ann", e["actor"].(map[string]any)["username"])
		}
		require.Equal(t, []string{"claim.deleted", "claim.updated", "claim.updated", "claim.updated", "claim.created", "claim.created"}, actions)
	})
}

// testClaimUpdates: updates replace the sets they name, keep the rest, and carry the version.
func testClaimUpdates(t *testing.T, annC *apiClient, claimID, counterID, evOwn, evLinked string, ars []string) {
	path := "/api/v1/claims/" + claimID
	step(t, "an update replaces the sets it names and keeps the rest", func(t *testing.T) {
		body := annC.patch(t, path, map[string]any{"version": 1, "target": "Payments API v2", "evidenceIds": []string{evLinked},
			"requirementIds": []string{ars[2]}, "externalReferences": []map[string]any{}}, 200)
		require.Equal(t, "Payments API v2", body["target"])
		require.Equal(t, []string{evLinked}, evidenceIDsOf(body["evidence"]))
		require.Equal(t, []string{evLinked}, evidenceIDsOf(body["counterEvidence"]), "not named, kept")
		require.Equal(t, []string{evOwn}, evidenceIDsOf(body["mitigationStrategies"]))
		require.Equal(t, []any{ars[2]}, body["requirementIds"])
		require.Equal(t, []any{}, body["externalReferences"])
		require.Equal(t, "All stored data is encrypted.", body["predicate"])
		require.Equal(t, float64(2), body["version"])
	})
	t.Run("a stale version conflicts", func(t *testing.T) {
		annC.fails(t, "PATCH", path, map[string]any{"version": 1, "name": "Stale"}, 409, "version_conflict")
	})
	t.Run("an update cannot leave the claim without a target", func(t *testing.T) {
		body := annC.fails(t, "PATCH", "/api/v1/claims/"+counterID, map[string]any{"version": 1, "target": ""}, 400, "validation_failed")
		require.Equal(t, "required", detailCode(t, body))
	})
	t.Run("a claim cannot counter itself", func(t *testing.T) {
		body := annC.fails(t, "PATCH", "/api/v1/claims/"+counterID, map[string]any{"version": 1, "countersClaimId": counterID}, 422, "business_rule_violation")
		require.Equal(t, "unknown_claim", detailCode(t, body))
	})
	t.Run("isCounterClaim false ends the counter-claim", func(t *testing.T) {
		body := annC.patch(t, "/api/v1/claims/"+counterID, map[string]any{"version": 1, "isCounterClaim": false}, 200)
		require.Equal(t, false, body["isCounterClaim"])
		require.Empty(t, body["countersClaimId"])
		body = annC.patch(t, "/api/v1/claims/"+counterID, map[string]any{"version": 2, "countersClaimId": claimID}, 200)
		require.Equal(t, true, body["isCounterClaim"])
	})
}

// testClaimBOLA: a user outside the assessment, holding every claim permission, finds
// nothing: every claim operation answers 404, and evidence of another assessment cannot
// be cited into this one.
func testClaimBOLA(t *testing.T, ozC, beaC *apiClient, aid, claimID, otherAID string) {
	claims := "/api/v1/assessments/" + aid + "/claims"
	t.Run("an outsider gets 404 on every claim operation", func(t *testing.T) {
		valid := map[string]any{"name": "N", "target": "T", "predicate": "P"}
		ozC.fails(t, "GET", claims, nil, 404, "not_found")
		ozC.fails(t, "POST", claims, valid, 404, "not_found")
		ozC.fails(t, "GET", "/api/v1/claims/"+claimID, nil, 404, "not_found")
		ozC.fails(t, "PATCH", "/api/v1/claims/"+claimID, map[string]any{"version": 2, "name": "Mine"}, 404, "not_found")
		ozC.fails(t, "DELETE", "/api/v1/claims/"+claimID+"?version=2", nil, 404, "not_found")
		ozC.fails(t, "GET", "/api/v1/claims/cl_nope", nil, 404, "not_found")
		ozC.fails(t, "GET", "/api/v1/assessments/as_nope/claims", nil, 404, "not_found")
	})
	t.Run("the outsider's own assessment cannot counter or reach this one's claims", func(t *testing.T) {
		body := ozC.fails(t, "POST", "/api/v1/assessments/"+otherAID+"/claims",
			map[string]any{"name": "N", "target": "T", "predicate": "P", "countersClaimId": claimID}, 422, "business_rule_violation")
		require.Equal(t, "unknown_claim", detailCode(t, body))
	})
	t.Run("an assessee may read but not write claims", func(t *testing.T) {
		beaC.fails(t, "POST", claims, map[string]any{"name": "N", "target": "T", "predicate": "P"}, 403, "permission_denied")
	})
}

// TestClaimListPages: the claims of an assessment and the claims citing evidence are
// cursor-paginated like every list ({items, nextCursor, hasMore}; 50 by default, at most
// 200); a limit out of range or a cursor that is not this list's is 400 in the error
// envelope, and an outsider still gets 404.
func TestClaimListPages(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	w := newClaimWorld(t, ts)
	ann, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	_, ozC := ts.newUserNamed(t, "ozzy", assess.RoleAssessor)
	aid, ars := w.assessment("Payments review", []string{ann.ID}, nil)
	ev := w.evidence("Pentest report", ann.ID)
	claims := "/api/v1/assessments/" + aid + "/claims"
	var all, aboutFirst []string
	for i := range 60 {
		body := annC.post(t, claims, map[string]any{"name": fmt.Sprintf("Claim %02d", i), "target": "T", "predicate": "P",
			"evidenceIds": []string{ev}, "requirementIds": []string{ars[i%2]}}, http.StatusCreated)
		all = append(all, body["id"].(string))
		if i%2 == 0 {
			aboutFirst = append(aboutFirst, body["id"].(string))
		}
	}

	t.Run("a page of 50, then the rest", func(t *testing.T) {
		first := annC.get(t, claims, http.StatusOK)
		require.Len(t, items(t, first), 50)
		require.Equal(t, true, first["hasMore"])
		cursor, _ := first["nextCursor"].(string)
		require.NotEmpty(t, cursor)
		last := annC.get(t, claims+"?cursor="+cursor, http.StatusOK)
		require.Len(t, items(t, last), 10)
		require.Equal(t, false, last["hasMore"])
		require.NotContains(t, last, "nextCursor")
		require.Equal(t, all, append(idsOf(items(t, first)), idsOf(items(t, last))...), "each claim once, oldest first")
	})
	t.Run("smaller pages, with the requirement filter", func(t *testing.T) {
		require.Equal(t, all, idsOf(allPages(t, annC, claims+"?limit=7")))
		require.Equal(t, aboutFirst, idsOf(allPages(t, annC, claims+"?limit=7&requirement="+ars[0])))
		require.Len(t, items(t, annC.get(t, claims+"?limit=200", http.StatusOK)), 60)
	})
	t.Run("the claims citing evidence page the same way", func(t *testing.T) {
		path := "/api/v1/evidence/" + ev + "/claims"
		first := annC.get(t, path, http.StatusOK)
		require.Len(t, items(t, first), 50)
		require.Equal(t, true, first["hasMore"])
		require.Equal(t, all, idsOf(allPages(t, annC, path+"?limit=25")))
	})
	t.Run("a bad limit or cursor is 400", func(t *testing.T) {
		next := annC.get(t, claims, http.StatusOK)["nextCursor"].(string)
		evNext := annC.get(t, "/api/v1/evidence/"+ev+"/claims", http.StatusOK)["nextCursor"].(string)
		for _, path := range []string{claims + "?limit=0", claims + "?limit=-1", claims + "?limit=201", claims + "?limit=1000000",
			claims + "?limit=ten", claims + "?cursor=garbage", claims + "?cursor=" + evNext, claims + "?requirement=" + ars[0] + "&cursor=" + next,
			"/api/v1/evidence/" + ev + "/claims?limit=0", "/api/v1/evidence/" + ev + "/claims?cursor=" + next} {
			annC.fails(t, "GET", path, nil, http.StatusBadRequest, assess.ECodeValidation)
		}
	})
	t.Run("an outsider gets 404, paging or not", func(t *testing.T) {
		ozC.fails(t, "GET", claims+"?limit=10", nil, http.StatusNotFound, assess.ECodeNotFound)
		ozC.fails(t, "GET", "/api/v1/evidence/"+ev+"/claims?limit=10", nil, http.StatusNotFound, assess.ECodeNotFound)
	})
}
