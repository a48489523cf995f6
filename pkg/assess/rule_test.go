package assess

import (
	"reflect"
	"testing"
)

func TestNewNotificationRuleValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		scope        string
		in           NewNotificationRule
		code, detail string
	}{
		{"personal in-app", RulePersonal, NewNotificationRule{Name: "mine", EventTypes: []string{"user.*"}, Channels: RuleChannels{InApp: true}}, "", ""},
		{"personal without a channel", RulePersonal, NewNotificationRule{Name: "mine", EventTypes: []string{"user.*"}}, ECodeValidation, "required"},
		{"personal naming a webhook", RulePersonal, NewNotificationRule{Name: "mine", EventTypes: []string{"user.*"},
			Channels: RuleChannels{InApp: true, WebhookIDs: []string{"wh_x"}}}, ECodeBusinessRule, "personal_rule_scope"},
		{"personal naming a role", RulePersonal, NewNotificationRule{Name: "mine", EventTypes: []string{"user.*"},
			Channels: RuleChannels{Email: true}, Roles: []string{RoleAdmin}}, ECodeBusinessRule, "personal_rule_scope"},
		{"global to a role in-app", RuleGlobal, NewNotificationRule{Name: "ops", EventTypes: []string{"*"},
			Channels: RuleChannels{InApp: true}, Roles: []string{RoleAdmin}}, "", ""},
		{"global to an address", RuleGlobal, NewNotificationRule{Name: "ops", EventTypes: []string{"*"}, Emails: []string{"ops@example.com"}}, "", ""},
		{"global in-app to nobody", RuleGlobal, NewNotificationRule{Name: "ops", EventTypes: []string{"*"},
			Channels: RuleChannels{InApp: true}}, ECodeValidation, "required"},
		{"global roles without a channel", RuleGlobal, NewNotificationRule{Name: "ops", EventTypes: []string{"*"},
			Roles: []string{RoleAdmin}}, ECodeValidation, "required"},
		{"bad address", RuleGlobal, NewNotificationRule{Name: "ops", EventTypes: []string{"*"}, Emails: []string{"not an address"}},
			ECodeValidation, "invalid"},
		{"named address", RuleGlobal, NewNotificationRule{Name: "ops", EventTypes: []string{"*"}, Emails: []string{"Ops <ops@example.com>"}},
			ECodeValidation, "invalid"},
		{"no name", RuleGlobal, NewNotificationRule{EventTypes: []string{"*"}, Emails: []string{"ops@example.com"}}, ECodeValidation, "required"},
		{"unknown event", RuleGlobal, NewNotificationRule{Name: "ops", EventTypes: []string{"nope"}, Emails: []string{"ops@example.com"}},
			ECodeValidation, "unknown_event_type"},
		{"unknown scope", "team", NewNotificationRule{Name: "ops", EventTypes: []string{"*"}}, ECodeValidation, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := tt.in
			wantCodeAndDetail(t, r.Validate(tt.scope), tt.code, tt.detail)
		})
	}
}

func TestNewNotificationRuleNormalised(t *testing.T) {
	t.Parallel()
	r := NewNotificationRule{Name: " ops ", EventTypes: []string{"user.*", "role.created", "user.*"},
		Channels: RuleChannels{WebhookIDs: []string{" wh_b", "wh_a", "wh_b", ""}}, Roles: []string{"b", " a"},
		Emails: []string{" ops@example.com", "ops@example.com"}}
	if err := r.Validate(RuleGlobal); err != nil {
		t.Fatal(err)
	}
	want := NewNotificationRule{Name: "ops", EventTypes: []string{"role.created", "user.*"},
		Channels: RuleChannels{WebhookIDs: []string{"wh_a", "wh_b"}, ChatIDs: []string{}}, Roles: []string{"a", "b"},
		Emails: []string{"ops@example.com"}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("got %+v", r)
	}
	rule := r.Rule(RuleGlobal, "")
	if !rule.Enabled || rule.Scope != RuleGlobal {
		t.Errorf("rule %+v", rule)
	}
	off := false
	r.Enabled = &off
	if r.Rule(RuleGlobal, "").Enabled {
		t.Error("enabled: false is kept")
	}
}

func TestNotificationRuleUpdateApplyAndAudience(t *testing.T) {
	t.Parallel()
	stored := NotificationRule{Scope: RulePersonal, OwnerID: "u_1", Name: "mine", EventTypes: []string{"user.*"},
		Channels: RuleChannels{InApp: true}, Roles: []string{}, Emails: []string{}, Enabled: true}

	name := " renamed "
	u := NotificationRuleUpdate{Name: &name}
	if err := u.Validate(); err != nil {
		t.Fatal(err)
	}
	got := u.Apply(stored)
	if got.Name != "renamed" || !reflect.DeepEqual(got.Channels, stored.Channels) || got.OwnerID != "u_1" {
		t.Errorf("got %+v", got)
	}
	wantCodeAndDetail(t, got.CheckAudience(), "", "")

	none := RuleChannels{}
	wantCodeAndDetail(t, NotificationRuleUpdate{Channels: &none}.Apply(stored).CheckAudience(), ECodeValidation, "required")
	emails := []string{"x@example.com"}
	wantCodeAndDetail(t, NotificationRuleUpdate{Emails: &emails}.Apply(stored).CheckAudience(), ECodeBusinessRule, "personal_rule_scope")
	off := false
	if (NotificationRuleUpdate{Enabled: &off}).Apply(stored).Enabled {
		t.Error("enabled not applied")
	}
}

func TestNotificationRuleCheckReceivable(t *testing.T) {
	t.Parallel()
	assessee := &Principal{Permissions: []string{string(PermProjectsView)}}
	userAdmin := &Principal{Permissions: []string{string(PermAdminUsers)}}
	tests := []struct {
		filter []string
		owner  *Principal
		ok     bool
	}{
		{[]string{"user.updated"}, assessee, true},  // it can concern them as its subject
		{[]string{"apikey.*"}, assessee, true},      // so can their keys
		{[]string{"user.*"}, assessee, true},        // the category holds a type they may receive
		{[]string{"role.*"}, assessee, false},       // needs admin.roles
		{[]string{"channel.test"}, assessee, false}, // never concerns a user
		{[]string{"user.created"}, userAdmin, true},
		{[]string{"user.created", "role.created"}, userAdmin, false},
		{[]string{"*"}, assessee, true},
	}
	for _, tt := range tests {
		r := NotificationRule{Scope: RulePersonal, EventTypes: tt.filter}
		err := r.CheckReceivable(tt.owner)
		if tt.ok {
			wantCodeAndDetail(t, err, "", "")
		} else {
			wantCodeAndDetail(t, err, ECodeBusinessRule, "event_not_permitted")
		}
	}
}

func TestNotificationRuleSendsEmail(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		r    NotificationRule
		want bool
	}{
		{NotificationRule{Channels: RuleChannels{InApp: true}}, false},
		{NotificationRule{Channels: RuleChannels{Email: true}}, true},
		{NotificationRule{Emails: []string{"ops@example.com"}}, true},
	} {
		if got := tt.r.SendsEmail(); got != tt.want {
			t.Errorf("%+v: %v", tt.r, got)
		}
	}
}
