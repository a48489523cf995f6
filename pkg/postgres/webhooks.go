package postgres

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

var errWebhookNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such webhook."}

const webhookColumns = `id, name, description, url, event_types, active, consecutive_failures, disabled_at, version,
	created_by, created_at, updated_at`

// scanWebhook reads a webhook row and opens its URL.
func (db *DB) scanWebhook(ctx context.Context, r pgx.Row) (assess.Webhook, error) {
	var w assess.Webhook
	err := r.Scan(&w.ID, &w.Name, &w.Description, &w.URL, &w.EventTypes, &w.Active, &w.ConsecutiveFailures, &w.DisabledAt,
		&w.Version, &w.CreatedBy, &w.CreatedAt, &w.UpdatedAt)
	if err != nil {
		return w, err
	}
	w.CreatedAt, w.UpdatedAt, w.DisabledAt = w.CreatedAt.UTC(), w.UpdatedAt.UTC(), utcPtr(w.DisabledAt)
	w.URL, err = db.open(ctx, webhookURLField, w.ID, w.URL)
	return w, err
}

func (db *DB) findWebhook(ctx context.Context, q querier, id string, lock bool) (assess.Webhook, error) {
	if !assess.ValidID(assess.PrefixWebhook, id) {
		return assess.Webhook{}, errWebhookNotFound
	}
	sql := "SELECT " + webhookColumns + " FROM webhooks WHERE id = $1"
	if lock {
		sql += " FOR UPDATE"
	}
	w, err := db.scanWebhook(ctx, q.QueryRow(ctx, sql, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return w, errWebhookNotFound
	}
	return w, err
}

// webhookEvent reads a webhook as the data of an event; the URL loses its query.
func (db *DB) webhookEvent(ctx context.Context, tx pgx.Tx, id string, typ assess.EventName) (assess.NewEvent, error) {
	w, err := db.findWebhook(ctx, tx, id, false)
	if err != nil {
		return assess.NewEvent{}, err
	}
	return webhookEventOf(typ, w), nil
}

func webhookEventOf(typ assess.EventName, w assess.Webhook) assess.NewEvent {
	w.URL = redactedURL(w.URL)
	return assess.NewEvent{Type: typ, Data: w, Summary: w.Name, Link: "/admin/webhooks?id=" + w.ID}
}

// FindWebhooks implements assess.WebhookService, newest first.
func (db *DB) FindWebhooks(ctx context.Context, cursor string, limit int) ([]assess.Webhook, string, error) {
	after, err := decodeIDCursor(cursor, assess.PrefixWebhook)
	if err != nil {
		return nil, "", err
	}
	limit = pageLimit(limit)
	rows, err := db.pool.Query(ctx, "SELECT "+webhookColumns+" FROM webhooks WHERE id < $1 ORDER BY id DESC LIMIT $2", after, limit+1)
	if err != nil {
		return nil, "", err
	}
	ws, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.Webhook, error) { return db.scanWebhook(ctx, r) })
	if err != nil {
		return nil, "", err
	}
	ws, next := pageByID(ws, limit, func(w assess.Webhook) string { return w.ID })
	return ws, next, nil
}

// FindWebhook implements assess.WebhookService.
func (db *DB) FindWebhook(ctx context.Context, id string) (assess.Webhook, error) {
	return db.findWebhook(ctx, db.pool, id, false)
}

// newWebhookSecret returns a signing secret in the Standard Webhooks format.
func newWebhookSecret() (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(raw), nil
}

// sealWebhook seals a webhook's URL and secret under its id.
func (db *DB) sealWebhook(ctx context.Context, id, url, secret string) (sealedURL, sealedSecret string, err error) {
	if url != "" {
		if sealedURL, err = db.keys.Seal(ctx, webhookURLField.AAD(id), []byte(url)); err != nil {
			return "", "", err
		}
	}
	if secret != "" {
		sealedSecret, err = db.keys.Seal(ctx, webhookSecretField.AAD(id), []byte(secret))
	}
	return sealedURL, sealedSecret, err
}

// CreateWebhook implements assess.WebhookService.
func (db *DB) CreateWebhook(ctx context.Context, nw assess.NewWebhook, actor assess.Actor) (assess.Webhook, string, error) {
	name, err := checkName(nw.Name)
	if err != nil {
		return assess.Webhook{}, "", err
	}
	filter, err := assess.ValidateEventFilter("eventTypes", nw.EventTypes)
	if err != nil {
		return assess.Webhook{}, "", err
	}
	u, err := checkOutboundURL("url", nw.URL, db.delivery.AllowNetworks)
	if err != nil {
		return assess.Webhook{}, "", err
	}
	secret, err := newWebhookSecret()
	if err != nil {
		return assess.Webhook{}, "", err
	}
	now := db.now()
	id := assess.NewID(assess.PrefixWebhook, now)
	sealedURL, sealedSecret, err := db.sealWebhook(ctx, id, u.String(), secret)
	if err != nil {
		return assess.Webhook{}, "", err
	}
	var w assess.Webhook
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO webhooks (id, name, description, url, secret, event_types, active, created_by, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`, id, name, strings.TrimSpace(nw.Description), sealedURL, sealedSecret,
			filter, nw.Active == nil || *nw.Active, actorID(actor), now); err != nil {
			return err
		}
		if w, err = db.findWebhook(ctx, tx, id, false); err != nil {
			return err
		}
		return db.auditAndEmit(ctx, tx, actor, "webhook.created", "webhook", id, map[string]any{"name": name, "eventTypes": filter},
			webhookEventOf(assess.EventWebhookCreated, w))
	})
	if err != nil {
		return assess.Webhook{}, "", err
	}
	return w, secret, nil
}

// auditAndEmit writes the audit row of a change and emits its event.
func (db *DB) auditAndEmit(ctx context.Context, tx pgx.Tx, actor assess.Actor, action assess.AuditAction, targetType, id string, details map[string]any, ev assess.NewEvent) error {
	if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: action, TargetType: targetType, TargetID: id, Details: details}); err != nil {
		return err
	}
	_, err := db.emit(ctx, tx, actor, ev)
	return err
}

// webhookChanges is a checked WebhookUpdate.
type webhookChanges struct {
	name, description, sealedURL *string
	filter                       *[]string
}

func (db *DB) checkWebhookUpdate(ctx context.Context, id string, upd assess.WebhookUpdate) (webhookChanges, error) {
	var c webhookChanges
	if upd.Name != nil {
		name, err := checkName(*upd.Name)
		if err != nil {
			return c, err
		}
		c.name = &name
	}
	if upd.Description != nil {
		d := strings.TrimSpace(*upd.Description)
		c.description = &d
	}
	if upd.EventTypes != nil {
		f, err := assess.ValidateEventFilter("eventTypes", *upd.EventTypes)
		if err != nil {
			return c, err
		}
		c.filter = &f
	}
	if upd.URL != nil {
		u, err := checkOutboundURL("url", *upd.URL, db.delivery.AllowNetworks)
		if err != nil {
			return c, err
		}
		sealed, _, err := db.sealWebhook(ctx, id, u.String(), "")
		if err != nil {
			return c, err
		}
		c.sealedURL = &sealed
	}
	return c, nil
}

// UpdateWebhook implements assess.WebhookService with optimistic concurrency. Setting
// active to true clears the failure count and the automatic switch-off.
func (db *DB) UpdateWebhook(ctx context.Context, id string, upd assess.WebhookUpdate, actor assess.Actor) (assess.Webhook, error) {
	if !assess.ValidID(assess.PrefixWebhook, id) {
		return assess.Webhook{}, errWebhookNotFound
	}
	c, err := db.checkWebhookUpdate(ctx, id, upd)
	if err != nil {
		return assess.Webhook{}, err
	}
	var w assess.Webhook
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		before, err := db.findWebhook(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if before.Version != upd.Version {
			return versionConflict(before.Version)
		}
		if _, err := tx.Exec(ctx, `UPDATE webhooks SET name = coalesce($2, name), description = coalesce($3, description),
			url = coalesce($4, url), event_types = coalesce($5, event_types), active = coalesce($6, active),
			version = version + 1, updated_at = $7`+reenableSQL(upd.Active)+` WHERE id = $1`,
			id, c.name, c.description, c.sealedURL, c.filter, upd.Active, db.now()); err != nil {
			return err
		}
		if w, err = db.findWebhook(ctx, tx, id, false); err != nil {
			return err
		}
		return db.auditAndEmit(ctx, tx, actor, "webhook.updated", "webhook", id, map[string]any{"changes": webhookAuditChanges(upd)},
			webhookEventOf(assess.EventWebhookUpdated, w))
	})
	return w, err
}

// webhookAuditChanges lists the changed fields; the URL only as changed (it is sealed).
func webhookAuditChanges(upd assess.WebhookUpdate) map[string]any {
	m := map[string]any{}
	if upd.Name != nil {
		m["name"] = *upd.Name
	}
	if upd.Description != nil {
		m["description"] = *upd.Description
	}
	if upd.URL != nil {
		m["url"] = "changed"
	}
	if upd.EventTypes != nil {
		m["eventTypes"] = *upd.EventTypes
	}
	if upd.Active != nil {
		m["active"] = *upd.Active
	}
	return m
}

// RotateWebhookSecret implements assess.WebhookService: the old secret stops signing at once.
func (db *DB) RotateWebhookSecret(ctx context.Context, id string, actor assess.Actor) (assess.Webhook, string, error) {
	if !assess.ValidID(assess.PrefixWebhook, id) {
		return assess.Webhook{}, "", errWebhookNotFound
	}
	secret, err := newWebhookSecret()
	if err != nil {
		return assess.Webhook{}, "", err
	}
	_, sealed, err := db.sealWebhook(ctx, id, "", secret)
	if err != nil {
		return assess.Webhook{}, "", err
	}
	var w assess.Webhook
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE webhooks SET secret = $2, version = version + 1, updated_at = $3 WHERE id = $1", id, sealed, db.now())
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return errWebhookNotFound
		}
		if w, err = db.findWebhook(ctx, tx, id, false); err != nil {
			return err
		}
		return db.auditAndEmit(ctx, tx, actor, "webhook.secret_rotated", "webhook", id, nil, webhookEventOf(assess.EventWebhookUpdated, w))
	})
	if err != nil {
		return assess.Webhook{}, "", err
	}
	return w, secret, nil
}

// DeleteWebhook implements assess.WebhookService. Its deliveries go with it, and global
// rules stop naming it.
func (db *DB) DeleteWebhook(ctx context.Context, id string, actor assess.Actor) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		w, err := db.findWebhook(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM webhooks WHERE id = $1", id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE notification_rules SET webhook_ids = array_remove(webhook_ids, $1), version = version + 1,
			updated_at = $2 WHERE $1 = ANY (webhook_ids)`, id, db.now()); err != nil {
			return err
		}
		return db.auditAndEmit(ctx, tx, actor, "webhook.deleted", "webhook", id, map[string]any{"name": w.Name},
			webhookEventOf(assess.EventWebhookDeleted, w))
	})
}

// TestWebhook implements assess.WebhookService; with webhooks switched off it is a 422.
func (db *DB) TestWebhook(ctx context.Context, id string, actor assess.Actor) (assess.Delivery, error) {
	if !db.delivery.WebhooksEnabled {
		return assess.Delivery{}, errChannelDisabled
	}
	var d assess.Delivery
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		w, err := db.findWebhook(ctx, tx, id, false)
		if err != nil {
			return err
		}
		d, err = db.testDelivery(ctx, tx, webhookDestinations(db), newDelivery{Channel: assess.ChannelWebhook, WebhookID: id,
			DedupeKey: "webhook:" + id}, assess.ChannelWebhook, w.Name, actor)
		if err != nil {
			return fmt.Errorf("test webhook: %w", err)
		}
		return nil
	})
	return d, err
}

var _ assess.WebhookService = (*DB)(nil)
