package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagChat = []string{"Chat"}

var docChatDestinationList = huma.Operation{OperationID: "listChatDestinations", Summary: "List chat destinations", Tags: tagChat,
	Description: "Slack, Microsoft Teams and Mattermost incoming webhooks, newest first, cursor-paginated; " +
		"`platform` keeps one platform. URLs are shown masked (`urlHint`): they are credentials."}

func (s *Server) handleChatDestinationList(ctx context.Context, in *assess.ChatDestinationFilter) (*body[assess.Page[assess.ChatDestination]], error) {
	page, err := s.dep.Chat.FindChatDestinations(ctx, *in)
	return reply(page), err
}

var docChatDestinationCreate = huma.Operation{OperationID: "createChatDestination", Summary: "Add a chat destination", Tags: tagChat,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity},
	Description: "The URL is the platform's incoming-webhook URL: Slack https://hooks.slack.com/…, Teams an https " +
		"URL on *.webhook.office.com, *.logic.azure.com or *.powerplatform.com, Mattermost any https URL. " +
		"It is stored encrypted and never shown again, only masked. Another URL is refused with 422 " +
		"(detail code url_not_allowed). Messages are posted only while the platform is switched on " +
		"(SLACK_ENABLED, TEAMS_ENABLED, MATTERMOST_ENABLED)."}

func (s *Server) handleChatDestinationCreate(ctx context.Context, in *body[assess.NewChatDestination]) (*body[assess.ChatDestination], error) {
	c, err := s.dep.Chat.CreateChatDestination(ctx, in.Body, requestActor(ctx))
	return reply(c), err
}

var docChatDestinationGet = huma.Operation{OperationID: "getChatDestination", Summary: "Get a chat destination", Tags: tagChat,
	Errors: []int{http.StatusNotFound}}

func (s *Server) handleChatDestinationGet(ctx context.Context, in *idInput) (*body[assess.ChatDestination], error) {
	c, err := s.dep.Chat.FindChatDestination(ctx, in.ID)
	return reply(c), err
}

var docChatDestinationUpdate = huma.Operation{OperationID: "updateChatDestination", Summary: "Update a chat destination", Tags: tagChat,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Absent fields stay (the URL too). Send the version last read; a stale one gets 409 " +
		"version_conflict. Setting `active` to true re-enables a destination switched off after consecutive " +
		"failures. The platform cannot change."}

func (s *Server) handleChatDestinationUpdate(ctx context.Context, in *idBody[assess.ChatDestinationUpdate]) (*body[assess.ChatDestination], error) {
	c, err := s.dep.Chat.UpdateChatDestination(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(c), err
}

var docChatDestinationDelete = huma.Operation{OperationID: "deleteChatDestination", Summary: "Delete a chat destination", Tags: tagChat,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound}, Description: "Deliveries still queued for it are skipped."}

func (s *Server) handleChatDestinationDelete(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Chat.DeleteChatDestination(ctx, in.ID, requestActor(ctx))
}

var docChatDestinationTest = huma.Operation{OperationID: "testChatDestination", Summary: "Send a test message to a chat destination",
	Tags: tagChat, DefaultStatus: http.StatusAccepted, Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	Description: "Records a channel.test event and queues a message to this destination only (even an inactive " +
		"one). The answer is the queued delivery: follow it in the delivery log."}

func (s *Server) handleChatDestinationTest(ctx context.Context, in *idInput) (*body[assess.Delivery], error) {
	d, err := s.dep.Chat.TestChatDestination(ctx, in.ID, requestActor(ctx))
	return reply(d), err
}

// The delivery log of a chat destination.

var docChatDeliveryList = huma.Operation{OperationID: "listChatDeliveries", Summary: "The delivery log of a chat destination",
	Tags: tagChat, Errors: []int{http.StatusNotFound}, Description: deliveryLogDescription}

func (s *Server) handleChatDeliveryList(ctx context.Context, in *destinationDeliveriesInput) (*body[assess.Page[assess.Delivery]], error) {
	if _, err := s.dep.Chat.FindChatDestination(ctx, in.ID); err != nil {
		return nil, err
	}
	return s.deliveryPage(ctx, in.filter(assess.DeliveryKindChat, in.ID))
}

var docChatDeliveryGet = huma.Operation{OperationID: "getChatDelivery", Summary: "One delivery to a chat destination",
	Tags: tagChat, Errors: []int{http.StatusNotFound},
	Description: "The delivery with every attempt (status, error, the first 1 KiB of the response)."}

func (s *Server) handleChatDeliveryGet(ctx context.Context, in *destinationDeliveryInput) (*body[assess.Delivery], error) {
	d, err := s.dep.Deliveries.FindDelivery(ctx, assess.DeliveryKindChat, in.ID, in.DeliveryID)
	return reply(d), err
}

var docChatDeliveryRedeliver = huma.Operation{OperationID: "redeliverChatDelivery", Summary: "Send a delivery to a chat destination again",
	Tags: tagChat, DefaultStatus: http.StatusAccepted, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: redeliverDescription}

func (s *Server) handleChatDeliveryRedeliver(ctx context.Context, in *destinationDeliveryInput) (*body[assess.Delivery], error) {
	d, err := s.dep.Deliveries.Redeliver(ctx, assess.DeliveryKindChat, in.ID, in.DeliveryID, requestActor(ctx))
	return reply(d), err
}
