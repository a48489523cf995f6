package catalogue

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Standards: metadata, the list and versions, creation, update and deletion. The
// lifecycle is in standard_lifecycle.go, the deep copy in standard_copy.go, the tree in
// requirements.go and levels.go.

const standardColumns = `s.id, s.identifier, s.standard_version, s.name, s.description, s.owner, s.bom_ref,
	s.external_references, s.state, s.source, coalesce(s.duplicated_from, ''), coalesce(s.created_by, ''),
	coalesce(s.submitted_by, ''), s.submitted_at, coalesce(s.approved_by, ''), s.approved_at,
	coalesce(s.rejected_by, ''), s.rejected_at, coalesce(s.rejection_reason, ''), s.retired_at,
	s.version, s.created_at, s.updated_at,
	s.requirement_count,
	(SELECT count(*) FROM levels l WHERE l.standard_id = s.id),
	lower(s.name)`

const standardRows = "SELECT " + standardColumns + " FROM standards s"

// standardRow is a standard as read, with the sort key of the name as the database
// computes it (so cursors agree with the index whatever the letters).
type standardRow struct {
	assess.Standard
	nameKey string
}

func scanStandard(r pgx.Row) (standardRow, error) {
	var row standardRow
	s := &row.Standard
	err := r.Scan(&s.ID, &s.Identifier, &s.StandardVersion, &s.Name, &s.Description, &s.Owner, &s.BOMRef,
		&s.ExternalReferences, &s.State, &s.Source, &s.DuplicatedFrom, &s.CreatedBy,
		&s.SubmittedBy, &s.SubmittedAt, &s.ApprovedBy, &s.ApprovedAt,
		&s.RejectedBy, &s.RejectedAt, &s.RejectionReason, &s.RetiredAt,
		&s.Version, &s.CreatedAt, &s.UpdatedAt, &s.RequirementCount, &s.LevelCount, &row.nameKey)
	s.CreatedAt, s.UpdatedAt = s.CreatedAt.UTC(), s.UpdatedAt.UTC()
	s.SubmittedAt, s.ApprovedAt, s.RejectedAt, s.RetiredAt = postgres.UTCPtr(s.SubmittedAt), postgres.UTCPtr(s.ApprovedAt), postgres.UTCPtr(s.RejectedAt), postgres.UTCPtr(s.RetiredAt)
	if s.ExternalReferences == nil {
		s.ExternalReferences = []assess.ExternalReference{}
	}
	s.Tags = []assess.TagRef{}
	return row, err
}

var errStandardNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such standard."}

// standardSorts are the orders of the standard list.
var standardSorts = map[string]postgres.SortOrder{
	"name":       {Name: "name", Keys: []postgres.SortKey{{Expr: "lower(s.name)", Typ: "text"}, {Expr: "s.id", Typ: "text"}}},
	"-createdAt": {Name: "-createdAt", Keys: []postgres.SortKey{{Expr: "s.id", Typ: "text", Desc: true}}},
	"identifier": {Name: "identifier", Keys: []postgres.SortKey{{Expr: "s.identifier", Typ: "text"}, {Expr: "s.standard_version", Typ: "text"}}},
}

// FindStandards implements assess.StandardService: filtered and searched in SQL, sorted
// on an index, keyset paginated; the tags of the page in one more query.
func (s *StandardService) FindStandards(ctx context.Context, f assess.StandardFilter) (assess.Page[assess.Standard], error) {
	order, ok := standardSorts[f.Sort]
	if !ok {
		order = standardSorts["name"]
	}
	l := postgres.NewList("standards", standardRows, order)
	postgres.Equal(l, "s.state", f.State)
	postgres.Equal(l, "s.owner", f.Owner)
	postgres.Equal(l, "s.identifier", f.Identifier)
	l.Tagged(postgres.StandardTags, "s.id", f.Tag)
	l.Search(f.Q, "s.name", "s.identifier", "s.description")
	page, err := postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanStandard, func(r standardRow) []any {
		switch order.Name {
		case "-createdAt":
			return []any{r.ID}
		case "identifier":
			return []any{r.Identifier, r.StandardVersion}
		}
		return []any{r.nameKey, r.ID}
	})
	if err != nil {
		return assess.Page[assess.Standard]{}, err
	}
	out := assess.NewPage(make([]assess.Standard, 0, len(page.Items)), page.NextCursor)
	for _, r := range page.Items {
		out.Items = append(out.Items, r.Standard)
	}
	return out, withTags(ctx, s.db.Pool, out.Items)
}

// withTags fills in the tags of standards, in one query.
func withTags(ctx context.Context, q postgres.Querier, list []assess.Standard) error {
	ids := make([]string, len(list))
	for i, st := range list {
		ids[i] = st.ID
	}
	tags, err := postgres.LoadTags(ctx, q, postgres.StandardTags, ids)
	if err != nil {
		return postgres.DBError(err)
	}
	for i := range list {
		list[i].Tags = tags[list[i].ID]
	}
	return nil
}

// FindStandard implements assess.StandardService.
func (s *StandardService) FindStandard(ctx context.Context, id string) (assess.Standard, error) {
	return findStandard(ctx, s.db.Pool, id)
}

// findStandard reads a standard as the API shows it, also inside a transaction.
func findStandard(ctx context.Context, q postgres.Querier, id string) (assess.Standard, error) {
	if !assess.ValidID(assess.PrefixStandard, id) {
		return assess.Standard{}, errStandardNotFound
	}
	row, err := scanStandard(q.QueryRow(ctx, standardRows+" WHERE s.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return assess.Standard{}, errStandardNotFound
	}
	if err != nil {
		return assess.Standard{}, postgres.DBError(err)
	}
	list := []assess.Standard{row.Standard}
	err = withTags(ctx, q, list)
	return list[0], err
}

// standardExists answers errStandardNotFound unless standard id exists: the one cheap
// check of the reads under a standard (findStandard also counts its requirements, which
// costs milliseconds for a standard of 100,000).
func standardExists(ctx context.Context, q postgres.Querier, id string) error {
	if !assess.ValidID(assess.PrefixStandard, id) {
		return errStandardNotFound
	}
	var ok bool
	if err := q.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM standards WHERE id = $1)", id).Scan(&ok); err != nil {
		return postgres.DBError(err)
	}
	if !ok {
		return errStandardNotFound
	}
	return nil
}

// standardRevisionQuery is the revision of a standard's reads: the version of its row
// (xmin), which every change of the standard moves — metadata and lifecycle update the row,
// and so does every requirement or level change of a draft, in its transaction
// (recordContentChange, BumpVersion); the version column moves with metadata only — then
// its tags' ids and row versions, since a renamed or recoloured tag changes the tree's
// standard without touching the standard. One primary-key read and its few tags.
const standardRevisionQuery = `SELECT s.state, s.xmin::text || coalesce((SELECT string_agg(' ' || t.id || '.' || t.xmin::text, ''
		ORDER BY t.id) FROM standard_tags st JOIN tags t ON t.id = st.tag_id WHERE st.standard_id = s.id), '')
	FROM standards s WHERE s.id = $1`

// StandardRevision implements assess.StandardService. The answers of published and retired
// standards are worth keeping: their content is final.
func (s *StandardService) StandardRevision(ctx context.Context, id string) (assess.Revision, error) {
	if !assess.ValidID(assess.PrefixStandard, id) {
		return assess.Revision{}, errStandardNotFound
	}
	var state assess.StandardState
	var rev assess.Revision
	err := s.db.Pool.QueryRow(ctx, standardRevisionQuery, id).Scan(&state, &rev.Tag)
	if errors.Is(err, pgx.ErrNoRows) {
		return assess.Revision{}, errStandardNotFound
	}
	rev.Keep = state == assess.StandardPublished || state == assess.StandardRetired
	return rev, postgres.DBError(err)
}

// FindStandardVersions implements assess.StandardService: the standards sharing the
// identifier of id, newest first.
func (s *StandardService) FindStandardVersions(ctx context.Context, id string, page assess.PageRequest) (assess.Page[assess.Standard], error) {
	st, err := findStandard(ctx, s.db.Pool, id)
	if err != nil {
		return assess.Page[assess.Standard]{}, err
	}
	return s.FindStandards(ctx, assess.StandardFilter{Identifier: st.Identifier, Sort: "-createdAt", PageRequest: page})
}

// standardTarget names a standard in the audit log.
func standardTarget(id string) postgres.Target { return postgres.Target{Type: "standard", ID: id} }

// standardEvent is the event content of a change of st.
func standardEvent(st assess.Standard) assess.NewEvent {
	summary := st.Name
	if st.StandardVersion != "" {
		summary += " " + st.StandardVersion
	}
	return assess.NewEvent{Data: st, Summary: summary, Link: "/standards/" + st.ID}
}

// lockStandard reads the standard and locks its row for the rest of the transaction:
// every change of a standard or of its tree takes this lock first, so changes of one
// standard take turns and each sees the state the other left.
func lockStandard(ctx context.Context, tx *postgres.Tx, id string) (assess.Standard, error) {
	if !assess.ValidID(assess.PrefixStandard, id) {
		return assess.Standard{}, errStandardNotFound
	}
	var locked string
	err := tx.QueryRow(ctx, "SELECT id FROM standards WHERE id = $1 FOR UPDATE", id).Scan(&locked)
	if errors.Is(err, pgx.ErrNoRows) {
		return assess.Standard{}, errStandardNotFound
	}
	if err != nil {
		return assess.Standard{}, err
	}
	return findStandard(ctx, tx, id)
}

// requireDraft locks the standard and refuses a content change unless it is a draft
// (409 conflict, code not_draft).
func requireDraft(ctx context.Context, tx *postgres.Tx, id string) error {
	var state assess.StandardState
	if !assess.ValidID(assess.PrefixStandard, id) {
		return errStandardNotFound
	}
	err := tx.QueryRow(ctx, "SELECT state FROM standards WHERE id = $1 FOR UPDATE", id).Scan(&state)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return errStandardNotFound
	case err != nil:
		return err
	case state != assess.StandardDraft:
		return assess.ErrNotDraft
	}
	return nil
}

// recordContentChange records a change of a draft's tree (requirements, levels): the
// standard's updated_at moves, the audit row names target, and standard.updated is
// announced once for the request.
func recordContentChange(ctx context.Context, tx *postgres.Tx, c assess.Change, standardID string, target postgres.Target, details map[string]any) error {
	if _, err := tx.Exec(ctx, "UPDATE standards SET updated_at = $2 WHERE id = $1", standardID, tx.Now); err != nil {
		return err
	}
	st, err := findStandard(ctx, tx, standardID)
	if err != nil {
		return err
	}
	if details == nil {
		details = map[string]any{}
	}
	details["standardId"] = standardID
	return tx.Record(ctx, c, target, details, standardEvent(st))
}

// CreateStandard implements assess.StandardService: a new draft, authored by the actor.
func (s *StandardService) CreateStandard(ctx context.Context, n assess.NewStandard, actor assess.Actor) (assess.Standard, error) {
	var st assess.Standard
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := n.Validate(); err != nil {
			return err
		}
		id := assess.NewID(assess.PrefixStandard, tx.Now)
		refs := n.ExternalReferences
		if refs == nil {
			refs = []assess.ExternalReference{}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO standards (id, identifier, standard_version, name, description, owner,
			external_references, state, source, created_by, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)`, id, n.Identifier, n.StandardVersion, n.Name,
			n.Description, n.Owner, refs, assess.StandardDraft, assess.SourceManual, tx.Actor.ID, tx.Now); err != nil {
			return err
		}
		if err := postgres.ReplaceTags(ctx, tx, postgres.StandardTags, id, n.TagIDs); err != nil {
			return err
		}
		var err error
		if st, err = findStandard(ctx, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeStandardCreated, standardTarget(id),
			map[string]any{"identifier": n.Identifier, "standardVersion": n.StandardVersion, "name": n.Name}, standardEvent(st))
	})
	return st, err
}

// UpdateStandard implements assess.StandardService with optimistic concurrency: metadata
// only while a draft (409 not_draft otherwise), tags in any state.
func (s *StandardService) UpdateStandard(ctx context.Context, id string, u assess.StandardUpdate, actor assess.Actor) (assess.Standard, error) {
	if !assess.ValidID(assess.PrefixStandard, id) {
		return assess.Standard{}, errStandardNotFound
	}
	var after assess.Standard
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := u.Validate(); err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "standards", id, u.Version, errStandardNotFound); err != nil {
			return err
		}
		before, err := findStandard(ctx, tx, id)
		if err != nil {
			return err
		}
		if u.ChangesContent() && before.State != assess.StandardDraft {
			return assess.ErrNotDraft
		}
		if _, err := tx.Exec(ctx, `UPDATE standards SET identifier = coalesce($2, identifier),
			standard_version = coalesce($3, standard_version), name = coalesce($4, name),
			description = coalesce($5, description), owner = coalesce($6, owner),
			external_references = coalesce($7, external_references) WHERE id = $1`,
			id, u.Identifier, u.StandardVersion, u.Name, u.Description, u.Owner, u.ExternalReferences); err != nil {
			return err
		}
		if u.TagIDs != nil {
			if err := postgres.ReplaceTags(ctx, tx, postgres.StandardTags, id, append([]string{}, *u.TagIDs...)); err != nil {
				return err
			}
		}
		if err := tx.BumpVersion(ctx, "standards", id); err != nil {
			return err
		}
		if after, err = findStandard(ctx, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeStandardUpdated, standardTarget(id), map[string]any{
			"before": map[string]any{"identifier": before.Identifier, "standardVersion": before.StandardVersion,
				"name": before.Name, "owner": before.Owner, "tags": before.Tags},
			"changes": u}, standardEvent(after))
	})
	return after, err
}

// DeleteStandard implements assess.StandardService: drafts, and retired standards that
// nothing refers to (projects and compliance policies refer with RESTRICT: 409 in_use).
// A standard in review or published is refused with 409 conflict.
func (s *StandardService) DeleteStandard(ctx context.Context, id string, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		st, err := lockStandard(ctx, tx, id)
		if err != nil {
			return err
		}
		if st.State != assess.StandardDraft && st.State != assess.StandardRetired {
			msg := "Only drafts and retired standards can be deleted; this one is " + string(st.State) + "."
			return &assess.Error{Code: assess.ECodeConflict, Message: msg,
				Details: []assess.Detail{{Field: "state", Code: "not_deletable", Message: msg}}}
		}
		if _, err := tx.Exec(ctx, "DELETE FROM standards WHERE id = $1", id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeStandardDeleted, standardTarget(id),
			map[string]any{"identifier": st.Identifier, "standardVersion": st.StandardVersion, "name": st.Name, "state": st.State},
			standardEvent(st))
	})
}

var _ assess.StandardService = (*StandardService)(nil)
