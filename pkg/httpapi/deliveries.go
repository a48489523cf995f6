package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// DeliveryPage is one page of a delivery log.
type DeliveryPage struct {
	Items      []assess.Delivery `json:"items"`
	NextCursor string            `json:"nextCursor,omitempty"`
	HasMore    bool              `json:"hasMore"`
}

// DeliveryQuery selects a page of a delivery log: assess.DeliveryFilter without the
// fields the endpoint sets (embedded in the inputs of the delivery-log operations).
type DeliveryQuery struct {
	Status string `query:"status" enum:"pending,retrying,succeeded,failed,skipped" doc:"Only deliveries in this state"`
	Cursor string `query:"cursor" maxLength:"100" doc:"nextCursor of the previous page"`
	Limit  int    `query:"limit" minimum:"1" maximum:"200" default:"50"`
}

func (q DeliveryQuery) filter(kind, destinationID string) assess.DeliveryFilter {
	return assess.DeliveryFilter{Kind: kind, DestinationID: destinationID, Status: q.Status, Cursor: q.Cursor, Limit: q.Limit}
}

// destinationLog describes the delivery-log endpoints under one kind of destination
// (webhooks, chat destinations), all below path, which ends in /{id}.
type destinationLog struct {
	kind, path, tag string
	permission      assess.Perm
	idPart, noun    string
	exists          func(ctx context.Context, id string) error
}

const deliveryLogDescription = "Newest first, cursor-paginated; `status` keeps the deliveries in one state. Deliveries " +
	"are kept for the channel's retention period (WEBHOOK_DELIVERY_RETENTION_DAYS and the like)."

const redeliverDescription = "Queues a finished delivery (succeeded, failed or skipped) again under the same id, so " +
	"webhook receivers see the same webhook-id; attempts start again from one. A delivery still pending or " +
	"retrying answers 409 conflict."

func (s *Server) registerDestinationDeliveries(d destinationLog) {
	tags := []string{d.tag}
	register(s, Op{Permission: d.permission, Operation: huma.Operation{
		OperationID: "list" + d.idPart + "Deliveries", Method: http.MethodGet, Path: d.path + "/deliveries",
		Summary: "The delivery log of a " + d.noun, Tags: tags, Errors: []int{http.StatusNotFound},
		Description: deliveryLogDescription,
	}}, func(ctx context.Context, in *struct {
		ID string `path:"id" maxLength:"64"`
		DeliveryQuery
	}) (*struct{ Body DeliveryPage }, error) {
		if err := d.exists(ctx, in.ID); err != nil {
			return nil, err
		}
		return s.deliveryPage(ctx, in.filter(d.kind, in.ID))
	})
	register(s, Op{Permission: d.permission, Operation: huma.Operation{
		OperationID: "get" + d.idPart + "Delivery", Method: http.MethodGet, Path: d.path + "/deliveries/{deliveryId}",
		Summary: "One delivery to a " + d.noun, Tags: tags, Errors: []int{http.StatusNotFound},
		Description: "The delivery with every attempt (status, error, the first 1 KiB of the response)" + payloadNote(d.kind) + ".",
	}}, func(ctx context.Context, in *struct {
		ID         string `path:"id" maxLength:"64"`
		DeliveryID string `path:"deliveryId" maxLength:"64"`
	}) (*struct{ Body assess.Delivery }, error) {
		dl, err := s.dep.Deliveries.FindDelivery(ctx, d.kind, in.ID, in.DeliveryID)
		return &struct{ Body assess.Delivery }{Body: dl}, err
	})
	register(s, Op{Permission: d.permission, Operation: huma.Operation{
		OperationID: "redeliver" + d.idPart + "Delivery", Method: http.MethodPost, Path: d.path + "/deliveries/{deliveryId}/redeliver",
		DefaultStatus: http.StatusAccepted, Summary: "Send a delivery to a " + d.noun + " again", Tags: tags,
		Errors: []int{http.StatusNotFound, http.StatusConflict}, Description: redeliverDescription,
	}}, func(ctx context.Context, in *struct {
		ID         string `path:"id" maxLength:"64"`
		DeliveryID string `path:"deliveryId" maxLength:"64"`
	}) (*struct{ Body assess.Delivery }, error) {
		dl, err := s.dep.Deliveries.Redeliver(ctx, d.kind, in.ID, in.DeliveryID, requestActor(ctx))
		return &struct{ Body assess.Delivery }{Body: dl}, err
	})
}

func payloadNote(kind string) string {
	if kind == assess.DeliveryKindWebhook {
		return ", and the envelope as sent in `payload`"
	}
	return ""
}

func (s *Server) deliveryPage(ctx context.Context, f assess.DeliveryFilter) (*struct{ Body DeliveryPage }, error) {
	items, next, err := s.dep.Deliveries.FindDeliveries(ctx, f)
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = []assess.Delivery{}
	}
	return &struct{ Body DeliveryPage }{Body: DeliveryPage{Items: items, NextCursor: next, HasMore: next != ""}}, nil
}
