package catalogue

import (
	"context"
	"errors"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Requirements: the tree of a standard, the natural-order list, and single writes of a
// draft (create, update, move, delete). Bulk writes are in requirement_bulk.go.

// requirementColumns reads a requirement; levels is the SQL of its level ids.
func requirementColumns(levels string) string {
	return `r.id, r.standard_id, coalesce(r.parent_id, ''), r.identifier, r.name, r.description, r.bom_ref,
	r.open_cre, r.external_references, r.properties, r.position, r.version, r.created_at, r.updated_at, ` + levels
}

// requirementLevels are the level ids of one requirement, for lists and single reads.
const requirementLevels = `coalesce((SELECT array_agg(lr.level_id ORDER BY lr.level_id) FROM level_requirements lr
	WHERE lr.requirement_id = r.id), '{}')`

var requirementRows = "SELECT " + requirementColumns(requirementLevels) + " FROM requirements r"

// requirementScan lists the destinations of requirementColumns.
func requirementScan(q *assess.Requirement) []any {
	return []any{&q.ID, &q.StandardID, &q.ParentID, &q.Identifier, &q.Name, &q.Description, &q.BOMRef,
		&q.OpenCRE, &q.ExternalReferences, &q.Properties, &q.Position, &q.Version, &q.CreatedAt, &q.UpdatedAt, &q.Levels}
}

// normalizeRequirement turns what the database returns into what the API shows.
func normalizeRequirement(q *assess.Requirement) {
	q.CreatedAt, q.UpdatedAt = q.CreatedAt.UTC(), q.UpdatedAt.UTC()
	if q.OpenCRE == nil {
		q.OpenCRE = []string{}
	}
	if q.ExternalReferences == nil {
		q.ExternalReferences = []assess.ExternalReference{}
	}
	if q.Properties == nil {
		q.Properties = []assess.Property{}
	}
	if q.Levels == nil {
		q.Levels = []string{}
	}
}

func scanRequirement(r pgx.Row) (assess.Requirement, error) {
	var q assess.Requirement
	err := r.Scan(requirementScan(&q)...)
	normalizeRequirement(&q)
	return q, err
}

var errRequirementNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such requirement in this standard."}

// errUnknownParent refuses a parent that is not a requirement of the same standard.
var errUnknownParent = &assess.Error{Code: assess.ECodeValidation, Message: "The parent is not a requirement of this standard.",
	Details: []assess.Detail{{Field: "parentId", Code: "unknown", Message: "Use the id of a requirement of the same standard."}}}

// findRequirement reads requirement id of standard standardID; another standard's
// requirement is not found.
func findRequirement(ctx context.Context, q postgres.Querier, standardID, id string) (assess.Requirement, error) {
	if !assess.ValidID(assess.PrefixRequirement, id) || !assess.ValidID(assess.PrefixStandard, standardID) {
		return assess.Requirement{}, errRequirementNotFound
	}
	r, err := scanRequirement(q.QueryRow(ctx, requirementRows+" WHERE r.id = $1 AND r.standard_id = $2", id, standardID))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, errRequirementNotFound
	}
	return r, postgres.DBError(err)
}

// draftRequirement starts a change of requirement id: it locks the standard, refuses the
// change unless the standard is a draft, and reads the requirement as it is before.
func draftRequirement(ctx context.Context, tx *postgres.Tx, standardID, id string) (assess.Requirement, error) {
	if err := requireDraft(ctx, tx, standardID); err != nil {
		return assess.Requirement{}, err
	}
	return findRequirement(ctx, tx, standardID, id)
}

// FindRequirement implements assess.StandardService.
func (s *StandardService) FindRequirement(ctx context.Context, standardID, id string) (assess.Requirement, error) {
	if err := standardExists(ctx, s.db.Pool, standardID); err != nil {
		return assess.Requirement{}, err
	}
	return findRequirement(ctx, s.db.Pool, standardID, id)
}

// FindRequirements implements assess.StandardService: one standard's requirements in
// natural order of their identifiers (the natural_key index), filtered by parent, level
// and search.
func (s *StandardService) FindRequirements(ctx context.Context, f assess.RequirementFilter) (assess.Page[assess.Requirement], error) {
	if err := standardExists(ctx, s.db.Pool, f.StandardID); err != nil {
		return assess.Page[assess.Requirement]{}, err
	}
	order := postgres.SortOrder{Name: "natural", Keys: []postgres.SortKey{{Expr: "r.natural_key", Typ: "text"}, {Expr: "r.id", Typ: "text"}}}
	l := postgres.NewList("requirements", requirementRows, order)
	l.Where("r.standard_id = " + l.Arg(f.StandardID))
	postgres.Equal(l, "r.parent_id", f.ParentID)
	if f.Level != "" {
		l.Where("EXISTS (SELECT 1 FROM level_requirements lr WHERE lr.requirement_id = r.id AND lr.level_id = " + l.Arg(f.Level) + ")")
	}
	l.Search(f.Q, "r.identifier", "r.name", "r.description")
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanRequirement, func(q assess.Requirement) []any {
		return []any{assess.NaturalKey(q.Identifier), q.ID} // natural_key is kept equal to it on every write
	})
}

// treeQuery walks a standard's tree depth-first in one statement: siblings are ranked by
// position then natural key, each node carries the ranks from the root as its path, and
// the rows come in path order. Depth and child counts follow from that order (withShape).
var treeQuery = `WITH RECURSIVE ranked AS (
		SELECT r.*, row_number() OVER (PARTITION BY r.parent_id ORDER BY r.position, r.natural_key, r.id) AS rk
		FROM requirements r WHERE r.standard_id = $1
	), walk AS (
		SELECT ranked.*, ARRAY[rk] AS path FROM ranked WHERE parent_id IS NULL
		UNION ALL
		SELECT c.*, w.path || c.rk FROM ranked c JOIN walk w ON c.parent_id = w.id
	), lv AS (
		SELECT lr.requirement_id, array_agg(lr.level_id ORDER BY l.position, l.identifier, l.id) AS ids
		FROM level_requirements lr JOIN levels l ON l.id = lr.level_id WHERE l.standard_id = $1 GROUP BY lr.requirement_id
	)
	SELECT ` + requirementColumns("coalesce(lv.ids, '{}')") + `
	FROM walk r LEFT JOIN lv ON lv.requirement_id = r.id
	ORDER BY r.path`

// FindStandardTree implements assess.StandardService.
func (s *StandardService) FindStandardTree(ctx context.Context, id string) (assess.StandardTree, error) {
	st, err := findStandard(ctx, s.db.Pool, id)
	if err != nil {
		return assess.StandardTree{}, err
	}
	tree := assess.StandardTree{Standard: st}
	if tree.Requirements, err = readTree(ctx, s.db.Pool, id); err != nil {
		return tree, err
	}
	withShape(tree.Requirements)
	tree.Levels, err = findLevels(ctx, s.db.Pool, id)
	return tree, err
}

// readTree reads every requirement of a standard depth first (treeQuery), with the ids of
// its levels in level order; the tree view and the exports read it the same way.
func readTree(ctx context.Context, q postgres.Querier, standardID string) ([]assess.TreeRequirement, error) {
	rows, err := q.Query(ctx, treeQuery, standardID)
	if err != nil {
		return nil, postgres.DBError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.TreeRequirement, error) {
		var t assess.TreeRequirement
		err := r.Scan(requirementScan(&t.Requirement)...)
		normalizeRequirement(&t.Requirement)
		return t, err
	})
	return postgres.OrEmpty(list), postgres.DBError(err)
}

// withShape sets depth and child count of a depth-first list, where every parent comes
// before its children.
func withShape(list []assess.TreeRequirement) {
	at := make(map[string]int, len(list))
	for i := range list {
		at[list[i].ID] = i
		if p, ok := at[list[i].ParentID]; ok && list[i].ParentID != "" {
			list[i].Depth = list[p].Depth + 1
			list[p].ChildCount++
		}
	}
}

// requirementTarget names a requirement in the audit log.
func requirementTarget(id string) postgres.Target {
	return postgres.Target{Type: "requirement", ID: id}
}

// checkParent refuses a parent that is not a requirement of the standard.
func checkParent(ctx context.Context, tx *postgres.Tx, standardID, parentID string) error {
	if parentID == "" {
		return nil
	}
	if !assess.ValidID(assess.PrefixRequirement, parentID) {
		return errUnknownParent
	}
	var ok bool
	err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM requirements WHERE id = $1 AND standard_id = $2)", parentID, standardID).Scan(&ok)
	if err == nil && !ok {
		return errUnknownParent
	}
	return err
}

// siblings is the SQL condition of the children of parentID ("" for the top level) of
// standard $1, the parent being $2: two shapes, so each is served by an index.
func siblings(parentID string) string {
	if parentID == "" {
		return "standard_id = $1 AND parent_id IS NULL AND $2::text IS NULL"
	}
	return "standard_id = $1 AND parent_id = $2"
}

// place puts requirement id under parentID at position pos among the other children
// (past the end: last) and renumbers the children 0..n-1, in one statement.
func place(ctx context.Context, tx *postgres.Tx, standardID, parentID, id string, pos int) error {
	_, err := tx.Exec(ctx, `WITH sib AS (
			SELECT id, row_number() OVER (ORDER BY position, natural_key, id) - 1 AS rn
			FROM requirements WHERE `+siblings(parentID)+` AND id <> $3
		), target AS (
			SELECT id, (CASE WHEN rn < $4 THEN rn ELSE rn + 1 END)::int AS pos FROM sib
			UNION ALL SELECT $3, LEAST($4, (SELECT count(*) FROM sib))::int
		)
		UPDATE requirements r SET position = t.pos, parent_id = CASE WHEN r.id = $3 THEN $2 ELSE r.parent_id END
		FROM target t WHERE r.id = t.id AND (r.position <> t.pos OR r.id = $3)`,
		standardID, postgres.Nullable(parentID), id, pos)
	return err
}

// renumber numbers the children of parentID 0..n-1 again, in their order, after one left.
func renumber(ctx context.Context, tx *postgres.Tx, standardID, parentID string) error {
	_, err := tx.Exec(ctx, `UPDATE requirements r SET position = s.rn FROM (
			SELECT id, (row_number() OVER (ORDER BY position, natural_key, id) - 1)::int AS rn
			FROM requirements WHERE `+siblings(parentID)+`) s
		WHERE r.id = s.id AND r.position <> s.rn`, standardID, postgres.Nullable(parentID))
	return err
}

// CreateRequirement implements assess.StandardService.
func (s *StandardService) CreateRequirement(ctx context.Context, standardID string, n assess.NewRequirement, actor assess.Actor) (assess.Requirement, error) {
	var out assess.Requirement
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := n.Validate(); err != nil {
			return err
		}
		if err := requireDraft(ctx, tx, standardID); err != nil {
			return err
		}
		if err := checkParent(ctx, tx, standardID, n.ParentID); err != nil {
			return err
		}
		id := assess.NewID(assess.PrefixRequirement, tx.Now)
		if _, err := tx.Exec(ctx, `INSERT INTO requirements (id, standard_id, parent_id, identifier, natural_key, name, description,
			open_cre, external_references, properties, position, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`, id, standardID, postgres.Nullable(n.ParentID), n.Identifier,
			assess.NaturalKey(n.Identifier), n.Name, n.Description, postgres.OrEmpty(n.OpenCRE), postgres.OrEmpty(n.ExternalReferences),
			postgres.OrEmpty(n.Properties), math.MaxInt32, tx.Now); err != nil {
			return err
		}
		pos := math.MaxInt32
		if n.Position != nil {
			pos = *n.Position
		}
		if err := place(ctx, tx, standardID, n.ParentID, id, pos); err != nil {
			return err
		}
		var err error
		if out, err = findRequirement(ctx, tx, standardID, id); err != nil {
			return err
		}
		return recordContentChange(ctx, tx, assess.ChangeRequirementCreated, standardID, requirementTarget(id),
			map[string]any{"identifier": n.Identifier, "parentId": n.ParentID})
	})
	return out, err
}

// UpdateRequirement implements assess.StandardService with optimistic concurrency.
func (s *StandardService) UpdateRequirement(ctx context.Context, standardID, id string, u assess.RequirementUpdate, actor assess.Actor) (assess.Requirement, error) {
	var out assess.Requirement
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := u.Validate(); err != nil {
			return err
		}
		before, err := draftRequirement(ctx, tx, standardID, id)
		if err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "requirements", id, u.Version, errRequirementNotFound); err != nil {
			return err
		}
		var natural *string
		if u.Identifier != nil {
			k := assess.NaturalKey(*u.Identifier)
			natural = &k
		}
		if _, err := tx.Exec(ctx, `UPDATE requirements SET identifier = coalesce($2, identifier), natural_key = coalesce($3, natural_key),
			name = coalesce($4, name), description = coalesce($5, description), open_cre = coalesce($6, open_cre),
			external_references = coalesce($7, external_references), properties = coalesce($8, properties) WHERE id = $1`,
			id, u.Identifier, natural, u.Name, u.Description, u.OpenCRE, u.ExternalReferences, u.Properties); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "requirements", id); err != nil {
			return err
		}
		if out, err = findRequirement(ctx, tx, standardID, id); err != nil {
			return err
		}
		return recordContentChange(ctx, tx, assess.ChangeRequirementUpdated, standardID, requirementTarget(id),
			map[string]any{"before": map[string]any{"identifier": before.Identifier, "name": before.Name}, "changes": u})
	})
	return out, err
}

// errCycle refuses a move under the requirement itself or one of its descendants.
var errCycle = &assess.Error{Code: assess.ECodeBusinessRule, Message: "A requirement cannot be moved under itself or one of its descendants.",
	Details: []assess.Detail{{Field: "parentId", Code: "cycle", Message: "The new parent is the requirement or one of its descendants."}}}

// MoveRequirement implements assess.StandardService: the requirement goes under its new
// parent at the position asked; its new and former siblings are renumbered 0..n-1.
func (s *StandardService) MoveRequirement(ctx context.Context, standardID, id string, m assess.RequirementMove, actor assess.Actor) (assess.Requirement, error) {
	var out assess.Requirement
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := m.Validate(); err != nil {
			return err
		}
		before, err := draftRequirement(ctx, tx, standardID, id)
		if err != nil {
			return err
		}
		parent := ""
		if m.ParentID != nil {
			parent = *m.ParentID
		}
		if err := checkParent(ctx, tx, standardID, parent); err != nil {
			return err
		}
		if err := refuseCycle(ctx, tx, id, parent); err != nil {
			return err
		}
		if err := place(ctx, tx, standardID, parent, id, m.Position); err != nil {
			return err
		}
		if before.ParentID != parent {
			if err := renumber(ctx, tx, standardID, before.ParentID); err != nil {
				return err
			}
		}
		if err := tx.BumpVersion(ctx, "requirements", id); err != nil {
			return err
		}
		if out, err = findRequirement(ctx, tx, standardID, id); err != nil {
			return err
		}
		return recordContentChange(ctx, tx, assess.ChangeRequirementMoved, standardID, requirementTarget(id), map[string]any{
			"identifier": before.Identifier, "from": map[string]any{"parentId": before.ParentID, "position": before.Position},
			"to": map[string]any{"parentId": parent, "position": out.Position}})
	})
	return out, err
}

// refuseCycle refuses parent when it is id or one of id's descendants (422 cycle).
func refuseCycle(ctx context.Context, tx *postgres.Tx, id, parent string) error {
	if parent == "" {
		return nil
	}
	var cycle bool
	err := tx.QueryRow(ctx, `WITH RECURSIVE up AS (
			SELECT id, parent_id FROM requirements WHERE id = $1
			UNION SELECT r.id, r.parent_id FROM requirements r JOIN up ON r.id = up.parent_id
		) SELECT EXISTS (SELECT 1 FROM up WHERE id = $2)`, parent, id).Scan(&cycle)
	if err == nil && cycle {
		return errCycle
	}
	return err
}

// DeleteRequirement implements assess.StandardService: the requirement and its subtree
// go; the former siblings are renumbered.
func (s *StandardService) DeleteRequirement(ctx context.Context, standardID, id string, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		before, err := draftRequirement(ctx, tx, standardID, id)
		if err != nil {
			return err
		}
		var subtree int
		if err := tx.QueryRow(ctx, `WITH RECURSIVE down AS (
				SELECT id FROM requirements WHERE id = $1
				UNION SELECT r.id FROM requirements r JOIN down ON r.parent_id = down.id
			) SELECT count(*) FROM down`, id).Scan(&subtree); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM requirements WHERE id = $1", id); err != nil {
			return err
		}
		if err := renumber(ctx, tx, standardID, before.ParentID); err != nil {
			return err
		}
		return recordContentChange(ctx, tx, assess.ChangeRequirementDeleted, standardID, requirementTarget(id),
			map[string]any{"identifier": before.Identifier, "parentId": before.ParentID, "deleted": subtree})
	})
}
