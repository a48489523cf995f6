package delivery

import (
	"context"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// ruleChecks says which database checks a change of a rule needs: creation needs them
// all; an update only those of the fields it sends.
type ruleChecks struct{ events, roles, destinations, email bool }

var allRuleChecks = ruleChecks{true, true, true, true}

func updateChecks(u assess.NotificationRuleUpdate) ruleChecks {
	return ruleChecks{events: u.EventTypes != nil, roles: u.Roles != nil, destinations: u.Channels != nil,
		email: u.Channels != nil || u.Emails != nil}
}

// ruleRefused and ruleInvalid are a business-rule and a validation error about one field
// (the invite checks use them too).
func ruleRefused(field, code, message string) error {
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: message,
		Details: []assess.Detail{{Field: field, Code: code, Message: message}}}
}

// checkRuleReferences checks what a rule's domain checks (assess) cannot: a personal rule
// selects only event types its owner may receive; a global rule names existing roles,
// webhooks and chat destinations; e-mail is chosen only while e-mail is switched on.
func checkRuleReferences(ctx context.Context, db *postgres.DB, tx *postgres.Tx, r assess.NotificationRule, c ruleChecks) error {
	if r.Scope == assess.RulePersonal && c.events {
		owner, err := principalOf(ctx, tx, r.OwnerID)
		if err != nil {
			return err
		}
		if err := r.CheckReceivable(owner); err != nil {
			return err
		}
	}
	if r.Scope == assess.RuleGlobal {
		if err := checkGlobalRuleReferences(ctx, tx, r, c); err != nil {
			return err
		}
	}
	if c.email && r.SendsEmail() {
		if on, err := db.EmailOn(ctx, tx); err != nil || !on {
			return postgres.CmpErr(err, postgres.ErrEmailDisabled)
		}
	}
	return nil
}

// principalOf is a user with the permissions their roles grant now.
func principalOf(ctx context.Context, q postgres.Querier, userID string) (*assess.Principal, error) {
	rows, err := q.Query(ctx, `SELECT DISTINCT rp.permission FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
		WHERE ur.user_id = $1 ORDER BY rp.permission`, userID)
	if err != nil {
		return nil, err
	}
	perms, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return &assess.Principal{User: assess.User{ID: userID}, Permissions: perms}, err
}

// checkGlobalRuleReferences refuses roles, webhooks and chat destinations that do not
// exist, among those the change sends.
func checkGlobalRuleReferences(ctx context.Context, tx *postgres.Tx, r assess.NotificationRule, c ruleChecks) error {
	checks := []struct {
		field, code, table, column string
		ids                        []string
		sent                       bool
	}{
		{"roles", "unknown_role", "roles", "name", r.Roles, c.roles},
		{"channels.webhookIds", "unknown_webhook", "webhooks", "id", r.Channels.WebhookIDs, c.destinations},
		{"channels.chatIds", "unknown_chat", "chat_destinations", "id", r.Channels.ChatIDs, c.destinations},
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
func fillWarnings(ctx context.Context, db *postgres.DB, q postgres.Querier, rules []assess.NotificationRule) error {
	if len(rules) == 0 {
		return nil
	}
	emailOn, err := db.EmailOn(ctx, q)
	if err != nil {
		return err
	}
	dests, err := destinationStates(ctx, q, rules)
	if err != nil {
		return err
	}
	for i := range rules {
		rules[i].Warnings = ruleWarnings(db, rules[i], emailOn, dests)
	}
	return nil
}

// destinationState is a webhook's or chat destination's name, platform and switch.
type destinationState struct {
	Name, Platform string
	Active         bool
}

func destinationStates(ctx context.Context, q postgres.Querier, rules []assess.NotificationRule) (map[string]destinationState, error) {
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

func ruleWarnings(db *postgres.DB, r assess.NotificationRule, emailOn bool, dests map[string]destinationState) []string {
	w := []string{}
	if r.SendsEmail() && !emailOn {
		w = append(w, "E-mail is switched off: this rule sends no e-mail.")
	}
	if len(r.Channels.WebhookIDs) > 0 && !db.Delivery.WebhooksEnabled {
		w = append(w, "Webhooks are switched off (WEBHOOK_ENABLED).")
	}
	for _, id := range append(slices.Clone(r.Channels.WebhookIDs), r.Channels.ChatIDs...) {
		s, ok := dests[id]
		switch {
		case !ok:
			w = append(w, "Destination "+id+" no longer exists.")
		case s.Platform != assess.ChannelWebhook && !db.ChatPlatformOn(s.Platform):
			w = append(w, "“"+s.Name+"”: "+s.Platform+" is switched off.")
		case !s.Active:
			w = append(w, "“"+s.Name+"” is inactive.")
		}
	}
	return w
}
