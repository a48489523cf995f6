package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// ChatDestinationPage is one page of chat destinations.
type ChatDestinationPage struct {
	Items      []assess.ChatDestination `json:"items"`
	NextCursor string                   `json:"nextCursor,omitempty"`
	HasMore    bool                     `json:"hasMore"`
}

type chatIDInput struct {
	ID string `path:"id" maxLength:"64"`
}

func (s *Server) registerChat() {
	tags := []string{"Chat"}
	perm := assess.PermAdminIntegrations
	const base = "/api/v1/admin/chat-destinations"
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "listChatDestinations", Method: http.MethodGet, Path: base,
		Summary: "List chat destinations", Tags: tags,
		Description: "Slack, Microsoft Teams and Mattermost incoming webhooks, newest first, cursor-paginated; " +
			"`platform` keeps one platform. URLs are shown masked (`urlHint`): they are credentials.",
	}}, func(ctx context.Context, in *struct {
		Platform string `query:"platform" enum:"slack,teams,mattermost" doc:"Only destinations of this platform"`
		Cursor   string `query:"cursor" maxLength:"200" doc:"nextCursor of the previous page"`
		Limit    int    `query:"limit" minimum:"1" maximum:"200" default:"50"`
	}) (*struct{ Body ChatDestinationPage }, error) {
		items, next, err := s.dep.Chat.FindChatDestinations(ctx, in.Platform, in.Cursor, in.Limit)
		if err != nil {
			return nil, err
		}
		if items == nil {
			items = []assess.ChatDestination{}
		}
		return &struct{ Body ChatDestinationPage }{Body: ChatDestinationPage{Items: items, NextCursor: next, HasMore: next != ""}}, nil
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "createChatDestination", Method: http.MethodPost, Path: base, DefaultStatus: http.StatusCreated,
		Summary: "Add a chat destination", Tags: tags, Errors: []int{http.StatusUnprocessableEntity},
		Description: "The URL is the platform's incoming-webhook URL: Slack https://hooks.slack.com/…, Teams an https " +
			"URL on *.webhook.office.com, *.logic.azure.com or *.powerplatform.com, Mattermost any https URL. " +
			"It is stored encrypted and never shown again, only masked. Another URL is refused with 422 " +
			"(detail code url_not_allowed). Messages are posted only while the platform is switched on " +
			"(SLACK_ENABLED, TEAMS_ENABLED, MATTERMOST_ENABLED).",
	}}, func(ctx context.Context, in *struct{ Body assess.NewChatDestination }) (*struct{ Body assess.ChatDestination }, error) {
		c, err := s.dep.Chat.CreateChatDestination(ctx, in.Body, requestActor(ctx))
		return &struct{ Body assess.ChatDestination }{Body: c}, err
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "getChatDestination", Method: http.MethodGet, Path: base + "/{id}",
		Summary: "Get a chat destination", Tags: tags, Errors: []int{http.StatusNotFound},
	}}, func(ctx context.Context, in *chatIDInput) (*struct{ Body assess.ChatDestination }, error) {
		c, err := s.dep.Chat.FindChatDestination(ctx, in.ID)
		return &struct{ Body assess.ChatDestination }{Body: c}, err
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "updateChatDestination", Method: http.MethodPatch, Path: base + "/{id}",
		Summary: "Update a chat destination", Tags: tags,
		Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
		Description: "Absent fields stay (the URL too). Send the version last read; a stale one gets 409 " +
			"version_conflict. Setting `active` to true re-enables a destination switched off after consecutive " +
			"failures. The platform cannot change.",
	}}, func(ctx context.Context, in *struct {
		ID   string `path:"id" maxLength:"64"`
		Body assess.ChatDestinationUpdate
	}) (*struct{ Body assess.ChatDestination }, error) {
		c, err := s.dep.Chat.UpdateChatDestination(ctx, in.ID, in.Body, requestActor(ctx))
		return &struct{ Body assess.ChatDestination }{Body: c}, err
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "deleteChatDestination", Method: http.MethodDelete, Path: base + "/{id}", DefaultStatus: http.StatusNoContent,
		Summary: "Delete a chat destination", Tags: tags, Errors: []int{http.StatusNotFound},
		Description: "Deliveries still queued for it are skipped.",
	}}, func(ctx context.Context, in *chatIDInput) (*struct{}, error) {
		return nil, s.dep.Chat.DeleteChatDestination(ctx, in.ID, requestActor(ctx))
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "testChatDestination", Method: http.MethodPost, Path: base + "/{id}/test", DefaultStatus: http.StatusAccepted,
		Summary: "Send a test message to a chat destination", Tags: tags,
		Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		Description: "Records a channel.test event and queues a message to this destination only (even an inactive " +
			"one). The answer is the queued delivery: follow it in the delivery log.",
	}}, func(ctx context.Context, in *chatIDInput) (*struct{ Body assess.Delivery }, error) {
		d, err := s.dep.Chat.TestChatDestination(ctx, in.ID, requestActor(ctx))
		return &struct{ Body assess.Delivery }{Body: d}, err
	})
	s.registerDestinationDeliveries(destinationLog{
		kind: assess.DeliveryKindChat, path: base + "/{id}", permission: perm, tag: "Chat",
		idPart: "Chat", noun: "chat destination",
		exists: func(ctx context.Context, id string) error {
			_, err := s.dep.Chat.FindChatDestination(ctx, id)
			return err
		},
	})
}
