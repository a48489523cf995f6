package postgres

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// destinationKind is what webhooks and chat destinations share: the failure count,
// automatic switch-off, re-enabling and the test delivery.
type destinationKind struct {
	table    string           // webhooks or chat_destinations
	noun     string           // webhook or chat: audit target type and action prefix
	logKind  string           // the delivery log (assess.DeliveryKind*)
	disabled assess.EventName // the event type of an automatic switch-off
	// event reads the destination inside the transaction as the event of typ.
	event func(ctx context.Context, tx pgx.Tx, id string, typ assess.EventName) (assess.NewEvent, error)
}

func webhookDestinations(db *DB) destinationKind {
	return destinationKind{table: "webhooks", noun: "webhook", logKind: assess.DeliveryKindWebhook,
		disabled: assess.EventWebhookDisabled, event: db.webhookEvent}
}

func chatDestinations(db *DB) destinationKind {
	return destinationKind{table: "chat_destinations", noun: "chat", logKind: assess.DeliveryKindChat,
		disabled: assess.EventChatDisabled, event: db.chatEvent}
}

// countOutcome resets a destination's consecutive failures after a success, or counts a
// final failure and, at DELIVERY_DISABLE_AFTER_FAILURES, switches the destination off
// and emits channel.*.disabled as the system.
func (db *DB) countOutcome(ctx context.Context, tx pgx.Tx, k destinationKind, id string, succeeded bool) error {
	if succeeded {
		_, err := tx.Exec(ctx, "UPDATE "+k.table+" SET consecutive_failures = 0 WHERE id = $1 AND consecutive_failures <> 0", id)
		return err
	}
	var failures int
	var active bool
	err := tx.QueryRow(ctx, "UPDATE "+k.table+" SET consecutive_failures = consecutive_failures + 1 WHERE id = $1 RETURNING consecutive_failures, active", id).
		Scan(&failures, &active)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	limit := db.delivery.DisableAfterFailures
	if err != nil || limit <= 0 || failures < limit || !active {
		return err
	}
	now := db.now()
	if _, err := tx.Exec(ctx, "UPDATE "+k.table+" SET active = false, disabled_at = $2, version = version + 1, updated_at = $2 WHERE id = $1", id, now); err != nil {
		return err
	}
	if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: assess.SystemActor, Action: assess.AuditAction(k.noun + ".disabled"), TargetType: k.noun, TargetID: id,
		Details: map[string]any{"consecutiveFailures": failures}}); err != nil {
		return err
	}
	ev, err := k.event(ctx, tx, id, k.disabled)
	if err != nil {
		return err
	}
	_, err = db.emit(ctx, tx, assess.SystemActor, ev)
	return err
}

// reenableSQL is the SET clause of an update that sets active: switching a destination
// on (again) forgets its failures.
func reenableSQL(active *bool) string {
	if active == nil || !*active {
		return ""
	}
	return ", consecutive_failures = 0, disabled_at = NULL"
}

// testDelivery records a channel.test event and queues its delivery to one destination
// only, whatever its active flag and filter say.
func (db *DB) testDelivery(ctx context.Context, tx pgx.Tx, k destinationKind, d newDelivery, channel, name string, actor assess.Actor) (assess.Delivery, error) {
	destID := d.WebhookID + d.ChatID
	se, err := db.recordEvent(ctx, tx, actor, assess.NewEvent{Type: assess.EventChannelTest,
		Data: assess.ChannelTestMessage{DestinationID: destID, Channel: channel,
			Message: "This is a test message from Assay " + db.delivery.Version + "."},
		Summary: name, Link: destinationLink(k, destID)})
	if err != nil {
		return assess.Delivery{}, err
	}
	d.EventID, d.EventType = se.ID, se.Type
	ids, err := db.queueDeliveries(ctx, tx, []newDelivery{d})
	if err != nil {
		return assess.Delivery{}, err
	}
	if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: assess.AuditAction(k.noun + ".tested"), TargetType: k.noun, TargetID: destID,
		Details: map[string]any{"delivery": ids[0], "event": se.ID}}); err != nil {
		return assess.Delivery{}, err
	}
	return findDelivery(ctx, tx, k.logKind, destID, ids[0], false)
}

// destinationLink is the SPA path of a destination.
func destinationLink(k destinationKind, id string) string {
	if k.noun == "webhook" {
		return "/admin/webhooks?id=" + id
	}
	return "/admin/chat?id=" + id
}

// checkName trims and checks a destination or rule name.
func checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 200 {
		return "", &assess.Error{Code: assess.ECodeValidation, Message: "A name of 1–200 characters is required.",
			Details: []assess.Detail{{Field: "name", Code: "required", Message: "A name of 1–200 characters is required."}}}
	}
	return name, nil
}
