package postgres

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// urlNotAllowed is the 422 of a destination URL the service will not send to.
func urlNotAllowed(field, why string) error {
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: "This URL cannot be used: " + why,
		Details: []assess.Detail{{Field: field, Code: "url_not_allowed", Message: why}}}
}

// checkOutboundURL validates a webhook or chat URL when it is stored: an absolute http(s)
// URL with a host and without user:password. A literal IP must pass the delivery
// dialer's rule (assess.OutboundAddressAllowed), and plain http needs
// OUTBOUND_ALLOW_NETWORKS: with none configured it can never be delivered, and a literal
// IP must lie inside them (localhost: one of its loopback addresses). Names are resolved
// at delivery time, where the dialer checks every address it connects to.
func checkOutboundURL(field, raw string, allow []netip.Prefix) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !u.IsAbs() {
		return nil, urlNotAllowed(field, "it is not an absolute URL.")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch {
	case u.Scheme != "https" && u.Scheme != "http":
		return nil, urlNotAllowed(field, "only https (and http inside OUTBOUND_ALLOW_NETWORKS) can be used.")
	case u.Hostname() == "":
		return nil, urlNotAllowed(field, "the URL has no host.")
	case u.User != nil:
		return nil, urlNotAllowed(field, "credentials in the URL (user:password@) are not accepted.")
	case u.Scheme == "http" && len(allow) == 0:
		return nil, urlNotAllowed(field, "plain http is accepted only for networks in OUTBOUND_ALLOW_NETWORKS; use https.")
	}
	addrs := literalAddrs(u.Hostname())
	if len(addrs) == 0 {
		return u, nil
	}
	if !slices.ContainsFunc(addrs, func(a netip.Addr) bool { return assess.OutboundAddressAllowed(a, allow) }) {
		return nil, urlNotAllowed(field, "the address is private, loopback, link-local or otherwise internal.")
	}
	if u.Scheme == "http" && !slices.ContainsFunc(addrs, func(a netip.Addr) bool { return assess.InNetworks(a, allow) }) {
		return nil, urlNotAllowed(field, "plain http is accepted only for networks in OUTBOUND_ALLOW_NETWORKS; use https.")
	}
	return u, nil
}

// literalAddrs returns the addresses a host names without DNS: a literal IP, or the
// loopback addresses for localhost.
func literalAddrs(host string) []netip.Addr {
	if addr, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{addr}
	}
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")}
	}
	return nil
}

// insideAllowNetworks reports whether host resolves only to addresses inside allow;
// chat URLs of such hosts (test servers) need not match the platform's pattern.
func insideAllowNetworks(ctx context.Context, host string, allow []netip.Prefix) bool {
	if len(allow) == 0 {
		return false
	}
	inside := func(a netip.Addr) bool { return assess.InNetworks(a, allow) }
	if addrs := literalAddrs(host); addrs != nil {
		return slices.ContainsFunc(addrs, inside)
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	addrs, _ := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	for _, a := range addrs {
		if !inside(a) {
			return false
		}
	}
	return len(addrs) > 0
}

// teamsHostSuffixes are the hosts of Microsoft Teams incoming webhooks and workflows.
var teamsHostSuffixes = []string{".webhook.office.com", ".logic.azure.com", ".powerplatform.com"}

// checkChatURL validates a chat URL: the general rules, then the platform's pattern —
// Slack https://hooks.slack.com/…, Teams https on a Microsoft webhook host, Mattermost
// any https — unless the host resolves inside OUTBOUND_ALLOW_NETWORKS.
func checkChatURL(ctx context.Context, field, platform, raw string, allow []netip.Prefix) (*url.URL, error) {
	u, err := checkOutboundURL(field, raw, allow)
	if err != nil {
		return nil, err
	}
	host := strings.ToLower(u.Hostname())
	ok := u.Scheme == "https"
	switch platform {
	case assess.ChannelSlack:
		ok = ok && host == "hooks.slack.com"
	case assess.ChannelTeams:
		ok = ok && hasAnySuffix(host, teamsHostSuffixes)
	}
	if ok || insideAllowNetworks(ctx, u.Hostname(), allow) {
		return u, nil
	}
	return nil, urlNotAllowed(field, map[string]string{
		assess.ChannelSlack:      "a Slack incoming-webhook URL starts with https://hooks.slack.com/.",
		assess.ChannelTeams:      "a Teams URL is https on a host ending in .webhook.office.com, .logic.azure.com or .powerplatform.com.",
		assess.ChannelMattermost: "a Mattermost incoming-webhook URL must use https.",
	}[platform])
}

func hasAnySuffix(s string, suffixes []string) bool {
	for _, suf := range suffixes {
		if strings.HasSuffix(s, suf) {
			return true
		}
	}
	return false
}

// urlHint shows a chat URL without its secret part: scheme, host and the last four
// characters, such as https://hooks.slack.com/…abcd.
func urlHint(u *url.URL) string {
	s := u.String()
	tail := s
	if len(s) > 4 {
		tail = s[len(s)-4:]
	}
	return u.Scheme + "://" + u.Host + "/…" + tail
}

// redactedURL is a webhook URL as events carry it: without query (it may hold a token).
func redactedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	if u.RawQuery != "" {
		u.RawQuery = "…"
	}
	u.User, u.Fragment = nil, ""
	return u.String()
}
