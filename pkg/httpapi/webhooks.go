package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagWebhooks = []string{"Webhooks"}

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

func oneTimeWebhookSecret(w assess.Webhook, secret string) *webhookSecretOutput {
	return &webhookSecretOutput{OneTimeSecret: "true", CacheControl: "no-store", Body: WebhookWithSecret{Webhook: w, Secret: secret}}
}

var docWebhookList = huma.Operation{OperationID: "listWebhooks", Summary: "List webhook destinations", Tags: tagWebhooks,
	Description: "Newest first, cursor-paginated; never the secrets."}

func (s *Server) handleWebhookList(ctx context.Context, in *assess.WebhookFilter) (*body[assess.Page[assess.Webhook]], error) {
	page, err := s.dep.Webhooks.FindWebhooks(ctx, *in)
	return reply(page), err
}

var docWebhookCreate = huma.Operation{OperationID: "createWebhook", Summary: "Add a webhook destination", Tags: tagWebhooks,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity},
	Description: "Assay POSTs the events selected by `eventTypes` to `url` as JSON envelopes (see the webhooks " +
		"section of this document), signed per Standard Webhooks. The answer carries the signing secret, shown " +
		"only this once. The URL must be https (plain http only to OUTBOUND_ALLOW_NETWORKS) without credentials; " +
		"a literal private, loopback or link-local address is refused with 422 (detail code url_not_allowed)."}

func (s *Server) handleWebhookCreate(ctx context.Context, in *body[assess.NewWebhook]) (*webhookSecretOutput, error) {
	w, secret, err := s.dep.Webhooks.CreateWebhook(ctx, in.Body, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return oneTimeWebhookSecret(w, secret), nil
}

var docWebhookGet = huma.Operation{OperationID: "getWebhook", Summary: "Get a webhook destination", Tags: tagWebhooks,
	Errors: []int{http.StatusNotFound}, Description: "The destination without its secret, which is shown only at creation and rotation."}

func (s *Server) handleWebhookGet(ctx context.Context, in *idInput) (*body[assess.Webhook], error) {
	w, err := s.dep.Webhooks.FindWebhook(ctx, in.ID)
	return reply(w), err
}

var docWebhookUpdate = huma.Operation{OperationID: "updateWebhook", Summary: "Update a webhook destination", Tags: tagWebhooks,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Absent fields stay. Send the version last read; a stale one gets 409 version_conflict. Setting " +
		"`active` to true re-enables a destination switched off after consecutive failures and clears its count."}

func (s *Server) handleWebhookUpdate(ctx context.Context, in *idBody[assess.WebhookUpdate]) (*body[assess.Webhook], error) {
	w, err := s.dep.Webhooks.UpdateWebhook(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(w), err
}

var docWebhookDelete = huma.Operation{OperationID: "deleteWebhook", Summary: "Delete a webhook destination", Tags: tagWebhooks,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound}, Description: "Deliveries still queued for it are skipped."}

func (s *Server) handleWebhookDelete(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Webhooks.DeleteWebhook(ctx, in.ID, requestActor(ctx))
}

var docWebhookSecretRotate = huma.Operation{OperationID: "rotateWebhookSecret", Summary: "Give a webhook destination a new secret",
	Tags: tagWebhooks, Errors: []int{http.StatusNotFound},
	Description: "Replaces the signing secret at once: attempts from now on are signed with the new one, which " +
		"this answer shows for the only time."}

func (s *Server) handleWebhookSecretRotate(ctx context.Context, in *idInput) (*webhookSecretOutput, error) {
	w, secret, err := s.dep.Webhooks.RotateWebhookSecret(ctx, in.ID, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return oneTimeWebhookSecret(w, secret), nil
}

var docWebhookTest = huma.Operation{OperationID: "testWebhook", Summary: "Send a test event to a webhook destination", Tags: tagWebhooks,
	DefaultStatus: http.StatusAccepted, Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	Description: "Records a channel.test event and queues its delivery to this destination only (even an inactive " +
		"one). The answer is the queued delivery: follow it in the delivery log."}

func (s *Server) handleWebhookTest(ctx context.Context, in *idInput) (*body[assess.Delivery], error) {
	d, err := s.dep.Webhooks.TestWebhook(ctx, in.ID, requestActor(ctx))
	return reply(d), err
}

// The delivery log of a webhook destination.

var docWebhookDeliveryList = huma.Operation{OperationID: "listWebhookDeliveries", Summary: "The delivery log of a webhook destination",
	Tags: tagWebhooks, Errors: []int{http.StatusNotFound}, Description: deliveryLogDescription}

func (s *Server) handleWebhookDeliveryList(ctx context.Context, in *destinationDeliveriesInput) (*body[assess.Page[assess.Delivery]], error) {
	if _, err := s.dep.Webhooks.FindWebhook(ctx, in.ID); err != nil {
		return nil, err
	}
	return s.deliveryPage(ctx, in.filter(assess.DeliveryKindWebhook, in.ID))
}

var docWebhookDeliveryGet = huma.Operation{OperationID: "getWebhookDelivery", Summary: "One delivery to a webhook destination",
	Tags: tagWebhooks, Errors: []int{http.StatusNotFound},
	Description: "The delivery with every attempt (status, error, the first 1 KiB of the response), and the envelope as sent in `payload`."}

func (s *Server) handleWebhookDeliveryGet(ctx context.Context, in *destinationDeliveryInput) (*body[assess.Delivery], error) {
	d, err := s.dep.Deliveries.FindDelivery(ctx, assess.DeliveryKindWebhook, in.ID, in.DeliveryID)
	return reply(d), err
}

var docWebhookDeliveryRedeliver = huma.Operation{OperationID: "redeliverWebhookDelivery", Summary: "Send a delivery to a webhook destination again",
	Tags: tagWebhooks, DefaultStatus: http.StatusAccepted, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: redeliverDescription}

func (s *Server) handleWebhookDeliveryRedeliver(ctx context.Context, in *destinationDeliveryInput) (*body[assess.Delivery], error) {
	d, err := s.dep.Deliveries.Redeliver(ctx, assess.DeliveryKindWebhook, in.ID, in.DeliveryID, requestActor(ctx))
	return reply(d), err
}
