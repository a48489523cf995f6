package assess

import (
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"
)

// wantCodeAndDetail fails unless err is an *Error with code and (when detail is not
// empty) a detail of that code; code "" wants no error.
func wantCodeAndDetail(t *testing.T, err error, code, detail string) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("want no error, got %v", err)
		}
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error %s/%s, got %v", code, detail, err)
	}
	if e.Code != code {
		t.Fatalf("want code %s, got %s (%s)", code, e.Code, e.Message)
	}
	if detail != "" && !slices.ContainsFunc(e.Details, func(d Detail) bool { return d.Code == detail }) {
		t.Fatalf("want detail %s, got %+v", detail, e.Details)
	}
}

var loopbackOnly = OutboundPolicy{AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}

func TestNewWebhookValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		in             NewWebhook
		policy         OutboundPolicy
		code, detail   string
		wantName       string
		wantURL        string
		wantEventTypes []string
	}{
		{name: "normalised", in: NewWebhook{Name: " CI ", Description: " d ", URL: " HTTPS://hooks.example.com/in?x=1 ",
			EventTypes: []string{"user.*", "role.created", "user.*"}},
			wantName: "CI", wantURL: "https://hooks.example.com/in?x=1", wantEventTypes: []string{"role.created", "user.*"}},
		{name: "blank name", in: NewWebhook{Name: "  ", URL: "https://x.example", EventTypes: []string{"*"}},
			code: ECodeValidation, detail: "required"},
		{name: "name too long", in: NewWebhook{Name: strings.Repeat("é", 201), URL: "https://x.example", EventTypes: []string{"*"}},
			code: ECodeValidation, detail: "required"},
		{name: "no events", in: NewWebhook{Name: "x", URL: "https://x.example"}, code: ECodeValidation, detail: "required"},
		{name: "unknown events", in: NewWebhook{Name: "x", URL: "https://x.example", EventTypes: []string{"nope.*"}},
			code: ECodeValidation, detail: "unknown_event_type"},
		{name: "name before URL", in: NewWebhook{URL: "ftp://x.example", EventTypes: []string{"*"}}, code: ECodeValidation, detail: "required"},
		{name: "private address", in: NewWebhook{Name: "x", URL: "https://10.0.0.1/x", EventTypes: []string{"*"}},
			code: ECodeBusinessRule, detail: "url_not_allowed"},
		{name: "plain http without allowed networks", in: NewWebhook{Name: "x", URL: "http://hooks.example.com/x", EventTypes: []string{"*"}},
			code: ECodeBusinessRule, detail: "url_not_allowed"},
		{name: "plain http to an allowed network", in: NewWebhook{Name: "x", URL: "http://127.0.0.1:8080/hook", EventTypes: []string{"*"}},
			policy: loopbackOnly, wantName: "x", wantURL: "http://127.0.0.1:8080/hook", wantEventTypes: []string{"*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := tt.in
			err := w.Validate(tt.policy)
			wantCodeAndDetail(t, err, tt.code, tt.detail)
			if err != nil {
				return
			}
			if w.Name != tt.wantName || w.URL != tt.wantURL || !slices.Equal(w.EventTypes, tt.wantEventTypes) ||
				w.Description != strings.TrimSpace(tt.in.Description) {
				t.Errorf("got %+v", w)
			}
		})
	}
}

func TestWebhookUpdateValidate(t *testing.T) {
	t.Parallel()
	name, url, events := " renamed ", "https://hooks.example.com/v2", []string{"user.created", "*", "*"}
	u := WebhookUpdate{Version: 1, Name: &name, URL: &url, EventTypes: &events}
	if err := u.Validate(OutboundPolicy{}); err != nil {
		t.Fatal(err)
	}
	if *u.Name != "renamed" || *u.URL != url || !slices.Equal(*u.EventTypes, []string{"*", "user.created"}) || u.Description != nil {
		t.Errorf("got %+v", u)
	}
	if name != " renamed " {
		t.Error("the request's own value changed")
	}
	bad := "https://[::1]/x"
	wantCodeAndDetail(t, (&WebhookUpdate{URL: &bad}).Validate(OutboundPolicy{}), ECodeBusinessRule, "url_not_allowed")
	empty := []string{}
	wantCodeAndDetail(t, (&WebhookUpdate{EventTypes: &empty}).Validate(OutboundPolicy{}), ECodeValidation, "required")
	wantCodeAndDetail(t, (&WebhookUpdate{Version: 3}).Validate(OutboundPolicy{}), "", "")
}

func TestNewChatDestinationValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, platform, url string
		policy              OutboundPolicy
		code, detail        string
	}{
		{"slack", ChannelSlack, "https://hooks.slack.com/services/T/B/x", OutboundPolicy{}, "", ""},
		{"slack elsewhere", ChannelSlack, "https://example.com/services/x", OutboundPolicy{}, ECodeBusinessRule, "url_not_allowed"},
		{"teams", ChannelTeams, "https://contoso.webhook.office.com/webhookb2/abc", OutboundPolicy{}, "", ""},
		{"teams workflow", ChannelTeams, "https://prod.logic.azure.com/workflows/x", OutboundPolicy{}, "", ""},
		{"teams elsewhere", ChannelTeams, "https://example.com/x", OutboundPolicy{}, ECodeBusinessRule, "url_not_allowed"},
		{"mattermost https", ChannelMattermost, "https://chat.example.com/hooks/x", OutboundPolicy{}, "", ""},
		{"mattermost http", ChannelMattermost, "http://chat.example.com/hooks/x", loopbackOnly, ECodeBusinessRule, "url_not_allowed"},
		{"literal address inside the allowed networks", ChannelMattermost, "http://127.0.0.1:9/hooks/abcd", loopbackOnly, "", ""},
		{"localhost inside the allowed networks", ChannelSlack, "http://localhost:9/hook", loopbackOnly, "", ""},
		{"allow-listed host", ChannelSlack, "http://receiver.test:9/hook",
			OutboundPolicy{AllowNetworks: loopbackOnly.AllowNetworks, AllowListedHosts: []string{"RECEIVER.test"}}, "", ""},
		{"host not allow-listed", ChannelSlack, "http://other.test:9/hook",
			OutboundPolicy{AllowNetworks: loopbackOnly.AllowNetworks, AllowListedHosts: []string{"receiver.test"}}, ECodeBusinessRule, "url_not_allowed"},
		{"unknown platform", "irc", "https://x", OutboundPolicy{}, ECodeValidation, "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := NewChatDestination{Platform: tt.platform, Name: " alerts ", ChannelName: " #ops ", URL: tt.url, EventTypes: []string{"*"}}
			err := c.Validate(tt.policy)
			wantCodeAndDetail(t, err, tt.code, tt.detail)
			if err == nil && (c.Name != "alerts" || c.ChannelName != "#ops") {
				t.Errorf("not normalised: %+v", c)
			}
		})
	}
}

func TestChatDestinationUpdateValidate(t *testing.T) {
	t.Parallel()
	slack := "https://hooks.slack.com/services/T/B/new"
	u := ChatDestinationUpdate{URL: &slack}
	wantCodeAndDetail(t, u.Validate(ChannelSlack, OutboundPolicy{}), "", "")
	wantCodeAndDetail(t, u.Validate(ChannelTeams, OutboundPolicy{}), ECodeBusinessRule, "url_not_allowed")
	channel := "  #ops "
	u = ChatDestinationUpdate{ChannelName: &channel}
	wantCodeAndDetail(t, u.Validate("", OutboundPolicy{}), "", "")
	if *u.ChannelName != "#ops" {
		t.Errorf("channel %q", *u.ChannelName)
	}
}

func TestChatDestinationFilterValidate(t *testing.T) {
	t.Parallel()
	wantCodeAndDetail(t, ChatDestinationFilter{}.Validate(), "", "")
	wantCodeAndDetail(t, ChatDestinationFilter{Platform: ChannelTeams}.Validate(), "", "")
	wantCodeAndDetail(t, ChatDestinationFilter{Platform: "irc"}.Validate(), ECodeValidation, "invalid")
}
