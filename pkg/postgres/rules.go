package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

var errRuleNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such notification rule."}

const ruleColumns = `id, scope, coalesce(owner_id, ''), name, event_types, in_app, email, webhook_ids, chat_ids, roles, emails,
	enabled, version, created_at, updated_at`

func scanRule(r pgx.Row) (assess.NotificationRule, error) {
	var n assess.NotificationRule
	c := &n.Channels
	err := r.Scan(&n.ID, &n.Scope, &n.OwnerID, &n.Name, &n.EventTypes, &c.InApp, &c.Email, &c.WebhookIDs, &c.ChatIDs, &n.Roles,
		&n.Emails, &n.Enabled, &n.Version, &n.CreatedAt, &n.UpdatedAt)
	n.CreatedAt, n.UpdatedAt, n.Warnings = n.CreatedAt.UTC(), n.UpdatedAt.UTC(), []string{}
	return n, err
}

// ruleOwner is the owner condition of a scope: personal rules are their owner's only.
func ruleOwner(scope, ownerID string) (*string, error) {
	switch scope {
	case assess.RuleGlobal:
		return nil, nil
	case assess.RulePersonal:
		if ownerID == "" {
			return nil, errors.New("rules: a personal rule needs its owner")
		}
		return &ownerID, nil
	}
	return nil, &assess.Error{Code: assess.ECodeValidation, Message: "Unknown rule scope " + scope + "."}
}

// FindRules implements assess.RuleService: the rules of a scope (of the owner, for
// personal rules), newest first, with warnings about channels that will not deliver.
func (db *DB) FindRules(ctx context.Context, scope, ownerID, cursor string, limit int) ([]assess.NotificationRule, string, error) {
	owner, err := ruleOwner(scope, ownerID)
	if err != nil {
		return nil, "", err
	}
	after, err := decodeIDCursor(cursor, assess.PrefixRule)
	if err != nil {
		return nil, "", err
	}
	limit = pageLimit(limit)
	rows, err := db.pool.Query(ctx, "SELECT "+ruleColumns+` FROM notification_rules
		WHERE scope = $1 AND owner_id IS NOT DISTINCT FROM $2 AND id < $3 ORDER BY id DESC LIMIT $4`, scope, owner, after, limit+1)
	if err != nil {
		return nil, "", err
	}
	rules, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.NotificationRule, error) { return scanRule(r) })
	if err != nil {
		return nil, "", err
	}
	rules, next := pageByID(rules, limit, func(r assess.NotificationRule) string { return r.ID })
	return rules, next, db.fillWarnings(ctx, db.pool, rules)
}

// findRule reads one rule of the scope and owner, locked for update.
func (db *DB) findRule(ctx context.Context, tx pgx.Tx, scope, ownerID, id string) (assess.NotificationRule, error) {
	owner, err := ruleOwner(scope, ownerID)
	if err != nil {
		return assess.NotificationRule{}, err
	}
	if !assess.ValidID(assess.PrefixRule, id) {
		return assess.NotificationRule{}, errRuleNotFound
	}
	r, err := scanRule(tx.QueryRow(ctx, "SELECT "+ruleColumns+` FROM notification_rules
		WHERE id = $1 AND scope = $2 AND owner_id IS NOT DISTINCT FROM $3 FOR UPDATE`, id, scope, owner))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, errRuleNotFound
	}
	return r, err
}

// CreateRule implements assess.RuleService.
func (db *DB) CreateRule(ctx context.Context, scope, ownerID string, nr assess.NewNotificationRule, actor assess.Actor) (assess.NotificationRule, error) {
	owner, err := ruleOwner(scope, ownerID)
	if err != nil {
		return assess.NotificationRule{}, err
	}
	r := assess.NotificationRule{Scope: scope, OwnerID: ownerID, Name: nr.Name, EventTypes: nr.EventTypes, Channels: nr.Channels,
		Roles: nr.Roles, Emails: nr.Emails, Enabled: nr.Enabled == nil || *nr.Enabled}
	now := db.now()
	r.ID = assess.NewID(assess.PrefixRule, now)
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if r, err = db.checkRule(ctx, tx, r, allRuleFields); err != nil {
			return err
		}
		c := r.Channels
		if _, err := tx.Exec(ctx, `INSERT INTO notification_rules (id, scope, owner_id, name, event_types, in_app, email, webhook_ids,
			chat_ids, roles, emails, enabled, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
			r.ID, scope, owner, r.Name, r.EventTypes, c.InApp, c.Email, c.WebhookIDs, c.ChatIDs, r.Roles, r.Emails, r.Enabled, now); err != nil {
			return err
		}
		return writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "notification_rule.created", TargetType: "notification_rule",
			TargetID: r.ID, Details: ruleAudit(r)})
	})
	if err != nil {
		return assess.NotificationRule{}, err
	}
	return db.readRule(ctx, r.ID)
}

func ruleAudit(r assess.NotificationRule) map[string]any {
	return map[string]any{"scope": r.Scope, "owner": r.OwnerID, "name": r.Name, "eventTypes": r.EventTypes, "channels": r.Channels,
		"roles": r.Roles, "emails": r.Emails, "enabled": r.Enabled}
}

// readRule reads a rule after a change, with its warnings.
func (db *DB) readRule(ctx context.Context, id string) (assess.NotificationRule, error) {
	r, err := scanRule(db.pool.QueryRow(ctx, "SELECT "+ruleColumns+" FROM notification_rules WHERE id = $1", id))
	if err != nil {
		return r, err
	}
	rules := []assess.NotificationRule{r}
	err = db.fillWarnings(ctx, db.pool, rules)
	return rules[0], err
}

// UpdateRule implements assess.RuleService with optimistic concurrency. Only the fields
// sent are checked again, so a rule naming a role deleted since stays editable.
func (db *DB) UpdateRule(ctx context.Context, scope, ownerID, id string, upd assess.NotificationRuleUpdate, actor assess.Actor) (assess.NotificationRule, error) {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		r, err := db.findRule(ctx, tx, scope, ownerID, id)
		if err != nil {
			return err
		}
		if r.Version != upd.Version {
			return versionConflict(r.Version)
		}
		r, touched := applyRuleUpdate(r, upd)
		if r, err = db.checkRule(ctx, tx, r, touched); err != nil {
			return err
		}
		c := r.Channels
		if _, err := tx.Exec(ctx, `UPDATE notification_rules SET name = $2, event_types = $3, in_app = $4, email = $5, webhook_ids = $6,
			chat_ids = $7, roles = $8, emails = $9, enabled = $10, version = version + 1, updated_at = $11 WHERE id = $1`,
			id, r.Name, r.EventTypes, c.InApp, c.Email, c.WebhookIDs, c.ChatIDs, r.Roles, r.Emails, r.Enabled, db.now()); err != nil {
			return err
		}
		return writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "notification_rule.updated", TargetType: "notification_rule",
			TargetID: id, Details: ruleAudit(r)})
	})
	if err != nil {
		return assess.NotificationRule{}, err
	}
	return db.readRule(ctx, id)
}

func applyRuleUpdate(r assess.NotificationRule, upd assess.NotificationRuleUpdate) (assess.NotificationRule, ruleFields) {
	var t ruleFields
	if upd.Name != nil {
		r.Name, t.name = *upd.Name, true
	}
	if upd.EventTypes != nil {
		r.EventTypes, t.events = *upd.EventTypes, true
	}
	if upd.Channels != nil {
		r.Channels, t.channels = *upd.Channels, true
	}
	if upd.Roles != nil {
		r.Roles, t.roles = *upd.Roles, true
	}
	if upd.Emails != nil {
		r.Emails, t.emails = *upd.Emails, true
	}
	if upd.Enabled != nil {
		r.Enabled = *upd.Enabled
	}
	return r, t
}

// DeleteRule implements assess.RuleService.
func (db *DB) DeleteRule(ctx context.Context, scope, ownerID, id string, actor assess.Actor) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		r, err := db.findRule(ctx, tx, scope, ownerID, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM notification_rules WHERE id = $1", id); err != nil {
			return fmt.Errorf("delete rule: %w", err)
		}
		return writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "notification_rule.deleted", TargetType: "notification_rule",
			TargetID: id, Details: map[string]any{"scope": r.Scope, "owner": r.OwnerID, "name": r.Name}})
	})
}

var _ assess.RuleService = (*DB)(nil)
