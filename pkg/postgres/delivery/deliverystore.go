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

// LoadDelivery implements assess.DeliveryStore. It opens the secrets the attempt needs
// (webhook URL and secret, chat URL, e-mail parameters) into the task, and sets Skip
// instead when nothing is to be sent: the delivery is already final, its channel is
// switched off, or its destination is inactive (tests are sent to inactive destinations).
// A delivery that no longer exists (its destination was deleted) is not_found.
func (s *DeliveryStore) LoadDelivery(ctx context.Context, id string) (assess.DeliveryTask, error) {
	var t assess.DeliveryTask
	if !assess.ValidID(assess.PrefixDelivery, id) {
		return t, errDeliveryNotFound
	}
	var template, params string
	d, err := scanDelivery(scanExtra(s.db.Pool.QueryRow(ctx, "SELECT "+deliveryColumns+
		", d.template, coalesce(d.params, '') FROM deliveries d WHERE d.id = $1", id), &template, &params))
	if errors.Is(err, pgx.ErrNoRows) {
		return t, errDeliveryNotFound
	}
	if err != nil {
		return t, postgres.DBError(err)
	}
	t.Delivery = d
	if err := fillEvent(ctx, s.db, &t); err != nil {
		return t, err
	}
	if d.Status == assess.DeliverySucceeded || d.Status == assess.DeliveryFailed || d.Status == assess.DeliverySkipped {
		t.Skip = "The delivery is already " + d.Status + "."
		return t, nil
	}
	switch d.Channel {
	case assess.ChannelWebhook:
		err = loadWebhookTarget(ctx, s.db, &t)
	case assess.ChannelEmail:
		err = loadEmailTarget(ctx, s.db, &t, template, params)
	default:
		err = loadChatTarget(ctx, s.db, &t)
	}
	return t, postgres.DBError(err)
}

// rowWithExtra scans the delivery columns followed by extra destinations.
type rowWithExtra struct {
	row   pgx.Row
	extra []any
}

func scanExtra(r pgx.Row, extra ...any) pgx.Row { return rowWithExtra{r, extra} }

func (r rowWithExtra) Scan(dest ...any) error { return r.row.Scan(append(dest, r.extra...)...) }

// fillEvent copies what the channels render from the delivery's event into the task.
func fillEvent(ctx context.Context, db *postgres.DB, t *assess.DeliveryTask) error {
	if t.Delivery.EventID == "" {
		return nil
	}
	e, err := postgres.LoadEvent(ctx, db.Pool, t.Delivery.EventID)
	if err != nil {
		return fmt.Errorf("load event of delivery %s: %w", t.Delivery.ID, err)
	}
	if t.Envelope, err = e.Envelope(); err != nil {
		return err
	}
	t.Summary, t.Link, t.ActorName, t.Title = e.Summary, e.Link, e.ActorName, e.Title
	if typ, ok := assess.LookupEventType(assess.EventName(e.Type)); ok && t.Title == "" { // an event recorded before titles were
		t.Title = typ.Title
	}
	return nil
}

func loadWebhookTarget(ctx context.Context, db *postgres.DB, t *assess.DeliveryTask) error {
	var url, secret string
	var active bool
	err := db.Pool.QueryRow(ctx, "SELECT url, secret, active FROM webhooks WHERE id = $1", t.Delivery.DestinationID).Scan(&url, &secret, &active)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		t.Skip = "The webhook was deleted."
		return nil
	case err != nil:
		return err
	case !db.Delivery.WebhooksEnabled:
		t.Skip = "Webhooks are switched off (WEBHOOK_ENABLED)."
		return nil
	case !active && t.Delivery.EventType != string(assess.EventChannelTest):
		t.Skip = "The webhook is inactive."
		return nil
	}
	if t.URL, err = open(ctx, db, postgres.WebhookURLField, t.Delivery.DestinationID, url); err != nil {
		return err
	}
	t.Secret, err = open(ctx, db, postgres.WebhookSecretField, t.Delivery.DestinationID, secret)
	return err
}

func loadChatTarget(ctx context.Context, db *postgres.DB, t *assess.DeliveryTask) error {
	var url string
	var active bool
	err := db.Pool.QueryRow(ctx, "SELECT url, active FROM chat_destinations WHERE id = $1", t.Delivery.DestinationID).Scan(&url, &active)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		t.Skip = "The chat destination was deleted."
		return nil
	case err != nil:
		return err
	case !db.ChatPlatformOn(t.Delivery.Channel):
		t.Skip = "The " + t.Delivery.Channel + " channel is switched off."
		return nil
	case !active && t.Delivery.EventType != string(assess.EventChannelTest):
		t.Skip = "The chat destination is inactive."
		return nil
	}
	t.URL, err = open(ctx, db, postgres.ChatURLField, t.Delivery.DestinationID, url)
	return err
}

func loadEmailTarget(ctx context.Context, db *postgres.DB, t *assess.DeliveryTask, template, sealed string) error {
	on, err := db.EmailOn(ctx, db.Pool)
	if err != nil || !on {
		t.Skip = "E-mail is switched off."
		return err
	}
	t.Email = &assess.EmailMessage{To: t.Delivery.Recipient, Template: template}
	if sealed == "" {
		return nil
	}
	raw, err := db.Keys.Open(ctx, postgres.EmailParamsField.AAD(t.Delivery.ID), sealed)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, &t.Email.Params)
}

// open opens a sealed column value of row id.
func open(ctx context.Context, db *postgres.DB, f postgres.EncryptedField, id, stored string) (string, error) {
	plain, err := db.Keys.Open(ctx, f.AAD(id), stored)
	return string(plain), err
}

// deliveryState is what recording an attempt needs of a delivery row.
type deliveryState struct {
	Channel, EventType string
	Attempts           int
	WebhookID, ChatID  *string
}

// RecordDeliveryAttempt implements assess.DeliveryStore. The attempt is numbered after
// the ones already logged; a success or a last failure makes the delivery final.
// Deliveries of tests leave the destination's failure count alone.
func (s *DeliveryStore) RecordDeliveryAttempt(ctx context.Context, id string, o assess.DeliveryOutcome) error {
	return s.db.Change(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
		var st deliveryState
		// The worker's claim on the row, not a version check: attempts of one delivery are
		// numbered one after the other even if two workers report at once.
		err := tx.QueryRow(ctx, `SELECT channel, event_type, attempts, webhook_id, chat_id FROM deliveries WHERE id = $1 FOR UPDATE`, id).
			Scan(&st.Channel, &st.EventType, &st.Attempts, &st.WebhookID, &st.ChatID)
		if errors.Is(err, pgx.ErrNoRows) {
			return errDeliveryNotFound
		}
		if err != nil {
			return err
		}
		if err := logAttempt(ctx, tx, id, st.Attempts+1, o); err != nil {
			return err
		}
		if st.EventType == string(assess.EventChannelTest) || (!o.Succeeded && !o.Final) {
			return nil
		}
		switch {
		case st.WebhookID != nil:
			return countOutcome(ctx, s.db, tx, webhookDestinations(s.db), *st.WebhookID, o.Succeeded)
		case st.ChatID != nil:
			return countOutcome(ctx, s.db, tx, chatDestinations(), *st.ChatID, o.Succeeded)
		}
		return nil
	})
}

// logAttempt appends the attempt and moves the delivery to its next state.
func logAttempt(ctx context.Context, tx *postgres.Tx, id string, attempt int, o assess.DeliveryOutcome) error {
	outcome := assess.DeliverySucceeded
	if !o.Succeeded {
		outcome = assess.DeliveryFailed
	}
	var httpStatus *int
	if o.HTTPStatus != 0 {
		httpStatus = &o.HTTPStatus
	}
	if _, err := tx.Exec(ctx, `INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, outcome, http_status, error, response)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, id, attempt, o.StartedAt, o.Duration.Milliseconds(), outcome, httpStatus,
		postgres.TruncateUTF8(o.Error, 2000), postgres.TruncateUTF8(o.Response, 1024)); err != nil {
		return err
	}
	now := tx.Now
	status, next, completed := assess.DeliveryRetrying, &o.NextAttemptAt, (*time.Time)(nil)
	if o.NextAttemptAt.IsZero() {
		next = nil
	}
	if o.Succeeded || o.Final {
		status, next, completed = outcome, nil, &now
	}
	_, err := tx.Exec(ctx, `UPDATE deliveries SET attempts = $2, status = $3, last_status = $4, last_error = $5,
		next_attempt_at = $6, completed_at = $7, updated_at = $8 WHERE id = $1`,
		id, attempt, status, httpStatus, postgres.TruncateUTF8(o.Error, 2000), next, completed, now)
	return err
}

// SkipDelivery implements assess.DeliveryStore; a delivery already final stays as it is.
func (s *DeliveryStore) SkipDelivery(ctx context.Context, id, reason string) error {
	return s.db.Change(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE deliveries SET status = $4, last_error = $2, next_attempt_at = NULL,
			completed_at = $3, updated_at = $3 WHERE id = $1 AND status IN ($5, $6)`, id, postgres.TruncateUTF8(reason, 2000), tx.Now,
			assess.DeliverySkipped, assess.DeliveryPending, assess.DeliveryRetrying)
		return err
	})
}

// PurgeDeliveries implements assess.DeliveryStore.
func (s *DeliveryStore) PurgeDeliveries(ctx context.Context, kind string, olderThan time.Time) (int64, error) {
	channels, err := assess.DeliveryLogChannels(kind)
	if err != nil {
		return 0, err
	}
	var n int64
	err = s.db.Change(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM deliveries WHERE channel = ANY ($1) AND completed_at < $2
			AND status IN ('succeeded', 'failed', 'skipped')`, channels, olderThan)
		if err != nil {
			return err
		}
		n = tag.RowsAffected()
		_, err = tx.Exec(ctx, `DELETE FROM events e WHERE e.occurred_at < $1
			AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)
			AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.event_id = e.id)`, olderThan)
		return err
	})
	return n, err
}

// PurgeReadNotifications implements assess.DeliveryStore. Unread notifications stay,
// however old: nobody has seen them yet.
func (s *DeliveryStore) PurgeReadNotifications(ctx context.Context, olderThan time.Time) (int64, error) {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM notifications WHERE read_at IS NOT NULL AND created_at < $1`, olderThan)
	if err != nil {
		return 0, fmt.Errorf("purge read notifications: %w", postgres.DBError(err))
	}
	return tag.RowsAffected(), nil
}

var _ assess.DeliveryStore = (*DeliveryStore)(nil)
