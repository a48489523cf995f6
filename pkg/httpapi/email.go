package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagEmail = []string{"E-mail"}

// EmailTestRequest asks for a test message.
type EmailTestRequest struct {
	To string `json:"to,omitempty" format:"email" maxLength:"254" doc:"Recipient; the caller's own address when absent"`
}

var docEmailSettingsGet = huma.Operation{OperationID: "getEmailSettings", Summary: "The mail-server settings", Tags: tagEmail,
	Description: "The effective SMTP configuration: each field comes from the environment (SMTP_*) when it is set " +
		"there, else from the stored settings, else the default; `sources` says which. The password is never " +
		"shown, only whether one is set."}

func (s *Server) handleEmailSettingsGet(ctx context.Context, _ *struct{}) (*body[assess.EmailSettings], error) {
	st, err := s.dep.Email.EmailSettings(ctx)
	return reply(st), err
}

var docEmailSettingsUpdate = huma.Operation{OperationID: "updateEmailSettings", Summary: "Store mail-server settings", Tags: tagEmail,
	Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Stores the given fields (absent ones stay; an empty password clears the stored one). A field the " +
		"environment sets cannot be stored: 422 naming it. Send the version last read (0 while nothing is " +
		"stored); a stale one gets 409 version_conflict. The password is kept encrypted."}

func (s *Server) handleEmailSettingsUpdate(ctx context.Context, in *body[assess.EmailSettingsUpdate]) (*body[assess.EmailSettings], error) {
	st, err := s.dep.Email.UpdateEmailSettings(ctx, in.Body, requestActor(ctx))
	return reply(st), err
}

var docEmailTestSend = huma.Operation{OperationID: "sendTestEmail", Summary: "Send a test e-mail", Tags: tagEmail,
	DefaultStatus: http.StatusAccepted, Errors: []int{http.StatusUnprocessableEntity},
	Description: "Queues a test message to `to` (the caller's own address when absent) with the effective " +
		"settings. The answer is the queued delivery: follow it in the e-mail log. E-mail switched off answers " +
		"422 (detail code email_disabled)."}

func (s *Server) handleEmailTestSend(ctx context.Context, in *body[*EmailTestRequest]) (*body[assess.Delivery], error) {
	to := assess.PrincipalFrom(ctx).User.Email
	if in.Body != nil && in.Body.To != "" {
		to = in.Body.To
	}
	if to == "" {
		return nil, &assess.Error{Code: assess.ECodeValidation, Message: "Name a recipient: your account has no e-mail address.",
			Details: []assess.Detail{{Field: "to", Code: "required", Message: "Name a recipient."}}}
	}
	d, err := s.dep.Email.SendTestEmail(ctx, to, requestActor(ctx))
	return reply(d), err
}

// The e-mail log.

var docEmailDeliveryList = huma.Operation{OperationID: "listEmailDeliveries", Summary: "The e-mail log", Tags: tagEmail,
	Description: "Every e-mail the service queued (events, invites, password resets, tests) with recipient and " +
		"subject; never the body. " + deliveryLogDescription}

func (s *Server) handleEmailDeliveryList(ctx context.Context, in *DeliveryQuery) (*body[assess.Page[assess.Delivery]], error) {
	return s.deliveryPage(ctx, in.filter(assess.DeliveryKindEmail, ""))
}

var docEmailDeliveryGet = huma.Operation{OperationID: "getEmailDelivery", Summary: "One e-mail delivery", Tags: tagEmail,
	Errors: []int{http.StatusNotFound}, Description: "The delivery with every attempt (the SMTP error of failed ones)."}

func (s *Server) handleEmailDeliveryGet(ctx context.Context, in *deliveryIDInput) (*body[assess.Delivery], error) {
	d, err := s.dep.Deliveries.FindDelivery(ctx, assess.DeliveryKindEmail, "", in.DeliveryID)
	return reply(d), err
}

var docEmailDeliveryRedeliver = huma.Operation{OperationID: "redeliverEmail", Summary: "Send an e-mail again", Tags: tagEmail,
	DefaultStatus: http.StatusAccepted, Errors: []int{http.StatusNotFound, http.StatusConflict}, Description: redeliverDescription}

func (s *Server) handleEmailDeliveryRedeliver(ctx context.Context, in *deliveryIDInput) (*body[assess.Delivery], error) {
	d, err := s.dep.Deliveries.Redeliver(ctx, assess.DeliveryKindEmail, "", in.DeliveryID, requestActor(ctx))
	return reply(d), err
}
