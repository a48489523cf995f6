package postgres

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"

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

// findWebhook reads a webhook as the API shows it, also inside a transaction.
func (db *DB) findWebhook(ctx context.Context, q querier, id string) (assess.Webhook, error) {
	if !assess.ValidID(assess.PrefixWebhook, id) {
		return assess.Webhook{}, errWebhookNotFound
	}
	w, err := db.scanWebhook(ctx, q.QueryRow(ctx, "SELECT "+webhookColumns+" FROM webhooks WHERE id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return w, errWebhookNotFound
	}
	return w, dbError(err)
}

// webhookTarget names a webhook in the audit log.
func webhookTarget(id string) Target { return Target{Type: "webhook", ID: id} }

// FindWebhooks implements assess.WebhookService, newest first.
func (s *WebhookService) FindWebhooks(ctx context.Context, f assess.WebhookFilter) (assess.Page[assess.Webhook], error) {
	l := newList("webhooks", "SELECT "+webhookColumns+" FROM webhooks", newestFirst("id"))
	return collectPage(ctx, s.pool, l, f.PageRequest,
		func(r pgx.Row) (assess.Webhook, error) { return s.scanWebhook(ctx, r) },
		func(w assess.Webhook) []any { return []any{w.ID} })
}

// FindWebhook implements assess.WebhookService.
func (s *WebhookService) FindWebhook(ctx context.Context, id string) (assess.Webhook, error) {
	return s.findWebhook(ctx, s.pool, id)
}

// newWebhookSecret returns a signing secret in the Standard Webhooks format.
func newWebhookSecret() (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(raw), nil
}

// sealWebhook seals a webhook's URL and secret under its id; an empty value stays empty.
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
func (s *WebhookService) CreateWebhook(ctx context.Context, nw assess.NewWebhook, actor assess.Actor) (assess.Webhook, string, error) {
	secret, err := newWebhookSecret()
	if err != nil {
		return assess.Webhook{}, "", err
	}
	var w assess.Webhook
	err = s.change(ctx, actor, func(tx *Tx) error {
		if err := nw.Validate(s.outbound()); err != nil {
			return err
		}
		id := assess.NewID(assess.PrefixWebhook, tx.Now)
		sealedURL, sealedSecret, err := s.sealWebhook(ctx, id, nw.URL, secret)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO webhooks (id, name, description, url, secret, event_types, active, created_by, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`, id, nw.Name, nw.Description, sealedURL, sealedSecret,
			nw.EventTypes, nw.Active == nil || *nw.Active, actorID(tx.Actor), tx.Now); err != nil {
			return err
		}
		if w, err = s.findWebhook(ctx, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeWebhookCreated, webhookTarget(id),
			map[string]any{"name": nw.Name, "eventTypes": nw.EventTypes}, webhookEvent(w))
	})
	if err != nil {
		return assess.Webhook{}, "", err
	}
	return w, secret, nil
}

// UpdateWebhook implements assess.WebhookService with optimistic concurrency. Setting
// active to true clears the failure count and the automatic switch-off.
func (s *WebhookService) UpdateWebhook(ctx context.Context, id string, upd assess.WebhookUpdate, actor assess.Actor) (assess.Webhook, error) {
	if !assess.ValidID(assess.PrefixWebhook, id) {
		return assess.Webhook{}, errWebhookNotFound
	}
	var w assess.Webhook
	err := s.change(ctx, actor, func(tx *Tx) error {
		if err := upd.Validate(s.outbound()); err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "webhooks", id, upd.Version, errWebhookNotFound); err != nil {
			return err
		}
		var sealedURL *string
		if upd.URL != nil {
			sealed, _, err := s.sealWebhook(ctx, id, *upd.URL, "")
			if err != nil {
				return err
			}
			sealedURL = &sealed
		}
		if _, err := tx.Exec(ctx, `UPDATE webhooks SET name = coalesce($2, name), description = coalesce($3, description),
			url = coalesce($4, url), event_types = coalesce($5, event_types), active = coalesce($6, active)`+reenableSQL(upd.Active)+`
			WHERE id = $1`, id, upd.Name, upd.Description, sealedURL, upd.EventTypes, upd.Active); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "webhooks", id); err != nil {
			return err
		}
		var err error
		if w, err = s.findWebhook(ctx, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeWebhookUpdated, webhookTarget(id), map[string]any{"changes": webhookAuditChanges(upd)}, webhookEvent(w))
	})
	return w, err
}

// webhookAuditChanges lists the changed fields; the URL only as changed (it is sealed).
func webhookAuditChanges(upd assess.WebhookUpdate) map[string]any {
	m := map[string]any{}
	putSet(m, "name", upd.Name)
	putSet(m, "description", upd.Description)
	if upd.URL != nil {
		m["url"] = "changed"
	}
	putSet(m, "eventTypes", upd.EventTypes)
	putSet(m, "active", upd.Active)
	return m
}

// RotateWebhookSecret implements assess.WebhookService: the old secret stops signing at once.
func (s *WebhookService) RotateWebhookSecret(ctx context.Context, id string, actor assess.Actor) (assess.Webhook, string, error) {
	if !assess.ValidID(assess.PrefixWebhook, id) {
		return assess.Webhook{}, "", errWebhookNotFound
	}
	secret, err := newWebhookSecret()
	if err != nil {
		return assess.Webhook{}, "", err
	}
	_, sealed, err := s.sealWebhook(ctx, id, "", secret)
	if err != nil {
		return assess.Webhook{}, "", err
	}
	var w assess.Webhook
	err = s.change(ctx, actor, func(tx *Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE webhooks SET secret = $2 WHERE id = $1", id, sealed)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return errWebhookNotFound
		}
		if err := tx.BumpVersion(ctx, "webhooks", id); err != nil {
			return err
		}
		if w, err = s.findWebhook(ctx, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeWebhookSecretRotated, webhookTarget(id), nil, webhookEvent(w))
	})
	if err != nil {
		return assess.Webhook{}, "", err
	}
	return w, secret, nil
}

// DeleteWebhook implements assess.WebhookService. Its deliveries go with it, and global
// rules stop naming it.
func (s *WebhookService) DeleteWebhook(ctx context.Context, id string, actor assess.Actor) error {
	if !assess.ValidID(assess.PrefixWebhook, id) {
		return errWebhookNotFound
	}
	return s.change(ctx, actor, func(tx *Tx) error {
		w, err := s.scanWebhook(ctx, tx.QueryRow(ctx, "DELETE FROM webhooks WHERE id = $1 RETURNING "+webhookColumns, id))
		if errors.Is(err, pgx.ErrNoRows) {
			return errWebhookNotFound
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE notification_rules SET webhook_ids = array_remove(webhook_ids, $1), version = version + 1,
			updated_at = $2 WHERE $1 = ANY (webhook_ids)`, id, tx.Now); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeWebhookDeleted, webhookTarget(id), map[string]any{"name": w.Name}, webhookEvent(w))
	})
}

// TestWebhook implements assess.WebhookService; with webhooks switched off it is a 422.
func (s *WebhookService) TestWebhook(ctx context.Context, id string, actor assess.Actor) (assess.Delivery, error) {
	if !s.delivery.WebhooksEnabled {
		return assess.Delivery{}, errChannelDisabled
	}
	var d assess.Delivery
	err := s.change(ctx, actor, func(tx *Tx) error {
		w, err := s.findWebhook(ctx, tx, id)
		if err != nil {
			return err
		}
		d, err = s.testDelivery(ctx, tx, webhookDestinations(s.DB), newDelivery{Channel: assess.ChannelWebhook, WebhookID: id,
			DedupeKey: "webhook:" + id}, w.Name)
		return err
	})
	return d, err
}

var _ assess.WebhookService = (*WebhookService)(nil)
