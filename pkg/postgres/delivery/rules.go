package delivery

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
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

// ruleTarget names a rule in the audit log.
func ruleTarget(id string) postgres.Target { return postgres.Target{Type: "notification_rule", ID: id} }

// ruleOwner is the owner_id of a scope's rules: the owner for personal rules, NULL for
// global ones.
func ruleOwner(scope, ownerID string) (*string, error) {
	if err := assess.ValidateRuleScope(scope); err != nil {
		return nil, err
	}
	if scope == assess.RuleGlobal {
		return nil, nil
	}
	if ownerID == "" {
		return nil, errors.New("rules: a personal rule needs its owner")
	}
	return &ownerID, nil
}

// FindRules implements assess.RuleService: the rules of a scope (of the owner, for
// personal rules), newest first, with warnings about channels that will not deliver.
func (s *RuleService) FindRules(ctx context.Context, scope, ownerID string, f assess.NotificationRuleFilter) (assess.Page[assess.NotificationRule], error) {
	owner, err := ruleOwner(scope, ownerID)
	if err != nil {
		return assess.Page[assess.NotificationRule]{}, err
	}
	l := postgres.NewList("notification_rules", "SELECT "+ruleColumns+" FROM notification_rules", postgres.NewestFirst("id"))
	l.Where("scope = " + l.Arg(scope))
	if owner == nil {
		l.Where("owner_id IS NULL")
	} else {
		l.Where("owner_id = " + l.Arg(*owner))
	}
	page, err := postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanRule, func(r assess.NotificationRule) []any { return []any{r.ID} })
	if err != nil {
		return page, err
	}
	return page, postgres.DBError(fillWarnings(ctx, s.db, s.db.Pool, page.Items))
}

// findRule reads one rule of the scope and owner; another's is not_found.
func findRule(ctx context.Context, q postgres.Querier, scope, ownerID, id string) (assess.NotificationRule, error) {
	owner, err := ruleOwner(scope, ownerID)
	if err != nil {
		return assess.NotificationRule{}, err
	}
	if !assess.ValidID(assess.PrefixRule, id) {
		return assess.NotificationRule{}, errRuleNotFound
	}
	r, err := scanRule(q.QueryRow(ctx, "SELECT "+ruleColumns+` FROM notification_rules
		WHERE id = $1 AND scope = $2 AND owner_id IS NOT DISTINCT FROM $3`, id, scope, owner))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, errRuleNotFound
	}
	return r, err
}

// readRule reads a rule with its warnings.
func readRule(ctx context.Context, db *postgres.DB, q postgres.Querier, id string) (assess.NotificationRule, error) {
	r, err := scanRule(q.QueryRow(ctx, "SELECT "+ruleColumns+" FROM notification_rules WHERE id = $1", id))
	if err != nil {
		return r, err
	}
	rules := []assess.NotificationRule{r}
	err = fillWarnings(ctx, db, q, rules)
	return rules[0], err
}

// CreateRule implements assess.RuleService.
func (s *RuleService) CreateRule(ctx context.Context, scope, ownerID string, nr assess.NewNotificationRule, actor assess.Actor) (assess.NotificationRule, error) {
	var created assess.NotificationRule
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := nr.Validate(scope); err != nil {
			return err
		}
		owner, err := ruleOwner(scope, ownerID)
		if err != nil {
			return err
		}
		r := nr.Rule(scope, ownerID)
		if err := checkRuleReferences(ctx, s.db, tx, r, allRuleChecks); err != nil {
			return err
		}
		r.ID = assess.NewID(assess.PrefixRule, tx.Now)
		c := r.Channels
		if _, err := tx.Exec(ctx, `INSERT INTO notification_rules (id, scope, owner_id, name, event_types, in_app, email, webhook_ids,
			chat_ids, roles, emails, enabled, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
			r.ID, scope, owner, r.Name, r.EventTypes, c.InApp, c.Email, c.WebhookIDs, c.ChatIDs, r.Roles, r.Emails, r.Enabled, tx.Now); err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeRuleCreated, ruleTarget(r.ID), ruleAudit(r), assess.NewEvent{}); err != nil {
			return err
		}
		created, err = readRule(ctx, s.db, tx, r.ID)
		return err
	})
	return created, err
}

func ruleAudit(r assess.NotificationRule) map[string]any {
	return map[string]any{"scope": r.Scope, "owner": r.OwnerID, "name": r.Name, "eventTypes": r.EventTypes, "channels": r.Channels,
		"roles": r.Roles, "emails": r.Emails, "enabled": r.Enabled}
}

// UpdateRule implements assess.RuleService with optimistic concurrency. The result is
// checked as at creation, but the database only for the fields sent, so a rule naming a
// role deleted since stays editable.
func (s *RuleService) UpdateRule(ctx context.Context, scope, ownerID, id string, upd assess.NotificationRuleUpdate, actor assess.Actor) (assess.NotificationRule, error) {
	var updated assess.NotificationRule
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		before, err := lockRule(ctx, tx, scope, ownerID, id, upd.Version)
		if err != nil {
			return err
		}
		if err := upd.Validate(); err != nil {
			return err
		}
		r := upd.Apply(before)
		if err := r.CheckAudience(); err != nil {
			return err
		}
		if err := checkRuleReferences(ctx, s.db, tx, r, updateChecks(upd)); err != nil {
			return err
		}
		c := r.Channels
		if _, err := tx.Exec(ctx, `UPDATE notification_rules SET name = $2, event_types = $3, in_app = $4, email = $5, webhook_ids = $6,
			chat_ids = $7, roles = $8, emails = $9, enabled = $10 WHERE id = $1`,
			id, r.Name, r.EventTypes, c.InApp, c.Email, c.WebhookIDs, c.ChatIDs, r.Roles, r.Emails, r.Enabled); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "notification_rules", id); err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeRuleUpdated, ruleTarget(id), ruleAudit(r), assess.NewEvent{}); err != nil {
			return err
		}
		updated, err = readRule(ctx, s.db, tx, id)
		return err
	})
	return updated, err
}

// lockRule locks a rule of the scope and owner at the caller's version and reads it as
// locked. The scope and owner are checked first: another owner's rule is not_found,
// whatever the version.
func lockRule(ctx context.Context, tx *postgres.Tx, scope, ownerID, id string, version int64) (assess.NotificationRule, error) {
	if _, err := findRule(ctx, tx, scope, ownerID, id); err != nil {
		return assess.NotificationRule{}, err
	}
	if err := tx.LockVersion(ctx, "notification_rules", id, version, errRuleNotFound); err != nil {
		return assess.NotificationRule{}, err
	}
	return findRule(ctx, tx, scope, ownerID, id)
}

// DeleteRule implements assess.RuleService.
func (s *RuleService) DeleteRule(ctx context.Context, scope, ownerID, id string, actor assess.Actor) error {
	owner, err := ruleOwner(scope, ownerID)
	if err != nil {
		return err
	}
	if !assess.ValidID(assess.PrefixRule, id) {
		return errRuleNotFound
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		r, err := scanRule(tx.QueryRow(ctx, `DELETE FROM notification_rules WHERE id = $1 AND scope = $2 AND owner_id IS NOT DISTINCT FROM $3
			RETURNING `+ruleColumns, id, scope, owner))
		if errors.Is(err, pgx.ErrNoRows) {
			return errRuleNotFound
		}
		if err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeRuleDeleted, ruleTarget(id),
			map[string]any{"scope": r.Scope, "owner": r.OwnerID, "name": r.Name}, assess.NewEvent{})
	})
}

var _ assess.RuleService = (*RuleService)(nil)
