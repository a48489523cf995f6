package catalogue

import (
	"context"
	"errors"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Levels of a standard: named subsets of its requirements (ASVS L1–L3).

const levelColumns = `l.id, l.standard_id, l.identifier, l.title, l.description, l.bom_ref, l.position, l.version,
	l.created_at, l.updated_at, (SELECT count(*) FROM level_requirements lr WHERE lr.level_id = l.id)`

const levelRows = "SELECT " + levelColumns + " FROM levels l"

func scanLevel(r pgx.Row) (assess.Level, error) {
	var l assess.Level
	err := r.Scan(&l.ID, &l.StandardID, &l.Identifier, &l.Title, &l.Description, &l.BOMRef, &l.Position, &l.Version,
		&l.CreatedAt, &l.UpdatedAt, &l.RequirementCount)
	l.CreatedAt, l.UpdatedAt = l.CreatedAt.UTC(), l.UpdatedAt.UTC()
	return l, err
}

var errLevelNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such level in this standard."}

// errForeignRequirement refuses requirement ids that are not of the level's standard.
var errForeignRequirement = &assess.Error{Code: assess.ECodeValidation, Message: "A requirement is not part of this standard.",
	Details: []assess.Detail{{Field: "requirementIds", Code: "unknown", Message: "Use ids of requirements of the same standard."}}}

// findLevels returns the levels of a standard in order (a standard has a handful).
func findLevels(ctx context.Context, q postgres.Querier, standardID string) ([]assess.Level, error) {
	rows, err := q.Query(ctx, levelRows+" WHERE l.standard_id = $1 ORDER BY l.position, l.identifier, l.id", standardID)
	if err != nil {
		return nil, postgres.DBError(err)
	}
	levels, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.Level, error) { return scanLevel(r) })
	if levels == nil {
		levels = []assess.Level{}
	}
	return levels, postgres.DBError(err)
}

// findLevel reads level id of standard standardID.
func findLevel(ctx context.Context, q postgres.Querier, standardID, id string) (assess.Level, error) {
	if !assess.ValidID(assess.PrefixLevel, id) {
		return assess.Level{}, errLevelNotFound
	}
	l, err := scanLevel(q.QueryRow(ctx, levelRows+" WHERE l.id = $1 AND l.standard_id = $2", id, standardID))
	if errors.Is(err, pgx.ErrNoRows) {
		return l, errLevelNotFound
	}
	return l, postgres.DBError(err)
}

// FindLevels implements assess.StandardService: every level, in one page.
func (s *StandardService) FindLevels(ctx context.Context, standardID string) (assess.Page[assess.Level], error) {
	if err := standardExists(ctx, s.db.Pool, standardID); err != nil {
		return assess.Page[assess.Level]{}, err
	}
	levels, err := findLevels(ctx, s.db.Pool, standardID)
	return assess.NewPage(levels, ""), err
}

// levelTarget names a level in the audit log.
func levelTarget(id string) postgres.Target { return postgres.Target{Type: "level", ID: id} }

// setLevelRequirements makes ids the requirement set of level levelID; every id must be a
// requirement of the standard (400 naming requirementIds).
func setLevelRequirements(ctx context.Context, tx *postgres.Tx, standardID, levelID string, ids []string) error {
	ids = append([]string{}, slices.Compact(slices.Sorted(slices.Values(ids)))...) // never nil: NULL would match nothing below
	var known int
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM requirements WHERE standard_id = $1 AND id = ANY($2)", standardID, ids).Scan(&known); err != nil {
		return err
	}
	if known != len(ids) {
		return errForeignRequirement
	}
	if _, err := tx.Exec(ctx, "DELETE FROM level_requirements WHERE level_id = $1 AND NOT (requirement_id = ANY($2))", levelID, ids); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO level_requirements (level_id, requirement_id) SELECT $1, unnest($2::text[])
		ON CONFLICT DO NOTHING`, levelID, ids)
	return err
}

// CreateLevel implements assess.StandardService.
func (s *StandardService) CreateLevel(ctx context.Context, standardID string, n assess.NewLevel, actor assess.Actor) (assess.Level, error) {
	var out assess.Level
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := n.Validate(); err != nil {
			return err
		}
		if err := requireDraft(ctx, tx, standardID); err != nil {
			return err
		}
		id := assess.NewID(assess.PrefixLevel, tx.Now)
		if _, err := tx.Exec(ctx, `INSERT INTO levels (id, standard_id, identifier, title, description, position, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, coalesce($6, (SELECT count(*) FROM levels WHERE standard_id = $2)), $7, $7)`,
			id, standardID, n.Identifier, n.Title, n.Description, n.Position, tx.Now); err != nil {
			return err
		}
		if n.RequirementIDs != nil {
			if err := setLevelRequirements(ctx, tx, standardID, id, n.RequirementIDs); err != nil {
				return err
			}
		}
		var err error
		if out, err = findLevel(ctx, tx, standardID, id); err != nil {
			return err
		}
		return recordContentChange(ctx, tx, assess.ChangeLevelCreated, standardID, levelTarget(id),
			map[string]any{"identifier": n.Identifier, "requirements": out.RequirementCount})
	})
	return out, err
}

// UpdateLevel implements assess.StandardService with optimistic concurrency;
// requirementIds, when present, replaces the level's requirement set.
func (s *StandardService) UpdateLevel(ctx context.Context, standardID, id string, u assess.LevelUpdate, actor assess.Actor) (assess.Level, error) {
	var out assess.Level
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := u.Validate(); err != nil {
			return err
		}
		if err := requireDraft(ctx, tx, standardID); err != nil {
			return err
		}
		before, err := findLevel(ctx, tx, standardID, id)
		if err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "levels", id, u.Version, errLevelNotFound); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE levels SET identifier = coalesce($2, identifier), title = coalesce($3, title),
			description = coalesce($4, description), position = coalesce($5, position) WHERE id = $1`,
			id, u.Identifier, u.Title, u.Description, u.Position); err != nil {
			return err
		}
		if u.RequirementIDs != nil {
			if err := setLevelRequirements(ctx, tx, standardID, id, *u.RequirementIDs); err != nil {
				return err
			}
		}
		if err := tx.BumpVersion(ctx, "levels", id); err != nil {
			return err
		}
		if out, err = findLevel(ctx, tx, standardID, id); err != nil {
			return err
		}
		return recordContentChange(ctx, tx, assess.ChangeLevelUpdated, standardID, levelTarget(id), map[string]any{
			"before":  map[string]any{"identifier": before.Identifier, "title": before.Title, "requirements": before.RequirementCount},
			"changes": u})
	})
	return out, err
}

// DeleteLevel implements assess.StandardService.
func (s *StandardService) DeleteLevel(ctx context.Context, standardID, id string, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := requireDraft(ctx, tx, standardID); err != nil {
			return err
		}
		before, err := findLevel(ctx, tx, standardID, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM levels WHERE id = $1", id); err != nil {
			return err
		}
		return recordContentChange(ctx, tx, assess.ChangeLevelDeleted, standardID, levelTarget(id),
			map[string]any{"identifier": before.Identifier})
	})
}
