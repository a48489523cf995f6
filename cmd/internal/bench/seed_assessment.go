package main

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// assessment starts an assessment of the ASVS-sized standard (s.data.StandardID) in SQL,
// as starting one would leave it: in progress, bench-admin its assessor, every requirement
// without children loaded (392 of the 462), none answered yet. assessment-workspace reads
// them all; record-result answers random ones. SQL rather than the API, so the seed does
// not depend on the assessment operations of another part of the code.
func (s *seeder) assessment(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	id, entity := assess.NewID(assess.PrefixAssessment, time.Now()), assess.NewID(assess.PrefixEntity, time.Now())
	batch := &pgx.Batch{}
	batch.Queue(`INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Bench assessed product', 'product')`, entity)
	batch.Queue(`INSERT INTO assessments (id, title, entity_id, state, started_at)
		SELECT $1, 'Bench ASVS assessment', id, 'in_progress', now() FROM entities WHERE name = 'Bench assessed product'`, id)
	batch.Queue(`INSERT INTO assessment_standards (assessment_id, standard_id) VALUES ($1, $2)`, id, s.data.StandardID)
	batch.Queue(`INSERT INTO assessment_members (assessment_id, user_id, role)
		SELECT $1, id, 'assessor' FROM users WHERE username = $2`, id, adminName)
	// ar_ ids: the assessment's time part and a counter, valid Crockford base32 of 26 digits.
	batch.Queue(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id)
		SELECT 'ar_' || substr($1, 4, 16) || lpad(to_hex(row_number() OVER (ORDER BY r.id)), 10, '0'), $1, r.id, r.standard_id
		FROM requirements r WHERE r.standard_id = $2
		AND NOT EXISTS (SELECT 1 FROM requirements c WHERE c.parent_id = r.id)`, id, s.data.StandardID)
	if err := conn.SendBatch(ctx, batch).Close(); err != nil {
		return err
	}
	rows, err := conn.Query(ctx, `SELECT id FROM assessment_requirements WHERE assessment_id = $1 ORDER BY id`, id)
	if err != nil {
		return err
	}
	if s.data.AssessmentRequirementIDs, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return err
	}
	s.data.AssessmentID, s.data.EntityID = id, entity
	return nil
}
