package delivery

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

var errWebhookNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such webhook."}

const webhookColumns = `id, name, description, url, event_types, active, consecutive_failures, disabled_at, version,
	created_by, created_at, updated_at`

// scanWebhook reads a webhook row and opens its URL.
func scanWebhook(ctx context.Context, db *postgres.DB, r pgx.Row) (assess.Webhook, error) {
	var w assess.Webhook
	err := r.Scan(&w.ID, &w.Name, &w.Description, &w.URL, &w.EventTypes, &w.Active, &w.ConsecutiveFailures, &w.DisabledAt,
		&w.Version, &w.CreatedBy, &w.CreatedAt, &w.UpdatedAt)
	if err != nil {
		return w, err
	}
	w.CreatedAt, w.UpdatedAt, w.DisabledAt = w.CreatedAt.UTC(), w.UpdatedAt.UTC(), postgres.UTCPtr(w.DisabledAt)
	w.URL, err = open(ctx, db, postgres.WebhookURLField, w.ID, w.URL)
	return w, err
}

// findWebhook reads a webhook as the API shows it, also inside a transaction.
func findWebhook(ctx context.Context, db *postgres.DB, q postgres.Querier, id string) (assess.Webhook, error) {
	if !assess.ValidID(assess.PrefixWebhook, id) {
		return assess.Webhook{}, errWebhookNotFound
	}
	w, err := scanWebhook(ctx, db, q.QueryRow(ctx, "SELECT "+webhookColumns+" FROM webhooks WHERE id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return w, errWebhookNotFound
	}
	return w, postgres.DBError(err)
}

// webhookTarget names a webhook in the audit log.
func webhookTarget(id string) postgres.Target { return postgres.Target{Type: "webhook", ID: id} }

// FindWebhooks implements assess.WebhookService, newest first.
func (s *WebhookService) FindWebhooks(ctx context.Context, f assess.WebhookFilter) (assess.Page[assess.Webhook], error) {
	l := postgres.NewList("webhooks", "SELECT "+webhookColumns+" FROM webhooks", postgres.NewestFirst("id"))
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest,
		func(r pgx.Row) (assess.Webhook, error) { return scanWebhook(ctx, s.db, r) },
		func(w assess.Webhook) []any { return []any{w.ID} })
}

// FindWebhook implements assess.WebhookService.
func (s *WebhookService) FindWebhook(ctx context.Context, id string) (assess.Webhook, error) {
	return findWebhook(ctx, s.db, s.db.Pool, id)
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
func sealWebhook(ctx context.Context, db *postgres.DB, id, url, secret string) (sealedURL, sealedSecret string, err error) {
	if url != "" {
		if sealedURL, err = db.Keys.Seal(ctx, postgres.WebhookURLField.AAD(id), []byte(url)); err != nil {
			return "", "", err
		}
	}
	if secret != "" {
		sealedSecret, err = db.Keys.Seal(ctx, postgres.WebhookSecretField.AAD(id), []byte(secret))
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
	err = s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := nw.Validate(outbound(s.db)); err != nil {
			return err
		}
		id := assess.NewID(assess.PrefixWebhook, tx.Now)
		sealedURL, sealedSecret, err := sealWebhook(ctx, s.db, id, nw.URL, secret)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO webhooks (id, name, description, url, secret, event_types, active, created_by, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`, id, nw.Name, nw.Description, sealedURL, sealedSecret,
			nw.EventTypes, nw.Active == nil || *nw.Active, postgres.ActorID(tx.Actor), tx.Now); err != nil {
			return err
		}
		if w, err = findWebhook(ctx, s.db, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeWebhookCreated, webhookTarget(id),
			map[string]any{"name": nw.Name, "eventTypes": nw.EventTypes}, postgres.WebhookEvent(w))
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
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := upd.Validate(outbound(s.db)); err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "webhooks", id, upd.Version, errWebhookNotFound); err != nil {
			return err
		}
		var sealedURL *string
		if upd.URL != nil {
			sealed, _, err := sealWebhook(ctx, s.db, id, *upd.URL, "")
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
		if w, err = findWebhook(ctx, s.db, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeWebhookUpdated, webhookTarget(id), map[string]any{"changes": webhookAuditChanges(upd)}, postgres.WebhookEvent(w))
	})
	return w, err
}

// webhookAuditChanges lists the changed fields; the URL only as changed (it is sealed).
func webhookAuditChanges(upd assess.WebhookUpdate) map[string]any {
	m := map[string]any{}
	postgres.PutSet(m, "name", upd.Name)
	postgres.PutSet(m, "description", upd.Description)
	if upd.URL != nil {
		m["url"] = "changed"
	}
	postgres.PutSet(m, "eventTypes", upd.EventTypes)
	postgres.PutSet(m, "active", upd.Active)
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
	_, sealed, err := sealWebhook(ctx, s.db, id, "", secret)
	if err != nil {
		return assess.Webhook{}, "", err
	}
	var w assess.Webhook
	err = s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
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
		if w, err = findWebhook(ctx, s.db, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeWebhookSecretRotated, webhookTarget(id), nil, postgres.WebhookEvent(w))
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
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		w, err := scanWebhook(ctx, s.db, tx.QueryRow(ctx, "DELETE FROM webhooks WHERE id = $1 RETURNING "+webhookColumns, id))
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
		return tx.Record(ctx, assess.ChangeWebhookDeleted, webhookTarget(id), map[string]any{"name": w.Name}, postgres.WebhookEvent(w))
	})
}

// TestWebhook implements assess.WebhookService; with webhooks switched off it is a 422.
func (s *WebhookService) TestWebhook(ctx context.Context, id string, actor assess.Actor) (assess.Delivery, error) {
	if !s.db.Delivery.WebhooksEnabled {
		return assess.Delivery{}, postgres.ErrChannelDisabled
	}
	var d assess.Delivery
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		w, err := findWebhook(ctx, s.db, tx, id)
		if err != nil {
			return err
		}
		d, err = testDelivery(ctx, s.db, tx, webhookDestinations(s.db), postgres.NewDelivery{Channel: assess.ChannelWebhook, WebhookID: id,
			DedupeKey: "webhook:" + id}, w.Name)
		return err
	})
	return d, err
}

var _ assess.WebhookService = (*WebhookService)(nil)
