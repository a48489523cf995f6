package postgres

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// AuditNewestFirst orders the audit log on its identity column, newest first.
var AuditNewestFirst = SortOrder{Name: "newest", Keys: []SortKey{{Expr: "a.id", Typ: "bigint", Desc: true}}}

// auditSelect reads audit rows with the names people recognise, resolved in the same
// query (one join per name, never a query per row): the acting user's display name, or
// the label of a non-user actor (as actorName does for events), and the name of a user or
// role target. A user or role that no longer exists leaves the id to show.
const auditSelect = `SELECT a.id, a.occurred_at, a.actor, a.action, a.target_type, a.target_id, a.details, a.request_id, a.ip,
	CASE
		WHEN a.actor = 'system' THEN 'System'
		WHEN starts_with(a.actor, 'cli:') THEN 'Command line'
		WHEN a.actor IN ('', 'anonymous') THEN 'Anonymous'
		ELSE coalesce(nullif(au.display_name, ''), au.username, a.actor)
	END,
	coalesce(nullif(tu.display_name, ''), tu.username, tr.name, '')
FROM audit_log a
LEFT JOIN users au ON au.id = a.actor
LEFT JOIN users tu ON a.target_type = 'user' AND tu.id = a.target_id
LEFT JOIN roles tr ON a.target_type = 'role' AND tr.id = a.target_id`

func scanAuditRecord(r pgx.Row) (assess.AuditRecord, error) {
	var a assess.AuditRecord
	var id int64
	err := r.Scan(&id, &a.OccurredAt, &a.Actor, &a.Action, &a.TargetType, &a.TargetID, &a.Details, &a.RequestID, &a.IP,
		&a.ActorName, &a.TargetName)
	a.ID = strconv.FormatInt(id, 10)
	a.OccurredAt = a.OccurredAt.UTC()
	return a, err
}

// FindAudit implements assess.AuditService: filters in SQL, keyset pagination on the
// identity column (newest first), so any page costs the same. The actor filter matches
// the recorded actor or the id of the user with that username, so people filter by the
// name they know and ids keep working.
func (s *AuditService) FindAudit(ctx context.Context, f assess.AuditFilter) (assess.Page[assess.AuditRecord], error) {
	l := NewList("audit", auditSelect, AuditNewestFirst)
	if prefix, ok := strings.CutSuffix(f.Action, "."); ok && prefix != "" {
		l.Where("starts_with(a.action, " + l.Arg(prefix+".") + ")")
	} else {
		Equal(l, "a.action", f.Action)
	}
	if actor := strings.TrimSpace(f.Actor); actor != "" {
		p := l.Arg(actor)
		l.Where("(a.actor = " + p + " OR a.actor IN (SELECT id FROM users WHERE lower(username) = lower(" + p + ")))")
	}
	Equal(l, "a.target_type", f.TargetType)
	Equal(l, "a.target_id", f.TargetID)
	if !f.From.IsZero() {
		l.Where("a.occurred_at >= " + l.Arg(f.From))
	}
	if !f.To.IsZero() {
		l.Where("a.occurred_at < " + l.Arg(f.To))
	}
	return CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanAuditRecord, func(a assess.AuditRecord) []any { return []any{a.ID} })
}

var _ assess.AuditService = (*AuditService)(nil)
