package assess

import (
	"context"
	"net/mail"
	"slices"
	"strings"
	"time"
)

// Rule scopes.
const (
	RuleGlobal   = "global"
	RulePersonal = "personal"
)

// RuleChannels are where a rule sends the events it matches.
type RuleChannels struct {
	InApp      bool     `json:"inApp"`
	Email      bool     `json:"email"`
	WebhookIDs []string `json:"webhookIds,omitempty" maxItems:"50" doc:"Global rules only"`
	ChatIDs    []string `json:"chatIds,omitempty" maxItems:"50" doc:"Global rules only"`
}

// NotificationRule routes events to channels. A personal rule belongs to one user and
// sends to that user (in-app, e-mail) only events the user may see: they hold the type's
// permission or the event concerns them. A global rule sends to the members of Roles
// (in-app, e-mail; again only where they may see the event), to Emails, and to the chosen
// webhook and chat destinations.
type NotificationRule struct {
	ID         string       `json:"id"`
	Scope      string       `json:"scope" enum:"global,personal"`
	OwnerID    string       `json:"ownerId,omitempty"`
	Name       string       `json:"name"`
	EventTypes []string     `json:"eventTypes"`
	Channels   RuleChannels `json:"channels"`
	Roles      []string     `json:"roles" doc:"Global rules: role names whose members receive in-app and e-mail"`
	Emails     []string     `json:"emails" doc:"Global rules: further e-mail addresses"`
	Enabled    bool         `json:"enabled"`
	Warnings   []string     `json:"warnings" doc:"Why a chosen channel will not deliver now (switched off, destination inactive)"`
	Version    int64        `json:"version"`
	CreatedAt  time.Time    `json:"createdAt"`
	UpdatedAt  time.Time    `json:"updatedAt"`
}

// NewNotificationRule is a request to add a rule.
type NewNotificationRule struct {
	Name       string       `json:"name" minLength:"1" maxLength:"200"`
	EventTypes []string     `json:"eventTypes" minItems:"1" maxItems:"200"`
	Channels   RuleChannels `json:"channels"`
	Roles      []string     `json:"roles,omitempty" maxItems:"50"`
	Emails     []string     `json:"emails,omitempty" maxItems:"50"`
	Enabled    *bool        `json:"enabled,omitempty" doc:"Default true"`
}

// NotificationRuleUpdate changes a rule; absent fields stay.
type NotificationRuleUpdate struct {
	Version    int64         `json:"version" minimum:"1"`
	Name       *string       `json:"name,omitempty" minLength:"1" maxLength:"200"`
	EventTypes *[]string     `json:"eventTypes,omitempty" minItems:"1" maxItems:"200"`
	Channels   *RuleChannels `json:"channels,omitempty"`
	Roles      *[]string     `json:"roles,omitempty" maxItems:"50"`
	Emails     *[]string     `json:"emails,omitempty" maxItems:"50"`
	Enabled    *bool         `json:"enabled,omitempty"`
}

// NotificationRuleFilter selects the rules of a scope, newest first.
type NotificationRuleFilter struct {
	PageRequest
}

// ValidateRuleScope refuses a scope other than global and personal.
func ValidateRuleScope(scope string) error {
	if scope == RuleGlobal || scope == RulePersonal {
		return nil
	}
	return &Error{Code: ECodeValidation, Message: "Unknown rule scope " + scope + "."}
}

// Validate checks a new rule of scope and normalises it (see
// NotificationRuleUpdate.Validate), then checks whom it sends to (see CheckAudience).
func (r *NewNotificationRule) Validate(scope string) error {
	if err := ValidateRuleScope(scope); err != nil {
		return err
	}
	fields := NotificationRuleUpdate{Name: &r.Name, EventTypes: &r.EventTypes, Channels: &r.Channels, Roles: &r.Roles, Emails: &r.Emails}
	if err := fields.Validate(); err != nil {
		return err
	}
	return r.Rule(scope, "").CheckAudience()
}

// Rule returns the rule r asks for, in scope and of ownerID (personal rules); it is
// enabled unless r says otherwise.
func (r NewNotificationRule) Rule(scope, ownerID string) NotificationRule {
	return NotificationRule{Scope: scope, OwnerID: ownerID, Name: r.Name, EventTypes: r.EventTypes, Channels: r.Channels,
		Roles: r.Roles, Emails: r.Emails, Enabled: r.Enabled == nil || *r.Enabled}
}

// Validate checks and normalises, in place, the fields the update sets: the name trimmed,
// the event filter known, sorted and without duplicates, destination ids, role names and
// addresses trimmed, sorted and without duplicates, and every address valid. Whom the
// resulting rule sends to is checked on it (CheckAudience).
func (u *NotificationRuleUpdate) Validate() error {
	if u.Name != nil {
		name, err := checkName(*u.Name)
		if err != nil {
			return err
		}
		*u.Name = name
	}
	if err := validateEventFilterUpdate(u.EventTypes); err != nil {
		return err
	}
	if u.Channels != nil {
		u.Channels.WebhookIDs, u.Channels.ChatIDs = cleanSet(u.Channels.WebhookIDs), cleanSet(u.Channels.ChatIDs)
	}
	if u.Roles != nil {
		*u.Roles = cleanSet(*u.Roles)
	}
	if u.Emails != nil {
		*u.Emails = cleanSet(*u.Emails)
		for _, e := range *u.Emails {
			if a, err := mail.ParseAddress(e); err != nil || a.Address != e {
				return invalidField("emails", "invalid", e+" is not an e-mail address.")
			}
		}
	}
	return nil
}

// Apply returns r with the fields the update sets.
func (u NotificationRuleUpdate) Apply(r NotificationRule) NotificationRule {
	if u.Name != nil {
		r.Name = *u.Name
	}
	if u.EventTypes != nil {
		r.EventTypes = *u.EventTypes
	}
	if u.Channels != nil {
		r.Channels = *u.Channels
	}
	if u.Roles != nil {
		r.Roles = *u.Roles
	}
	if u.Emails != nil {
		r.Emails = *u.Emails
	}
	if u.Enabled != nil {
		r.Enabled = *u.Enabled
	}
	return r
}

// CheckAudience checks whom a rule sends to against the rules of its scope: a personal
// rule sends in-app or e-mail (or both) to its owner only; a global rule names someone
// who receives: roles with in-app or e-mail, addresses, webhooks or chat destinations.
func (r NotificationRule) CheckAudience() error {
	c := r.Channels
	if r.Scope == RulePersonal {
		if len(c.WebhookIDs)+len(c.ChatIDs)+len(r.Roles)+len(r.Emails) > 0 {
			return refusedField("channels", "personal_rule_scope", "A personal rule sends in-app notifications and e-mail to its owner only.")
		}
		if !c.InApp && !c.Email {
			return invalidField("channels", "required", "Choose in-app, e-mail or both.")
		}
		return nil
	}
	if len(r.Emails)+len(c.WebhookIDs)+len(c.ChatIDs) == 0 && (len(r.Roles) == 0 || !c.InApp && !c.Email) {
		return invalidField("channels", "required", "Choose who receives the events: roles (in-app or e-mail), addresses, webhooks or chat destinations.")
	}
	return nil
}

// CheckReceivable refuses a personal rule selecting events its owner cannot receive:
// every entry of its filter must select a type whose permission the owner holds, or one
// that can concern them as its subject.
func (r NotificationRule) CheckReceivable(owner *Principal) error {
	for _, entry := range r.EventTypes {
		receivable := slices.ContainsFunc(EventTypes, func(t EventType) bool {
			return EventFilterMatches([]string{entry}, t.Type) && (t.NotifySubject || owner.Can(t.Permission))
		})
		if !receivable {
			return refusedField("eventTypes", "event_not_permitted", "You cannot receive "+entry+": it needs a permission you do not hold.")
		}
	}
	return nil
}

// SendsEmail reports whether the rule e-mails anyone: its users or its addresses.
func (r NotificationRule) SendsEmail() bool {
	return r.Channels.Email || len(r.Emails) > 0
}

// cleanSet trims, sorts and de-duplicates a list and drops empty entries; never nil.
func cleanSet(xs []string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// invalidField is a validation_failed error about one field.
func invalidField(field, code, message string) error {
	return &Error{Code: ECodeValidation, Message: message, Details: []Detail{{Field: field, Code: code, Message: message}}}
}

// refusedField is a business_rule_violation error about one field.
func refusedField(field, code, message string) error {
	return &Error{Code: ECodeBusinessRule, Message: message, Details: []Detail{{Field: field, Code: code, Message: message}}}
}

// RuleService manages notification rules. For personal rules ownerID is the caller; a
// rule of another owner (or of the other scope) is not_found.
type RuleService interface {
	// FindRules returns one page of the rules of a scope (of the owner, for personal
	// rules), newest first, with warnings about channels that will not deliver.
	FindRules(ctx context.Context, scope, ownerID string, f NotificationRuleFilter) (Page[NotificationRule], error)
	// CreateRule adds a rule after the checks of its scope.
	CreateRule(ctx context.Context, scope, ownerID string, r NewNotificationRule, actor Actor) (NotificationRule, error)
	// UpdateRule changes a rule under optimistic concurrency; the result is checked as at
	// creation.
	UpdateRule(ctx context.Context, scope, ownerID, id string, upd NotificationRuleUpdate, actor Actor) (NotificationRule, error)
	// DeleteRule deletes a rule.
	DeleteRule(ctx context.Context, scope, ownerID, id string, actor Actor) error
}
