package assess

import (
	"slices"
	"strings"
	"time"
)

// Identifier prefixes of the event and delivery records.
const (
	PrefixEvent         = "evt_"
	PrefixNotification  = "nt_"
	PrefixWebhook       = "wh_"
	PrefixChat          = "ch_"
	PrefixDelivery      = "dl_"
	PrefixRule          = "nr_"
	PrefixPasswordReset = "prt_"
)

// Event is the envelope every channel delivers: the webhook body, the source of chat
// messages, e-mails and in-app notifications. Data has the shape of the API resource the
// event is about (a User for user.*, a Webhook for channel.webhook.*, …).
type Event struct {
	ID        string     `json:"id" doc:"Stable identifier of the event (evt_…)"`
	Type      string     `json:"type" doc:"<resource>.<verb>, see the webhooks section of this document"`
	Timestamp time.Time  `json:"timestamp"`
	Actor     EventActor `json:"actor"`
	Data      any        `json:"data"`
}

// EventActor names who caused an event.
type EventActor struct {
	ID          string `json:"id" doc:"User id, or 'system' for the service itself, or 'cli:<os user>'"`
	DisplayName string `json:"displayName"`
}

// NewEvent is what a store hands to the emitter inside the transaction of a change.
type NewEvent struct {
	Type EventName
	Data any // the resource, marshalled as the API shows it; never a secret
	// SubjectUserID is the user the event concerns (the account changed, the owner of an
	// API key, the creator of an invite); routed per EventType.NotifySubject.
	SubjectUserID string
	// Summary is a short phrase naming the record, used in notifications, e-mails and chat
	// ("alice", "Key for CI", "https://hooks.example.com/x").
	Summary string
	// Link is the SPA path of the record, such as /admin/users?id=u_…; joined to APP_URL in
	// e-mails and chat.
	Link string
	// Audience are further users the event concerns (the team of an assessment): they are
	// notified like the subject user (per EventType.NotifySubject).
	Audience []string
	// AssessmentID and EvidenceID, when set, restrict every user recipient (default
	// audience and rules alike) to the users who may see that assessment or that evidence
	// (object-level access, PRODUCT P4.4): an event never tells a user about a record they
	// could not open. Webhooks and chat destinations are organisation-wide and still get it.
	AssessmentID string
	EvidenceID   string
}

// EventType describes one type of the catalogue.
type EventType struct {
	Type        EventName `json:"type"`
	Category    string    `json:"category" doc:"The text before the first dot; filters accept '<category>.*'"`
	Title       string    `json:"title" doc:"Short English title used in notifications"`
	Description string    `json:"description"`
	// Permission is what a user must hold to receive the event through in-app
	// notifications, e-mail or a personal rule (the subject user receives it anyway).
	Permission Perm `json:"permission"`
	// NotifyHolders sends an in-app notification to every active holder of Permission,
	// except the actor.
	NotifyHolders bool `json:"notifyHolders" doc:"Holders of the permission are notified in-app by default"`
	// NotifySubject sends an in-app notification to the subject user, unless they are the actor.
	NotifySubject bool `json:"notifySubject" doc:"The user the event concerns is notified in-app by default"`
	// EmailDefault also e-mails the default in-app recipients (when e-mail is enabled).
	EmailDefault bool `json:"emailDefault" doc:"The default recipients are also e-mailed"`
	// Payload is a zero value of the data type, for the OpenAPI webhooks section.
	Payload any `json:"-"`
}

// Event categories of the identity and channel events. Domain issues add their own.
const (
	CategoryUser    = "user"
	CategoryAPIKey  = "apikey"
	CategoryInvite  = "invite"
	CategoryRole    = "role"
	CategoryChannel = "channel"
	CategoryProject = "project"
)

// EventName is an event type of the catalogue: <category>.<verb>. Every name is declared
// once below and described in EventTypes; stores emit them through change records
// (Change), never as bare strings.
type EventName string

// Event types emitted by the identity and channel features.
const (
	EventUserCreated     EventName = "user.created"
	EventUserUpdated     EventName = "user.updated"
	EventUserDeactivated EventName = "user.deactivated"
	EventUserLocked      EventName = "user.locked"
	EventAPIKeyCreated   EventName = "apikey.created"
	EventAPIKeyRevoked   EventName = "apikey.revoked"
	EventInviteCreated   EventName = "invite.created"
	EventInviteConsumed  EventName = "invite.consumed"
	EventInviteRevoked   EventName = "invite.revoked"
	EventRoleCreated     EventName = "role.created"
	EventRoleUpdated     EventName = "role.updated"
	EventRoleDeleted     EventName = "role.deleted"
	EventWebhookCreated  EventName = "channel.webhook.created"
	EventWebhookUpdated  EventName = "channel.webhook.updated"
	EventWebhookDeleted  EventName = "channel.webhook.deleted"
	EventWebhookDisabled EventName = "channel.webhook.disabled"
	EventChatCreated     EventName = "channel.chat.created"
	EventChatUpdated     EventName = "channel.chat.updated"
	EventChatDeleted     EventName = "channel.chat.deleted"
	EventChatDisabled    EventName = "channel.chat.disabled"
	EventChannelTest     EventName = "channel.test"
)

// Event types of entities, their relationships and compliance policies.
const (
	EventEntityCreated             EventName = "entity.created"
	EventEntityUpdated             EventName = "entity.updated"
	EventEntityDeleted             EventName = "entity.deleted"
	EventEntityRelationshipAdded   EventName = "entity.relationship_added"
	EventEntityRelationshipRemoved EventName = "entity.relationship_removed"
	EventEntityPolicyAdded         EventName = "entity.policy_added"
	EventEntityPolicyUpdated       EventName = "entity.policy_updated"
	EventEntityPolicyRemoved       EventName = "entity.policy_removed"
)

// Event category and types of the standards catalogue. Every content change of a draft
// (metadata, requirements, levels) is one standard.updated per request; a duplicate is a
// standard.created whose source is "duplicate".
const (
	CategoryStandard                 = "standard"
	EventStandardCreated   EventName = "standard.created"
	EventStandardUpdated   EventName = "standard.updated"
	EventStandardSubmitted EventName = "standard.submitted"
	EventStandardApproved  EventName = "standard.approved"
	EventStandardRejected  EventName = "standard.rejected"
	EventStandardRetired   EventName = "standard.retired"
	EventStandardDeleted   EventName = "standard.deleted"
)

// Event types of projects.
const (
	EventProjectCreated      EventName = "project.created"
	EventProjectUpdated      EventName = "project.updated"
	EventProjectStateChanged EventName = "project.state_changed"
	EventProjectArchived     EventName = "project.archived"
	EventProjectDeleted      EventName = "project.deleted"
)

// Event types emitted by standard transfers.
const (
	EventStandardImported EventName = "standard.imported"
)

// ChannelTestMessage is the data of channel.test.
type ChannelTestMessage struct {
	DestinationID string `json:"destinationId" doc:"The webhook or chat destination the test was sent to"`
	Channel       string `json:"channel" enum:"webhook,slack,teams,mattermost"`
	Message       string `json:"message"`
}

// EventTypes is the catalogue. Every type the service emits is listed here, and the
// OpenAPI document describes each under its webhooks root.
var EventTypes = slices.Concat([]EventType{
	{Type: EventUserCreated, Title: "User created", Description: "An account was created (setup, administrator, registration or invite).",
		Permission: PermAdminUsers, NotifyHolders: true, Payload: User{}},
	{Type: EventUserUpdated, Title: "User updated", Description: "An account's details, roles or state changed.",
		Permission: PermAdminUsers, NotifySubject: true, Payload: User{}},
	{Type: EventUserDeactivated, Title: "User deactivated", Description: "An account was deactivated and signed out everywhere.",
		Permission: PermAdminUsers, NotifyHolders: true, Payload: User{}},
	{Type: EventUserLocked, Title: "Account locked", Description: "Too many failed sign-ins locked an account for a while.",
		Permission: PermAdminUsers, NotifyHolders: true, NotifySubject: true, EmailDefault: true, Payload: User{}},
	{Type: EventAPIKeyCreated, Title: "API key created", Description: "An API key was created.",
		Permission: PermAdminSettings, NotifySubject: true, Payload: APIKey{}},
	{Type: EventAPIKeyRevoked, Title: "API key revoked", Description: "An API key was revoked.",
		Permission: PermAdminSettings, NotifySubject: true, Payload: APIKey{}},
	{Type: EventInviteCreated, Title: "Invite created", Description: "An invitation to register was created.",
		Permission: PermAdminUsers, NotifyHolders: true, Payload: Invite{}},
	{Type: EventInviteConsumed, Title: "Invite accepted", Description: "Someone registered with an invitation.",
		Permission: PermAdminUsers, NotifySubject: true, Payload: Invite{}},
	{Type: EventInviteRevoked, Title: "Invite revoked", Description: "An invitation was revoked.",
		Permission: PermAdminUsers, NotifyHolders: true, Payload: Invite{}},
	{Type: EventRoleCreated, Title: "Role created", Description: "A custom role was created.",
		Permission: PermAdminRoles, NotifyHolders: true, Payload: Role{}},
	{Type: EventRoleUpdated, Title: "Role changed", Description: "A role's name, description or permissions changed.",
		Permission: PermAdminRoles, NotifyHolders: true, Payload: Role{}},
	{Type: EventRoleDeleted, Title: "Role deleted", Description: "A custom role was deleted.",
		Permission: PermAdminRoles, NotifyHolders: true, Payload: Role{}},
	{Type: EventWebhookCreated, Title: "Webhook created", Description: "A webhook destination was added.",
		Permission: PermAdminWebhooks, NotifyHolders: true, Payload: Webhook{}},
	{Type: EventWebhookUpdated, Title: "Webhook changed", Description: "A webhook destination was changed, re-enabled or given a new secret.",
		Permission: PermAdminWebhooks, NotifyHolders: true, Payload: Webhook{}},
	{Type: EventWebhookDeleted, Title: "Webhook deleted", Description: "A webhook destination was removed.",
		Permission: PermAdminWebhooks, NotifyHolders: true, Payload: Webhook{}},
	{Type: EventWebhookDisabled, Title: "Webhook disabled", Description: "A webhook destination was switched off after too many consecutive failed deliveries.",
		Permission: PermAdminWebhooks, NotifyHolders: true, EmailDefault: true, Payload: Webhook{}},
	{Type: EventChatCreated, Title: "Chat destination created", Description: "A Slack, Teams or Mattermost destination was added.",
		Permission: PermAdminIntegrations, NotifyHolders: true, Payload: ChatDestination{}},
	{Type: EventChatUpdated, Title: "Chat destination changed", Description: "A chat destination was changed or re-enabled.",
		Permission: PermAdminIntegrations, NotifyHolders: true, Payload: ChatDestination{}},
	{Type: EventChatDeleted, Title: "Chat destination deleted", Description: "A chat destination was removed.",
		Permission: PermAdminIntegrations, NotifyHolders: true, Payload: ChatDestination{}},
	{Type: EventChatDisabled, Title: "Chat destination disabled", Description: "A chat destination was switched off after too many consecutive failed deliveries.",
		Permission: PermAdminIntegrations, NotifyHolders: true, EmailDefault: true, Payload: ChatDestination{}},
	{Type: EventChannelTest, Title: "Test message", Description: "A test sent to one destination from the admin UI or API; delivered only there.",
		Permission: PermAdminWebhooks, Payload: ChannelTestMessage{}},
	{Type: EventEntityCreated, Title: "Entity created", Description: "An entity (organisation, product, service, vendor …) was created.",
		Permission: PermEntitiesView, Payload: Entity{}},
	{Type: EventEntityUpdated, Title: "Entity changed", Description: "An entity's details, tags or state (archived, restored) changed.",
		Permission: PermEntitiesView, Payload: Entity{}},
	{Type: EventEntityDeleted, Title: "Entity deleted", Description: "An entity was deleted with its relationships and policies.",
		Permission: PermEntitiesView, Payload: Entity{}},
	{Type: EventEntityRelationshipAdded, Title: "Relationship added", Description: "A relationship between two entities was added.",
		Permission: PermEntitiesView, Payload: Relationship{}},
	{Type: EventEntityRelationshipRemoved, Title: "Relationship removed", Description: "A relationship between two entities was removed.",
		Permission: PermEntitiesView, Payload: Relationship{}},
	{Type: EventEntityPolicyAdded, Title: "Compliance policy added", Description: "A standard now applies to an entity (and to what it owns, contains or governs).",
		Permission: PermEntitiesView, Payload: Policy{}},
	{Type: EventEntityPolicyUpdated, Title: "Compliance policy changed", Description: "A compliance policy's level or description changed.",
		Permission: PermEntitiesView, Payload: Policy{}},
	{Type: EventEntityPolicyRemoved, Title: "Compliance policy removed", Description: "A standard no longer applies to an entity directly.",
		Permission: PermEntitiesView, Payload: Policy{}},
	{Type: EventStandardCreated, Title: "Standard created", Description: "A standard was authored, or duplicated into a new draft version (source duplicate).",
		Permission: PermStandardsView, Payload: Standard{}},
	{Type: EventStandardUpdated, Title: "Standard changed", Description: "A draft's metadata, requirements or levels changed (one event per request), or a standard's tags.",
		Permission: PermStandardsView, Payload: Standard{}},
	{Type: EventStandardSubmitted, Title: "Standard submitted for review", Description: "A draft was submitted; someone other than the submitter must approve or reject it.",
		Permission: PermStandardsApprove, NotifyHolders: true, Payload: Standard{}},
	{Type: EventStandardApproved, Title: "Standard published", Description: "A standard under review was approved and published.",
		Permission: PermStandardsView, NotifySubject: true, Payload: Standard{}},
	{Type: EventStandardRejected, Title: "Standard rejected", Description: "A standard under review was sent back to draft with a reason (rejectionReason).",
		Permission: PermStandardsView, NotifySubject: true, Payload: Standard{}},
	{Type: EventStandardRetired, Title: "Standard retired", Description: "A published standard was retired.",
		Permission: PermStandardsView, Payload: Standard{}},
	{Type: EventStandardDeleted, Title: "Standard deleted", Description: "A draft, or a retired standard nothing used, was deleted.",
		Permission: PermStandardsView, Payload: Standard{}},
	{Type: EventProjectCreated, Title: "Project created", Description: "A project was created.",
		Permission: PermProjectsView, NotifySubject: true, Payload: Project{}},
	{Type: EventProjectUpdated, Title: "Project changed", Description: "A project's details, dates, owner, standards, entities or tags changed, or it was restored from the archive.",
		Permission: PermProjectsView, NotifySubject: true, Payload: Project{}},
	{Type: EventProjectStateChanged, Title: "Project state changed", Description: "A project moved to another state of its lifecycle.",
		Permission: PermProjectsView, NotifySubject: true, Payload: Project{}},
	{Type: EventProjectArchived, Title: "Project archived", Description: "A project was archived: hidden from the default list and read-only.",
		Permission: PermProjectsView, NotifySubject: true, Payload: Project{}},
	{Type: EventProjectDeleted, Title: "Project deleted", Description: "A project was deleted for good.",
		Permission: PermProjectsView, NotifySubject: true, Payload: Project{}},
	{Type: EventStandardImported, Title: "Standard imported", Description: "A standard was imported from a CycloneDX document (upload, URL or the standards feed); one event per standard created.",
		Permission: PermStandardsView, Payload: Standard{}},
}, workEventTypes, attestationEventTypes)

func init() {
	for i := range EventTypes {
		EventTypes[i].Category, _, _ = strings.Cut(string(EventTypes[i].Type), ".")
	}
}

// LookupEventType returns the catalogue entry of typ.
func LookupEventType(typ EventName) (EventType, bool) {
	i := slices.IndexFunc(EventTypes, func(e EventType) bool { return e.Type == typ })
	if i < 0 {
		return EventType{}, false
	}
	return EventTypes[i], true
}

// EventFilterMatches reports whether a subscription filter selects typ. A filter entry is
// "*" (everything), "<category>.*" (a whole category, such as "user.*"), or an exact type.
func EventFilterMatches(filter []string, typ EventName) bool {
	category, _, _ := strings.Cut(string(typ), ".")
	for _, f := range filter {
		if f == "*" || f == string(typ) || f == category+".*" {
			return true
		}
	}
	return false
}

// ValidateEventFilter checks a subscription filter: at least one entry, each "*", a known
// category followed by ".*", or a known type. It returns the filter sorted and without
// duplicates. field names the request field in the error details.
func ValidateEventFilter(field string, filter []string) ([]string, error) {
	if len(filter) == 0 {
		return nil, &Error{Code: ECodeValidation, Message: "Choose at least one event type.",
			Details: []Detail{{Field: field, Code: "required", Message: "Choose at least one event type, a category such as user.*, or * for all."}}}
	}
	var details []Detail
	for _, f := range filter {
		if !knownFilterEntry(f) {
			details = append(details, Detail{Field: field, Code: "unknown_event_type", Message: "Unknown event type " + f + "."})
		}
	}
	if len(details) > 0 {
		return nil, &Error{Code: ECodeValidation, Message: "The event filter names unknown event types.", Details: details}
	}
	out := slices.Clone(filter)
	slices.Sort(out)
	return slices.Compact(out), nil
}

// validateEventFilterUpdate checks and normalises, in place, the event filter an update
// sets (see ValidateEventFilter); nil, a filter the update leaves as it is, passes.
func validateEventFilterUpdate(filter *[]string) error {
	if filter == nil {
		return nil
	}
	f, err := ValidateEventFilter("eventTypes", *filter)
	if err != nil {
		return err
	}
	*filter = f
	return nil
}

func knownFilterEntry(f string) bool {
	if f == "*" {
		return true
	}
	if cat, ok := strings.CutSuffix(f, ".*"); ok {
		return slices.ContainsFunc(EventTypes, func(e EventType) bool { return e.Category == cat })
	}
	_, ok := LookupEventType(EventName(f))
	return ok
}
