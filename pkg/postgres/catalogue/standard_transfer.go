package catalogue

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Bulk reads and writes of whole standards: CycloneDX imports (one COPY per table inside
// the change's transaction), exports and the feed's lookups. The standards core
// (standards.go) edits them one record at a time.

// transferStandards reads the standards a condition on s selects, with their tags.
func transferStandards(ctx context.Context, q postgres.Querier, cond string, args ...any) ([]assess.Standard, error) {
	rows, err := q.Query(ctx, standardRows+` WHERE `+cond+` ORDER BY s.identifier, s.standard_version, s.id`, args...)
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (assess.Standard, error) {
		r, err := scanStandard(row)
		return r.Standard, err
	})
	if err != nil {
		return nil, err
	}
	return out, withTags(ctx, q, out)
}

// errTransferNoStandard answers an unknown or malformed standard id.
var errTransferNoStandard = &assess.Error{Code: assess.ECodeNotFound, Message: "The standard does not exist."}

func transferTarget(id string) postgres.Target { return postgres.Target{Type: "standard", ID: id} }

// ImportStandards implements assess.StandardTransferService.
func (s *StandardTransferService) ImportStandards(ctx context.Context, imports []assess.StandardImport, source assess.StandardSource, actor assess.Actor) (assess.ImportResult, error) {
	var res assess.ImportResult
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		res = assess.ImportResult{Standards: make([]assess.ImportedStandard, 0, len(imports))}
		for i := range imports {
			imp := imports[i]
			if err := imp.Validate(fmt.Sprintf("/definitions/standards/%d", i)); err != nil {
				return err
			}
			st, outcome, err := importStandard(ctx, tx, imp, source)
			if err != nil {
				return err
			}
			warnings := imp.Warnings
			if warnings == nil || outcome == assess.ImportUnchanged {
				warnings = []string{}
			}
			res.Standards = append(res.Standards, assess.ImportedStandard{Standard: st, Outcome: outcome, Warnings: warnings})
			if outcome == assess.ImportCreated {
				res.Created++
			} else {
				res.Unchanged++
			}
		}
		return nil
	})
	return res, err
}

// importStandard writes one standard unless its identifier and version are present.
func importStandard(ctx context.Context, tx *postgres.Tx, imp assess.StandardImport, source assess.StandardSource) (assess.Standard, assess.ImportOutcome, error) {
	id := assess.NewID(assess.PrefixStandard, tx.Now)
	var inserted string
	err := tx.QueryRow(ctx, `INSERT INTO standards (id, identifier, standard_version, name, description, owner, bom_ref,
		external_references, state, source, created_by, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
		ON CONFLICT (identifier, standard_version) DO NOTHING RETURNING id`,
		id, imp.Identifier, imp.StandardVersion, imp.Name, imp.Description, imp.Owner, imp.BOMRef,
		postgres.OrEmpty(imp.ExternalReferences), assess.StandardPublished, source, tx.Actor.ID, tx.Now).Scan(&inserted)
	outcome := assess.ImportCreated
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		outcome = assess.ImportUnchanged
	case err != nil:
		return assess.Standard{}, "", err
	default:
		if err := copyImportedTree(ctx, tx, id, imp); err != nil {
			return assess.Standard{}, "", err
		}
	}
	found, err := transferStandards(ctx, tx, `s.identifier = $1 AND s.standard_version = $2`, imp.Identifier, imp.StandardVersion)
	if err != nil {
		return assess.Standard{}, "", err
	}
	if len(found) != 1 {
		return assess.Standard{}, "", fmt.Errorf("import: standard %s@%s not found after insert", imp.Identifier, imp.StandardVersion)
	}
	st := found[0]
	if outcome == assess.ImportUnchanged {
		return st, outcome, nil
	}
	err = tx.Record(ctx, assess.ChangeStandardImported, transferTarget(st.ID), map[string]any{
		"identifier": st.Identifier, "standardVersion": st.StandardVersion, "source": source,
		"requirements": st.RequirementCount, "levels": st.LevelCount},
		assess.NewEvent{Data: st, Summary: st.Name + " " + st.StandardVersion, Link: "/standards/" + st.ID})
	return st, outcome, err
}

// copyImportedTree writes the requirements, levels and level members of a new standard, one COPY
// per table (the self-reference of requirements is checked at the end of the COPY).
func copyImportedTree(ctx context.Context, tx *postgres.Tx, standardID string, imp assess.StandardImport) error {
	ids := make(map[string]string, len(imp.Requirements))
	for _, r := range imp.Requirements {
		ids[r.Identifier] = assess.NewID(assess.PrefixRequirement, tx.Now)
	}
	siblings := map[string]int{}
	rows := make([][]any, 0, len(imp.Requirements))
	for _, r := range imp.Requirements {
		var parent any
		if r.Parent != "" {
			parent = ids[r.Parent]
		}
		pos := siblings[r.Parent]
		siblings[r.Parent]++
		rows = append(rows, []any{ids[r.Identifier], standardID, parent, r.Identifier, assess.NaturalKey(r.Identifier),
			r.Name, r.Description, r.BOMRef, postgres.OrEmpty(r.OpenCRE), postgres.OrEmpty(r.ExternalReferences), postgres.OrEmpty(r.Properties),
			pos, tx.Now, tx.Now})
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"requirements"}, []string{"id", "standard_id", "parent_id", "identifier",
		"natural_key", "name", "description", "bom_ref", "open_cre", "external_references", "properties", "position",
		"created_at", "updated_at"}, pgx.CopyFromRows(rows)); err != nil {
		return err
	}
	levels := make([][]any, 0, len(imp.Levels))
	var members [][]any
	for i, l := range imp.Levels {
		lid := assess.NewID(assess.PrefixLevel, tx.Now)
		levels = append(levels, []any{lid, standardID, l.Identifier, l.Title, l.Description, l.BOMRef, i, tx.Now, tx.Now})
		for _, m := range l.Requirements {
			members = append(members, []any{lid, ids[m]})
		}
	}
	if len(levels) == 0 {
		return nil
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"levels"}, []string{"id", "standard_id", "identifier", "title",
		"description", "bom_ref", "position", "created_at", "updated_at"}, pgx.CopyFromRows(levels)); err != nil {
		return err
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"level_requirements"}, []string{"level_id", "requirement_id"}, pgx.CopyFromRows(members))
	return err
}

// FindStandardsByIdentifier implements assess.StandardTransferService.
func (s *StandardTransferService) FindStandardsByIdentifier(ctx context.Context, identifiers []string) ([]assess.Standard, error) {
	if len(identifiers) == 0 {
		return []assess.Standard{}, nil
	}
	return transferStandards(ctx, s.db.Pool, `s.identifier = ANY($1)`, identifiers)
}

// StandardContent implements assess.StandardTransferService: one consistent snapshot.
func (s *StandardTransferService) StandardContent(ctx context.Context, id string) (assess.StandardContent, error) {
	if !assess.ValidID(assess.PrefixStandard, id) {
		return assess.StandardContent{}, errTransferNoStandard
	}
	tx, err := s.db.Pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return assess.StandardContent{}, postgres.DBError(err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	c, err := transferContent(ctx, tx, id)
	return c, postgres.DBError(err)
}

func transferContent(ctx context.Context, q postgres.Querier, id string) (assess.StandardContent, error) {
	found, err := transferStandards(ctx, q, `s.id = $1`, id)
	if err != nil {
		return assess.StandardContent{}, err
	}
	if len(found) == 0 {
		return assess.StandardContent{}, errTransferNoStandard
	}
	c := assess.StandardContent{Standard: found[0]}
	if c.Levels, err = findLevels(ctx, q, id); err != nil {
		return c, err
	}
	tree, err := readTree(ctx, q, id)
	if err != nil {
		return c, err
	}
	c.Requirements = make([]assess.Requirement, len(tree))
	for i, t := range tree {
		c.Requirements[i] = t.Requirement
	}
	return c, nil
}

// csvTreeNode is a requirement of a draft as a CSV import merges it.
type csvTreeNode struct {
	id, parent string // id; identifier of the parent
	position   int
	exists     bool
}

// ImportRequirementRows implements assess.StandardTransferService.
func (s *StandardTransferService) ImportRequirementRows(ctx context.Context, id string, rows []assess.RequirementRow, actor assess.Actor) (assess.RowImportResult, error) {
	if !assess.ValidID(assess.PrefixStandard, id) {
		return assess.RowImportResult{}, errTransferNoStandard
	}
	var res assess.RowImportResult
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		res = assess.RowImportResult{}
		var state assess.StandardState
		err := tx.QueryRow(ctx, `SELECT state FROM standards WHERE id = $1 FOR UPDATE`, id).Scan(&state)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return errTransferNoStandard
		case err != nil:
			return err
		case state != assess.StandardDraft:
			return assess.ErrNotDraft
		}
		if err := assess.ValidateRequirementRows(rows); err != nil {
			return err
		}
		nodes, err := mergeCSVRows(ctx, tx, id, rows)
		if err != nil {
			return err
		}
		levelIDs, created, err := ensureCSVLevels(ctx, tx, id, rows)
		if err != nil {
			return err
		}
		res.LevelsCreated = created
		for _, r := range rows {
			if nodes[r.Identifier].exists {
				res.Updated++
			} else {
				res.Created++
			}
		}
		if err := upsertCSVRows(ctx, tx, id, rows, nodes, levelIDs); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "standards", id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeStandardCSVImported, transferTarget(id), map[string]any{
			"created": res.Created, "updated": res.Updated, "levelsCreated": res.LevelsCreated}, assess.NewEvent{})
	})
	return res, err
}

// mergeCSVRows lays the rows over the standard's tree: every parent must be a row or an
// existing requirement, and the result must stay a tree. New rows go after their siblings.
func mergeCSVRows(ctx context.Context, tx *postgres.Tx, standardID string, rows []assess.RequirementRow) (map[string]*csvTreeNode, error) {
	dbRows, err := tx.Query(ctx, `SELECT r.id, r.identifier, coalesce(p.identifier, ''), r.position
		FROM requirements r LEFT JOIN requirements p ON p.id = r.parent_id WHERE r.standard_id = $1`, standardID)
	if err != nil {
		return nil, err
	}
	nodes := map[string]*csvTreeNode{}
	next := map[string]int{} // parent identifier → next free position
	var rid, ident, parent string
	var pos int
	if _, err := pgx.ForEachRow(dbRows, []any{&rid, &ident, &parent, &pos}, func() error {
		nodes[ident] = &csvTreeNode{id: rid, parent: parent, position: pos, exists: true}
		next[parent] = max(next[parent], pos+1)
		return nil
	}); err != nil {
		return nil, err
	}
	for _, r := range rows {
		if n, ok := nodes[r.Identifier]; ok {
			n.parent = r.Parent
			continue
		}
		nodes[r.Identifier] = &csvTreeNode{id: assess.NewID(assess.PrefixRequirement, tx.Now), parent: r.Parent, position: next[r.Parent]}
		next[r.Parent]++
	}
	var details []assess.Detail
	for _, r := range rows {
		if _, ok := nodes[r.Parent]; r.Parent != "" && !ok && len(details) < assess.MaxImportProblems {
			details = append(details, assess.Detail{Field: fmt.Sprintf("lines[%d].parent", r.Line), Code: "unknown_parent",
				Message: fmt.Sprintf("Line %d: the parent %s is neither in the file nor in the standard.", r.Line, r.Parent)})
		}
	}
	if len(details) > 0 {
		return nil, &assess.Error{Code: assess.ECodeBusinessRule, Message: "Some rows name a parent that does not exist.", Details: details}
	}
	parents := make(map[string]string, len(nodes))
	for k, n := range nodes {
		parents[k] = n.parent
	}
	if cyc := assess.TreeCycle(parents); cyc != "" {
		return nil, &assess.Error{Code: assess.ECodeBusinessRule, Message: "The file would make a requirement its own ancestor.",
			Details: []assess.Detail{{Field: "file", Code: "cycle", Message: "The requirement " + cyc + " would be its own ancestor."}}}
	}
	return nodes, nil
}

// ensureCSVLevels returns the level ids by identifier, creating the levels rows name that the
// standard does not have yet.
func ensureCSVLevels(ctx context.Context, tx *postgres.Tx, standardID string, rows []assess.RequirementRow) (map[string]string, int, error) {
	dbRows, err := tx.Query(ctx, `SELECT identifier, id FROM levels WHERE standard_id = $1`, standardID)
	if err != nil {
		return nil, 0, err
	}
	ids := map[string]string{}
	var ident, lid string
	if _, err := pgx.ForEachRow(dbRows, []any{&ident, &lid}, func() error { ids[ident] = lid; return nil }); err != nil {
		return nil, 0, err
	}
	var newIDs, newIdents []string
	for _, r := range rows {
		for _, l := range r.Levels {
			if _, ok := ids[l]; !ok {
				ids[l] = assess.NewID(assess.PrefixLevel, tx.Now)
				newIDs, newIdents = append(newIDs, ids[l]), append(newIdents, l)
			}
		}
	}
	if len(newIDs) == 0 {
		return ids, 0, nil
	}
	_, err = tx.Exec(ctx, `INSERT INTO levels (id, standard_id, identifier, title, position, created_at, updated_at)
		SELECT n.id, $1, n.identifier, n.identifier,
			(SELECT coalesce(max(position) + 1, 0) FROM levels WHERE standard_id = $1) + n.ord - 1, $4, $4
		FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS n(id, identifier, ord)`, standardID, newIDs, newIdents, tx.Now)
	return ids, len(newIDs), err
}

// upsertCSVRows writes the rows in one statement and replaces their level memberships.
func upsertCSVRows(ctx context.Context, tx *postgres.Tx, standardID string, rows []assess.RequirementRow, nodes map[string]*csvTreeNode, levelIDs map[string]string) error {
	n := len(rows)
	ids, idents, keys, names, descs := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	parents, positions := make([]*string, n), make([]int32, n)
	var memberLevels, memberReqs []string
	for i, r := range rows {
		node := nodes[r.Identifier]
		ids[i], idents[i], keys[i], names[i], descs[i] = node.id, r.Identifier, assess.NaturalKey(r.Identifier), r.Name, r.Description
		if r.Parent != "" {
			p := nodes[r.Parent].id
			parents[i] = &p
		}
		positions[i] = int32(node.position)
		for _, l := range r.Levels {
			memberLevels, memberReqs = append(memberLevels, levelIDs[l]), append(memberReqs, node.id)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO requirements (id, standard_id, parent_id, identifier, natural_key, name,
			description, position, created_at, updated_at)
		SELECT u.id, $1, u.parent_id, u.identifier, u.natural_key, u.name, u.description, u.position, $9, $9
		FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[])
			AS u(id, parent_id, identifier, natural_key, name, description, position)
		ON CONFLICT (standard_id, identifier) DO UPDATE SET parent_id = excluded.parent_id, name = excluded.name,
			description = excluded.description, version = requirements.version + 1, updated_at = excluded.updated_at`,
		standardID, ids, parents, idents, keys, names, descs, positions, tx.Now); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM level_requirements WHERE requirement_id = ANY($1)`, ids); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO level_requirements (level_id, requirement_id)
		SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`, memberLevels, memberReqs)
	return err
}

// ImportStandardTx writes one standard in tx unless its identifier and version are present
// (then it is linked: ImportUnchanged), for flows that import more than standards in one
// transaction (the attestation import of the composition package).
func ImportStandardTx(ctx context.Context, tx *postgres.Tx, imp assess.StandardImport, source assess.StandardSource) (assess.Standard, assess.ImportOutcome, error) {
	return importStandard(ctx, tx, imp, source)
}
