package catalogue

import (
	"context"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// DuplicateStandard implements assess.StandardService: a deep copy into a new draft of
// the same identifier at another version (409 already_exists when that version exists):
// metadata, tags, the requirement tree (positions, OpenCRE links, references,
// properties), levels and their requirement sets. CycloneDX bom-refs are not copied: the
// copy is another document.
func (s *StandardService) DuplicateStandard(ctx context.Context, id string, d assess.DuplicateRequest, actor assess.Actor) (assess.Standard, error) {
	var out assess.Standard
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := d.Validate(); err != nil {
			return err
		}
		src, err := findStandard(ctx, tx, id)
		if err != nil {
			return err
		}
		name := d.Name
		if name == "" {
			name = src.Name
		}
		newID := assess.NewID(assess.PrefixStandard, tx.Now)
		if _, err := tx.Exec(ctx, `INSERT INTO standards (id, identifier, standard_version, name, description, owner,
			external_references, state, source, duplicated_from, created_by, created_at, updated_at)
			SELECT $2, identifier, $3, $4, description, owner, external_references, $5, $6, id, $7, $8, $8
			FROM standards WHERE id = $1`, id, newID, d.StandardVersion, name, assess.StandardDraft,
			assess.SourceDuplicate, tx.Actor.ID, tx.Now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO standard_tags (standard_id, tag_id)
			SELECT $2, tag_id FROM standard_tags WHERE standard_id = $1`, id, newID); err != nil {
			return err
		}
		if err := copyTree(ctx, tx, id, newID); err != nil {
			return err
		}
		if out, err = findStandard(ctx, tx, newID); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeStandardDuplicated, standardTarget(newID), map[string]any{
			"duplicatedFrom": id, "identifier": out.Identifier, "standardVersion": out.StandardVersion, "name": out.Name,
			"requirements": out.RequirementCount, "levels": out.LevelCount}, standardEvent(out))
	})
	return out, err
}

// newIDs returns a fresh id of prefix for each of the given old ids, in order.
func newIDs(ctx context.Context, tx *postgres.Tx, prefix, sql, standardID string) (old, fresh []string, err error) {
	rows, err := tx.Query(ctx, sql, standardID)
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, nil, err
		}
		old = append(old, id)
		fresh = append(fresh, assess.NewID(prefix, tx.Now))
	}
	rows.Close()
	return postgres.OrEmpty(old), postgres.OrEmpty(fresh), rows.Err()
}

// copyTree copies the requirements, levels and level memberships of standard from into
// standard to, mapping every id to a new one, in one statement each.
func copyTree(ctx context.Context, tx *postgres.Tx, from, to string) error {
	oldReq, newReq, err := newIDs(ctx, tx, assess.PrefixRequirement, "SELECT id FROM requirements WHERE standard_id = $1", from)
	if err != nil {
		return err
	}
	// A foreign key is checked at the end of the statement, so parents and children may
	// be inserted in any order.
	if _, err := tx.Exec(ctx, `WITH m AS (SELECT * FROM unnest($3::text[], $4::text[]) AS m(old_id, new_id))
		INSERT INTO requirements (id, standard_id, parent_id, identifier, natural_key, name, description, open_cre,
			external_references, properties, position, created_at, updated_at)
		SELECT m.new_id, $2, pm.new_id, r.identifier, r.natural_key, r.name, r.description, r.open_cre,
			r.external_references, r.properties, r.position, $5, $5
		FROM requirements r JOIN m ON m.old_id = r.id LEFT JOIN m pm ON pm.old_id = r.parent_id
		WHERE r.standard_id = $1`, from, to, oldReq, newReq, tx.Now); err != nil {
		return err
	}
	oldLv, newLv, err := newIDs(ctx, tx, assess.PrefixLevel, "SELECT id FROM levels WHERE standard_id = $1", from)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `WITH m AS (SELECT * FROM unnest($3::text[], $4::text[]) AS m(old_id, new_id))
		INSERT INTO levels (id, standard_id, identifier, title, description, position, created_at, updated_at)
		SELECT m.new_id, $2, l.identifier, l.title, l.description, l.position, $5, $5
		FROM levels l JOIN m ON m.old_id = l.id WHERE l.standard_id = $1`, from, to, oldLv, newLv, tx.Now); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `WITH rm AS (SELECT * FROM unnest($1::text[], $2::text[]) AS m(old_id, new_id)),
			lm AS (SELECT * FROM unnest($3::text[], $4::text[]) AS m(old_id, new_id))
		INSERT INTO level_requirements (level_id, requirement_id)
		SELECT lm.new_id, rm.new_id FROM level_requirements lr JOIN lm ON lm.old_id = lr.level_id JOIN rm ON rm.old_id = lr.requirement_id`,
		oldReq, newReq, oldLv, newLv)
	return err
}
