package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// entityRecords inserts s.entities entities in one SQL statement (creating 100,000
// through the API would take minutes and measure nothing the list operations need). Ids
// are valid entity ids (hex digits are Crockford digits), in insertion order; names are
// hashes, so the name order the list pages in is unrelated to the id order; types cycle.
func (s *seeder) entityRecords(ctx context.Context) error {
	if s.entities == 0 {
		return nil
	}
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	types := make([]string, len(assess.EntityTypes))
	for i, t := range assess.EntityTypes {
		types[i] = string(t)
	}
	_, err = conn.Exec(ctx, `INSERT INTO entities (id, name, description, entity_type)
		SELECT 'en_' || lpad(to_hex(g), 26, '0'), 'Bench entity ' || md5(g::text), 'Seeded by make bench',
			($2::text[])[1 + g % cardinality($2::text[])]
		FROM generate_series(1, $1) g`, s.entities, types)
	if err == nil {
		s.data.Entities = s.entities
	}
	return err
}

// entityDeepCursor walks the entity list by name to its last page, 200 entities a page,
// and keeps that page's cursor: list-entities-deep starts there, so it reads a page near
// the end of the list (the last 200 entities) the way a client paging through would reach it.
func (s *seeder) entityDeepCursor(ctx context.Context) error {
	cursor, err := s.lastPageCursor(ctx, "/api/v1/entities?limit=200", s.entities)
	s.data.EntityDeepCursor = cursor
	return err
}

// lastPageCursor walks the list at path (which sets limit=200) page by page to its end and
// returns the cursor of the last page; rows is about how many the list holds.
func (s *seeder) lastPageCursor(ctx context.Context, path string, rows int) (string, error) {
	cursor := ""
	for range rows/200 + 2 {
		var page struct {
			NextCursor string
			HasMore    bool
		}
		if _, err := s.api.call(ctx, http.MethodGet, path+"&cursor="+url.QueryEscape(cursor), s.cookie, nil, http.StatusOK, &page); err != nil {
			return "", err
		}
		if !page.HasMore {
			return cursor, nil
		}
		cursor = page.NextCursor
	}
	return "", fmt.Errorf("the list %s did not end after %d pages", path, rows/200+2)
}
