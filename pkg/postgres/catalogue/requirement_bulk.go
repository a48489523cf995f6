package catalogue

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// WriteRequirements implements assess.StandardService: creates or updates many
// requirements of a draft by identifier, in one change and one standard.updated.
func (s *StandardService) WriteRequirements(ctx context.Context, standardID string, b assess.BulkRequirements, actor assess.Actor) (assess.BulkResult, error) {
	var res assess.BulkResult
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := b.Validate(); err != nil {
			return err
		}
		if err := requireDraft(ctx, tx, standardID); err != nil {
			return err
		}
		var err error
		if res, err = writeRequirements(ctx, tx, standardID, b.Requirements); err != nil {
			return err
		}
		return recordContentChange(ctx, tx, assess.ChangeRequirementsBulk, standardID, standardTarget(standardID),
			map[string]any{"created": res.Created, "updated": res.Updated})
	})
	return res, err
}

// bulkPositionOffset places new requirements without a position after every existing
// sibling, in natural order among themselves, until the siblings are renumbered.
const bulkPositionOffset = assess.MaxPosition + 1

// writeRequirements upserts validated items into standard standardID (which the caller
// has locked as a draft): rows by identifier, then parents by parentIdentifier (unknown
// ones are 400 naming the item), then a cycle check over the whole tree (422 cycle), then
// every sibling group renumbered 0..n-1. The transfer slice may call it for imports.
func writeRequirements(ctx context.Context, tx *postgres.Tx, standardID string, items []assess.BulkRequirement) (assess.BulkResult, error) {
	var res assess.BulkResult
	n := len(items)
	ids, idents, keys, names, descs, refs := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	cres, exts, props, parents := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	positions := make([]*int, n)
	for i, it := range items {
		ids[i], idents[i], keys[i] = assess.NewID(assess.PrefixRequirement, tx.Now), it.Identifier, assess.NaturalKey(it.Identifier)
		names[i], descs[i], refs[i], parents[i], positions[i] = it.Name, it.Description, it.BOMRef, it.ParentIdentifier, it.Position
		cres[i], exts[i], props[i] = jsonText(postgres.OrEmpty(it.OpenCRE)), jsonText(postgres.OrEmpty(it.ExternalReferences)), jsonText(postgres.OrEmpty(it.Properties))
	}
	rows, err := tx.Query(ctx, `INSERT INTO requirements AS r (id, standard_id, identifier, natural_key, name, description, bom_ref,
			open_cre, external_references, properties, position, created_at, updated_at)
		SELECT u.id, $1, u.identifier, u.natural_key, u.name, u.description, u.bom_ref,
			ARRAY(SELECT jsonb_array_elements_text(u.open_cre::jsonb)), u.refs::jsonb, u.props::jsonb,
			coalesce(u.pos, $13), $2, $2
		FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::int[])
			WITH ORDINALITY AS u(id, identifier, natural_key, name, description, bom_ref, open_cre, refs, props, pos, ord)
		ON CONFLICT (standard_id, identifier) DO UPDATE SET natural_key = excluded.natural_key, name = excluded.name,
			description = excluded.description, bom_ref = CASE WHEN excluded.bom_ref <> '' THEN excluded.bom_ref ELSE r.bom_ref END,
			open_cre = excluded.open_cre, external_references = excluded.external_references, properties = excluded.properties,
			position = CASE WHEN excluded.position <> $13 THEN excluded.position ELSE r.position END,
			version = r.version + 1, updated_at = excluded.updated_at
		RETURNING (xmax = 0)`, standardID, tx.Now, ids, idents, keys, names, descs, refs, cres, exts, props, positions, bulkPositionOffset)
	if err != nil {
		return res, err
	}
	for rows.Next() {
		var inserted bool
		if err := rows.Scan(&inserted); err != nil {
			rows.Close()
			return res, err
		}
		if inserted {
			res.Created++
		} else {
			res.Updated++
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, err
	}
	if err := setBulkParents(ctx, tx, standardID, idents, parents); err != nil {
		return res, err
	}
	return res, renumberAll(ctx, tx, standardID)
}

func jsonText(v any) string {
	b, _ := json.Marshal(v) // slices of plain structs and strings always marshal
	return string(b)
}

// setBulkParents points each item at its parent by identifier (none: top level),
// refusing unknown parents and cycles.
func setBulkParents(ctx context.Context, tx *postgres.Tx, standardID string, idents, parents []string) error {
	rows, err := tx.Query(ctx, `SELECT u.ord FROM unnest($2::text[]) WITH ORDINALITY AS u(parent, ord)
		WHERE u.parent <> '' AND NOT EXISTS (SELECT 1 FROM requirements p WHERE p.standard_id = $1 AND p.identifier = u.parent)
		ORDER BY u.ord LIMIT 20`, standardID, parents)
	if err != nil {
		return err
	}
	var details []assess.Detail
	for rows.Next() {
		var ord int
		if err := rows.Scan(&ord); err != nil {
			rows.Close()
			return err
		}
		details = append(details, assess.Detail{Field: "requirements[" + strconv.Itoa(ord-1) + "].parentIdentifier", Code: "unknown",
			Message: "No requirement of this identifier in the request or the standard."})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(details) > 0 {
		return &assess.Error{Code: assess.ECodeValidation, Message: "A parent identifier names no requirement.", Details: details}
	}
	if _, err := tx.Exec(ctx, `UPDATE requirements r SET parent_id = p.id
		FROM unnest($2::text[], $3::text[]) AS u(identifier, parent)
		LEFT JOIN requirements p ON p.standard_id = $1 AND p.identifier = u.parent
		WHERE r.standard_id = $1 AND r.identifier = u.identifier AND r.parent_id IS DISTINCT FROM p.id`,
		standardID, idents, parents); err != nil {
		return err
	}
	var acyclic bool
	if err := tx.QueryRow(ctx, `WITH RECURSIVE walk AS (
			SELECT id FROM requirements WHERE standard_id = $1 AND parent_id IS NULL
			UNION ALL SELECT c.id FROM requirements c JOIN walk w ON c.parent_id = w.id
		) SELECT (SELECT count(*) FROM walk) = (SELECT count(*) FROM requirements WHERE standard_id = $1)`, standardID).Scan(&acyclic); err != nil {
		return err
	}
	if !acyclic {
		return &assess.Error{Code: assess.ECodeBusinessRule, Message: "The parent identifiers form a cycle.",
			Details: []assess.Detail{{Field: "requirements", Code: "cycle", Message: "A requirement would be its own ancestor."}}}
	}
	return nil
}

// renumberAll numbers every sibling group of a standard 0..n-1 in its order.
func renumberAll(ctx context.Context, tx *postgres.Tx, standardID string) error {
	_, err := tx.Exec(ctx, `UPDATE requirements r SET position = s.rn FROM (
			SELECT id, (row_number() OVER (PARTITION BY parent_id ORDER BY position, natural_key, id) - 1)::int AS rn
			FROM requirements WHERE standard_id = $1) s
		WHERE r.id = s.id AND r.position <> s.rn`, standardID)
	return err
}
