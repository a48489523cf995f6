package postgres

import (
	"context"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// TagLink names the join table that attaches tags to one kind of record.
type TagLink struct {
	table  string // standard_tags, entity_tags, project_tags, assessment_tags
	column string // the record's id column in it
}

// The records that carry tags.
var (
	StandardTags = TagLink{"standard_tags", "standard_id"}
	EntityTags   = TagLink{"entity_tags", "entity_id"}
	ProjectTags  = TagLink{"project_tags", "project_id"}
	EvidenceTags = TagLink{"evidence_tags", "evidence_id"}

	AssessmentTags = TagLink{"assessment_tags", "assessment_id"}
)

// errUnknownTag refuses a tag id that does not exist.
var errUnknownTag = &assess.Error{Code: assess.ECodeValidation, Message: "A tag does not exist.",
	Details: []assess.Detail{{Field: "tagIds", Code: "unknown", Message: "Use ids from GET /api/v1/tags."}}}

// ReplaceTags makes tagIDs the tag set of record id (duplicates ignored); an unknown tag
// id is a 400 naming tagIds. A nil slice leaves the set as it is.
func ReplaceTags(ctx context.Context, tx *Tx, link TagLink, id string, tagIDs []string) error {
	if tagIDs == nil {
		return nil
	}
	ids := slices.Compact(slices.Sorted(slices.Values(tagIDs)))
	if ids == nil {
		ids = []string{} // an empty set, not SQL NULL: ANY(NULL) would keep every tag
	}
	var known int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM tags WHERE id = ANY($1)`, ids).Scan(&known); err != nil {
		return err
	}
	if known != len(ids) {
		return errUnknownTag
	}
	if _, err := tx.Exec(ctx, `DELETE FROM `+link.table+` WHERE `+link.column+` = $1 AND NOT (tag_id = ANY($2))`, id, ids); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO `+link.table+` (`+link.column+`, tag_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, id, ids)
	return err
}

// LoadTags returns the tags of each record in ids (by name), in one query for a whole page;
// a record without tags maps to an empty slice.
func LoadTags(ctx context.Context, q Querier, link TagLink, ids []string) (map[string][]assess.TagRef, error) {
	r := newTagRead(link, ids)
	if len(ids) == 0 {
		return r.out, nil
	}
	if err := ForEachLink(ctx, q, r.sql, ids, r.dest(), r.add); err != nil {
		return nil, err
	}
	r.sort()
	return r.out, nil
}

// QueueTags queues LoadTags' query on b, to be sent with a page's other reads in one round
// trip: the map it returns is LoadTags' answer once the batch has been read (closed).
func QueueTags(b *pgx.Batch, link TagLink, ids []string) map[string][]assess.TagRef {
	r := newTagRead(link, ids)
	if len(ids) > 0 {
		QueueLinksThen(b, r.sql, ids, r.dest(), r.add, r.sort)
	}
	return r.out
}

// tagRead is the read of the tags of a page's records: its query, and the map its rows
// are collected in (every record present, with no tags until its rows come).
type tagRead struct {
	sql string
	out map[string][]assess.TagRef
	tag assess.TagRef // the row being read
}

func newTagRead(link TagLink, ids []string) *tagRead {
	r := &tagRead{out: make(map[string][]assess.TagRef, len(ids)),
		sql: `SELECT l.` + link.column + `, t.id, t.name, t.color FROM ` + IDsJoin + ` JOIN ` + link.table + ` l ON l.` + link.column + ` = ids.id
		JOIN tags t ON t.id = l.tag_id`}
	for _, id := range ids {
		r.out[id] = []assess.TagRef{}
	}
	return r
}

func (r *tagRead) dest() []any      { return []any{&r.tag.ID, &r.tag.Name, &r.tag.Color} }
func (r *tagRead) add(owner string) { r.out[owner] = append(r.out[owner], r.tag) }

// sort orders each record's tags by name (CompareFolded), as PostgreSQL's lower(name)
// did, once the read has ended.
func (r *tagRead) sort() {
	for _, tags := range r.out {
		slices.SortFunc(tags, func(a, b assess.TagRef) int {
			if c := CompareFolded(a.Name, b.Name); c != 0 {
				return c
			}
			return strings.Compare(a.ID, b.ID)
		})
	}
}

// Tagged filters a list to records carrying tag tagID (a blank tagID does not filter);
// idColumn is the record's id in the list's query, e.g. "s.id".
func (l *List) Tagged(link TagLink, idColumn, tagID string) {
	if tagID == "" {
		return
	}
	l.Where(`EXISTS (SELECT 1 FROM ` + link.table + ` tl WHERE tl.` + link.column + ` = ` + idColumn + ` AND tl.tag_id = ` + l.Arg(tagID) + `)`)
}
