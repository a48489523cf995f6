package postgres_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// planBuffers is the number of shared buffers (hit or read) a plan of EXPLAIN (ANALYZE,
// BUFFERS, FORMAT JSON) touched, the measure of its cost that does not depend on the
// machine's speed.
func planBuffers(t *testing.T, plan []byte) int {
	t.Helper()
	var explained []struct {
		Plan struct {
			Hit  int `json:"Shared Hit Blocks"`
			Read int `json:"Shared Read Blocks"`
		} `json:"Plan"`
	}
	require.NoError(t, json.Unmarshal(plan, &explained), string(plan))
	require.Len(t, explained, 1)
	return explained[0].Plan.Hit + explained[0].Plan.Read
}

// TestFanOutCostIgnoresUsersWhoAreNotCandidates: the recipients of an evidence or an
// assessment event are found from its candidates (holders, subject, audience, rules'
// users) and only those are tested for visibility, so 2,000 more users who hold the
// permissions but are concerned by nothing — with the planner's statistics up to date, as
// in any installation in use — leave the statement's cost where it was (issue 26 item 0b:
// evaluating the visibility per user took 1.6 s per evidence event at 1,000 users).
func TestFanOutCostIgnoresUsersWhoAreNotCandidates(t *testing.T) {
	t.Parallel()
	s := newAssessmentStore(t)
	view := []assess.Perm{assess.PermAssessmentsView, assess.PermEvidenceView, assess.PermEvidenceCreate}
	assessor := s.user("assessor", append(view, assess.PermAssessmentsCreate, assess.PermAssessmentsManage)...)
	assessee := s.user("assessee", view...)
	a, err := s.svc.Assessments.CreateAssessment(s.ctx, assess.NewAssessment{Title: "Shop", EntityID: s.entity,
		Standards: []assess.AssessmentStandardInput{{StandardID: s.standard}}, AssesseeIDs: []string{assessee.ID}}, assessor)
	require.NoError(t, err)
	ev := assess.NewID(assess.PrefixEvidence, time.Now())
	s.exec(`INSERT INTO evidence (id, name, author_id) VALUES ($1, 'Scan', $2)`, ev, assessee.ID)
	db := postgres.New(s.pool, nil)
	events := map[string]assess.NewEvent{
		"evidence created":   {Type: assess.EventEvidenceCreated, EvidenceID: ev, SubjectUserID: assessee.ID},
		"evidence submitted": {Type: assess.EventEvidenceStateChanged, EvidenceID: ev, SubjectUserID: assessor.ID},
		"assessment changed": {Type: assess.EventAssessmentStateChanged, AssessmentID: a.ID,
			Audience: []string{assessor.ID, assessee.ID}},
	}
	cost := func() map[string]int {
		s.exec("ANALYZE")
		costs := map[string]int{}
		for name, e := range events {
			plan, err := db.ExplainRecipientsForTest(s.ctx, assessee, e)
			require.NoError(t, err)
			costs[name] = planBuffers(t, plan)
		}
		return costs
	}
	few := cost()
	s.exec(`INSERT INTO roles (id, name) VALUES ('ro_0000000000000000000000bulk', 'bulk')`)
	for _, p := range view {
		s.exec(`INSERT INTO role_permissions (role_id, permission) VALUES ('ro_0000000000000000000000bulk', $1)`, string(p))
	}
	s.exec(`INSERT INTO users (id, username, email) SELECT 'u_' || lpad(to_hex(g), 26, '0'), 'bulk' || g, 'bulk' || g || '@example.com'
		FROM generate_series(1, 2000) g`)
	s.exec(`INSERT INTO user_roles (user_id, role_id) SELECT id, 'ro_0000000000000000000000bulk' FROM users WHERE username LIKE 'bulk%'`)
	many := cost()
	for name := range events {
		t.Logf("%s: %d buffers with 2 users, %d with 2,002", name, few[name], many[name])
		assert.LessOrEqual(t, many[name], 2*few[name]+20, "%s: the cost grew with users who are not candidates", name)
	}
}
