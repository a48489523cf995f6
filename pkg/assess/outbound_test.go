package assess

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestOutboundAddressAllowed(t *testing.T) {
	loopbackAllowed := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("10.20.0.0/16")}
	tests := []struct {
		addr  string
		allow []netip.Prefix
		want  bool
	}{
		{"93.184.216.34", nil, true},
		{"2606:2800:220:1:248:1893:25c8:1946", nil, true},
		{"127.0.0.1", nil, false},
		{"::1", nil, false},
		{"10.1.2.3", nil, false},
		{"172.16.0.1", nil, false},
		{"192.168.1.1", nil, false},
		{"fd00::1", nil, false},
		{"169.254.169.254", nil, false},
		{"fe80::1", nil, false},
		{"fe80::1%eth0", nil, false},
		{"100.64.0.1", nil, false},
		{"100.127.255.254", nil, false},
		{"100.128.0.1", nil, true},
		{"0.0.0.0", nil, false},
		{"0.1.2.3", nil, false},
		{"::", nil, false},
		{"224.0.0.1", nil, false},
		{"ff02::1", nil, false},
		{"255.255.255.255", nil, false},
		{"::ffff:127.0.0.1", nil, false},
		{"::ffff:169.254.169.254", nil, false},
		{"::ffff:93.184.216.34", nil, true},
		{"64:ff9b::a9fe:a9fe", nil, false}, // NAT64 of 169.254.169.254
		{"64:ff9b::5db8:d822", nil, true},  // NAT64 of 93.184.216.34
		{"127.0.0.1", loopbackAllowed, true},
		{"::ffff:127.0.0.1", loopbackAllowed, true},
		{"10.20.1.1", loopbackAllowed, true},
		{"10.21.1.1", loopbackAllowed, false},
		{"::1", loopbackAllowed, false},
	}
	for _, tt := range tests {
		if got := OutboundAddressAllowed(netip.MustParseAddr(tt.addr), tt.allow); got != tt.want {
			t.Errorf("OutboundAddressAllowed(%s, %v) = %v, want %v", tt.addr, tt.allow, got, tt.want)
		}
	}
	if OutboundAddressAllowed(netip.Addr{}, nil) {
		t.Error("the zero address must be refused")
	}
}

func TestInNetworks(t *testing.T) {
	nets := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	if !InNetworks(netip.MustParseAddr("::ffff:127.0.0.2"), nets) {
		t.Error("an IPv4-mapped address is judged by its IPv4 address")
	}
	if InNetworks(netip.MustParseAddr("128.0.0.1"), nets) || InNetworks(netip.MustParseAddr("1.2.3.4"), nil) {
		t.Error("outside")
	}
}

func TestOutboundPolicyCheckURL(t *testing.T) {
	t.Parallel()
	allow := OutboundPolicy{AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
	tests := []struct {
		url    string
		policy OutboundPolicy
		ok     bool
	}{
		{"https://hooks.example.com/x", OutboundPolicy{}, true},
		{"HTTPS://hooks.example.com/x", OutboundPolicy{}, true},
		{"http://127.0.0.1:8080/hook", allow, true},
		{"http://localhost:8080/hook", allow, true},
		{"http://hooks.example.com/x", allow, true}, // resolved and checked at delivery time
		{"http://hooks.example.com/x", OutboundPolicy{}, false},
		{"https://10.0.0.1/x", allow, false},
		{"https://169.254.169.254/latest", allow, false},
		{"https://[::1]/x", OutboundPolicy{}, false},
		{"https://[::ffff:10.0.0.1]/x", allow, false},
		{"http://93.184.216.34/x", allow, false}, // plain http outside the allowed networks
		{"https://93.184.216.34/x", OutboundPolicy{}, true},
		{"ftp://hooks.example.com/x", allow, false},
		{"https://user:pw@hooks.example.com", allow, false},
		{"https:///nohost", allow, false},
		{"/relative", allow, false},
	}
	for _, tt := range tests {
		u, err := tt.policy.CheckURL("url", tt.url)
		if tt.ok {
			wantCodeAndDetail(t, err, "", "")
			if u.Scheme != "https" && u.Scheme != "http" {
				t.Errorf("%s: scheme %s", tt.url, u.Scheme)
			}
		} else {
			wantCodeAndDetail(t, err, ECodeBusinessRule, "url_not_allowed")
			// The detail is shown alone under the field: a sentence; the message follows a colon.
			var e *Error
			if errors.As(err, &e) {
				if d := e.Details[0].Message; d != Sentence(d) || !strings.HasPrefix(e.Message, "This URL cannot be used: "+Clause(d)) {
					t.Errorf("%s: detail %q, message %q", tt.url, d, e.Message)
				}
			}
		}
	}
	if Sentence("éa") != "Éa" || Clause("The URL") != "the URL" || Sentence("") != "" {
		t.Errorf("Sentence/Clause")
	}
}

func TestChatHostToResolve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		platform, url, host string
	}{
		{ChannelSlack, "https://hooks.slack.com/services/x", ""},       // fits: nothing to resolve
		{ChannelSlack, "http://receiver.test:9/hook", "receiver.test"}, // off the pattern: the name decides
		{ChannelMattermost, "https://chat.example.com/x", ""},
		{ChannelMattermost, "http://chat.example.com/x", "chat.example.com"},
		{ChannelTeams, "http://127.0.0.1:9/x", ""}, // a literal address needs no lookup
		{ChannelTeams, "http://localhost:9/x", ""},
		{"irc", "http://chat.example.com/x", ""},
		{ChannelSlack, "::", ""},
	}
	for _, tt := range tests {
		host, ok := ChatHostToResolve(tt.platform, tt.url)
		if host != tt.host || ok != (tt.host != "") {
			t.Errorf("%s %s: %q %v", tt.platform, tt.url, host, ok)
		}
	}
}

func TestChatURLHintAndRedactedURL(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"https://hooks.slack.com/services/T0/B0/xwxyz":     "https://hooks.slack.com/…wxyz",
		"https://contoso.webhook.office.com/webhookb2/abc": "https://contoso.webhook.office.com/…/abc",
	} {
		if got := ChatURLHint(raw); got != want {
			t.Errorf("hint %s: %s", raw, got)
		}
	}
	for raw, want := range map[string]string{
		"https://hooks.example.com/in?token=abc":    "https://hooks.example.com/in?…",
		"https://u:p@hooks.example.com/in#fragment": "https://hooks.example.com/in",
		"https://hooks.example.com/plain":           "https://hooks.example.com/plain",
	} {
		if got := RedactedURL(raw); got != want {
			t.Errorf("redacted %s: %s", raw, got)
		}
	}
}
