package postgres

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

var errChatNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such chat destination."}

const chatColumns = `id, platform, name, channel_name, url_hint, event_types, active, consecutive_failures, disabled_at,
	version, created_by, created_at, updated_at`

func scanChat(r pgx.Row) (assess.ChatDestination, error) {
	var c assess.ChatDestination
	err := r.Scan(&c.ID, &c.Platform, &c.Name, &c.ChannelName, &c.URLHint, &c.EventTypes, &c.Active, &c.ConsecutiveFailures,
		&c.DisabledAt, &c.Version, &c.CreatedBy, &c.CreatedAt, &c.UpdatedAt)
	c.CreatedAt, c.UpdatedAt, c.DisabledAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC(), utcPtr(c.DisabledAt)
	return c, err
}

func findChat(ctx context.Context, q querier, id string, lock bool) (assess.ChatDestination, error) {
	if !assess.ValidID(assess.PrefixChat, id) {
		return assess.ChatDestination{}, errChatNotFound
	}
	sql := "SELECT " + chatColumns + " FROM chat_destinations WHERE id = $1"
	if lock {
		sql += " FOR UPDATE"
	}
	c, err := scanChat(q.QueryRow(ctx, sql, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, errChatNotFound
	}
	return c, err
}

// chatEvent reads a chat destination as the data of an event.
func (db *DB) chatEvent(ctx context.Context, tx pgx.Tx, id string, typ assess.EventName) (assess.NewEvent, error) {
	c, err := findChat(ctx, tx, id, false)
	return chatEventOf(typ, c), err
}

func chatEventOf(typ assess.EventName, c assess.ChatDestination) assess.NewEvent {
	return assess.NewEvent{Type: typ, Data: c, Summary: c.Name, Link: "/admin/chat?id=" + c.ID}
}

func checkPlatform(platform string) error {
	if slices.Contains(assess.ChatPlatforms, platform) {
		return nil
	}
	return &assess.Error{Code: assess.ECodeValidation, Message: "Unknown chat platform " + platform + ".",
		Details: []assess.Detail{{Field: "platform", Code: "invalid", Message: "One of slack, teams, mattermost."}}}
}

// FindChatDestinations implements assess.ChatService, newest first, of one platform when
// platform is not empty.
func (db *DB) FindChatDestinations(ctx context.Context, platform, cursor string, limit int) ([]assess.ChatDestination, string, error) {
	if platform != "" {
		if err := checkPlatform(platform); err != nil {
			return nil, "", err
		}
	}
	after, err := decodeIDCursor(cursor, assess.PrefixChat)
	if err != nil {
		return nil, "", err
	}
	limit = pageLimit(limit)
	rows, err := db.pool.Query(ctx, "SELECT "+chatColumns+` FROM chat_destinations WHERE id < $1 AND ($2 = '' OR platform = $2)
		ORDER BY id DESC LIMIT $3`, after, platform, limit+1)
	if err != nil {
		return nil, "", err
	}
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.ChatDestination, error) { return scanChat(r) })
	if err != nil {
		return nil, "", err
	}
	cs, next := pageByID(cs, limit, func(c assess.ChatDestination) string { return c.ID })
	return cs, next, nil
}

// FindChatDestination implements assess.ChatService.
func (db *DB) FindChatDestination(ctx context.Context, id string) (assess.ChatDestination, error) {
	return findChat(ctx, db.pool, id, false)
}

// CreateChatDestination implements assess.ChatService. The URL is the credential: it is
// stored sealed and shown only as a hint.
func (db *DB) CreateChatDestination(ctx context.Context, nc assess.NewChatDestination, actor assess.Actor) (assess.ChatDestination, error) {
	if err := checkPlatform(nc.Platform); err != nil {
		return assess.ChatDestination{}, err
	}
	name, err := checkName(nc.Name)
	if err != nil {
		return assess.ChatDestination{}, err
	}
	filter, err := assess.ValidateEventFilter("eventTypes", nc.EventTypes)
	if err != nil {
		return assess.ChatDestination{}, err
	}
	u, err := checkChatURL(ctx, "url", nc.Platform, nc.URL, db.delivery.AllowNetworks)
	if err != nil {
		return assess.ChatDestination{}, err
	}
	now := db.now()
	id := assess.NewID(assess.PrefixChat, now)
	sealed, err := db.keys.Seal(ctx, chatURLField.AAD(id), []byte(u.String()))
	if err != nil {
		return assess.ChatDestination{}, err
	}
	var c assess.ChatDestination
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO chat_destinations (id, platform, name, channel_name, url, url_hint, event_types, active,
			created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
			id, nc.Platform, name, strings.TrimSpace(nc.ChannelName), sealed, urlHint(u), filter, nc.Active == nil || *nc.Active,
			actorID(actor), now); err != nil {
			return err
		}
		if c, err = findChat(ctx, tx, id, false); err != nil {
			return err
		}
		return db.auditAndEmit(ctx, tx, actor, "chat.created", "chat", id,
			map[string]any{"platform": nc.Platform, "name": name, "eventTypes": filter}, chatEventOf(assess.EventChatCreated, c))
	})
	return c, err
}

// UpdateChatDestination implements assess.ChatService with optimistic concurrency;
// setting active to true clears the failure count and the automatic switch-off.
func (db *DB) UpdateChatDestination(ctx context.Context, id string, upd assess.ChatDestinationUpdate, actor assess.Actor) (assess.ChatDestination, error) {
	var c assess.ChatDestination
	// A new URL may need a DNS lookup (allow-listed test receivers); do it before the
	// transaction so no row lock waits on the network. The platform never changes.
	var newURL *url.URL
	if upd.URL != nil {
		current, err := findChat(ctx, db.pool, id, false)
		if err != nil {
			return c, err
		}
		if newURL, err = checkChatURL(ctx, "url", current.Platform, *upd.URL, db.delivery.AllowNetworks); err != nil {
			return c, err
		}
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		before, err := findChat(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if before.Version != upd.Version {
			return versionConflict(before.Version)
		}
		ch, err := db.checkChatUpdate(ctx, before, upd, newURL)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE chat_destinations SET name = coalesce($2, name), channel_name = coalesce($3, channel_name),
			url = coalesce($4, url), url_hint = coalesce($5, url_hint), event_types = coalesce($6, event_types),
			active = coalesce($7, active), version = version + 1, updated_at = $8`+reenableSQL(upd.Active)+` WHERE id = $1`,
			id, ch.name, ch.channel, ch.sealedURL, ch.hint, ch.filter, upd.Active, db.now()); err != nil {
			return err
		}
		if c, err = findChat(ctx, tx, id, false); err != nil {
			return err
		}
		return db.auditAndEmit(ctx, tx, actor, "chat.updated", "chat", id, map[string]any{"changes": chatAuditChanges(upd)},
			chatEventOf(assess.EventChatUpdated, c))
	})
	return c, err
}

// chatChanges is a checked ChatDestinationUpdate.
type chatChanges struct {
	name, channel, sealedURL, hint *string
	filter                         *[]string
}

// checkChatUpdate checks the other fields of upd; newURL is the new URL, already checked.
func (db *DB) checkChatUpdate(ctx context.Context, before assess.ChatDestination, upd assess.ChatDestinationUpdate, newURL *url.URL) (chatChanges, error) {
	var ch chatChanges
	if upd.Name != nil {
		name, err := checkName(*upd.Name)
		if err != nil {
			return ch, err
		}
		ch.name = &name
	}
	if upd.ChannelName != nil {
		s := strings.TrimSpace(*upd.ChannelName)
		ch.channel = &s
	}
	if upd.EventTypes != nil {
		f, err := assess.ValidateEventFilter("eventTypes", *upd.EventTypes)
		if err != nil {
			return ch, err
		}
		ch.filter = &f
	}
	if u := newURL; u != nil {
		sealed, err := db.keys.Seal(ctx, chatURLField.AAD(before.ID), []byte(u.String()))
		if err != nil {
			return ch, err
		}
		hint := urlHint(u)
		ch.sealedURL, ch.hint = &sealed, &hint
	}
	return ch, nil
}

func chatAuditChanges(upd assess.ChatDestinationUpdate) map[string]any {
	m := map[string]any{}
	if upd.Name != nil {
		m["name"] = *upd.Name
	}
	if upd.ChannelName != nil {
		m["channelName"] = *upd.ChannelName
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

// DeleteChatDestination implements assess.ChatService; its deliveries go with it and
// global rules stop naming it.
func (db *DB) DeleteChatDestination(ctx context.Context, id string, actor assess.Actor) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		c, err := findChat(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM chat_destinations WHERE id = $1", id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE notification_rules SET chat_ids = array_remove(chat_ids, $1), version = version + 1,
			updated_at = $2 WHERE $1 = ANY (chat_ids)`, id, db.now()); err != nil {
			return err
		}
		return db.auditAndEmit(ctx, tx, actor, "chat.deleted", "chat", id, map[string]any{"name": c.Name, "platform": c.Platform},
			chatEventOf(assess.EventChatDeleted, c))
	})
}

// TestChatDestination implements assess.ChatService; with the platform switched off it
// is a 422.
func (db *DB) TestChatDestination(ctx context.Context, id string, actor assess.Actor) (assess.Delivery, error) {
	var d assess.Delivery
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		c, err := findChat(ctx, tx, id, false)
		if err != nil {
			return err
		}
		if !db.chatPlatformOn(c.Platform) {
			return errChannelDisabled
		}
		d, err = db.testDelivery(ctx, tx, chatDestinations(db), newDelivery{Channel: c.Platform, ChatID: id, DedupeKey: "chat:" + id},
			c.Platform, c.Name, actor)
		return err
	})
	return d, err
}

var _ assess.ChatService = (*DB)(nil)
