package postgres_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestPersonalRules: a personal rule may select only events its owner may receive, sends
// in-app or e-mail only, refuses e-mail while e-mail is off, and belongs to its owner.
func TestPersonalRules(t *testing.T) {
	t.Parallel()
	cfg := allOn()
	cfg.SMTP = assess.SMTPOverrides{}
	f := newEventsFixture(t, cfg)
	bob := f.user("bob")
	carol := f.user("carol")
	me := assess.Actor{ID: bob.ID}
	create := func(nr assess.NewNotificationRule) (assess.NotificationRule, error) {
		if nr.Name == "" {
			nr.Name = "mine"
		}
		return f.svc.Rules.CreateRule(f.ctx, assess.RulePersonal, bob.ID, nr, me)
	}

	_, err := create(assess.NewNotificationRule{EventTypes: []string{"role.*"}, Channels: assess.RuleChannels{InApp: true}})
	requireCode(t, err, assess.ECodeBusinessRule, "event_not_permitted")
	_, err = create(assess.NewNotificationRule{EventTypes: []string{"channel.test"}, Channels: assess.RuleChannels{InApp: true}})
	requireCode(t, err, assess.ECodeBusinessRule, "event_not_permitted")
	_, err = create(assess.NewNotificationRule{EventTypes: []string{"user.*"}, Channels: assess.RuleChannels{InApp: true, WebhookIDs: []string{"wh_x"}}})
	requireCode(t, err, assess.ECodeBusinessRule, "personal_rule_scope")
	_, err = create(assess.NewNotificationRule{EventTypes: []string{"user.*"}})
	requireCode(t, err, assess.ECodeValidation, "required")
	_, err = create(assess.NewNotificationRule{EventTypes: []string{"apikey.*"}, Channels: assess.RuleChannels{Email: true}})
	requireCode(t, err, assess.ECodeBusinessRule, "email_disabled")

	r, err := create(assess.NewNotificationRule{EventTypes: []string{"apikey.*", "user.updated"}, Channels: assess.RuleChannels{InApp: true}})
	require.NoError(t, err)
	require.Equal(t, assess.RulePersonal, r.Scope)
	require.Equal(t, bob.ID, r.OwnerID)
	require.True(t, r.Enabled)
	require.Empty(t, r.Warnings)

	ten := assess.NotificationRuleFilter{PageRequest: assess.PageRequest{Limit: 10}}
	mine, err := f.svc.Rules.FindRules(f.ctx, assess.RulePersonal, bob.ID, ten)
	require.NoError(t, err)
	require.Equal(t, []assess.NotificationRule{r}, mine.Items)
	theirs, err := f.svc.Rules.FindRules(f.ctx, assess.RulePersonal, carol.ID, ten)
	require.NoError(t, err)
	require.Empty(t, theirs.Items)
	_, err = f.svc.Rules.UpdateRule(f.ctx, assess.RulePersonal, carol.ID, r.ID, assess.NotificationRuleUpdate{Version: r.Version, Name: ptr("x")}, assess.Actor{ID: carol.ID})
	requireCode(t, err, assess.ECodeNotFound, "")
	require.Error(t, f.svc.Rules.DeleteRule(f.ctx, assess.RuleGlobal, "", r.ID, f.actor()), "a personal rule is not a global one")
	_, err = f.svc.Rules.UpdateRule(f.ctx, assess.RulePersonal, bob.ID, r.ID, assess.NotificationRuleUpdate{Version: r.Version, EventTypes: &[]string{"role.*"}}, me)
	requireCode(t, err, assess.ECodeBusinessRule, "event_not_permitted")
	r2, err := f.svc.Rules.UpdateRule(f.ctx, assess.RulePersonal, bob.ID, r.ID, assess.NotificationRuleUpdate{Version: r.Version, Name: ptr("renamed")}, me)
	require.NoError(t, err)
	require.Equal(t, "renamed", r2.Name)
	_, err = f.svc.Rules.UpdateRule(f.ctx, assess.RulePersonal, bob.ID, r.ID, assess.NotificationRuleUpdate{Version: r.Version, Name: ptr("stale")}, me)
	requireCode(t, err, assess.ECodeVersionConflict, "")
	require.Equal(t, 2, f.count("SELECT count(*) FROM audit_log WHERE action LIKE 'notification_rule.%'"))

	// The rule delivers: an administrator creates a key for bob; the default audience
	// (the subject) and the rule collapse into one notification.
	_, _, err = f.svc.APIKeys.CreateAPIKey(f.ctx, bob.ID, assess.NewAPIKey{Name: "CI"}, f.actor())
	require.NoError(t, err)
	require.Equal(t, []string{"bob"}, f.notified(f.lastEvent(assess.EventAPIKeyCreated)))
	// Events bob may not see never reach him through his rule: a key of carol's.
	_, _, err = f.svc.APIKeys.CreateAPIKey(f.ctx, carol.ID, assess.NewAPIKey{Name: "CI"}, f.actor())
	require.NoError(t, err)
	require.Equal(t, []string{"carol"}, f.notified(f.lastEvent(assess.EventAPIKeyCreated)))

	require.NoError(t, f.svc.Rules.DeleteRule(f.ctx, assess.RulePersonal, bob.ID, r.ID, me))
	requireCode(t, f.svc.Rules.DeleteRule(f.ctx, assess.RulePersonal, bob.ID, r.ID, me), assess.ECodeNotFound, "")
}

// TestGlobalRules: roles, webhooks and chat destinations must exist; a rule reaches role
// members who may receive the event; warnings name channels that will not deliver.
func TestGlobalRules(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	f.user("bob", assess.RoleAssessor)
	f.user("carol", assess.RoleAdmin)
	w := f.webhook("hook", "role.*")
	c := f.slack("chat", "role.*")
	create := func(nr assess.NewNotificationRule) (assess.NotificationRule, error) {
		nr.Name = "global"
		return f.svc.Rules.CreateRule(f.ctx, assess.RuleGlobal, "", nr, f.actor())
	}
	_, err := create(assess.NewNotificationRule{EventTypes: []string{"*"}, Channels: assess.RuleChannels{InApp: true}, Roles: []string{"nobody"}})
	requireCode(t, err, assess.ECodeBusinessRule, "unknown_role")
	_, err = create(assess.NewNotificationRule{EventTypes: []string{"*"}, Channels: assess.RuleChannels{WebhookIDs: []string{"wh_01kn44arm06b7r2nsbmgefek7n"}}})
	requireCode(t, err, assess.ECodeBusinessRule, "unknown_webhook")
	_, err = create(assess.NewNotificationRule{EventTypes: []string{"*"}, Channels: assess.RuleChannels{ChatIDs: []string{"ch_nope"}}})
	requireCode(t, err, assess.ECodeBusinessRule, "unknown_chat")
	_, err = create(assess.NewNotificationRule{EventTypes: []string{"*"}, Emails: []string{"not an address"}})
	requireCode(t, err, assess.ECodeValidation, "invalid")
	_, err = create(assess.NewNotificationRule{EventTypes: []string{"*"}, Channels: assess.RuleChannels{InApp: true}})
	requireCode(t, err, assess.ECodeValidation, "required")

	r, err := create(assess.NewNotificationRule{EventTypes: []string{"role.*"}, Channels: assess.RuleChannels{InApp: true,
		WebhookIDs: []string{w.ID}, ChatIDs: []string{c.ID}}, Roles: []string{assess.RoleAssessor, assess.RoleAdmin}})
	require.NoError(t, err)
	require.Empty(t, r.Warnings)
	// bob (assessor) holds no admin.roles: the rule does not reach him.
	_, err = f.svc.Roles.CreateRole(f.ctx, assess.NewRole{Name: "auditor", Permissions: []string{"admin.audit"}}, f.actor())
	require.NoError(t, err)
	require.Equal(t, []string{"carol"}, f.notified(f.lastEvent(assess.EventRoleCreated)))

	_, err = f.svc.Webhooks.UpdateWebhook(f.ctx, w.ID, assess.WebhookUpdate{Version: w.Version, Active: ptr(false)}, f.actor())
	require.NoError(t, err)
	f.db.ConfigureDeliveries(allOff())
	ten := assess.NotificationRuleFilter{PageRequest: assess.PageRequest{Limit: 10}}
	rules, err := f.svc.Rules.FindRules(f.ctx, assess.RuleGlobal, "", ten)
	require.NoError(t, err)
	require.Equal(t, []string{"Webhooks are switched off (WEBHOOK_ENABLED).", "“hook” is inactive.", "“chat”: slack is switched off."},
		rules.Items[0].Warnings)

	require.NoError(t, f.svc.Webhooks.DeleteWebhook(f.ctx, w.ID, f.actor()))
	rules, err = f.svc.Rules.FindRules(f.ctx, assess.RuleGlobal, "", ten)
	require.NoError(t, err)
	require.Empty(t, rules.Items[0].Channels.WebhookIDs, "a deleted webhook leaves the rules")
}
