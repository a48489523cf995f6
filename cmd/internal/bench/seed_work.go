package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// The records of assessment work around the seeded ASVS assessment (seed_assessment.go):
// a participant who is no administrator, more assessments, evidence, claims, work notes and
// the evidence that uploads go to. The bulk (assessments, evidence, links) is SQL, as for
// entities; what the timeline and the claim list show (claims, notes) and the participant's
// credentials go through the API.

const (
	participantName  = "bench-assessor" // a participant with the built-in assessor role: lists go through the visibility rule
	seedClaims       = 40               // claims of the seeded assessment, each citing evidence and requirements
	seedWorkNotes    = 20               // work notes on it (with the claims, its timeline is more than a page)
	seedUploadTarget = 8                // evidence of bench-admin that upload-small attaches files to
)

// assessmentWork seeds, in order: the participant and their API keys; s.assessments
// assessments (every tenth with the participant on its team, the others with two bench users);
// s.evidence pieces of evidence authored by the bench users in turn (every third linked to a
// requirement of the seeded assessment, every fiftieth to another assessment, every fortieth
// authored by the participant); then through the API the claims and notes of the seeded
// assessment and the upload targets.
func (s *seeder) assessmentWork(ctx context.Context) error {
	if err := s.participant(ctx); err != nil {
		return err
	}
	if err := s.workRecords(ctx); err != nil {
		return err
	}
	if err := s.claimsAndNotes(ctx); err != nil {
		return err
	}
	for i := range seedUploadTarget {
		var created struct{ ID string }
		if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/evidence", s.cookie, map[string]any{
			"name": fmt.Sprintf("Bench upload target %d", i), "description": "upload-small attaches its files here",
		}, http.StatusCreated, &created); err != nil {
			return err
		}
		s.data.UploadEvidenceIDs = append(s.data.UploadEvidenceIDs, created.ID)
	}
	return nil
}

// participant creates participantName (built-in role assessor, no view_all) and as many API
// keys of theirs as of bench-admin.
func (s *seeder) participant(ctx context.Context) error {
	id, err := s.createUser(ctx, s.cookie, participantName, []string{assess.RoleAssessor})
	if err != nil {
		return err
	}
	s.data.participantID = id
	cookie, err := s.api.login(ctx, participantName)
	if err != nil {
		return err
	}
	for i := range s.credentials {
		var created struct{ Token string }
		body := map[string]any{"name": fmt.Sprintf("bench participant key %d", i)}
		if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/me/api-keys", cookie, body, http.StatusCreated, &created); err != nil {
			return err
		}
		s.data.ParticipantKeys = append(s.data.ParticipantKeys, created.Token)
	}
	return nil
}

// workRecords writes the assessments, evidence and links in SQL, in one transaction.
// Ids are valid (hexadecimal digits are Crockford digits) and in insertion order.
func (s *seeder) workRecords(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	users := s.data.UserIDs
	batch := &pgx.Batch{}
	batch.Queue(`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, 'assessee')`,
		s.data.AssessmentID, s.data.participantID)
	// A quarter are complete, with their end time and score (the results of the score history
	// and the portfolio): half of those of the ASVS assessment's entity, the others of the first
	// 100 seeded entities.
	batch.Queue(`INSERT INTO assessments (id, title, description, entity_id, state, due_date, created_by, ended_at)
		SELECT 'as_' || lpad(to_hex(g), 26, '0'), 'Bench assessment ' || g, 'Seeded by make bench',
			CASE WHEN g % 8 = 7 AND $4 > 0 THEN 'en_' || lpad(to_hex(1 + g / 8 % least($4, 100)), 26, '0')
				ELSE (SELECT entity_id FROM assessments WHERE id = $2) END,
			(ARRAY['new', 'in_progress', 'on_hold', 'complete'])[1 + g % 4], DATE '2030-01-01' + g % 365, $3,
			CASE WHEN g % 4 = 3 THEN timestamptz '2025-01-01' + g * interval '7 hours' END
		FROM generate_series(1, $1) g`, s.assessments, s.data.AssessmentID, users[0], s.entities)
	batch.Queue(`INSERT INTO assessment_standards (assessment_id, standard_id, conformance_score)
		SELECT 'as_' || lpad(to_hex(g), 26, '0'), $2, CASE WHEN g % 4 = 3 THEN (g * 37) % 101 END
		FROM generate_series(1, $1) g`, s.assessments, s.data.StandardID)
	// Two bench users on each team; the participant on every tenth (half of them complete).
	batch.Queue(`INSERT INTO assessment_members (assessment_id, user_id, role)
		SELECT 'as_' || lpad(to_hex(g), 26, '0'), u.id, u.role
		FROM generate_series(1, $1) g,
			LATERAL (VALUES (($2::text[])[1 + g % cardinality($2::text[])], 'assessor'),
				(($2::text[])[1 + (g * 7 + 3) % cardinality($2::text[])], 'assessee'),
				(CASE WHEN g % 10 = 3 THEN $3 END, 'assessor')) u(id, role)
		WHERE u.id IS NOT NULL
		ON CONFLICT DO NOTHING`, s.assessments, users, s.data.participantID)
	batch.Queue(`INSERT INTO evidence (id, name, description, classification, author_id, collected_on, valid_from, valid_until)
		SELECT 'ev_' || lpad(to_hex(g), 26, '0'), 'Bench evidence ' || md5(g::text), 'Seeded by make bench', 'internal',
			CASE WHEN g % 40 = 0 THEN $3 ELSE ($2::text[])[1 + g % cardinality($2::text[])] END,
			DATE '2025-01-01' + g % 300, DATE '2025-01-01' + g % 300, CASE WHEN g % 2 = 0 THEN DATE '2031-01-01' + g % 300 END
		FROM generate_series(1, $1) g`, s.evidence, users, s.data.participantID)
	batch.Queue(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		SELECT ($3::text[])[1 + (g * 13) % cardinality($3::text[])], 'ev_' || lpad(to_hex(g), 26, '0'), $2
		FROM generate_series(3, $1, 3) g`, s.evidence, s.data.AssessmentID, s.data.AssessmentRequirementIDs)
	if err := conn.SendBatch(ctx, batch).Close(); err != nil {
		return err
	}
	s.data.Assessments, s.data.Evidence = s.assessments+1, s.evidence
	rows, err := conn.Query(ctx, `SELECT DISTINCT evidence_id FROM assessment_requirement_evidence WHERE assessment_id = $1 ORDER BY 1`,
		s.data.AssessmentID)
	if err != nil {
		return err
	}
	s.data.EvidenceIDs, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err == nil && len(s.data.EvidenceIDs) == 0 {
		err = fmt.Errorf("no evidence linked to the seeded assessment (-evidence %d)", s.evidence)
	}
	return err
}

// claimsAndNotes creates the claims of the seeded assessment (each citing two of its
// evidence and naming two of its requirements) and its work notes, through the API: their
// audit rows are its timeline.
func (s *seeder) claimsAndNotes(ctx context.Context) error {
	base := "/api/v1/assessments/" + s.data.AssessmentID
	ev, ar := s.data.EvidenceIDs, s.data.AssessmentRequirementIDs
	for i := range seedClaims {
		body := map[string]any{
			"name": fmt.Sprintf("Bench claim %d", i), "target": "The assessed product",
			"predicate":      "The product meets the requirement in every component that handles user input.",
			"reasoning":      "The scan reports and the code review cited show the control in place.",
			"evidenceIds":    []string{ev[(2*i)%len(ev)], ev[(2*i+1)%len(ev)]},
			"requirementIds": []string{ar[(3*i)%len(ar)], ar[(3*i+1)%len(ar)]},
		}
		if _, err := s.api.call(ctx, http.MethodPost, base+"/claims", s.cookie, body, http.StatusCreated, nil); err != nil {
			return err
		}
	}
	for i := range seedWorkNotes {
		body := map[string]any{"content": fmt.Sprintf("Bench note %d: @%s please check the evidence of the next chapter.", i, participantName)}
		if _, err := s.api.call(ctx, http.MethodPost, base+"/notes", s.cookie, body, http.StatusCreated, nil); err != nil {
			return err
		}
	}
	s.data.Claims = seedClaims
	return nil
}
