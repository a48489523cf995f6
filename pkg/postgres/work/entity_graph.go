package work

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The relationship graph of entities: directed, typed edges; cycles are allowed (an
// entity may not point at itself), so every walk below is cycle-safe and bounded.

var errRelationshipNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such relationship of this entity."}

const relationshipRows = `SELECT r.id, r.source_id, s.name, r.target_id, t.name, r.relationship_type, r.created_at
	FROM entity_relationships r JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id`

func scanRelationship(row pgx.Row) (assess.Relationship, error) {
	var r assess.Relationship
	err := row.Scan(&r.ID, &r.SourceID, &r.SourceName, &r.TargetID, &r.TargetName, &r.Type, &r.CreatedAt)
	r.CreatedAt = r.CreatedAt.UTC()
	return r, err
}

func relationshipEvent(r assess.Relationship) assess.NewEvent {
	return assess.NewEvent{Data: r, Summary: r.SourceName + " " + string(r.Type) + " " + r.TargetName, Link: entityLink(r.SourceID)}
}

// entityState reads the state of an entity for a change that depends on it, locking it
// against a concurrent archive (FOR SHARE); notFound when there is none.
func entityState(ctx context.Context, tx *postgres.Tx, id string, notFound error) (assess.EntityState, error) {
	if !assess.ValidID(assess.PrefixEntity, id) {
		return "", notFound
	}
	var state assess.EntityState
	err := tx.QueryRow(ctx, "SELECT state FROM entities WHERE id = $1 FOR SHARE", id).Scan(&state)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", notFound
	}
	return state, err
}

// errArchived refuses a new relationship or policy on an archived entity; field names the
// request field that pointed at it ("" for the entity of the path).
func errArchived(field string) error {
	msg := "The entity is archived; restore it first."
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: msg,
		Details: []assess.Detail{{Field: field, Code: assess.DetailEntityArchived, Message: msg}}}
}

// errUnknownTarget answers a relationship to an entity that does not exist: 404 naming
// the field, as a missing record a request refers to is answered throughout.
var errUnknownTarget = &assess.Error{Code: assess.ECodeNotFound, Message: "The target entity does not exist.",
	Details: []assess.Detail{{Field: "targetId", Code: "not_found", Message: "The target entity does not exist."}}}

// FindRelationships implements assess.EntityService: the entity's edges in either
// direction (or one), newest first, keyset paginated.
func (s *EntityService) FindRelationships(ctx context.Context, entityID string, f assess.RelationshipFilter) (assess.Page[assess.Relationship], error) {
	if _, err := findEntity(ctx, s.db.Pool, entityID); err != nil {
		return assess.Page[assess.Relationship]{}, err
	}
	l := postgres.NewList("entity_relationships", relationshipRows, postgres.NewestFirst("r.id"))
	p := l.Arg(entityID)
	switch f.Direction {
	case assess.DirectionOutgoing:
		l.Where("r.source_id = " + p)
	case assess.DirectionIncoming:
		l.Where("r.target_id = " + p)
	default:
		l.Where("(r.source_id = " + p + " OR r.target_id = " + p + ")")
	}
	postgres.Equal(l, "r.relationship_type", f.Type)
	page, err := postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanRelationship, func(r assess.Relationship) []any { return []any{r.ID} })
	for i := range page.Items {
		page.Items[i].Direction = assess.DirectionIncoming
		if page.Items[i].SourceID == entityID {
			page.Items[i].Direction = assess.DirectionOutgoing
		}
	}
	return page, err
}

// AddRelationship implements assess.EntityService: the edge entity → target. Both ends
// must exist (the target's absence is 404 naming targetId) and neither be archived (422
// entity_archived); the same edge twice is 409 already_exists.
func (s *EntityService) AddRelationship(ctx context.Context, entityID string, nr assess.NewRelationship, actor assess.Actor) (assess.Relationship, error) {
	if !assess.ValidID(assess.PrefixEntity, entityID) {
		return assess.Relationship{}, errEntityNotFound
	}
	var r assess.Relationship
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := nr.Validate(entityID); err != nil {
			return err
		}
		for _, end := range []struct{ id, field string }{{entityID, ""}, {nr.TargetID, "targetId"}} {
			notFound := errEntityNotFound
			if end.field != "" {
				notFound = errUnknownTarget
			}
			state, err := entityState(ctx, tx, end.id, notFound)
			if err != nil {
				return err
			}
			if state == assess.EntityArchived {
				return errArchived(end.field)
			}
		}
		id := assess.NewID(assess.PrefixRelationship, tx.Now)
		if _, err := tx.Exec(ctx, `INSERT INTO entity_relationships (id, source_id, target_id, relationship_type, created_at)
			VALUES ($1, $2, $3, $4, $5)`, id, entityID, nr.TargetID, nr.Type, tx.Now); err != nil {
			return err
		}
		var err error
		if r, err = scanRelationship(tx.QueryRow(ctx, relationshipRows+" WHERE r.id = $1", id)); err != nil {
			return err
		}
		r.Direction = assess.DirectionOutgoing
		return tx.Record(ctx, assess.ChangeEntityRelationshipAdded, entityTarget(entityID), map[string]any{
			"relationshipId": id, "targetId": nr.TargetID, "type": nr.Type}, relationshipEvent(r))
	})
	return r, err
}

// RemoveRelationship implements assess.EntityService: an edge the entity is either end of.
func (s *EntityService) RemoveRelationship(ctx context.Context, entityID, relationshipID string, actor assess.Actor) error {
	if !assess.ValidID(assess.PrefixEntity, entityID) || !assess.ValidID(assess.PrefixRelationship, relationshipID) {
		return errRelationshipNotFound
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		r, err := scanRelationship(tx.QueryRow(ctx, relationshipRows+" WHERE r.id = $1 AND (r.source_id = $2 OR r.target_id = $2)",
			relationshipID, entityID))
		if errors.Is(err, pgx.ErrNoRows) {
			return errRelationshipNotFound
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM entity_relationships WHERE id = $1", relationshipID); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeEntityRelationshipRemoved, entityTarget(entityID), map[string]any{
			"relationshipId": r.ID, "sourceId": r.SourceID, "targetId": r.TargetID, "type": r.Type}, relationshipEvent(r))
	})
}

// graphSteps are the edges a walk may take, as (from, to) pairs, per direction.
var graphSteps = map[string]string{
	assess.DirectionOutgoing: `SELECT source_id AS a, target_id AS b FROM entity_relationships`,
	assess.DirectionIncoming: `SELECT target_id AS a, source_id AS b FROM entity_relationships`,
	assess.DirectionBoth: `SELECT source_id AS a, target_id AS b FROM entity_relationships
		UNION ALL SELECT target_id, source_id FROM entity_relationships`,
}

// entityGraphSQL walks the graph from $1 up to $2 edges away, in one statement. The walk
// keeps (entity, distance) rows and UNION drops repeats, so a cycle adds at most one row
// per entity and distance and the depth bound ends it; archived entities are neither
// reached nor walked through. The answer holds the nearest $3 entities (truncated when
// there are more) and every relationship between them.
const entityGraphSQL = `WITH RECURSIVE steps AS (%s),
walk(id, depth) AS (
	SELECT $1::text, 0
	UNION
	SELECT st.b, w.depth + 1 FROM walk w JOIN steps st ON st.a = w.id
	JOIN entities e ON e.id = st.b AND e.state <> 'archived'
	WHERE w.depth < $2
),
reached AS (SELECT id, min(depth) AS depth FROM walk GROUP BY id),
nodes AS (
	SELECT e.id, e.name, e.entity_type, e.state, r.depth, lower(e.name) AS sort_name
	FROM reached r JOIN entities e ON e.id = r.id ORDER BY r.depth, lower(e.name), e.id LIMIT $3 + 1
),
kept AS (SELECT * FROM nodes ORDER BY depth, sort_name, id LIMIT $3)
SELECT (SELECT count(*) FROM nodes) > $3,
	coalesce((SELECT json_agg(json_build_object('id', id, 'name', name, 'type', entity_type, 'state', state, 'depth', depth)
		ORDER BY depth, sort_name, id) FROM kept), '[]'),
	coalesce((SELECT json_agg(json_build_object('id', r.id, 'sourceId', r.source_id, 'targetId', r.target_id,
		'type', r.relationship_type) ORDER BY r.id)
		FROM entity_relationships r WHERE r.source_id IN (SELECT id FROM kept) AND r.target_id IN (SELECT id FROM kept)), '[]')`

// EntityGraph implements assess.EntityService: the entities within q.Depth edges of the
// entity (in the direction asked) and the relationships between them, in one query.
func (s *EntityService) EntityGraph(ctx context.Context, entityID string, q assess.GraphQuery) (assess.Graph, error) {
	if err := q.Validate(); err != nil {
		return assess.Graph{}, err
	}
	if !assess.ValidID(assess.PrefixEntity, entityID) {
		return assess.Graph{}, errEntityNotFound
	}
	g := assess.Graph{Nodes: []assess.GraphNode{}, Edges: []assess.GraphEdge{}}
	query := fmt.Sprintf(entityGraphSQL, graphSteps[q.Direction])
	err := s.db.Pool.QueryRow(ctx, query, entityID, q.Depth, assess.MaxGraphNodes).Scan(&g.Truncated, &g.Nodes, &g.Edges)
	if err != nil {
		return assess.Graph{}, postgres.DBError(err)
	}
	if len(g.Nodes) == 0 { // the entity itself is always the first node
		return assess.Graph{}, errEntityNotFound
	}
	return g, nil
}

// wholeGraphSQL is every relationship between entities that are not archived, oldest
// first, up to $1 (truncated when there are more), with the entities they join.
const wholeGraphSQL = `WITH edges AS (
	SELECT r.id, r.source_id, r.target_id, r.relationship_type FROM entity_relationships r
	JOIN entities s ON s.id = r.source_id AND s.state <> 'archived'
	JOIN entities t ON t.id = r.target_id AND t.state <> 'archived'
	ORDER BY r.id LIMIT $1 + 1
),
kept AS (SELECT * FROM edges ORDER BY id LIMIT $1),
ends AS (SELECT source_id AS id FROM kept UNION SELECT target_id FROM kept)
SELECT (SELECT count(*) FROM edges) > $1,
	coalesce((SELECT json_agg(json_build_object('id', e.id, 'name', e.name, 'type', e.entity_type, 'state', e.state)
		ORDER BY lower(e.name), e.id) FROM ends JOIN entities e ON e.id = ends.id), '[]'),
	coalesce((SELECT json_agg(json_build_object('id', id, 'sourceId', source_id, 'targetId', target_id,
		'type', relationship_type) ORDER BY id) FROM kept), '[]')`

// WholeGraph implements assess.EntityService.
func (s *EntityService) WholeGraph(ctx context.Context) (assess.Graph, error) {
	g := assess.Graph{Nodes: []assess.GraphNode{}, Edges: []assess.GraphEdge{}}
	err := s.db.Pool.QueryRow(ctx, wholeGraphSQL, assess.MaxGraphEdges).Scan(&g.Truncated, &g.Nodes, &g.Edges)
	return g, postgres.DBError(err)
}
