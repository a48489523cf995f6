package httpapi

import (
	"context"

	"github.com/assay-dev/assay/pkg/assess"
)

// The delivery logs: one per webhook and chat destination (webhooks.go, chat.go) and the
// e-mail log (email.go).

// DeliveryQuery selects a page of a delivery log: assess.DeliveryFilter without the
// fields the endpoint sets (embedded in the inputs of the delivery-log operations).
type DeliveryQuery struct {
	Status string `query:"status" enum:"pending,retrying,succeeded,failed,skipped" doc:"Only deliveries in this state"`
	assess.PageRequest
}

func (q DeliveryQuery) filter(kind, destinationID string) assess.DeliveryFilter {
	return assess.DeliveryFilter{Kind: kind, DestinationID: destinationID, Status: q.Status, PageRequest: q.PageRequest}
}

// destinationDeliveriesInput selects a page of one destination's delivery log.
type destinationDeliveriesInput struct {
	ID string `path:"id" maxLength:"64"`
	DeliveryQuery
}

// destinationDeliveryInput names one delivery of one destination.
type destinationDeliveryInput struct {
	ID         string `path:"id" maxLength:"64"`
	DeliveryID string `path:"deliveryId" maxLength:"64"`
}

// deliveryIDInput names one delivery of a log without destinations (e-mail).
type deliveryIDInput struct {
	DeliveryID string `path:"deliveryId" maxLength:"64"`
}

const deliveryLogDescription = "Newest first, cursor-paginated; `status` keeps the deliveries in one state. Deliveries " +
	"are kept for the channel's retention period (WEBHOOK_DELIVERY_RETENTION_DAYS and the like)."

const redeliverDescription = "Queues a finished delivery (succeeded, failed or skipped) again under the same id, so " +
	"webhook receivers see the same webhook-id; attempts start again from one. A delivery still pending or " +
	"retrying answers 409 conflict."

func (s *Server) deliveryPage(ctx context.Context, f assess.DeliveryFilter) (*body[assess.Page[assess.Delivery]], error) {
	page, err := s.dep.Deliveries.FindDeliveries(ctx, f)
	return reply(page), err
}
