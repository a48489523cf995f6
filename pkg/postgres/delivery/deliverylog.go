package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
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
	d.NextAttemptAt, d.CompletedAt = postgres.UTCPtr(d.NextAttemptAt), postgres.UTCPtr(d.CompletedAt)
	return d, err
}

// deliveryScope is the SQL condition selecting the deliveries of a log (kind, and the
// destination when not empty); args continue after the given ones.
func deliveryScope(kind, destinationID string, args []any) (string, []any, error) {
	channels, err := assess.DeliveryLogChannels(kind)
	if err != nil {
		return "", nil, err
	}
	args = append(args, channels)
	cond := fmt.Sprintf("d.channel = ANY ($%d)", len(args))
	if destinationID != "" {
		args = append(args, destinationID)
		cond += fmt.Sprintf(" AND %s = $%d", destinationColumn(kind), len(args))
	}
	return cond, args, nil
}

// destinationColumn is the column naming the destination of a log's deliveries. E-mails
// have none: the e-mail log of a destination is empty.
func destinationColumn(kind string) string {
	if kind == assess.DeliveryKindChat {
		return "d.chat_id"
	}
	return "d.webhook_id"
}

// FindDeliveries implements assess.DeliveryLogService: newest first, on the index of the
// destination (or of the channel).
func (s *DeliveryLogService) FindDeliveries(ctx context.Context, f assess.DeliveryFilter) (assess.Page[assess.Delivery], error) {
	if err := f.Validate(); err != nil {
		return assess.Page[assess.Delivery]{}, err
	}
	if err := s.requireDestination(ctx, f.Kind, f.DestinationID); err != nil {
		return assess.Page[assess.Delivery]{}, err
	}
	channels, _ := assess.DeliveryLogChannels(f.Kind) // checked by Validate
	l := postgres.NewList("deliveries", "SELECT "+deliveryColumns+" FROM deliveries d", postgres.NewestFirst("d.id"))
	l.Where("d.channel = ANY (" + l.Arg(channels) + ")")
	postgres.Equal(l, destinationColumn(f.Kind), f.DestinationID)
	postgres.Equal(l, "d.status", f.Status)
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanDelivery, func(d assess.Delivery) []any { return []any{d.ID} })
}

// requireDestination answers not_found for a log of a destination that does not exist.
func (s *DeliveryLogService) requireDestination(ctx context.Context, kind, id string) error {
	if id == "" {
		return nil
	}
	var exists bool
	var err error
	switch {
	case kind == assess.DeliveryKindWebhook && assess.ValidID(assess.PrefixWebhook, id):
		err = s.db.Pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM webhooks WHERE id = $1)", id).Scan(&exists)
	case kind == assess.DeliveryKindChat && assess.ValidID(assess.PrefixChat, id):
		err = s.db.Pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM chat_destinations WHERE id = $1)", id).Scan(&exists)
	}
	if err == nil && !exists {
		return &assess.Error{Code: assess.ECodeNotFound, Message: "No such destination."}
	}
	return postgres.DBError(err)
}

// FindDelivery implements assess.DeliveryLogService: the delivery with its attempt log,
// and for webhooks the envelope as sent.
func (s *DeliveryLogService) FindDelivery(ctx context.Context, kind, destinationID, id string) (assess.Delivery, error) {
	d, err := findDelivery(ctx, s.db.Pool, kind, destinationID, id, false)
	if err != nil {
		return d, err
	}
	if d.AttemptLog, err = attemptLog(ctx, s.db.Pool, id); err != nil {
		return d, postgres.DBError(err)
	}
	if d.Channel == assess.ChannelWebhook && d.EventID != "" {
		e, err := postgres.LoadEvent(ctx, s.db.Pool, d.EventID)
		if err != nil {
			return d, postgres.DBError(err)
		}
		env, err := e.Envelope()
		if err != nil {
			return d, err
		}
		d.Payload = json.RawMessage(env)
	}
	return d, nil
}

func findDelivery(ctx context.Context, q postgres.Querier, kind, destinationID, id string, lock bool) (assess.Delivery, error) {
	if !assess.ValidID(assess.PrefixDelivery, id) {
		return assess.Delivery{}, errDeliveryNotFound
	}
	cond, args, err := deliveryScope(kind, destinationID, []any{id})
	if err != nil {
		return assess.Delivery{}, err
	}
	sql := "SELECT " + deliveryColumns + " FROM deliveries d WHERE d.id = $1 AND " + cond
	if lock {
		// A row lock, not a version check: whoever changes the delivery's state next (a
		// worker recording an attempt) waits until this transaction ends.
		sql += " FOR UPDATE"
	}
	d, err := scanDelivery(q.QueryRow(ctx, sql, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return d, errDeliveryNotFound
	}
	return d, postgres.DBError(err)
}

func attemptLog(ctx context.Context, q postgres.Querier, id string) ([]assess.DeliveryAttempt, error) {
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
func (s *DeliveryLogService) Redeliver(ctx context.Context, kind, destinationID, id string, actor assess.Actor) (assess.Delivery, error) {
	var after assess.Delivery
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		d, err := findDelivery(ctx, tx, kind, destinationID, id, true)
		if err != nil {
			return err
		}
		if err := d.CheckRedeliver(); err != nil {
			return err
		}
		budget := s.db.MaxAttempts(d.Channel)
		if _, err := tx.Exec(ctx, `UPDATE deliveries SET status = $4, max_attempts = attempts + $2, next_attempt_at = NULL,
			completed_at = NULL, updated_at = $3 WHERE id = $1`, id, budget, tx.Now, assess.DeliveryPending); err != nil {
			return err
		}
		if err := s.db.InsertJobs(ctx, tx, []postgres.Queued{{ID: id, Channel: d.Channel, MaxAttempts: budget}}); err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeDeliveryRedelivered, postgres.Target{Type: "delivery", ID: id},
			map[string]any{"channel": d.Channel, "destination": d.DestinationID, "previousStatus": d.Status}, assess.NewEvent{}); err != nil {
			return err
		}
		after, err = findDelivery(ctx, tx, kind, destinationID, id, false)
		return err
	})
	return after, err
}

var _ assess.DeliveryLogService = (*DeliveryLogService)(nil)
