package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// NotificationPage is one page of the caller's notifications.
type NotificationPage struct {
	Items      []assess.Notification `json:"items"`
	NextCursor string                `json:"nextCursor,omitempty"`
	HasMore    bool                  `json:"hasMore"`
}

// UnreadCount is the number of the caller's unread notifications.
type UnreadCount struct {
	Count int `json:"count"`
}

// MarkedRead says how many notifications a read-all marked.
type MarkedRead struct {
	Updated int `json:"updated" doc:"How many unread notifications were marked read"`
}

type unreadCountOutput struct {
	CacheControl string `header:"Cache-Control"`
	Body         UnreadCount
}

type notificationIDInput struct {
	ID string `path:"id" maxLength:"64"`
}

func (s *Server) registerNotifications() {
	tags := []string{"Notifications"}
	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "listNotifications", Method: http.MethodGet, Path: "/api/v1/notifications",
		Summary: "List one's notifications", Tags: tags,
		Description: "The caller's in-app notifications, newest first, cursor-paginated; `unread=true` keeps the unread ones.",
	}}, func(ctx context.Context, in *assess.NotificationFilter) (*struct{ Body NotificationPage }, error) {
		items, next, err := s.dep.Notifications.FindNotifications(ctx, assess.PrincipalFrom(ctx).User.ID, *in)
		if err != nil {
			return nil, err
		}
		if items == nil {
			items = []assess.Notification{}
		}
		return &struct{ Body NotificationPage }{Body: NotificationPage{Items: items, NextCursor: next, HasMore: next != ""}}, nil
	})
	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "countUnreadNotifications", Method: http.MethodGet, Path: "/api/v1/notifications/unread-count",
		Summary: "Count one's unread notifications", Tags: tags,
		Description: "Cheap enough to poll: the web UI asks every few seconds and when its window regains focus.",
	}}, func(ctx context.Context, _ *struct{}) (*unreadCountOutput, error) {
		n, err := s.dep.Notifications.CountUnreadNotifications(ctx, assess.PrincipalFrom(ctx).User.ID)
		return &unreadCountOutput{CacheControl: "no-store", Body: UnreadCount{Count: n}}, err
	})
	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "markNotificationRead", Method: http.MethodPost, Path: "/api/v1/notifications/{id}/read",
		Summary: "Mark a notification read", Tags: tags, Errors: []int{http.StatusNotFound},
		Description: "Marking a read notification again changes nothing. Another user's notification is a 404.",
	}}, func(ctx context.Context, in *notificationIDInput) (*struct{ Body assess.Notification }, error) {
		n, err := s.dep.Notifications.MarkNotificationRead(ctx, assess.PrincipalFrom(ctx).User.ID, in.ID)
		return &struct{ Body assess.Notification }{Body: n}, err
	})
	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "markAllNotificationsRead", Method: http.MethodPost, Path: "/api/v1/notifications/read-all",
		Summary: "Mark all one's notifications read", Tags: tags,
	}}, func(ctx context.Context, _ *struct{}) (*struct{ Body MarkedRead }, error) {
		n, err := s.dep.Notifications.MarkAllNotificationsRead(ctx, assess.PrincipalFrom(ctx).User.ID)
		return &struct{ Body MarkedRead }{Body: MarkedRead{Updated: n}}, err
	})
	register(s, Op{Permission: assess.PermAuthenticated, Operation: huma.Operation{
		OperationID: "getNotificationChannels", Method: http.MethodGet, Path: "/api/v1/notification-channels",
		Summary: "Which notification channels deliver", Tags: tags,
		Description: "Whether e-mail, webhooks and each chat platform are switched on for this installation (in-app " +
			"always is). Rules may name a switched-off channel; nothing is sent there until it is switched on.",
	}}, func(ctx context.Context, _ *struct{}) (*struct{ Body assess.ChannelStatus }, error) {
		st, err := s.dep.Email.ChannelStatus(ctx)
		return &struct{ Body assess.ChannelStatus }{Body: st}, err
	})
}
