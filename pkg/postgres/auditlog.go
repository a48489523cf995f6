package postgres

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// auditNewestFirst orders the audit log on its identity column, newest first.
var auditNewestFirst = sortOrder{name: "newest", keys: []sortKey{{expr: "id", typ: "bigint", desc: true}}}

func scanAuditRecord(r pgx.Row) (assess.AuditRecord, error) {
	var a assess.AuditRecord
	var id int64
	err := r.Scan(&id, &a.OccurredAt, &a.Actor, &a.Action, &a.TargetType, &a.TargetID, &a.Details, &a.RequestID, &a.IP)
	a.ID = strconv.FormatInt(id, 10)
	a.OccurredAt = a.OccurredAt.UTC()
	return a, err
}

// FindAudit implements assess.AuditService: filters in SQL, keyset pagination on the
// identity column (newest first), so any page costs the same.
func (s *AuditService) FindAudit(ctx context.Context, f assess.AuditFilter) (assess.Page[assess.AuditRecord], error) {
	l := newList("audit", "SELECT id, occurred_at, actor, action, target_type, target_id, details, request_id, ip FROM audit_log", auditNewestFirst)
	if prefix, ok := strings.CutSuffix(f.Action, "."); ok && prefix != "" {
		l.Where("starts_with(action, " + l.arg(prefix+".") + ")")
	} else {
		Equal(l, "action", f.Action)
	}
	Equal(l, "actor", f.Actor)
	Equal(l, "target_type", f.TargetType)
	Equal(l, "target_id", f.TargetID)
	if !f.From.IsZero() {
		l.Where("occurred_at >= " + l.arg(f.From))
	}
	if !f.To.IsZero() {
		l.Where("occurred_at < " + l.arg(f.To))
	}
	return collectPage(ctx, s.pool, l, f.PageRequest, scanAuditRecord, func(a assess.AuditRecord) []any { return []any{a.ID} })
}

var _ assess.AuditService = (*AuditService)(nil)
