package delivery

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

var errChatNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such chat destination."}

const chatColumns = `id, platform, name, channel_name, url_hint, event_types, active, consecutive_failures, disabled_at,
	version, created_by, created_at, updated_at`

func scanChat(r pgx.Row) (assess.ChatDestination, error) {
	var c assess.ChatDestination
	err := r.Scan(&c.ID, &c.Platform, &c.Name, &c.ChannelName, &c.URLHint, &c.EventTypes, &c.Active, &c.ConsecutiveFailures,
		&c.DisabledAt, &c.Version, &c.CreatedBy, &c.CreatedAt, &c.UpdatedAt)
	c.CreatedAt, c.UpdatedAt, c.DisabledAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC(), postgres.UTCPtr(c.DisabledAt)
	return c, err
}

// findChat reads a chat destination as the API shows it, also inside a transaction.
func findChat(ctx context.Context, q postgres.Querier, id string) (assess.ChatDestination, error) {
	if !assess.ValidID(assess.PrefixChat, id) {
		return assess.ChatDestination{}, errChatNotFound
	}
	c, err := scanChat(q.QueryRow(ctx, "SELECT "+chatColumns+" FROM chat_destinations WHERE id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, errChatNotFound
	}
	return c, postgres.DBError(err)
}

// chatTarget names a chat destination in the audit log.
func chatTarget(id string) postgres.Target { return postgres.Target{Type: "chat", ID: id} }

// FindChatDestinations implements assess.ChatService, newest first, of one platform when
// the filter names one.
func (s *ChatService) FindChatDestinations(ctx context.Context, f assess.ChatDestinationFilter) (assess.Page[assess.ChatDestination], error) {
	if err := f.Validate(); err != nil {
		return assess.Page[assess.ChatDestination]{}, err
	}
	l := postgres.NewList("chat_destinations", "SELECT "+chatColumns+" FROM chat_destinations", postgres.NewestFirst("id"))
	postgres.Equal(l, "platform", f.Platform)
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanChat, func(c assess.ChatDestination) []any { return []any{c.ID} })
}

// FindChatDestination implements assess.ChatService.
func (s *ChatService) FindChatDestination(ctx context.Context, id string) (assess.ChatDestination, error) {
	return findChat(ctx, s.db.Pool, id)
}

// CreateChatDestination implements assess.ChatService. The URL is the credential: it is
// stored sealed and shown only as a hint.
func (s *ChatService) CreateChatDestination(ctx context.Context, nc assess.NewChatDestination, actor assess.Actor) (assess.ChatDestination, error) {
	policy := chatOutbound(ctx, s.db, nc.Platform, nc.URL)
	var c assess.ChatDestination
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := nc.Validate(policy); err != nil {
			return err
		}
		id := assess.NewID(assess.PrefixChat, tx.Now)
		sealed, err := s.db.Keys.Seal(ctx, postgres.ChatURLField.AAD(id), []byte(nc.URL))
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO chat_destinations (id, platform, name, channel_name, url, url_hint, event_types, active,
			created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
			id, nc.Platform, nc.Name, nc.ChannelName, sealed, assess.ChatURLHint(nc.URL), nc.EventTypes, nc.Active == nil || *nc.Active,
			postgres.ActorID(tx.Actor), tx.Now); err != nil {
			return err
		}
		if c, err = findChat(ctx, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeChatCreated, chatTarget(id),
			map[string]any{"platform": nc.Platform, "name": nc.Name, "eventTypes": nc.EventTypes}, postgres.ChatEvent(c))
	})
	return c, err
}

// UpdateChatDestination implements assess.ChatService with optimistic concurrency;
// setting active to true clears the failure count and the automatic switch-off.
func (s *ChatService) UpdateChatDestination(ctx context.Context, id string, upd assess.ChatDestinationUpdate, actor assess.Actor) (assess.ChatDestination, error) {
	var c assess.ChatDestination
	// A new URL is checked against the destination's platform, which never changes, and
	// may need a DNS lookup: both are done before the transaction.
	platform, policy := "", outbound(s.db)
	if upd.URL != nil {
		current, err := findChat(ctx, s.db.Pool, id)
		if err != nil {
			return c, err
		}
		platform, policy = current.Platform, chatOutbound(ctx, s.db, current.Platform, *upd.URL)
	}
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := upd.Validate(platform, policy); err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "chat_destinations", id, upd.Version, errChatNotFound); err != nil {
			return err
		}
		if err := s.applyChatUpdate(ctx, tx, id, upd); err != nil {
			return err
		}
		var err error
		if c, err = findChat(ctx, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeChatUpdated, chatTarget(id), map[string]any{"changes": chatAuditChanges(upd)}, postgres.ChatEvent(c))
	})
	return c, err
}

// applyChatUpdate writes a checked update: a new URL sealed, with its hint.
func (s *ChatService) applyChatUpdate(ctx context.Context, tx *postgres.Tx, id string, upd assess.ChatDestinationUpdate) error {
	var sealedURL, hint *string
	if upd.URL != nil {
		sealed, err := s.db.Keys.Seal(ctx, postgres.ChatURLField.AAD(id), []byte(*upd.URL))
		if err != nil {
			return err
		}
		h := assess.ChatURLHint(*upd.URL)
		sealedURL, hint = &sealed, &h
	}
	if _, err := tx.Exec(ctx, `UPDATE chat_destinations SET name = coalesce($2, name), channel_name = coalesce($3, channel_name),
		url = coalesce($4, url), url_hint = coalesce($5, url_hint), event_types = coalesce($6, event_types),
		active = coalesce($7, active)`+reenableSQL(upd.Active)+` WHERE id = $1`,
		id, upd.Name, upd.ChannelName, sealedURL, hint, upd.EventTypes, upd.Active); err != nil {
		return err
	}
	return tx.BumpVersion(ctx, "chat_destinations", id)
}

// chatAuditChanges lists the changed fields; the URL only as changed (it is a credential).
func chatAuditChanges(upd assess.ChatDestinationUpdate) map[string]any {
	m := map[string]any{}
	postgres.PutSet(m, "name", upd.Name)
	postgres.PutSet(m, "channelName", upd.ChannelName)
	if upd.URL != nil {
		m["url"] = "changed"
	}
	postgres.PutSet(m, "eventTypes", upd.EventTypes)
	postgres.PutSet(m, "active", upd.Active)
	return m
}

// DeleteChatDestination implements assess.ChatService; its deliveries go with it and
// global rules stop naming it.
func (s *ChatService) DeleteChatDestination(ctx context.Context, id string, actor assess.Actor) error {
	if !assess.ValidID(assess.PrefixChat, id) {
		return errChatNotFound
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		c, err := scanChat(tx.QueryRow(ctx, "DELETE FROM chat_destinations WHERE id = $1 RETURNING "+chatColumns, id))
		if errors.Is(err, pgx.ErrNoRows) {
			return errChatNotFound
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE notification_rules SET chat_ids = array_remove(chat_ids, $1), version = version + 1,
			updated_at = $2 WHERE $1 = ANY (chat_ids)`, id, tx.Now); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeChatDeleted, chatTarget(id), map[string]any{"name": c.Name, "platform": c.Platform}, postgres.ChatEvent(c))
	})
}

// TestChatDestination implements assess.ChatService; with the platform switched off it
// is a 422.
func (s *ChatService) TestChatDestination(ctx context.Context, id string, actor assess.Actor) (assess.Delivery, error) {
	var d assess.Delivery
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		c, err := findChat(ctx, tx, id)
		if err != nil {
			return err
		}
		if !s.db.ChatPlatformOn(c.Platform) {
			return postgres.ErrChannelDisabled
		}
		d, err = testDelivery(ctx, s.db, tx, chatDestinations(), postgres.NewDelivery{Channel: c.Platform, ChatID: id, DedupeKey: "chat:" + id}, c.Name)
		return err
	})
	return d, err
}

var _ assess.ChatService = (*ChatService)(nil)
