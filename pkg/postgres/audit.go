package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/assay-dev/assay/pkg/assess"
)

// Execer is what pool, connection and transaction have in common for writes.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// WriteAudit appends one row to the audit log.
func WriteAudit(ctx context.Context, q Execer, e assess.AuditEntry) error {
	s, err := auditStatement(e)
	if err != nil {
		return err
	}
	if _, err := q.Exec(ctx, s.sql, s.args...); err != nil {
		return fmt.Errorf("write audit row: %w", err)
	}
	return nil
}

// auditStatement is the statement appending e to the audit log (Tx.Record sends it with
// the change's event).
func auditStatement(e assess.AuditEntry) (statement, error) {
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	raw, err := json.Marshal(details)
	if err != nil {
		return statement{}, fmt.Errorf("audit details: %w", err)
	}
	actor := e.Actor.ID
	if actor == "" {
		actor = "unknown"
	}
	return statement{sql: `INSERT INTO audit_log (actor, action, target_type, target_id, details, request_id, ip, scope_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		args: []any{actor, e.Action, e.TargetType, e.TargetID, raw, e.Actor.RequestID, e.Actor.IP, e.ScopeID}}, nil
}
