package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// notesOfType returns the notifications of type typ that c's user has.
func notesOfType(t testing.TB, c *apiClient, typ assess.EventName) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, n := range items(t, c.get(t, "/api/v1/notifications?limit=200", 200)) {
		if n["type"] == string(typ) {
			out = append(out, n)
		}
	}
	return out
}

func usernamesOf(v any) []string {
	var out []string
	for _, it := range v.([]any) {
		out = append(out, it.(map[string]any)["username"].(string))
	}
	return out
}

func TestWorkNotesAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	w := newClaimWorld(t, ts)
	ann, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	bea, beaC := ts.newUserNamed(t, "bea", assess.RoleAssessee)
	eve, eveC := ts.newUserNamed(t, "eve", assess.RoleAssessee)
	_, ozC := ts.newUserNamed(t, "ozzy", assess.RoleAssessor) // holds assessments.notes but is on no team
	aid, ars := w.assessment("Payments review", []string{ann.ID}, []string{bea.ID})
	w.evidence("Pentest report", eve.ID, ars[0]) // eve takes part through her evidence
	notes := "/api/v1/assessments/" + aid + "/notes"

	var noteID string
	step(t, "a note mentions the participants it names, and only them", func(t *testing.T) {
		body := annC.post(t, notes, map[string]any{"content": "  @BEA and @eve.: please check. cc @ozzy @ann @nobody  "}, http.StatusCreated)
		noteID = body["id"].(string)
		require.True(t, strings.HasPrefix(noteID, "wn_"))
		require.Equal(t, "@BEA and @eve.: please check. cc @ozzy @ann @nobody", body["content"])
		require.Equal(t, []string{"ann", "bea", "eve"}, usernamesOf(body["mentions"]), "the outsider and unknown names are not mentions")
		require.Equal(t, ann.ID, body["author"].(map[string]any)["id"])
		require.Equal(t, float64(1), body["version"])
	})
	t.Run("mentioned participants are notified; the outsider and the author are not", func(t *testing.T) {
		for _, c := range []*apiClient{beaC, eveC} {
			got := notesOfType(t, c, assess.EventAssessmentNoteAdded)
			require.Len(t, got, 1, c.user.Username)
			require.Contains(t, got[0]["link"], aid)
			require.Contains(t, got[0]["message"], "Payments review")
		}
		require.Empty(t, notesOfType(t, ozC, assess.EventAssessmentNoteAdded))
		require.Empty(t, notesOfType(t, annC, assess.EventAssessmentNoteAdded))
	})

	step(t, "notes list newest first, in pages", func(t *testing.T) {
		second := beaC.post(t, notes, map[string]any{"content": "Done, thanks @ann"}, http.StatusCreated)
		page := beaC.get(t, notes+"?limit=1", 200)
		require.Equal(t, []string{second["id"].(string)}, idsOf(items(t, page)))
		require.Equal(t, true, page["hasMore"])
		require.Equal(t, []string{second["id"].(string), noteID}, idsOf(allPages(t, eveC, notes+"?limit=1")))
		require.Len(t, notesOfType(t, annC, assess.EventAssessmentNoteAdded), 1, "ann was mentioned by bea")
	})
	t.Run("only the author changes or deletes a note", func(t *testing.T) {
		body := beaC.fails(t, "PATCH", notes+"/"+noteID, map[string]any{"version": 1, "content": "mine now"}, 422, "business_rule_violation")
		require.Equal(t, "not_author", detailCode(t, body))
		body = beaC.fails(t, "DELETE", notes+"/"+noteID+"?version=1", nil, 422, "business_rule_violation")
		require.Equal(t, "not_author", detailCode(t, body))
	})
	step(t, "the author edits a note; mentions are resolved again without notifying", func(t *testing.T) {
		body := annC.patch(t, notes+"/"+noteID, map[string]any{"version": 1, "content": "Only @bea now"}, 200)
		require.Equal(t, []string{"bea"}, usernamesOf(body["mentions"]))
		require.Equal(t, float64(2), body["version"])
		require.Len(t, notesOfType(t, beaC, assess.EventAssessmentNoteAdded), 1)
		annC.fails(t, "PATCH", notes+"/"+noteID, map[string]any{"version": 1, "content": "stale"}, 409, "version_conflict")
		annC.fails(t, "PATCH", notes+"/"+noteID, map[string]any{"version": 2, "content": "   "}, 400, "validation_failed")
	})
	t.Run("mentionable users are the team and the evidence participants", func(t *testing.T) {
		require.Equal(t, []string{"ann", "bea", "eve"}, usernamesOf(beaC.get(t, "/api/v1/assessments/"+aid+"/mentionable", 200)["items"]))
		require.Equal(t, []string{"eve"}, usernamesOf(beaC.get(t, "/api/v1/assessments/"+aid+"/mentionable?q=E", 200)["items"]))
		require.Empty(t, beaC.get(t, "/api/v1/assessments/"+aid+"/mentionable?q=%25", 200)["items"], "wildcards match themselves")
	})
	testWorkNoteBOLA(t, ozC, aid, noteID)
	t.Run("a read-only assessment refuses notes", func(t *testing.T) {
		w.setState(aid, "archived")
		defer w.setState(aid, "in_progress")
		body := annC.fails(t, "POST", notes, map[string]any{"content": "late"}, 409, "conflict")
		require.Equal(t, "read_only", detailCode(t, body))
		body = annC.fails(t, "DELETE", notes+"/"+noteID+"?version=2", nil, 409, "conflict")
		require.Equal(t, "read_only", detailCode(t, body))
		require.Len(t, items(t, annC.get(t, notes, 200)), 2, "still readable")
	})
	step(t, "the author deletes a note", func(t *testing.T) {
		annC.delete(t, notes+"/"+noteID+"?version=2", 204)
		annC.fails(t, "PATCH", notes+"/"+noteID, map[string]any{"version": 2, "content": "again"}, 404, "not_found")
	})
	t.Run("the timeline shows who changed what, newest first, in pages", func(t *testing.T) {
		entries := allPages(t, eveC, "/api/v1/assessments/"+aid+"/timeline?limit=2")
		var lines []string
		for _, e := range entries {
			actor := e["actor"].(map[string]any)
			lines = append(lines, fmt.Sprintf("%s %s %s", actor["username"], e["action"], e["targetType"]))
		}
		require.Equal(t, []string{"ann assessment.note_deleted work_note", "ann assessment.note_updated work_note",
			"bea assessment.note_added work_note", "ann assessment.note_added work_note"}, lines)
		last := entries[len(entries)-1]
		require.Equal(t, noteID, last["targetId"])
		require.Equal(t, "ann", last["actor"].(map[string]any)["displayName"])
		require.Equal(t, []any{"ann", "bea", "eve"}, last["details"].(map[string]any)["mentions"])
	})
}

// testWorkNoteBOLA: a user outside the assessment, holding assessments.notes, gets 404 on
// every note, mentionable and timeline operation, and is never told the note exists.
func testWorkNoteBOLA(t *testing.T, ozC *apiClient, aid, noteID string) {
	base := "/api/v1/assessments/" + aid
	t.Run("an outsider gets 404 on every note, mentionable and timeline operation", func(t *testing.T) {
		ozC.fails(t, "GET", base+"/notes", nil, 404, "not_found")
		ozC.fails(t, "POST", base+"/notes", map[string]any{"content": "hello"}, 404, "not_found")
		ozC.fails(t, "PATCH", base+"/notes/"+noteID, map[string]any{"version": 2, "content": "x"}, 404, "not_found")
		ozC.fails(t, "DELETE", base+"/notes/"+noteID+"?version=2", nil, 404, "not_found")
		ozC.fails(t, "GET", base+"/mentionable", nil, 404, "not_found")
		ozC.fails(t, "GET", base+"/timeline", nil, 404, "not_found")
		ozC.fails(t, "GET", "/api/v1/assessments/as_nope/timeline", nil, 404, "not_found")
	})
}
