package main

import (
	"context"
	"net/http"

	"github.com/jackc/pgx/v5"
)

// largeStandard creates a draft standard through the API and gives it s.requirements
// requirements in one SQL statement (100 top-level groups, the rest their children; the
// identifiers G1.1 … sort naturally, not as text), then walks its requirement list to the
// last page: list-requirements-first and list-requirements-deep compare the first page with
// a page near the end of a 100,000-requirement list.
func (s *seeder) largeStandard(ctx context.Context) error {
	if s.requirements == 0 {
		return nil
	}
	var created struct{ ID string }
	if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/standards", s.cookie, map[string]any{
		"identifier": "bench-large", "standardVersion": "1.0", "name": "Bench large standard", "owner": "Bench",
	}, http.StatusCreated, &created); err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	// The natural key is assess.NaturalKey of the identifier: digit runs padded to ten places.
	_, err = conn.Exec(ctx, `
		WITH groups AS (
			INSERT INTO requirements (id, standard_id, identifier, natural_key, name, position)
			SELECT 'rq_' || lpad(to_hex(g), 26, '0'), $1, 'G' || g, 'g' || lpad(g::text, 10, '0'), 'Group ' || g, g - 1
			FROM generate_series(1, 100) g
			RETURNING id, identifier
		)
		INSERT INTO requirements (id, standard_id, parent_id, identifier, natural_key, name, description, position)
		SELECT 'rq_' || lpad(to_hex(1000 + r), 26, '0'), $1, 'rq_' || lpad(to_hex(1 + r % 100), 26, '0'),
			'G' || (1 + r % 100) || '.' || (r / 100 + 1),
			'g' || lpad((1 + r % 100)::text, 10, '0') || '.' || lpad((r / 100 + 1)::text, 10, '0'),
			'Requirement ' || r, 'Seeded by make bench', r / 100
		FROM generate_series(0, $2 - 101) r`, created.ID, s.requirements)
	if err != nil {
		return err
	}
	s.data.LargeStandardID = created.ID
	s.data.Requirements = s.requirements
	cursor, err := s.lastPageCursor(ctx, "/api/v1/standards/"+created.ID+"/requirements?limit=200", s.requirements)
	s.data.RequirementDeepCursor = cursor
	return err
}
