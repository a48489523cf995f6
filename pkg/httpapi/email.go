package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// EmailTestRequest asks for a test message.
type EmailTestRequest struct {
	To string `json:"to,omitempty" format:"email" maxLength:"254" doc:"Recipient; the caller's own address when absent"`
}

type emailDeliveryIDInput struct {
	DeliveryID string `path:"deliveryId" maxLength:"64"`
}

func (s *Server) registerEmail() {
	tags := []string{"E-mail"}
	perm := assess.PermAdminIntegrations
	const base = "/api/v1/admin/email"
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "getEmailSettings", Method: http.MethodGet, Path: base + "/settings",
		Summary: "The mail-server settings", Tags: tags,
		Description: "The effective SMTP configuration: each field comes from the environment (SMTP_*) when it is set " +
			"there, else from the stored settings, else the default; `sources` says which. The password is never " +
			"shown, only whether one is set.",
	}}, func(ctx context.Context, _ *struct{}) (*struct{ Body assess.EmailSettings }, error) {
		st, err := s.dep.Email.EmailSettings(ctx)
		return &struct{ Body assess.EmailSettings }{Body: st}, err
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "updateEmailSettings", Method: http.MethodPatch, Path: base + "/settings",
		Summary: "Store mail-server settings", Tags: tags, Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity},
		Description: "Stores the given fields (absent ones stay; an empty password clears the stored one). A field the " +
			"environment sets cannot be stored: 422 naming it. Send the version last read (0 while nothing is " +
			"stored); a stale one gets 409 version_conflict. The password is kept encrypted.",
	}}, func(ctx context.Context, in *struct{ Body assess.EmailSettingsUpdate }) (*struct{ Body assess.EmailSettings }, error) {
		st, err := s.dep.Email.UpdateEmailSettings(ctx, in.Body, requestActor(ctx))
		return &struct{ Body assess.EmailSettings }{Body: st}, err
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "sendTestEmail", Method: http.MethodPost, Path: base + "/test", DefaultStatus: http.StatusAccepted,
		Summary: "Send a test e-mail", Tags: tags, Errors: []int{http.StatusUnprocessableEntity},
		Description: "Queues a test message to `to` (the caller's own address when absent) with the effective " +
			"settings. The answer is the queued delivery: follow it in the e-mail log. E-mail switched off answers " +
			"422 (detail code email_disabled).",
	}}, func(ctx context.Context, in *struct {
		Body *EmailTestRequest
	}) (*struct{ Body assess.Delivery }, error) {
		to := assess.PrincipalFrom(ctx).User.Email
		if in.Body != nil && in.Body.To != "" {
			to = in.Body.To
		}
		if to == "" {
			return nil, &assess.Error{Code: assess.ECodeValidation, Message: "Name a recipient: your account has no e-mail address.",
				Details: []assess.Detail{{Field: "to", Code: "required", Message: "Name a recipient."}}}
		}
		d, err := s.dep.Email.SendTestEmail(ctx, to, requestActor(ctx))
		return &struct{ Body assess.Delivery }{Body: d}, err
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "listEmailDeliveries", Method: http.MethodGet, Path: base + "/deliveries",
		Summary: "The e-mail log", Tags: tags,
		Description: "Every e-mail the service queued (events, invites, password resets, tests) with recipient and " +
			"subject; never the body. " + deliveryLogDescription,
	}}, func(ctx context.Context, in *DeliveryQuery) (*struct{ Body DeliveryPage }, error) {
		return s.deliveryPage(ctx, in.filter(assess.DeliveryKindEmail, ""))
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "getEmailDelivery", Method: http.MethodGet, Path: base + "/deliveries/{deliveryId}",
		Summary: "One e-mail delivery", Tags: tags, Errors: []int{http.StatusNotFound},
		Description: "The delivery with every attempt (the SMTP error of failed ones).",
	}}, func(ctx context.Context, in *emailDeliveryIDInput) (*struct{ Body assess.Delivery }, error) {
		d, err := s.dep.Deliveries.FindDelivery(ctx, assess.DeliveryKindEmail, "", in.DeliveryID)
		return &struct{ Body assess.Delivery }{Body: d}, err
	})
	register(s, Op{Permission: perm, Operation: huma.Operation{
		OperationID: "redeliverEmail", Method: http.MethodPost, Path: base + "/deliveries/{deliveryId}/redeliver",
		DefaultStatus: http.StatusAccepted, Summary: "Send an e-mail again", Tags: tags,
		Errors: []int{http.StatusNotFound, http.StatusConflict}, Description: redeliverDescription,
	}}, func(ctx context.Context, in *emailDeliveryIDInput) (*struct{ Body assess.Delivery }, error) {
		d, err := s.dep.Deliveries.Redeliver(ctx, assess.DeliveryKindEmail, "", in.DeliveryID, requestActor(ctx))
		return &struct{ Body assess.Delivery }{Body: d}, err
	})
}
