package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// WebhookPage is one page of webhook destinations.
type WebhookPage struct {
	Items      []assess.Webhook `json:"items"`
	NextCursor string           `json:"nextCursor,omitempty"`
	HasMore    bool             `json:"hasMore"`
}

// WebhookWithSecret is a webhook destination with its signing secret: the answer to a
// creation and to a rotation, and the only times the secret is shown.
type WebhookWithSecret struct {
	assess.Webhook
	Secret string `json:"secret" doc:"Signing secret (whsec_ followed by base64 of 32 random bytes), shown only in this response. Verify the webhook-signature header with it, per Standard Webhooks."`
}

type webhookSecretOutput struct {
	OneTimeSecret string `header:"X-One-Time-Secret" doc:"true: the body holds a secret shown only in this response; an idempotent retry answers 409 instead of repeating it"`
	CacheControl  string `header:"Cache-Control"`
	Body          WebhookWithSecret
}

type webhookIDInput struct {
	ID string `path:"id" maxLength:"64"`
}

func (s *Server) registerWebhooks() {
	tags := []string{"Webhooks"}
	perm := assess.PermAdminWebhooks
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "listWebhooks", Method: http.MethodGet, Path: "/api/v1/admin/webhooks",
		Summary: "List webhook destinations", Tags: tags, Description: "Newest first, cursor-paginated; never the secrets.",
	}}, func(ctx context.Context, in *listInput) (*struct{ Body WebhookPage }, error) {
		items, next, err := s.dep.Webhooks.FindWebhooks(ctx, in.Cursor, in.Limit)
		if err != nil {
			return nil, err
		}
		if items == nil {
			items = []assess.Webhook{}
		}
		return &struct{ Body WebhookPage }{Body: WebhookPage{Items: items, NextCursor: next, HasMore: next != ""}}, nil
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "createWebhook", Method: http.MethodPost, Path: "/api/v1/admin/webhooks", DefaultStatus: http.StatusCreated,
		Summary: "Add a webhook destination", Tags: tags, Errors: []int{http.StatusUnprocessableEntity},
		Description: "Assay POSTs the events selected by `eventTypes` to `url` as JSON envelopes (see the webhooks " +
			"section of this document), signed per Standard Webhooks. The answer carries the signing secret, shown " +
			"only this once. The URL must be https (plain http only to OUTBOUND_ALLOW_NETWORKS) without credentials; " +
			"a literal private, loopback or link-local address is refused with 422 (detail code url_not_allowed).",
	}}, func(ctx context.Context, in *struct{ Body assess.NewWebhook }) (*webhookSecretOutput, error) {
		w, secret, err := s.dep.Webhooks.CreateWebhook(ctx, in.Body, requestActor(ctx))
		if err != nil {
			return nil, err
		}
		return oneTimeWebhookSecret(w, secret), nil
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "getWebhook", Method: http.MethodGet, Path: "/api/v1/admin/webhooks/{id}",
		Summary: "Get a webhook destination", Tags: tags, Errors: []int{http.StatusNotFound},
		Description: "The destination without its secret, which is shown only at creation and rotation.",
	}}, func(ctx context.Context, in *webhookIDInput) (*struct{ Body assess.Webhook }, error) {
		w, err := s.dep.Webhooks.FindWebhook(ctx, in.ID)
		return &struct{ Body assess.Webhook }{Body: w}, err
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "updateWebhook", Method: http.MethodPatch, Path: "/api/v1/admin/webhooks/{id}",
		Summary: "Update a webhook destination", Tags: tags,
		Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
		Description: "Absent fields stay. Send the version last read; a stale one gets 409 version_conflict. Setting " +
			"`active` to true re-enables a destination switched off after consecutive failures and clears its count.",
	}}, func(ctx context.Context, in *struct {
		ID   string `path:"id" maxLength:"64"`
		Body assess.WebhookUpdate
	}) (*struct{ Body assess.Webhook }, error) {
		w, err := s.dep.Webhooks.UpdateWebhook(ctx, in.ID, in.Body, requestActor(ctx))
		return &struct{ Body assess.Webhook }{Body: w}, err
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "deleteWebhook", Method: http.MethodDelete, Path: "/api/v1/admin/webhooks/{id}", DefaultStatus: http.StatusNoContent,
		Summary: "Delete a webhook destination", Tags: tags, Errors: []int{http.StatusNotFound},
		Description: "Deliveries still queued for it are skipped.",
	}}, func(ctx context.Context, in *webhookIDInput) (*struct{}, error) {
		return nil, s.dep.Webhooks.DeleteWebhook(ctx, in.ID, requestActor(ctx))
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "rotateWebhookSecret", Method: http.MethodPost, Path: "/api/v1/admin/webhooks/{id}/rotate-secret",
		Summary: "Give a webhook destination a new secret", Tags: tags, Errors: []int{http.StatusNotFound},
		Description: "Replaces the signing secret at once: attempts from now on are signed with the new one, which " +
			"this answer shows for the only time.",
	}}, func(ctx context.Context, in *webhookIDInput) (*webhookSecretOutput, error) {
		w, secret, err := s.dep.Webhooks.RotateWebhookSecret(ctx, in.ID, requestActor(ctx))
		if err != nil {
			return nil, err
		}
		return oneTimeWebhookSecret(w, secret), nil
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "testWebhook", Method: http.MethodPost, Path: "/api/v1/admin/webhooks/{id}/test", DefaultStatus: http.StatusAccepted,
		Summary: "Send a test event to a webhook destination", Tags: tags,
		Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		Description: "Records a channel.test event and queues its delivery to this destination only (even an inactive " +
			"one). The answer is the queued delivery: follow it in the delivery log.",
	}}, func(ctx context.Context, in *webhookIDInput) (*struct{ Body assess.Delivery }, error) {
		d, err := s.dep.Webhooks.TestWebhook(ctx, in.ID, requestActor(ctx))
		return &struct{ Body assess.Delivery }{Body: d}, err
	})
	s.registerDestinationDeliveries(destinationLog{
		kind: assess.DeliveryKindWebhook, path: "/api/v1/admin/webhooks/{id}", permission: perm, tag: "Webhooks",
		idPart: "Webhook", noun: "webhook destination",
		exists: func(ctx context.Context, id string) error { _, err := s.dep.Webhooks.FindWebhook(ctx, id); return err },
	})
}

func oneTimeWebhookSecret(w assess.Webhook, secret string) *webhookSecretOutput {
	return &webhookSecretOutput{OneTimeSecret: "true", CacheControl: "no-store", Body: WebhookWithSecret{Webhook: w, Secret: secret}}
}
