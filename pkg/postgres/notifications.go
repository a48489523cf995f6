package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

var errNotificationNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such notification."}

const notificationColumns = `id, coalesce(event_id, ''), type, title, message, link, params, read_at, created_at`

func scanNotification(r pgx.Row) (assess.Notification, error) {
	var n assess.Notification
	err := r.Scan(&n.ID, &n.EventID, &n.Type, &n.Title, &n.Message, &n.Link, &n.Params, &n.ReadAt, &n.CreatedAt)
	n.Read, n.ReadAt, n.CreatedAt = n.ReadAt != nil, utcPtr(n.ReadAt), n.CreatedAt.UTC()
	if n.Params == nil {
		n.Params = map[string]string{}
	}
	return n, err
}

// FindNotifications implements assess.NotificationService: the user's notifications,
// newest first, keyset on the id.
func (db *DB) FindNotifications(ctx context.Context, userID string, f assess.NotificationFilter) ([]assess.Notification, string, error) {
	after, err := decodeIDCursor(f.Cursor, assess.PrefixNotification)
	if err != nil {
		return nil, "", err
	}
	limit := pageLimit(f.Limit)
	unread := "" // a literal condition, so the partial index of unread rows applies
	if f.Unread {
		unread = " AND read_at IS NULL"
	}
	rows, err := db.pool.Query(ctx, "SELECT "+notificationColumns+` FROM notifications
		WHERE user_id = $1 AND id < $2`+unread+` ORDER BY id DESC LIMIT $3`, userID, after, limit+1)
	if err != nil {
		return nil, "", err
	}
	ns, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.Notification, error) { return scanNotification(r) })
	if err != nil {
		return nil, "", err
	}
	ns, next := pageByID(ns, limit, func(n assess.Notification) string { return n.ID })
	return ns, next, nil
}

// CountUnreadNotifications implements assess.NotificationService.
func (db *DB) CountUnreadNotifications(ctx context.Context, userID string) (int, error) {
	var n int
	err := db.pool.QueryRow(ctx, "SELECT count(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL", userID).Scan(&n)
	return n, err
}

// MarkNotificationRead implements assess.NotificationService; marking it again keeps the
// first read time. Another user's notification is not_found.
func (db *DB) MarkNotificationRead(ctx context.Context, userID, id string) (assess.Notification, error) {
	if !assess.ValidID(assess.PrefixNotification, id) {
		return assess.Notification{}, errNotificationNotFound
	}
	n, err := scanNotification(db.pool.QueryRow(ctx, `UPDATE notifications SET read_at = coalesce(read_at, $3)
		WHERE id = $1 AND user_id = $2 RETURNING `+notificationColumns, id, userID, db.now()))
	if errors.Is(err, pgx.ErrNoRows) {
		return n, errNotificationNotFound
	}
	return n, err
}

// MarkAllNotificationsRead implements assess.NotificationService and returns how many
// notifications it marked.
func (db *DB) MarkAllNotificationsRead(ctx context.Context, userID string) (int, error) {
	tag, err := db.pool.Exec(ctx, "UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL", userID, db.now())
	return int(tag.RowsAffected()), err
}

var _ assess.NotificationService = (*DB)(nil)
