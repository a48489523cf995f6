package datagen_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/datagen"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/identity"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestGeneratedDataHangsTogether: what Generate writes is what the sizes ask for, and every
// generated row points at real rows as the service's would — each timeline row at a record of
// its own assessment, each claim's citation and requirement in the claim's assessment, each
// note by a member of its team — and a participant named by Sizes is used, not created.
func TestGeneratedDataHangsTogether(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	db := postgres.New(pool, time.Now)
	require.NoError(t, identity.NewRoleService(db).SyncBuiltinRoles(ctx))
	participant := assess.NewID(assess.PrefixUser, time.Now())
	_, err := pool.Exec(ctx, `INSERT INTO users (id, username, email, display_name) VALUES ($1, 'bench-assessor', 'b@example.com', 'B')`, participant)
	require.NoError(t, err)

	sizes := datagen.Scaled(2000)
	sizes.ParticipantID = participant
	sum, err := datagen.Generate(ctx, pool, sizes)
	require.NoError(t, err)
	require.Equal(t, participant, sum.ParticipantID)
	require.Equal(t, sizes.Assessments, sum.Assessments)
	require.Equal(t, sizes.Claims, sum.Claims)
	require.Equal(t, sizes.Audit, sum.Audit)
	require.Equal(t, sizes.Notes, sum.Notes)
	require.InDelta(t, sizes.Results, sum.Results, float64(sizes.Results)/50)
	require.Positive(t, sum.Policies)

	count := func(sql string, args ...any) int {
		t.Helper()
		var n int
		require.NoError(t, pool.QueryRow(ctx, sql, args...).Scan(&n), sql)
		return n
	}
	require.Equal(t, sizes.Audit, count(`SELECT count(*) FROM audit_log`))
	require.Zero(t, count(`SELECT count(*) FROM users WHERE username = $1`, datagen.Participant), "no second participant")
	require.Equal(t, sizes.Assessments/10, count(`SELECT count(*) FROM assessment_members WHERE user_id = $1`, participant))

	// Every scoped audit row names a record of its own assessment.
	require.Zero(t, count(`SELECT count(*) FROM audit_log a WHERE a.scope_id <> '' AND NOT CASE a.target_type
		WHEN 'assessment_requirement' THEN EXISTS (SELECT 1 FROM assessment_requirements r WHERE r.id = a.target_id AND r.assessment_id = a.scope_id)
		WHEN 'claim' THEN EXISTS (SELECT 1 FROM claims c WHERE c.id = a.target_id AND c.assessment_id = a.scope_id)
		WHEN 'work_note' THEN EXISTS (SELECT 1 FROM work_notes n WHERE n.id = a.target_id AND n.assessment_id = a.scope_id)
		WHEN 'evidence' THEN EXISTS (SELECT 1 FROM assessment_requirement_evidence l WHERE l.evidence_id = a.target_id AND l.assessment_id = a.scope_id)
		WHEN 'assessment' THEN a.target_id = a.scope_id
		ELSE false END`))
	require.Positive(t, count(`SELECT count(DISTINCT action) FROM audit_log WHERE scope_id <> ''`)-4, "results, links, claims, notes and states")
	// And records the names the service records with such a change, so that the timeline and
	// the audit log read them as they read the service's rows, not the current record's.
	require.Zero(t, count(`SELECT count(*) FROM audit_log a WHERE a.scope_id <> '' AND NOT coalesce(CASE a.target_type
		WHEN 'assessment_requirement' THEN a.details->>'identifier' = (SELECT q.identifier FROM assessment_requirements r
			JOIN requirements q ON q.id = r.requirement_id WHERE r.id = a.target_id)
		WHEN 'claim' THEN a.details->>'name' = (SELECT c.name FROM claims c WHERE c.id = a.target_id)
		WHEN 'evidence' THEN a.details->>'name' = (SELECT e.name FROM evidence e WHERE e.id = a.target_id)
			AND a.details->>'requirement' = (SELECT q.identifier FROM assessment_requirements r
				JOIN requirements q ON q.id = r.requirement_id WHERE r.id = a.details->>'requirementId' AND r.assessment_id = a.scope_id)
		ELSE true END, false)`))
	// Appended in time order, as the service does.
	require.Zero(t, count(`SELECT count(*) FROM (SELECT occurred_at < lag(occurred_at) OVER (ORDER BY id) AS back FROM audit_log) x WHERE back`))
	// Claims cite their own assessment's evidence and requirements.
	require.Zero(t, count(`SELECT count(*) FROM claim_evidence ce JOIN claims c ON c.id = ce.claim_id
		WHERE NOT EXISTS (SELECT 1 FROM assessment_requirement_evidence l WHERE l.evidence_id = ce.evidence_id AND l.assessment_id = c.assessment_id)`))
	require.Zero(t, count(`SELECT count(*) FROM claim_requirements cr JOIN claims c ON c.id = cr.claim_id
		JOIN assessment_requirements r ON r.id = cr.assessment_requirement_id WHERE r.assessment_id <> c.assessment_id`))
	// Notes are by a member of the assessment's team.
	require.Zero(t, count(`SELECT count(*) FROM work_notes n WHERE NOT EXISTS
		(SELECT 1 FROM assessment_members m WHERE m.assessment_id = n.assessment_id AND m.user_id = n.author_id)`))
	// Policies and project scopes name what the assessments assess.
	require.Zero(t, count(`SELECT count(*) FROM compliance_policies p WHERE NOT EXISTS
		(SELECT 1 FROM assessments a JOIN assessment_standards s ON s.assessment_id = a.id WHERE a.entity_id = p.entity_id AND s.standard_id = p.standard_id)`))
	require.Zero(t, count(`SELECT count(*) FROM assessments a JOIN assessment_standards s ON s.assessment_id = a.id WHERE a.project_id IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM project_standards ps WHERE ps.project_id = a.project_id AND ps.standard_id = s.standard_id)`))
}
