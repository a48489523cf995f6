package main

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestCreatesAnswerWhatAReadShows: evidence, assessments, claims and work notes are
// answered by their create as written, from what the create's checks read, not read back
// (issue 27 item 4; docs/performance.md, "Creates and the write ceiling"). Each answer —
// and the data of the event announcing it — must be what a read of the record shows, field
// for field, with every optional part given: tags, dates, links to several requirements,
// standards with a level, a project and a team, cited evidence of each kind, a target
// entity and a claim countered, a mention.
func TestCreatesAnswerWhatAReadShows(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.bearerClient(ts.newAPIKey(t, ts.admin(t)))
	p, pc := ts.newUser(t, assess.RoleAssessor)
	o, _ := ts.newUser(t, assess.RoleAssessee)
	participant := ts.bearerClient(ts.newAPIKey(t, pc))
	w := newClaimWorld(t, ts)
	aid, ars := w.assessment("Payments review", []string{p.ID}, []string{o.ID})
	cited, own := w.evidence("scan report", o.ID, ars[0]), w.evidence("Own notes", p.ID)
	tag := ts.newTagSQL(t, "quarterly")
	level := ts.newLevelSQL(t, w.standardID, "L1")
	project := assess.NewID(assess.PrefixProject, time.Now())
	ts.sqlExec(t, `INSERT INTO projects (id, name) VALUES ($1, 'Web shop')`, project)
	countered := participant.post(t, "/api/v1/assessments/"+aid+"/claims", map[string]any{"name": "First", "target": "The shop",
		"predicate": "It holds."}, http.StatusCreated)["id"].(string)

	for _, c := range []struct {
		name, path, read string // read: the record's path, with {id}
		client           *apiClient
		body             map[string]any
		events           []string // the events announcing the create, in order
	}{
		{"evidence linked to two requirements", "/api/v1/evidence", "/api/v1/evidence/{id}", participant,
			map[string]any{"name": "  Dependency scan ", "description": "Weekly.", "classification": "internal", "isCounterEvidence": true,
				"collectedOn": "2026-01-02", "validFrom": "2026-01-03", "validUntil": "2031-06-30", "tagIds": []string{tag},
				"requirementIds": []string{ars[2], ars[1]}},
			[]string{"evidence.created", "evidence.linked", "evidence.linked"}},
		{"evidence without links", "/api/v1/evidence", "/api/v1/evidence/{id}", participant,
			map[string]any{"name": "Policy"}, []string{"evidence.created"}},
		{"assessment by a participant", "/api/v1/assessments", "/api/v1/assessments/{id}", participant,
			map[string]any{"title": "Yearly review", "description": "All of it.", "entityId": w.entityID, "projectId": project,
				"dueDate": "2020-02-29", "standards": []map[string]any{{"standardId": w.standardID, "levelId": level}},
				"assesseeIds": []string{o.ID}, "tagIds": []string{tag}, "completionEvidence": "at_least_one"},
			[]string{"assessment.created"}},
		{"assessment by an administrator", "/api/v1/assessments", "/api/v1/assessments/{id}", admin,
			map[string]any{"title": "Bare", "entityId": w.entityID, "assessorIds": []string{p.ID}}, []string{"assessment.created"}},
		{"claim", "/api/v1/assessments/" + aid + "/claims", "/api/v1/claims/{id}", participant,
			map[string]any{"name": "Counter", "targetEntityId": w.entityID, "predicate": "It does not hold.", "reasoning": "See the notes.",
				"countersClaimId": countered, "evidenceIds": []string{own, cited}, "counterEvidenceIds": []string{cited},
				"requirementIds":     []string{ars[2], ars[0]},
				"externalReferences": []map[string]any{{"type": "website", "url": "https://example.com/a", "comment": "Vendor page"}}},
			[]string{"claim.created"}},
		{"work note", "/api/v1/assessments/" + aid + "/notes", "", participant,
			map[string]any{"content": "  Asked @" + o.Username + " and @nobody about it. "}, []string{"assessment.note_added"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			created := c.client.post(t, c.path, c.body, http.StatusCreated)
			id := created["id"].(string)
			var read map[string]any
			if c.read == "" { // a note is read in its assessment's list
				for _, n := range c.client.get(t, c.path, http.StatusOK)["items"].([]any) {
					if n.(map[string]any)["id"] == id {
						read = n.(map[string]any)
					}
				}
			} else {
				read = c.client.get(t, replaceID(c.read, id), http.StatusOK)
			}
			require.Equal(t, read, created)
			types, data := eventsAbout(t, ts, id)
			require.Equal(t, c.events, types)
			for i, d := range data {
				switch types[i] {
				case "evidence.linked": // the link's, besides the evidence
					delete(d, "assessmentId")
					delete(d, "requirementId")
				case "assessment.created":
					require.NotContains(t, d, "previousState")
				}
				require.Equal(t, read, d, "the data of %s is the record", types[i])
			}
		})
	}
}

func replaceID(path, id string) string {
	return path[:len(path)-len("{id}")] + id
}

// eventsAbout returns the types and data of the events about record id, in order.
func eventsAbout(t *testing.T, ts *testServer, id string) ([]string, []map[string]any) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	rows, err := conn.Query(context.Background(), `SELECT type, data FROM events WHERE data->>'id' = $1 ORDER BY id`, id)
	require.NoError(t, err)
	var types []string
	var data []map[string]any
	for rows.Next() {
		var typ string
		var raw []byte
		require.NoError(t, rows.Scan(&typ, &raw))
		var d map[string]any
		require.NoError(t, json.Unmarshal(raw, &d))
		types, data = append(types, typ), append(data, d)
	}
	require.NoError(t, rows.Err())
	return types, data
}
