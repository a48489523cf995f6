package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// FindAudit implements assess.AuditService: filters in SQL, keyset pagination on the
// identity column (newest first), so any page costs the same.
func (db *DB) FindAudit(ctx context.Context, f assess.AuditFilter) ([]assess.AuditRecord, string, error) {
	var where []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	if f.Cursor != "" {
		id, err := strconv.ParseInt(f.Cursor, 10, 64)
		if err != nil || id <= 0 {
			return nil, "", &assess.Error{Code: assess.ECodeValidation, Message: "The cursor is not valid.",
				Details: []assess.Detail{{Field: "cursor", Code: "invalid", Message: "Use nextCursor from the previous page."}}}
		}
		add("id < $%d", id)
	}
	if prefix, ok := strings.CutSuffix(f.Action, "."); ok && prefix != "" {
		add("starts_with(action, $%d)", prefix+".")
	} else if f.Action != "" {
		add("action = $%d", f.Action)
	}
	if f.Actor != "" {
		add("actor = $%d", f.Actor)
	}
	if f.TargetType != "" {
		add("target_type = $%d", f.TargetType)
	}
	if f.TargetID != "" {
		add("target_id = $%d", f.TargetID)
	}
	if !f.From.IsZero() {
		add("occurred_at >= $%d", f.From)
	}
	if !f.To.IsZero() {
		add("occurred_at < $%d", f.To)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	q := "SELECT id, occurred_at, actor, action, target_type, target_id, details, request_id, ip FROM audit_log"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += fmt.Sprintf(" ORDER BY id DESC LIMIT %d", limit+1)
	rows, err := db.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, "", err
	}
	var ids []int64
	recs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.AuditRecord, error) {
		var a assess.AuditRecord
		var id int64
		err := r.Scan(&id, &a.OccurredAt, &a.Actor, &a.Action, &a.TargetType, &a.TargetID, &a.Details, &a.RequestID, &a.IP)
		ids = append(ids, id)
		a.ID = strconv.FormatInt(id, 10)
		a.OccurredAt = a.OccurredAt.UTC()
		return a, err
	})
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(recs) > limit {
		recs, next = recs[:limit], strconv.FormatInt(ids[limit-1], 10)
	}
	return recs, next, nil
}

var _ assess.AuditService = (*DB)(nil)
