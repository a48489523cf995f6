package catalogue

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

var errTagNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such tag."}

// tagColumns read a tag and how many records of each kind carry it (three index-only
// counts per row, so a page is still one query). The last column is the sort key.
const tagColumns = `t.id, t.name, t.color, t.description, t.version, t.created_at, t.updated_at,
	(SELECT count(*) FROM standard_tags l WHERE l.tag_id = t.id),
	(SELECT count(*) FROM entity_tags l WHERE l.tag_id = t.id),
	(SELECT count(*) FROM project_tags l WHERE l.tag_id = t.id),
	lower(t.name)`

// tagRow is a tag as read, with its usage and the database's lower-cased name (the sort
// key: Go's and PostgreSQL's case folding differ beyond ASCII, so cursors carry the
// database's).
type tagRow struct {
	assess.Tag
	standards, entities, projects int
	sortName                      string
}

func scanTag(r pgx.Row) (tagRow, error) {
	var t tagRow
	err := r.Scan(&t.ID, &t.Name, &t.Color, &t.Description, &t.Version, &t.CreatedAt, &t.UpdatedAt,
		&t.standards, &t.entities, &t.projects, &t.sortName)
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC()
	return t, err
}

// forActor returns the tag with the usage counts actor may see.
func (t tagRow) forActor(actor assess.Actor) assess.Tag {
	out := t.Tag
	count := func(perm assess.Perm, n int) *int {
		if !actor.Can(perm) {
			return nil
		}
		return &n
	}
	out.Usage = assess.TagUsage{Standards: count(assess.PermStandardsView, t.standards),
		Entities: count(assess.PermEntitiesView, t.entities), Projects: count(assess.PermProjectsView, t.projects)}
	return out
}

var tagSorts = map[string]postgres.SortOrder{
	"name": {Name: "name", Keys: []postgres.SortKey{{Expr: "lower(t.name)", Typ: "text"}, {Expr: "t.id", Typ: "text"}}},
}

// FindTags implements assess.TagService: by name, keyset paginated, in one query.
func (s *TagService) FindTags(ctx context.Context, f assess.TagFilter, actor assess.Actor) (assess.Page[assess.Tag], error) {
	l := postgres.NewList("tags", "SELECT "+tagColumns+" FROM tags t", tagSorts["name"])
	l.Search(f.Q, "t.name", "t.description")
	page, err := postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanTag, func(t tagRow) []any { return []any{t.sortName, t.ID} })
	if err != nil {
		return assess.Page[assess.Tag]{}, err
	}
	out := make([]assess.Tag, len(page.Items))
	for i, t := range page.Items {
		out[i] = t.forActor(actor)
	}
	return assess.NewPage(out, page.NextCursor), nil
}

// findTag reads one tag, also inside a transaction.
func findTag(ctx context.Context, q postgres.Querier, id string, actor assess.Actor) (assess.Tag, error) {
	if !assess.ValidID(assess.PrefixTag, id) {
		return assess.Tag{}, errTagNotFound
	}
	t, err := scanTag(q.QueryRow(ctx, "SELECT "+tagColumns+" FROM tags t WHERE t.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return assess.Tag{}, errTagNotFound
	}
	if err != nil {
		return assess.Tag{}, postgres.DBError(err)
	}
	return t.forActor(actor), nil
}

// tagTarget names a tag in the audit log.
func tagTarget(id string) postgres.Target { return postgres.Target{Type: "tag", ID: id} }

// CreateTag implements assess.TagService.
func (s *TagService) CreateTag(ctx context.Context, nt assess.NewTag, actor assess.Actor) (assess.Tag, error) {
	var t assess.Tag
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := nt.Validate(); err != nil {
			return err
		}
		id := assess.NewID(assess.PrefixTag, tx.Now)
		if _, err := tx.Exec(ctx, `INSERT INTO tags (id, name, color, description, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $5)`, id, nt.Name, nt.Color, nt.Description, tx.Now); err != nil {
			return err
		}
		var err error
		if t, err = findTag(ctx, tx, id, actor); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeTagCreated, tagTarget(id), map[string]any{"name": nt.Name, "color": nt.Color}, assess.NewEvent{})
	})
	return t, err
}

// UpdateTag implements assess.TagService with optimistic concurrency.
func (s *TagService) UpdateTag(ctx context.Context, id string, upd assess.TagUpdate, actor assess.Actor) (assess.Tag, error) {
	if !assess.ValidID(assess.PrefixTag, id) {
		return assess.Tag{}, errTagNotFound
	}
	var t assess.Tag
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := upd.Validate(); err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "tags", id, upd.Version, errTagNotFound); err != nil {
			return err
		}
		before, err := findTag(ctx, tx, id, actor)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE tags SET name = coalesce($2, name), color = coalesce($3, color),
			description = coalesce($4, description) WHERE id = $1`, id, upd.Name, upd.Color, upd.Description); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "tags", id); err != nil {
			return err
		}
		if t, err = findTag(ctx, tx, id, actor); err != nil {
			return err
		}
		changes := map[string]any{}
		postgres.PutSet(changes, "name", upd.Name)
		postgres.PutSet(changes, "color", upd.Color)
		postgres.PutSet(changes, "description", upd.Description)
		return tx.Record(ctx, assess.ChangeTagUpdated, tagTarget(id),
			map[string]any{"before": map[string]any{"name": before.Name, "color": before.Color}, "changes": changes}, assess.NewEvent{})
	})
	return t, err
}

// DeleteTag implements assess.TagService: the tag leaves every standard, entity and
// project carrying it (the link rows cascade); the records' versions stay.
func (s *TagService) DeleteTag(ctx context.Context, id string, actor assess.Actor) error {
	if !assess.ValidID(assess.PrefixTag, id) {
		return errTagNotFound
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		t, err := scanTag(tx.QueryRow(ctx, "SELECT "+tagColumns+" FROM tags t WHERE t.id = $1 FOR UPDATE", id))
		if errors.Is(err, pgx.ErrNoRows) {
			return errTagNotFound
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM tags WHERE id = $1", id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeTagDeleted, tagTarget(id), map[string]any{"name": t.Name,
			"detached": map[string]any{"standards": t.standards, "entities": t.entities, "projects": t.projects}}, assess.NewEvent{})
	})
}

var _ assess.TagService = (*TagService)(nil)
