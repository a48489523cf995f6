package postgres_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// BenchmarkAttestationBuildAndSeal measures what an attestation of a 70-requirement
// assessment with 20 claims costs from draft to sealed document: create (the derived map
// and score), a signatory slot, an electronic signature (which freezes the statement: the
// CycloneDX document built, validated against the schema and signed object by object) and
// the seal (validated again). make bench-attestations runs it.
func BenchmarkAttestationBuildAndSeal(b *testing.B) {
	ctx := context.Background()
	pool, err := postgres.OpenPool(ctx, pgtest.NewDatabase(b), postgres.PoolConfig{MaxConns: 4, ApplicationName: "bench"})
	require.NoError(b, err)
	b.Cleanup(pool.Close)
	exec := func(sql string, args ...any) {
		_, err := pool.Exec(ctx, sql, args...)
		require.NoError(b, err, sql)
	}
	now := time.Now()
	user, role, entity, standard, assessment := assess.NewID(assess.PrefixUser, now), assess.NewID(assess.PrefixRole, now),
		assess.NewID(assess.PrefixEntity, now), assess.NewID(assess.PrefixStandard, now), assess.NewID(assess.PrefixAssessment, now)
	exec(`INSERT INTO users (id, username, email, display_name) VALUES ($1, 'lead', 'lead@example.com', 'Lead Assessor')`, user)
	exec(`INSERT INTO roles (id, name) VALUES ($1, 'all')`, role)
	exec(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, user, role)
	exec(`INSERT INTO role_permissions (role_id, permission) VALUES ($1, 'assessments.view_all'), ($1, 'signatures.sign')`, role)
	exec(`INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Web shop', 'product')`, entity)
	exec(`INSERT INTO standards (id, identifier, name, state) VALUES ($1, 'asvs', 'ASVS', 'published')`, standard)
	exec(`INSERT INTO assessments (id, title, entity_id, state) VALUES ($1, 'Shop', $2, 'complete')`, assessment, entity)
	ids := assess.NewIDs(assess.PrefixAssessmentRequirement, now, 70)
	for i, ar := range ids {
		rq := assess.NewID(assess.PrefixRequirement, now)
		exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key, name, description, position)
			VALUES ($1, $2, $3, $3, $4, 'Verify that the application does what the requirement says.', $5)`,
			rq, standard, "V"+strconv.Itoa(i+1), "Requirement "+strconv.Itoa(i+1), i)
		exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id, result, rationale)
			VALUES ($1, $2, $3, $4, (ARRAY['yes', 'partial', 'no', 'not_applicable'])[1 + $5 % 4], 'Checked in the weekly scan and the review.')`,
			ar, assessment, rq, standard, i)
	}
	for i := range 20 {
		ev, cl := assess.NewID(assess.PrefixEvidence, now), assess.NewID(assess.PrefixClaim, now)
		exec(`INSERT INTO evidence (id, name, author_id, valid_until) VALUES ($1, $2, $3, '2031-01-01')`, ev, "Report "+strconv.Itoa(i), user)
		exec(`INSERT INTO evidence_attachments (id, evidence_id, filename, content_type, size_bytes, sha256, provider, storage_key)
			VALUES ($1, $2, 'report.pdf', 'application/pdf', 1000, repeat('cd', 32), 'database', 'k')`, assess.NewID(assess.PrefixAttachment, now), ev)
		exec(`INSERT INTO claims (id, assessment_id, name, target_entity_id, predicate) VALUES ($1, $2, $3, $4, 'The control is in place.')`,
			cl, assessment, "Claim "+strconv.Itoa(i), entity)
		exec(`INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ($1, $2, 'evidence')`, cl, ev)
		exec(`INSERT INTO claim_requirements (claim_id, assessment_requirement_id) VALUES ($1, $2), ($1, $3)`, cl, ids[(3*i)%70], ids[(3*i+1)%70])
	}
	actor := assess.Actor{ID: user, Principal: &assess.Principal{User: assess.User{ID: user, Username: "lead", Active: true},
		Permissions: []string{string(assess.PermAffirmationsManage), string(assess.PermAssessmentsViewAll), string(assess.PermAttestationsCreate),
			string(assess.PermAttestationsEdit), string(assess.PermAttestationsView), string(assess.PermSignaturesSign)}}}
	svc := testServices(postgres.New(pool, nil)).Attestations
	b.ResetTimer()
	for b.Loop() {
		at, err := svc.CreateAttestation(ctx, assess.NewAttestation{AssessmentID: assessment}, actor)
		require.NoError(b, err)
		at, err = svc.AddSignatory(ctx, at.ID, assess.NewSignatory{Title: "Lead assessor", UserID: user}, actor)
		require.NoError(b, err)
		_, err = svc.Sign(ctx, at.ID, at.Signatories[0].ID, assess.SignRequest{Kind: assess.SignatureElectronic,
			Electronic: &assess.ElectronicSignature{Name: "Lead Assessor"}}, actor)
		require.NoError(b, err)
		_, err = svc.Seal(ctx, at.ID, actor)
		require.NoError(b, err)
	}
}
