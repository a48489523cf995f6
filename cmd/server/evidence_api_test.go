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
func evPath(e map[string]any, suffix string) string { return evidencePath + "/" + e["id"].(string) + suffix }

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
