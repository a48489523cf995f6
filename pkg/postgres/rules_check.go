package postgres

import (
	"context"
	"net/mail"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// ruleFields says which fields of a rule a request sets, and so are checked.
type ruleFields struct{ name, events, channels, roles, emails bool }

var allRuleFields = ruleFields{true, true, true, true, true}

func ruleRefused(field, code, message string) error {
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: message,
		Details: []assess.Detail{{Field: field, Code: code, Message: message}}}
}

func ruleInvalid(field, code, message string) error {
	return &assess.Error{Code: assess.ECodeValidation, Message: message,
		Details: []assess.Detail{{Field: field, Code: code, Message: message}}}
}

// checkRule normalises a rule and checks it against the rules of its scope: a personal
// rule sends in-app or e-mail to its owner only, and only event types its owner may
// receive; a global rule names existing roles, webhooks and chat destinations. Choosing
// e-mail while e-mail is switched off is refused.
func (db *DB) checkRule(ctx context.Context, tx pgx.Tx, r assess.NotificationRule, t ruleFields) (assess.NotificationRule, error) {
	var err error
	if r.Name, err = checkName(r.Name); err != nil {
		return r, err
	}
	if r.EventTypes, err = assess.ValidateEventFilter("eventTypes", r.EventTypes); err != nil {
		return r, err
	}
	r.Roles, r.Emails = normalSet(r.Roles), normalSet(r.Emails)
	r.Channels.WebhookIDs, r.Channels.ChatIDs = normalSet(r.Channels.WebhookIDs), normalSet(r.Channels.ChatIDs)
	for _, e := range r.Emails {
		if a, err := mail.ParseAddress(e); err != nil || a.Address != e {
			return r, ruleInvalid("emails", "invalid", e+" is not an e-mail address.")
		}
	}
	if r.Scope == assess.RulePersonal {
		err = db.checkPersonalRule(ctx, tx, r, t)
	} else {
		err = checkGlobalRule(ctx, tx, r, t)
	}
	if err != nil {
		return r, err
	}
	if (t.channels || t.emails) && (r.Channels.Email || len(r.Emails) > 0) {
		if on, err := db.emailOn(ctx, tx); err != nil || !on {
			return r, cmpErr(err, errEmailDisabled)
		}
	}
	return r, nil
}

// cmpErr returns err when set, else fallback.
func cmpErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}

// normalSet trims, sorts and de-duplicates a list; never nil.
func normalSet(xs []string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (db *DB) checkPersonalRule(ctx context.Context, tx pgx.Tx, r assess.NotificationRule, t ruleFields) error {
	if len(r.Channels.WebhookIDs)+len(r.Channels.ChatIDs)+len(r.Roles)+len(r.Emails) > 0 {
		return ruleRefused("channels", "personal_rule_scope", "A personal rule sends in-app notifications and e-mail to its owner only.")
	}
	if !r.Channels.InApp && !r.Channels.Email {
		return ruleInvalid("channels", "required", "Choose in-app, e-mail or both.")
	}
	if !t.events {
		return nil
	}
	rows, err := tx.Query(ctx, `SELECT DISTINCT rp.permission FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
		WHERE ur.user_id = $1`, r.OwnerID)
	if err != nil {
		return err
	}
	perms, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, entry := range r.EventTypes {
		if !receivable(entry, perms) {
			return ruleRefused("eventTypes", "event_not_permitted",
				"You cannot receive "+entry+": it needs a permission you do not hold.")
		}
	}
	return nil
}

// receivable reports whether a filter entry selects a type its holder of perms may
// receive: one whose permission they hold, or one that can concern them as its subject.
func receivable(entry string, perms []string) bool {
	for _, typ := range assess.EventTypes {
		if assess.EventFilterMatches([]string{entry}, typ.Type) && (typ.NotifySubject || slices.Contains(perms, string(typ.Permission))) {
			return true
		}
	}
	return false
}

func checkGlobalRule(ctx context.Context, tx pgx.Tx, r assess.NotificationRule, t ruleFields) error {
	c := r.Channels
	if len(r.Emails)+len(c.WebhookIDs)+len(c.ChatIDs) == 0 && (len(r.Roles) == 0 || !c.InApp && !c.Email) {
		return ruleInvalid("channels", "required", "Choose who receives the events: roles (in-app or e-mail), addresses, webhooks or chat destinations.")
	}
	checks := []struct {
		field, code, table, column string
		ids                        []string
		sent                       bool
	}{
		{"roles", "unknown_role", "roles", "name", r.Roles, t.roles},
		{"channels.webhookIds", "unknown_webhook", "webhooks", "id", c.WebhookIDs, t.channels},
		{"channels.chatIds", "unknown_chat", "chat_destinations", "id", c.ChatIDs, t.channels},
	}
	for _, ch := range checks {
		if len(ch.ids) == 0 || !ch.sent {
			continue
		}
		var missing []string
		if err := tx.QueryRow(ctx, `SELECT coalesce(array_agg(x), '{}') FROM unnest($1::text[]) x
			WHERE NOT EXISTS (SELECT 1 FROM `+ch.table+` t WHERE t.`+ch.column+` = x)`, ch.ids).Scan(&missing); err != nil {
			return err
		}
		if len(missing) > 0 {
			return ruleRefused(ch.field, ch.code, "Unknown: "+strings.Join(missing, ", ")+".")
		}
	}
	return nil
}

// fillWarnings tells, for each rule, which chosen channels will not deliver now.
func (db *DB) fillWarnings(ctx context.Context, q querier, rules []assess.NotificationRule) error {
	if len(rules) == 0 {
		return nil
	}
	emailOn, err := db.emailOn(ctx, q)
	if err != nil {
		return err
	}
	dests, err := destinationStates(ctx, q, rules)
	if err != nil {
		return err
	}
	for i := range rules {
		rules[i].Warnings = db.ruleWarnings(rules[i], emailOn, dests)
	}
	return nil
}

// destinationState is a webhook's or chat destination's name, platform and switch.
type destinationState struct {
	Name, Platform string
	Active         bool
}

func destinationStates(ctx context.Context, q querier, rules []assess.NotificationRule) (map[string]destinationState, error) {
	var ids []string
	for _, r := range rules {
		ids = append(append(ids, r.Channels.WebhookIDs...), r.Channels.ChatIDs...)
	}
	out := map[string]destinationState{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, `SELECT id, name, 'webhook', active FROM webhooks WHERE id = ANY ($1)
		UNION ALL SELECT id, name, platform, active FROM chat_destinations WHERE id = ANY ($1)`, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var s destinationState
		if err := rows.Scan(&id, &s.Name, &s.Platform, &s.Active); err != nil {
			return nil, err
		}
		out[id] = s
	}
	return out, rows.Err()
}

func (db *DB) ruleWarnings(r assess.NotificationRule, emailOn bool, dests map[string]destinationState) []string {
	w := []string{}
	if (r.Channels.Email || len(r.Emails) > 0) && !emailOn {
		w = append(w, "E-mail is switched off: this rule sends no e-mail.")
	}
	if len(r.Channels.WebhookIDs) > 0 && !db.delivery.WebhooksEnabled {
		w = append(w, "Webhooks are switched off (WEBHOOK_ENABLED).")
	}
	for _, id := range append(slices.Clone(r.Channels.WebhookIDs), r.Channels.ChatIDs...) {
		s, ok := dests[id]
		switch {
		case !ok:
			w = append(w, "Destination "+id+" no longer exists.")
		case s.Platform != assess.ChannelWebhook && !db.chatPlatformOn(s.Platform):
			w = append(w, "“"+s.Name+"”: "+s.Platform+" is switched off.")
		case !s.Active:
			w = append(w, "“"+s.Name+"” is inactive.")
		}
	}
	return w
}
