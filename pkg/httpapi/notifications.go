package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagNotifications = []string{"Notifications"}

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

// callerID is the id of the signed-in user making the request.
func callerID(ctx context.Context) string { return assess.PrincipalFrom(ctx).User.ID }

var docNotificationList = huma.Operation{OperationID: "listNotifications", Summary: "List one's notifications", Tags: tagNotifications,
	Description: "The caller's in-app notifications, newest first, cursor-paginated; `unread=true` keeps the unread ones."}

func (s *Server) handleNotificationList(ctx context.Context, in *assess.NotificationFilter) (*body[assess.Page[assess.Notification]], error) {
	page, err := s.dep.Notifications.FindNotifications(ctx, callerID(ctx), *in)
	return reply(page), err
}

var docNotificationUnreadCount = huma.Operation{OperationID: "countUnreadNotifications", Summary: "Count one's unread notifications",
	Tags: tagNotifications, Description: "Cheap enough to poll: the web UI asks every few seconds and when its window regains focus."}

func (s *Server) handleNotificationUnreadCount(ctx context.Context, _ *struct{}) (*unreadCountOutput, error) {
	n, err := s.dep.Notifications.CountUnreadNotifications(ctx, callerID(ctx))
	return &unreadCountOutput{CacheControl: "no-store", Body: UnreadCount{Count: n}}, err
}

var docNotificationMarkRead = huma.Operation{OperationID: "markNotificationRead", Summary: "Mark a notification read",
	Tags: tagNotifications, Errors: []int{http.StatusNotFound},
	Description: "Marking a read notification again changes nothing. Another user's notification is a 404."}

func (s *Server) handleNotificationMarkRead(ctx context.Context, in *idInput) (*body[assess.Notification], error) {
	n, err := s.dep.Notifications.MarkNotificationRead(ctx, callerID(ctx), in.ID)
	return reply(n), err
}

var docNotificationMarkAllRead = huma.Operation{OperationID: "markAllNotificationsRead", Summary: "Mark all one's notifications read",
	Tags: tagNotifications}

func (s *Server) handleNotificationMarkAllRead(ctx context.Context, _ *struct{}) (*body[MarkedRead], error) {
	n, err := s.dep.Notifications.MarkAllNotificationsRead(ctx, callerID(ctx))
	return reply(MarkedRead{Updated: n}), err
}

var docNotificationChannelsGet = huma.Operation{OperationID: "getNotificationChannels", Summary: "Which notification channels deliver",
	Tags: tagNotifications,
	Description: "Whether e-mail, webhooks and each chat platform are switched on for this installation (in-app " +
		"always is). Rules may name a switched-off channel; nothing is sent there until it is switched on."}

func (s *Server) handleNotificationChannelsGet(ctx context.Context, _ *struct{}) (*body[assess.ChannelStatus], error) {
	st, err := s.dep.Email.ChannelStatus(ctx)
	return reply(st), err
}
