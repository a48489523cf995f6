package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// attestedRequirements is the size of the attested assessment: about a level-1 profile of
// a standard the size of ASVS.
const attestedRequirements = 70

// attestation seeds a sealed attestation through the API, as users make one: an assessment
// of the first 70 leaf requirements of the ASVS-sized standard, answered (in SQL) with ten
// claims citing the seeded evidence (through the API), completed; then an attestation of
// it with one signatory slot, signed electronically by bench-admin and sealed.
// attestation-export and attestation-verify read it.
func (s *seeder) attestation(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	id := assess.NewID(assess.PrefixAssessment, time.Now())
	ids := assess.NewIDs(assess.PrefixAssessmentRequirement, time.Now(), attestedRequirements)
	batch := &pgx.Batch{}
	batch.Queue(`INSERT INTO assessments (id, title, entity_id, state, started_at) VALUES ($1, 'Bench attested assessment', $2, 'in_progress', now())`,
		id, s.data.EntityID)
	batch.Queue(`INSERT INTO assessment_standards (assessment_id, standard_id) VALUES ($1, $2)`, id, s.data.StandardID)
	batch.Queue(`INSERT INTO assessment_members (assessment_id, user_id, role) SELECT $1, id, 'assessor' FROM users WHERE username = $2`, id, adminName)
	batch.Queue(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id, result, rationale, rationale_words)
		SELECT ($3::text[])[n], $1, r.id, r.standard_id, (ARRAY['yes', 'yes', 'partial', 'no', 'not_applicable'])[1 + n % 5],
			'Verified against the configuration, the scan reports and an interview with the team.', 14
		FROM (SELECT r.id, r.standard_id, row_number() OVER (ORDER BY r.id) AS n FROM requirements r
			WHERE r.standard_id = $2 AND NOT EXISTS (SELECT 1 FROM requirements c WHERE c.parent_id = r.id)) r
		WHERE r.n <= $4`, id, s.data.StandardID, ids, attestedRequirements)
	batch.Queue(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		SELECT ($2::text[])[1 + (g % $4)], ($3::text[])[g], $1 FROM generate_series(1, least(20, cardinality($3::text[]))) g`,
		id, ids, s.data.EvidenceIDs, attestedRequirements)
	if err := conn.SendBatch(ctx, batch).Close(); err != nil {
		return err
	}
	for i := range 10 {
		body := map[string]any{"name": fmt.Sprintf("Bench attested claim %d", i), "targetEntityId": s.data.EntityID,
			"predicate": "The product meets the requirement in every component.", "reasoning": "The cited reports show it.",
			"evidenceIds": []string{s.data.EvidenceIDs[i%len(s.data.EvidenceIDs)]}, "requirementIds": []string{ids[(7*i)%len(ids)], ids[(7*i+1)%len(ids)]}}
		if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/assessments/"+id+"/claims", s.cookie, body, http.StatusCreated, nil); err != nil {
			return err
		}
	}
	if _, err := conn.Exec(ctx, `UPDATE assessments SET state = 'complete', ended_at = now() WHERE id = $1`, id); err != nil {
		return err
	}
	var at struct{ ID string }
	if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/attestations", s.cookie,
		map[string]any{"assessmentId": id, "summary": "Bench attestation"}, http.StatusCreated, &at); err != nil {
		return err
	}
	var slotted struct{ Signatories []struct{ ID string } }
	if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/attestations/"+at.ID+"/signatories", s.cookie,
		map[string]any{"title": "Lead assessor"}, http.StatusCreated, &slotted); err != nil {
		return err
	}
	if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/attestations/"+at.ID+"/signatories/"+slotted.Signatories[0].ID+"/sign", s.cookie,
		map[string]any{"kind": "electronic", "electronic": map[string]any{"name": "Bench Admin"}}, http.StatusOK, nil); err != nil {
		return err
	}
	if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/attestations/"+at.ID+"/seal", s.cookie, nil, http.StatusOK, nil); err != nil {
		return err
	}
	s.data.AttestationID = at.ID
	return nil
}
