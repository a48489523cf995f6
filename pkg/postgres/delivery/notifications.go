package delivery

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

var errNotificationNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such notification."}

const notificationColumns = `id, coalesce(event_id, ''), type, title, message, link, params, read_at, created_at`

func scanNotification(r pgx.Row) (assess.Notification, error) {
	var n assess.Notification
	err := r.Scan(&n.ID, &n.EventID, &n.Type, &n.Title, &n.Message, &n.Link, &n.Params, &n.ReadAt, &n.CreatedAt)
	n.Read, n.ReadAt, n.CreatedAt = n.ReadAt != nil, postgres.UTCPtr(n.ReadAt), n.CreatedAt.UTC()
	if n.Params == nil {
		n.Params = map[string]string{}
	}
	return n, err
}

// FindNotifications implements assess.NotificationService: the user's notifications,
// newest first.
func (s *NotificationService) FindNotifications(ctx context.Context, userID string, f assess.NotificationFilter) (assess.Page[assess.Notification], error) {
	l := postgres.NewList("notifications", "SELECT "+notificationColumns+" FROM notifications", postgres.NewestFirst("id"))
	l.Where("user_id = " + l.Arg(userID))
	if f.Unread {
		l.Where("read_at IS NULL") // a literal condition, so the partial index of unread rows applies
	}
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanNotification, func(n assess.Notification) []any { return []any{n.ID} })
}

// CountUnreadNotifications implements assess.NotificationService, from the replica's
// unread-count cache when it holds the user's count (unreadcache.go).
func (s *NotificationService) CountUnreadNotifications(ctx context.Context, userID string) (int, error) {
	n, gen, ok := s.db.Unread.Counts.Get(userID)
	if ok {
		return n, nil
	}
	if err := s.db.Pool.QueryRow(ctx, "SELECT count(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL", userID).Scan(&n); err != nil {
		return 0, postgres.DBError(err)
	}
	s.db.Unread.Counts.Put(userID, gen, n, time.Time{})
	return n, nil
}

// MarkNotificationRead implements assess.NotificationService; marking it again keeps the
// first read time. Another user's notification is not_found.
func (s *NotificationService) MarkNotificationRead(ctx context.Context, userID, id string) (assess.Notification, error) {
	if !assess.ValidID(assess.PrefixNotification, id) {
		return assess.Notification{}, errNotificationNotFound
	}
	var n assess.Notification
	err := s.db.Change(ctx, assess.Actor{ID: userID}, func(tx *postgres.Tx) error {
		tx.After.UnreadChanged = append(tx.After.UnreadChanged, userID)
		var err error
		n, err = scanNotification(tx.QueryRow(ctx, `UPDATE notifications SET read_at = coalesce(read_at, $3)
			WHERE id = $1 AND user_id = $2 RETURNING `+notificationColumns, id, userID, tx.Now))
		if errors.Is(err, pgx.ErrNoRows) {
			return errNotificationNotFound
		}
		return err
	})
	return n, err
}

// MarkAllNotificationsRead implements assess.NotificationService and returns how many
// notifications it marked.
func (s *NotificationService) MarkAllNotificationsRead(ctx context.Context, userID string) (int, error) {
	var n int
	err := s.db.Change(ctx, assess.Actor{ID: userID}, func(tx *postgres.Tx) error {
		tx.After.UnreadChanged = append(tx.After.UnreadChanged, userID)
		tag, err := tx.Exec(ctx, "UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL", userID, tx.Now)
		n = int(tag.RowsAffected())
		return err
	})
	return n, err
}

var _ assess.NotificationService = (*NotificationService)(nil)
