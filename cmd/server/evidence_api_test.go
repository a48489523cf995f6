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

const evidencePath = "/api/v1/evidence"

// evidenceWorld is the cast of the evidence tests: users, and assessments made with SQL
// (the assessment operations are another slice's).
type evidenceWorld struct {
	ts                                         *testServer
	admin                                      *apiClient
	author, reviewer, member, outsider, viewer *apiClient
	noReview                                   *apiClient // sees and submits, may not review
	standard, entity                           string
	requirements                               []string // rq_ of the standard
}

// newEvidenceWorld sets up the users: author, reviewer, member (an assessor of the
// assessments made with member) and outsider hold every evidence key but view_all; viewer
// holds evidence.view and evidence.view_all; noReview holds every key but review.
func newEvidenceWorld(t *testing.T) *evidenceWorld {
	ts := startServer(t)
	w := &evidenceWorld{ts: ts, admin: ts.admin(t)}
	worker := ts.newRole(t, string(assess.PermEvidenceView), string(assess.PermEvidenceCreate), string(assess.PermEvidenceEdit),
		string(assess.PermEvidenceSubmit), string(assess.PermEvidenceReview), string(assess.PermEvidenceDelete))
	all := ts.newRole(t, string(assess.PermEvidenceView), string(assess.PermEvidenceViewAll))
	noReview := ts.newRole(t, string(assess.PermEvidenceView), string(assess.PermEvidenceCreate), string(assess.PermEvidenceEdit),
		string(assess.PermEvidenceSubmit))
	_, w.author = ts.newUserNamed(t, "author", worker.Name)
	_, w.reviewer = ts.newUserNamed(t, "reviewer", worker.Name)
	_, w.member = ts.newUserNamed(t, "member", worker.Name)
	_, w.outsider = ts.newUserNamed(t, "outsider", worker.Name)
	_, w.viewer = ts.newUserNamed(t, "viewer", all.Name)
	_, w.noReview = ts.newUserNamed(t, "noreview", noReview.Name)
	w.entity = newEntity(t, w.admin, "Shop", "product")
	w.standard = ts.newStandardSQL(t, "Evidence Standard", "published")
	for i := range 3 {
		id := assess.NewID(assess.PrefixRequirement, time.Now())
		ts.sqlExec(t, `INSERT INTO requirements (id, standard_id, identifier, natural_key, name) VALUES ($1, $2, $3, $3, $4)`,
			id, w.standard, fmt.Sprintf("V1.%d", i+1), fmt.Sprintf("Requirement %d", i+1))
		w.requirements = append(w.requirements, id)
	}
	return w
}

// assessment inserts an assessment in state with members as assessors and one
// assessment requirement per requirement of the standard; it returns the assessment id
// and the ar_ ids.
func (w *evidenceWorld) assessment(t *testing.T, title string, state assess.AssessmentState, members ...*apiClient) (string, []string) {
	t.Helper()
	id := assess.NewID(assess.PrefixAssessment, time.Now())
	w.ts.sqlExec(t, `INSERT INTO assessments (id, title, entity_id, state) VALUES ($1, $2, $3, $4)`, id, title, w.entity, state)
	for _, m := range members {
		w.ts.sqlExec(t, `INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, 'assessor')`, id, m.user.ID)
	}
	var ars []string
	for _, rq := range w.requirements {
		ar := assess.NewID(assess.PrefixAssessmentRequirement, time.Now())
		w.ts.sqlExec(t, `INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ($1, $2, $3, $4)`,
			ar, id, rq, w.standard)
		ars = append(ars, ar)
	}
	return id, ars
}

// count runs a counting query on the server's database.
func (w *evidenceWorld) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), w.ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var n int
	require.NoError(t, conn.QueryRow(context.Background(), query, args...).Scan(&n))
	return n
}

// evidence creates evidence as c and returns it.
func (w *evidenceWorld) evidence(t *testing.T, c *apiClient, body map[string]any) map[string]any {
	t.Helper()
	e := c.post(t, evidencePath, body, http.StatusCreated)
	require.True(t, strings.HasPrefix(e["id"].(string), assess.PrefixEvidence), "%v", e)
	return e
}

// evPath is the path of evidence e plus suffix.
func evPath(e map[string]any, suffix string) string {
	return evidencePath + "/" + e["id"].(string) + suffix
}

// version returns the current version of evidence e as c reads it.
func version(t *testing.T, c *apiClient, e map[string]any) any {
	t.Helper()
	return c.get(t, evPath(e, ""), http.StatusOK)["version"]
}

// notifiedTypes lists the event types of c's notifications about evidence id.
func notifiedTypes(t *testing.T, c *apiClient, id string) []string {
	t.Helper()
	var out []string
	for _, n := range allPages(t, c, "/api/v1/notifications?limit=200") {
		if strings.HasSuffix(fmt.Sprint(n["link"]), id) {
			out = append(out, n["type"].(string))
		}
	}
	return out
}

func TestEvidenceLifecycleAPI(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorld(t)
	asA, arA := w.assessment(t, "Shop review", assess.AssessmentInProgress, w.member, w.author)
	var e map[string]any

	step(t, "create with a link", func(t *testing.T) {
		w.author.fails(t, "POST", evidencePath, map[string]any{"name": "SBOM", "validFrom": "2026-02-01", "validUntil": "2026-01-31"},
			http.StatusBadRequest, assess.ECodeValidation)
		e = w.evidence(t, w.author, map[string]any{"name": " SBOM ", "description": "CycloneDX of the shop", "classification": "internal",
			"collectedOn": "2026-01-15", "validFrom": "2026-01-01", "validUntil": "2099-12-31", "requirementIds": []string{arA[0]}})
		require.Equal(t, "SBOM", e["name"])
		require.Equal(t, "in_progress", e["state"])
		require.Equal(t, w.author.user.ID, e["author"].(map[string]any)["id"])
		require.Nil(t, e["reviewer"])
		require.EqualValues(t, 1, e["assessmentCount"])
		require.Empty(t, e["locked"])
		links := items(t, w.author.get(t, evPath(e, "/links"), http.StatusOK))
		require.Len(t, links, 1)
		require.Equal(t, asA, links[0]["assessmentId"])
		require.Equal(t, "V1.1", links[0]["requirementIdentifier"])
	})

	step(t, "four eyes on submit", func(t *testing.T) {
		v := e["version"]
		body := w.author.fails(t, "POST", evPath(e, "/submit"), map[string]any{"version": v, "reviewerId": w.author.user.ID},
			http.StatusUnprocessableEntity, assess.ECodeBusinessRule)
		require.Equal(t, assess.CodeFourEyes, detailCode(t, body))
		body = w.author.fails(t, "POST", evPath(e, "/submit"), map[string]any{"version": v, "reviewerId": w.noReview.user.ID},
			http.StatusUnprocessableEntity, assess.ECodeBusinessRule)
		require.Equal(t, assess.CodeReviewerCannotReview, detailCode(t, body))
		body = w.author.fails(t, "POST", evPath(e, "/submit"), map[string]any{"version": v, "reviewerId": "u_nobody"},
			http.StatusUnprocessableEntity, assess.ECodeBusinessRule)
		require.Equal(t, assess.CodeReviewerCannotReview, detailCode(t, body))
	})

	step(t, "submit, reject with a note", func(t *testing.T) {
		e = w.author.post(t, evPath(e, "/submit"), map[string]any{"version": e["version"], "reviewerId": w.reviewer.user.ID}, http.StatusOK)
		require.Equal(t, "in_review", e["state"])
		require.Equal(t, w.reviewer.user.ID, e["reviewer"].(map[string]any)["id"])
		require.Contains(t, notifiedTypes(t, w.reviewer, e["id"].(string)), string(assess.EventEvidenceStateChanged))
		// in review: the descriptor waits
		body := w.author.fails(t, "PATCH", evPath(e, ""), map[string]any{"version": e["version"], "name": "x"}, http.StatusConflict, assess.ECodeConflict)
		require.Equal(t, assess.CodeInReview, detailCode(t, body))
		// submitting again is not a move of the lifecycle
		w.author.fails(t, "POST", evPath(e, "/submit"), map[string]any{"version": e["version"], "reviewerId": w.reviewer.user.ID},
			http.StatusConflict, assess.ECodeInvalidState)
		// only the assigned reviewer decides; the author never does
		body = w.member.fails(t, "POST", evPath(e, "/approve"), map[string]any{"version": e["version"]}, http.StatusUnprocessableEntity, assess.ECodeBusinessRule)
		require.Equal(t, assess.CodeNotReviewer, detailCode(t, body))
		body = w.author.fails(t, "POST", evPath(e, "/approve"), map[string]any{"version": e["version"]}, http.StatusUnprocessableEntity, assess.ECodeBusinessRule)
		require.Equal(t, assess.CodeFourEyes, detailCode(t, body))
		w.reviewer.fails(t, "POST", evPath(e, "/reject"), map[string]any{"version": e["version"], "note": " "}, http.StatusBadRequest, assess.ECodeValidation)
		e = w.reviewer.post(t, evPath(e, "/reject"), map[string]any{"version": e["version"], "note": "The SBOM lacks the payment service."}, http.StatusOK)
		require.Equal(t, "in_progress", e["state"])
		notes := items(t, w.author.get(t, evPath(e, "/notes"), http.StatusOK))
		require.Len(t, notes, 1)
		require.Equal(t, "rejection", notes[0]["kind"])
		require.Equal(t, "reviewer", notes[0]["author"].(map[string]any)["username"])
		require.Contains(t, notifiedTypes(t, w.author, e["id"].(string)), string(assess.EventEvidenceStateChanged))
	})

	step(t, "notes, update, approve", func(t *testing.T) {
		n := w.member.post(t, evPath(e, "/notes"), map[string]any{"content": "Added the payment service."}, http.StatusCreated)
		require.Equal(t, "note", n["kind"])
		require.Contains(t, notifiedTypes(t, w.author, e["id"].(string)), string(assess.EventEvidenceNoteAdded))
		tag := w.ts.newTagSQL(t, "sbom")
		e = w.author.patch(t, evPath(e, ""), map[string]any{"version": e["version"], "description": "Complete", "tagIds": []string{tag}}, http.StatusOK)
		require.Equal(t, "Complete", e["description"])
		require.Len(t, e["tags"], 1)
		w.author.fails(t, "PATCH", evPath(e, ""), map[string]any{"version": 1, "name": "stale"}, http.StatusConflict, assess.ECodeVersionConflict)
		e = w.author.post(t, evPath(e, "/submit"), map[string]any{"version": e["version"], "reviewerId": w.reviewer.user.ID}, http.StatusOK)
		e = w.reviewer.post(t, evPath(e, "/approve"), map[string]any{"version": e["version"]}, http.StatusOK)
		require.Equal(t, "claimed", e["state"])
		require.Equal(t, assess.LockClaimed, e["locked"])
		require.NotNil(t, e["reviewedAt"])
	})

	step(t, "approved evidence is reused", func(t *testing.T) {
		l := w.author.post(t, evPath(e, "/links"), map[string]any{"assessmentRequirementId": arA[1]}, http.StatusCreated)
		require.Equal(t, "V1.2", l["requirementIdentifier"])
		w.author.fails(t, "POST", evPath(e, "/links"), map[string]any{"assessmentRequirementId": arA[1]}, http.StatusConflict, assess.ECodeAlreadyExists)
		require.Len(t, items(t, w.member.get(t, evPath(e, "/links"), http.StatusOK)), 2)
	})

	step(t, "the author cannot approve even as administrator", func(t *testing.T) {
		own := w.evidence(t, w.admin, map[string]any{"name": "Admin's pen test"})
		own = w.admin.post(t, evPath(own, "/submit"), map[string]any{"version": own["version"], "reviewerId": w.reviewer.user.ID}, http.StatusOK)
		body := w.admin.fails(t, "POST", evPath(own, "/approve"), map[string]any{"version": own["version"]}, http.StatusUnprocessableEntity, assess.ECodeBusinessRule)
		require.Equal(t, assess.CodeFourEyes, detailCode(t, body))
		body = w.admin.fails(t, "POST", evPath(own, "/reject"), map[string]any{"version": own["version"], "note": "no"}, http.StatusUnprocessableEntity, assess.ECodeBusinessRule)
		require.Equal(t, assess.CodeFourEyes, detailCode(t, body))
		other := w.evidence(t, w.author, map[string]any{"name": "Other"})
		other = w.author.post(t, evPath(other, "/submit"), map[string]any{"version": other["version"], "reviewerId": w.reviewer.user.ID}, http.StatusOK)
		body = w.admin.fails(t, "POST", evPath(other, "/approve"), map[string]any{"version": other["version"]}, http.StatusUnprocessableEntity, assess.ECodeBusinessRule)
		require.Equal(t, assess.CodeNotReviewer, detailCode(t, body))
	})

	step(t, "renew expired evidence", func(t *testing.T) {
		old := w.evidence(t, w.author, map[string]any{"name": "Old certificate", "validUntil": "2020-01-31"})
		w.ts.sqlExec(t, `UPDATE evidence SET state = 'expired' WHERE id = $1`, old["id"])
		v := version(t, w.author, old)
		still := w.author.patch(t, evPath(old, ""), map[string]any{"version": v, "validUntil": "2020-02-28"}, http.StatusOK)
		require.Equal(t, "expired", still["state"], "a validity that has passed does not renew")
		renewed := w.author.patch(t, evPath(old, ""), map[string]any{"version": still["version"], "validUntil": "2099-01-31"}, http.StatusOK)
		require.Equal(t, "in_progress", renewed["state"])
		require.Equal(t, "2099-01-31", renewed["validUntil"])
		require.Equal(t, 1, w.count(t, `SELECT count(*) FROM audit_log WHERE action = $1 AND target_id = $2`,
			assess.ChangeEvidenceRenewed.Action, old["id"]))
	})

	step(t, "delete", func(t *testing.T) {
		gone := w.evidence(t, w.author, map[string]any{"name": "Draft", "requirementIds": []string{arA[2]}})
		w.author.fails(t, "DELETE", evPath(gone, "?version=9"), nil, http.StatusConflict, assess.ECodeVersionConflict)
		w.author.delete(t, evPath(gone, fmt.Sprintf("?version=%v", gone["version"])), http.StatusNoContent)
		w.author.fails(t, "GET", evPath(gone, ""), nil, http.StatusNotFound, assess.ECodeNotFound)
	})
}

// evidenceOperations are every evidence operation on evidence e, with a body good enough
// to get past validation, for the BOLA and lock tables.
func evidenceOperations(e map[string]any, arID string) []struct {
	method, path string
	body         any
} {
	v := e["version"]
	return []struct {
		method, path string
		body         any
	}{
		{"GET", evPath(e, ""), nil},
		{"PATCH", evPath(e, ""), map[string]any{"version": v, "name": "x"}},
		{"DELETE", evPath(e, fmt.Sprintf("?version=%v", v)), nil},
		{"POST", evPath(e, "/submit"), map[string]any{"version": v, "reviewerId": "u_someone"}},
		{"POST", evPath(e, "/approve"), map[string]any{"version": v}},
		{"POST", evPath(e, "/reject"), map[string]any{"version": v, "note": "no"}},
		{"GET", evPath(e, "/notes"), nil},
		{"POST", evPath(e, "/notes"), map[string]any{"content": "hello"}},
		{"GET", evPath(e, "/links"), nil},
		{"POST", evPath(e, "/links"), map[string]any{"assessmentRequirementId": arID}},
		{"DELETE", evPath(e, "/links/"+arID), nil},
		{"GET", evPath(e, "/claims"), nil},
	}
}

// TestEvidenceBOLA: a user outside gets 404 on every evidence operation, and no list,
// filter or count reveals the evidence; its author, reviewer, the participants of an
// assessment it is linked to and holders of evidence.view_all see it.
func TestEvidenceBOLA(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorld(t)
	asA, arA := w.assessment(t, "Private assessment", assess.AssessmentInProgress, w.member, w.author)
	_, arOut := w.assessment(t, "Outsider's assessment", assess.AssessmentInProgress, w.outsider)
	e := w.evidence(t, w.author, map[string]any{"name": "Secret report", "requirementIds": []string{arA[0]}})
	e = w.author.post(t, evPath(e, "/submit"), map[string]any{"version": e["version"], "reviewerId": w.reviewer.user.ID}, http.StatusOK)
	mine := w.evidence(t, w.outsider, map[string]any{"name": "Outsider's own"})

	t.Run("404 on every operation", func(t *testing.T) {
		for _, op := range evidenceOperations(e, arOut[0]) {
			w.outsider.fails(t, op.method, op.path, op.body, http.StatusNotFound, assess.ECodeNotFound)
		}
		// unknown and malformed ids answer the same
		for _, id := range []string{"ev_00000000000000000000000000", "nope"} {
			w.outsider.fails(t, "GET", evidencePath+"/"+id, nil, http.StatusNotFound, assess.ECodeNotFound)
		}
	})

	t.Run("lists, filters and counts", func(t *testing.T) {
		for _, q := range []string{"?limit=200", "?q=Secret", "?state=in_review", "?author=" + w.author.user.ID,
			"?reviewer=" + w.reviewer.user.ID, "?assessment=" + asA, "?requirement=" + arA[0], "?sort=name", "?sort=validUntil"} {
			for _, it := range allPages(t, w.outsider, evidencePath+q) {
				require.NotEqual(t, e["id"], it["id"], q)
			}
		}
		require.Equal(t, []string{mine["id"].(string)}, idsOf(allPages(t, w.outsider, evidencePath+"?limit=200")))
		// the outsider's own evidence linked into the outsider's assessment: the assessment
		// filter by the private assessment finds nothing, even for the evidence view_all holder
		w.outsider.post(t, evPath(mine, "/links"), map[string]any{"assessmentRequirementId": arOut[0]}, http.StatusCreated)
		require.Empty(t, items(t, w.viewer.get(t, evidencePath+"?assessment="+asA+"&author="+w.outsider.user.ID, http.StatusOK)))
	})

	t.Run("who sees it", func(t *testing.T) {
		for name, c := range map[string]*apiClient{"author": w.author, "reviewer": w.reviewer, "member": w.member, "view_all": w.viewer, "admin": w.admin} {
			require.Equal(t, e["id"], c.get(t, evPath(e, ""), http.StatusOK)["id"], name)
			require.Contains(t, idsOf(allPages(t, c, evidencePath+"?limit=200")), e["id"], name)
		}
		mineQ := idsOf(allPages(t, w.reviewer, evidencePath+"?reviewer=me&limit=200"))
		require.Equal(t, []string{e["id"].(string)}, mineQ)
		require.Equal(t, []string{e["id"].(string)}, idsOf(allPages(t, w.member, evidencePath+"?assessment="+asA+"&limit=200")))
	})

	t.Run("counts only visible assessments", func(t *testing.T) {
		// evidence.view_all shows the evidence, not the assessments it is linked to.
		require.EqualValues(t, 1, w.admin.get(t, evPath(e, ""), http.StatusOK)["assessmentCount"])
		require.EqualValues(t, 0, w.viewer.get(t, evPath(e, ""), http.StatusOK)["assessmentCount"])
		require.Empty(t, items(t, w.viewer.get(t, evPath(e, "/links"), http.StatusOK)))
		require.Empty(t, items(t, w.viewer.get(t, evidencePath+"?assessment="+asA, http.StatusOK)))
		require.Len(t, items(t, w.member.get(t, evPath(e, "/links"), http.StatusOK)), 1)
	})

	t.Run("events reach only who may see it", func(t *testing.T) {
		for _, c := range []*apiClient{w.outsider, w.member} {
			c.post(t, "/api/v1/notification-rules", map[string]any{"name": "all evidence", "eventTypes": []string{"evidence.*"},
				"channels": map[string]any{"inApp": true, "email": false, "webhookIds": []string{}, "chatIds": []string{}}}, http.StatusCreated)
		}
		w.reviewer.post(t, evPath(e, "/notes"), map[string]any{"content": "Looking at it"}, http.StatusCreated)
		require.Contains(t, notifiedTypes(t, w.member, e["id"].(string)), string(assess.EventEvidenceNoteAdded))
		require.Contains(t, notifiedTypes(t, w.author, e["id"].(string)), string(assess.EventEvidenceNoteAdded))
		require.Empty(t, notifiedTypes(t, w.outsider, e["id"].(string)))
	})
}

// TestEvidenceLocks: every retention lock refuses every locked operation, for an
// administrator too, with the reason as the details code.
func TestEvidenceLocks(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorld(t)
	asA, arA := w.assessment(t, "Open", assess.AssessmentInProgress, w.author)
	asT, arT := w.assessment(t, "Ending", assess.AssessmentInProgress, w.author)

	claimed := w.evidence(t, w.author, map[string]any{"name": "Claimed", "requirementIds": []string{arA[0]}})
	claimed = w.author.post(t, evPath(claimed, "/submit"), map[string]any{"version": claimed["version"], "reviewerId": w.reviewer.user.ID}, http.StatusOK)
	claimed = w.reviewer.post(t, evPath(claimed, "/approve"), map[string]any{"version": claimed["version"]}, http.StatusOK)

	cited := w.evidence(t, w.author, map[string]any{"name": "Cited", "requirementIds": []string{arA[1]}})
	claim := assess.NewID(assess.PrefixClaim, time.Now())
	w.ts.sqlExec(t, `INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES ($1, $2, 'Claim', 'shop', 'is secure')`, claim, asA)
	w.ts.sqlExec(t, `INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ($1, $2, 'evidence')`, claim, cited["id"])

	terminal := w.evidence(t, w.author, map[string]any{"name": "Terminal", "requirementIds": []string{arT[0]}})
	w.ts.sqlExec(t, `UPDATE assessments SET state = 'complete' WHERE id = $1`, asT)

	for _, tc := range []struct {
		reason string
		e      map[string]any
		ar     string
	}{{assess.LockClaimed, claimed, arA[0]}, {assess.LockLinkedToClaim, cited, arA[1]}, {assess.LockAssessmentTerminal, terminal, arT[0]}} {
		t.Run(tc.reason, func(t *testing.T) {
			e := w.admin.get(t, evPath(tc.e, ""), http.StatusOK)
			require.Equal(t, tc.reason, e["locked"])
			for _, op := range evidenceOperations(e, tc.ar) {
				if op.method == "GET" || strings.HasSuffix(op.path, "/links") {
					continue // reads, and linking (reuse), are not locked
				}
				if strings.HasSuffix(op.path, "/submit") {
					op.body = map[string]any{"version": e["version"], "reviewerId": w.reviewer.user.ID}
				}
				body := w.admin.fails(t, op.method, op.path, op.body, http.StatusConflict, assess.ECodeConflict)
				require.Equal(t, tc.reason, detailCode(t, body), "%s %s", op.method, op.path)
			}
			require.Equal(t, e["version"], w.admin.get(t, evPath(e, ""), http.StatusOK)["version"], "nothing changed")
		})
	}
	// the claim lock shows in the claims list
	cl := items(t, w.author.get(t, evPath(cited, "/claims"), http.StatusOK))
	require.Len(t, cl, 1)
	require.Equal(t, "evidence", cl[0]["relation"])
	require.Equal(t, asA, cl[0]["assessmentId"])
}

// TestEvidenceLinks: a link needs a visible assessment (404) that takes changes (409
// read_only); unlinking goes through the same visibility.
func TestEvidenceLinks(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorld(t)
	asA, arA := w.assessment(t, "Open", assess.AssessmentInProgress, w.author)
	_, arHidden := w.assessment(t, "Hidden", assess.AssessmentInProgress)
	_, arDone := w.assessment(t, "Done", assess.AssessmentArchived, w.author)
	e := w.evidence(t, w.author, map[string]any{"name": "Scan"})

	w.author.fails(t, "POST", evPath(e, "/links"), map[string]any{"assessmentRequirementId": arHidden[0]}, http.StatusNotFound, assess.ECodeNotFound)
	w.author.fails(t, "POST", evPath(e, "/links"), map[string]any{"assessmentRequirementId": "ar_nope"}, http.StatusNotFound, assess.ECodeNotFound)
	body := w.author.fails(t, "POST", evPath(e, "/links"), map[string]any{"assessmentRequirementId": arDone[0]}, http.StatusConflict, assess.ECodeConflict)
	require.Equal(t, "read_only", detailCode(t, body))
	body = w.author.fails(t, "POST", evidencePath, map[string]any{"name": "x", "requirementIds": []string{arDone[0]}}, http.StatusConflict, assess.ECodeConflict)
	require.Equal(t, "requirementIds", body["details"].([]any)[0].(map[string]any)["field"])
	w.author.fails(t, "POST", evidencePath, map[string]any{"name": "x", "requirementIds": []string{arHidden[0]}}, http.StatusNotFound, assess.ECodeNotFound)

	l := w.author.post(t, evPath(e, "/links"), map[string]any{"assessmentRequirementId": arA[0]}, http.StatusCreated)
	require.Equal(t, asA, l["assessmentId"])
	require.Equal(t, "in_progress", l["assessmentState"])
	// a link into an assessment the caller does not take part in is not listed: the
	// evidence.view_all holder sees the evidence but none of its links
	require.Len(t, items(t, w.admin.get(t, evPath(e, "/links"), http.StatusOK)), 1)
	require.Empty(t, items(t, w.viewer.get(t, evPath(e, "/links"), http.StatusOK)))
	w.outsider.fails(t, "DELETE", evPath(e, "/links/"+arA[0]), nil, http.StatusNotFound, assess.ECodeNotFound)
	w.author.delete(t, evPath(e, "/links/"+arA[0]), http.StatusNoContent)
	w.author.fails(t, "DELETE", evPath(e, "/links/"+arA[0]), nil, http.StatusNotFound, assess.ECodeNotFound)
	require.Equal(t, 1, w.count(t, `SELECT count(*) FROM audit_log WHERE action = $1 AND scope_id = $2`, assess.ChangeEvidenceUnlinked.Action, asA))
	require.Equal(t, 1, w.count(t, `SELECT count(*) FROM audit_log WHERE action = $1 AND scope_id = $2`, assess.ChangeEvidenceLinked.Action, asA))
}
