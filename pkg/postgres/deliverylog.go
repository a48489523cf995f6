package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

var errDeliveryNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such delivery."}

const deliveryColumns = `d.id, coalesce(d.event_id, ''), d.event_type, d.channel, coalesce(d.webhook_id, d.chat_id, ''),
	d.recipient, d.subject, d.status, d.attempts, d.max_attempts, coalesce(d.last_status, 0), d.last_error,
	d.next_attempt_at, d.created_at, d.updated_at, d.completed_at`

func scanDelivery(r pgx.Row) (assess.Delivery, error) {
	var d assess.Delivery
	err := r.Scan(&d.ID, &d.EventID, &d.EventType, &d.Channel, &d.DestinationID, &d.Recipient, &d.Subject, &d.Status,
		&d.Attempts, &d.MaxAttempts, &d.LastStatus, &d.LastError, &d.NextAttemptAt, &d.CreatedAt, &d.UpdatedAt, &d.CompletedAt)
	d.CreatedAt, d.UpdatedAt = d.CreatedAt.UTC(), d.UpdatedAt.UTC()
	d.NextAttemptAt, d.CompletedAt = utcPtr(d.NextAttemptAt), utcPtr(d.CompletedAt)
	return d, err
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// deliveryScope is the SQL condition selecting the deliveries of a log (kind, and the
// destination when not empty); args continue after the given ones.
func deliveryScope(kind, destinationID string, args []any) (string, []any, error) {
	channels, err := kindChannels(kind)
	if err != nil {
		return "", nil, err
	}
	args = append(args, channels)
	cond := fmt.Sprintf("d.channel = ANY ($%d)", len(args))
	if destinationID != "" {
		args = append(args, destinationID)
		cond += fmt.Sprintf(" AND coalesce(d.webhook_id, d.chat_id) = $%d", len(args))
	}
	return cond, args, nil
}

// FindDeliveries implements assess.DeliveryLogService: newest first, keyset on the id.
func (db *DB) FindDeliveries(ctx context.Context, f assess.DeliveryFilter) ([]assess.Delivery, string, error) {
	if err := db.requireDestination(ctx, f.Kind, f.DestinationID); err != nil {
		return nil, "", err
	}
	after, err := decodeIDCursor(f.Cursor, assess.PrefixDelivery)
	if err != nil {
		return nil, "", err
	}
	limit := pageLimit(f.Limit)
	cond, args, err := deliveryScope(f.Kind, f.DestinationID, []any{after})
	if err != nil {
		return nil, "", err
	}
	if f.Status != "" {
		if !slices.Contains([]string{assess.DeliveryPending, assess.DeliveryRetrying, assess.DeliverySucceeded,
			assess.DeliveryFailed, assess.DeliverySkipped}, f.Status) {
			return nil, "", &assess.Error{Code: assess.ECodeValidation, Message: "Unknown delivery status " + f.Status + ".",
				Details: []assess.Detail{{Field: "status", Code: "invalid"}}}
		}
		args = append(args, f.Status)
		cond += fmt.Sprintf(" AND d.status = $%d", len(args))
	}
	rows, err := db.pool.Query(ctx, fmt.Sprintf("SELECT %s FROM deliveries d WHERE d.id < $1 AND %s ORDER BY d.id DESC LIMIT %d",
		deliveryColumns, cond, limit+1), args...)
	if err != nil {
		return nil, "", err
	}
	ds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.Delivery, error) { return scanDelivery(r) })
	if err != nil {
		return nil, "", err
	}
	ds, next := pageByID(ds, limit, func(d assess.Delivery) string { return d.ID })
	return ds, next, nil
}

// requireDestination answers not_found for a log of a destination that does not exist.
func (db *DB) requireDestination(ctx context.Context, kind, id string) error {
	if id == "" {
		return nil
	}
	var exists bool
	var err error
	switch {
	case kind == assess.DeliveryKindWebhook && assess.ValidID(assess.PrefixWebhook, id):
		err = db.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM webhooks WHERE id = $1)", id).Scan(&exists)
	case kind == assess.DeliveryKindChat && assess.ValidID(assess.PrefixChat, id):
		err = db.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM chat_destinations WHERE id = $1)", id).Scan(&exists)
	}
	if err == nil && !exists {
		return &assess.Error{Code: assess.ECodeNotFound, Message: "No such destination."}
	}
	return err
}

// FindDelivery implements assess.DeliveryLogService: the delivery with its attempt log,
// and for webhooks the envelope as sent.
func (db *DB) FindDelivery(ctx context.Context, kind, destinationID, id string) (assess.Delivery, error) {
	d, err := findDelivery(ctx, db.pool, kind, destinationID, id, false)
	if err != nil {
		return d, err
	}
	if d.AttemptLog, err = attemptLog(ctx, db.pool, id); err != nil {
		return d, err
	}
	if d.Channel == assess.ChannelWebhook && d.EventID != "" {
		e, err := loadEvent(ctx, db.pool, d.EventID)
		if err != nil {
			return d, err
		}
		env, err := e.envelope()
		if err != nil {
			return d, err
		}
		d.Payload = json.RawMessage(env)
	}
	return d, nil
}

func findDelivery(ctx context.Context, q querier, kind, destinationID, id string, lock bool) (assess.Delivery, error) {
	if !assess.ValidID(assess.PrefixDelivery, id) {
		return assess.Delivery{}, errDeliveryNotFound
	}
	cond, args, err := deliveryScope(kind, destinationID, []any{id})
	if err != nil {
		return assess.Delivery{}, err
	}
	sql := "SELECT " + deliveryColumns + " FROM deliveries d WHERE d.id = $1 AND " + cond
	if lock {
		sql += " FOR UPDATE"
	}
	d, err := scanDelivery(q.QueryRow(ctx, sql, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return d, errDeliveryNotFound
	}
	return d, err
}

func attemptLog(ctx context.Context, q querier, id string) ([]assess.DeliveryAttempt, error) {
	rows, err := q.Query(ctx, `SELECT attempt, started_at, duration_ms, outcome, coalesce(http_status, 0), error, response
		FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, id)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.DeliveryAttempt, error) {
		var a assess.DeliveryAttempt
		var ms int64
		err := r.Scan(&a.Attempt, &a.StartedAt, &ms, &a.Outcome, &a.HTTPStatus, &a.Error, &a.Response)
		a.StartedAt, a.Duration = a.StartedAt.UTC(), (time.Duration(ms) * time.Millisecond).String()
		return a, err
	})
}

// Redeliver implements assess.DeliveryLogService. The delivery keeps its id (so the
// webhook-id) and its attempt log; it gets a fresh attempt budget and a new job.
func (db *DB) Redeliver(ctx context.Context, kind, destinationID, id string, actor assess.Actor) (assess.Delivery, error) {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		d, err := findDelivery(ctx, tx, kind, destinationID, id, true)
		if err != nil {
			return err
		}
		if d.Status == assess.DeliveryPending || d.Status == assess.DeliveryRetrying {
			return &assess.Error{Code: assess.ECodeConflict, Message: "The delivery is still " + d.Status + "; redeliver it once it has finished.",
				Details: []assess.Detail{{Field: "status", Code: d.Status}}}
		}
		budget := db.maxAttempts(d.Channel)
		if _, err := tx.Exec(ctx, `UPDATE deliveries SET status = 'pending', max_attempts = attempts + $2, next_attempt_at = NULL,
			completed_at = NULL, updated_at = $3 WHERE id = $1`, id, budget, db.now()); err != nil {
			return err
		}
		if err := db.insertJobs(ctx, tx, []queued{{ID: id, Channel: d.Channel, MaxAttempts: budget}}); err != nil {
			return err
		}
		return writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "delivery.redelivered", TargetType: "delivery", TargetID: id,
			Details: map[string]any{"channel": d.Channel, "destination": d.DestinationID, "previousStatus": d.Status}})
	})
	if err != nil {
		return assess.Delivery{}, err
	}
	return findDelivery(ctx, db.pool, kind, destinationID, id, false)
}

var _ assess.DeliveryLogService = (*DB)(nil)
