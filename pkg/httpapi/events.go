package httpapi

import (
	"context"
	"reflect"
	"strings"
	"unicode"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagEvents = []string{"Events"}

// EventTypeList is the event catalogue.
type EventTypeList struct {
	Items []assess.EventType `json:"items"`
}

var docEventTypeList = huma.Operation{OperationID: "listEventTypes", Summary: "The event catalogue", Tags: tagEvents,
	Description: "Every event type the service emits, with the permission needed to receive it in-app or by " +
		"e-mail and who is notified by default. Subscription filters (webhooks, chat, rules) accept a type, " +
		"`<category>.*` or `*`. The payload of each type is described in the `webhooks` section of this document."}

func (s *Server) handleEventTypeList(context.Context, *struct{}) (*body[EventTypeList], error) {
	return reply(EventTypeList{Items: assess.EventTypes}), nil
}

// describeEventWebhooks fills the document's webhooks root from the event catalogue: one
// POST per event type, whose body is the envelope with that type's data, as Assay sends
// it to webhook destinations.
func (s *Server) describeEventWebhooks() {
	oapi := s.API.OpenAPI()
	reg := oapi.Components.Schemas
	actor := reg.Schema(reflect.TypeFor[assess.EventActor](), true, "EventActor")
	hooks := make(map[string]*huma.PathItem, len(assess.EventTypes))
	for _, et := range assess.EventTypes {
		typ := string(et.Type)
		name := eventSchemaName(typ)
		reg.Map()[name] = &huma.Schema{
			Type: huma.TypeObject,
			Description: "Body of every " + typ + " delivery: sent to the webhook destinations whose event " +
				"filter selects the type or that a global notification rule names, signed per Standard Webhooks.",
			Required: []string{"id", "type", "timestamp", "actor", "data"},
			Properties: map[string]*huma.Schema{
				"id":        {Type: huma.TypeString, Description: "Stable identifier of the event (evt_…); the same in every delivery of it"},
				"type":      {Type: huma.TypeString, Const: typ},
				"timestamp": {Type: huma.TypeString, Format: "date-time", Description: "When the change happened"},
				"actor":     actor,
				"data":      reg.Schema(reflect.TypeOf(et.Payload), true, name+"Data"),
			},
		}
		hooks[typ] = &huma.PathItem{Post: &huma.Operation{
			OperationID: "event-" + strings.ReplaceAll(typ, ".", "-"),
			Summary:     et.Title,
			Description: et.Description,
			Tags:        tagEvents,
			Security:    anonymous,
			Parameters:  webhookHeaders,
			RequestBody: &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
				"application/json": {Schema: &huma.Schema{Ref: "#/components/schemas/" + name}},
			}},
			Responses: map[string]*huma.Response{
				"2XX": {Description: "Any 2xx acknowledges the delivery; anything else is retried"},
			},
			Extensions: map[string]any{ExtPermission: assess.PermAdminWebhooks}, // who manages the destinations they reach
		}}
	}
	oapi.Webhooks = hooks
}

// webhookHeaders are the Standard Webhooks headers of every delivery.
var webhookHeaders = []*huma.Param{
	{Name: "webhook-id", In: "header", Required: true, Schema: &huma.Schema{Type: huma.TypeString},
		Description: "The delivery id (dl_…): stable per event and destination, also on retries and redeliveries; use it to drop duplicates"},
	{Name: "webhook-timestamp", In: "header", Required: true, Schema: &huma.Schema{Type: huma.TypeString},
		Description: "Unix seconds of this attempt; refuse messages too far from your clock"},
	{Name: "webhook-signature", In: "header", Required: true, Schema: &huma.Schema{Type: huma.TypeString},
		Description: "`v1,` followed by base64(HMAC-SHA256(key, webhook-id + \".\" + webhook-timestamp + \".\" + body)), " +
			"where key is the base64-decoded part of the destination's secret after `whsec_`"},
}

// eventSchemaName names the envelope schema of an event type: user.created →
// UserCreatedEvent, apikey.created → APIKeyCreatedEvent.
func eventSchemaName(typ string) string {
	var b strings.Builder
	for part := range strings.FieldsFuncSeq(typ, func(r rune) bool { return r == '.' || r == '_' }) {
		if part == "apikey" {
			b.WriteString("APIKey")
			continue
		}
		r := []rune(part)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String() + "Event"
}
