package assess

import (
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// blockedOutbound are the ranges outbound deliveries never reach unless an operator
// allows them, beyond what the netip predicates cover: "this network" 0/8, carrier-grade
// NAT 100.64/10 and the limited broadcast address.
var blockedOutbound = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("255.255.255.255/32"),
}

// nat64 is the well-known NAT64 prefix (RFC 6052): its addresses carry an IPv4 address in
// their last 32 bits and reach that address through a translator.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// OutboundAddressAllowed reports whether a webhook or chat delivery may connect to addr.
// It refuses loopback, private (RFC 1918, fc00::/7), link-local (169.254/16 with the
// cloud metadata address, fe80::/10), carrier-grade NAT, unspecified, multicast and
// broadcast addresses and 0/8, judging IPv4-mapped and NAT64 addresses by the IPv4
// address they carry, unless addr lies inside one of allow (OUTBOUND_ALLOW_NETWORKS).
// The store applies it to literal IPs in URLs at creation; the delivery dialer applies it
// to every address it actually dials.
func OutboundAddressAllowed(addr netip.Addr, allow []netip.Prefix) bool {
	if !addr.IsValid() {
		return false
	}
	if InNetworks(addr, allow) {
		return true
	}
	a := embeddedIPv4(addr.WithZone(""))
	switch {
	case a.IsLoopback(), a.IsPrivate(), a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast(),
		a.IsInterfaceLocalMulticast(), a.IsMulticast(), a.IsUnspecified():
		return false
	}
	for _, p := range blockedOutbound {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// InNetworks reports whether addr (or the IPv4 address an IPv4-mapped or NAT64 address
// carries) lies inside one of nets.
func InNetworks(addr netip.Addr, nets []netip.Prefix) bool {
	plain := addr.WithZone("")
	v4 := embeddedIPv4(plain)
	for _, p := range nets {
		if p.Contains(plain) || p.Contains(v4) {
			return true
		}
	}
	return false
}

// embeddedIPv4 returns the IPv4 address an IPv4-mapped or NAT64 address carries, and addr
// itself otherwise.
func embeddedIPv4(addr netip.Addr) netip.Addr {
	if addr.Is4In6() {
		return addr.Unmap()
	}
	if addr.Is6() && nat64.Contains(addr) {
		b := addr.As16()
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	return addr
}

// OutboundPolicy decides which URLs webhook and chat destinations may have.
type OutboundPolicy struct {
	// AllowNetworks are OUTBOUND_ALLOW_NETWORKS: the private or loopback networks
	// destinations may point to, and the only ones plain http may reach.
	AllowNetworks []netip.Prefix
	// AllowListedHosts are host names found to resolve only to addresses inside
	// AllowNetworks: chat URLs on them (test receivers) need not fit their platform's
	// pattern. Resolving a name is a network call, so the store makes it before its
	// transaction (see ChatHostToResolve) and hands the result in here.
	AllowListedHosts []string
}

// urlNotAllowed is the 422 of a destination URL the service will not send to.
func urlNotAllowed(field, why string) error {
	return &Error{Code: ECodeBusinessRule, Message: "This URL cannot be used: " + why,
		Details: []Detail{{Field: field, Code: "url_not_allowed", Message: Sentence(why)}}}
}

// Sentence is s with its first letter in upper case: a reason written to follow a colon
// ("… cannot be used: the URL has no host.") shown on its own, under a form field.
func Sentence(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// Clause is Sentence undone: s with its first letter in lower case, to follow a colon.
func Clause(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToLower(r)) + s[size:]
}

// CheckURL validates a webhook or chat URL when it is stored: an absolute http(s) URL
// with a host and without user:password. A literal IP must pass the delivery dialer's
// rule (OutboundAddressAllowed), and plain http needs AllowNetworks: with none it can
// never be delivered, and a literal IP must lie inside them (localhost: one of its
// loopback addresses). Names are resolved at delivery time, where the dialer checks every
// address it connects to. The URL is returned with its scheme in lower case.
func (p OutboundPolicy) CheckURL(field, raw string) (*url.URL, error) {
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
	case u.Scheme == "http" && len(p.AllowNetworks) == 0:
		return nil, urlNotAllowed(field, "plain http is accepted only for networks in OUTBOUND_ALLOW_NETWORKS; use https.")
	}
	addrs := literalAddrs(u.Hostname())
	if len(addrs) == 0 {
		return u, nil
	}
	if !slices.ContainsFunc(addrs, func(a netip.Addr) bool { return OutboundAddressAllowed(a, p.AllowNetworks) }) {
		return nil, urlNotAllowed(field, "the address is private, loopback, link-local or otherwise internal.")
	}
	if u.Scheme == "http" && !slices.ContainsFunc(addrs, func(a netip.Addr) bool { return InNetworks(a, p.AllowNetworks) }) {
		return nil, urlNotAllowed(field, "plain http is accepted only for networks in OUTBOUND_ALLOW_NETWORKS; use https.")
	}
	return u, nil
}

// chatURLRules say, per platform, which incoming-webhook URLs fit it.
var chatURLRules = map[string]string{
	ChannelSlack:      "a Slack incoming-webhook URL starts with https://hooks.slack.com/.",
	ChannelTeams:      "a Teams URL is https on a host ending in .webhook.office.com, .logic.azure.com or .powerplatform.com.",
	ChannelMattermost: "a Mattermost incoming-webhook URL must use https.",
}

// teamsHostSuffixes are the hosts of Microsoft Teams incoming webhooks and workflows.
var teamsHostSuffixes = []string{".webhook.office.com", ".logic.azure.com", ".powerplatform.com"}

// CheckChatURL validates a chat URL: the rules of CheckURL, then the platform's pattern
// (Slack https://hooks.slack.com/…, Teams https on a Microsoft webhook host, Mattermost
// any https) unless the host lies inside AllowNetworks: a literal address or localhost
// inside them, or one of AllowListedHosts.
func (p OutboundPolicy) CheckChatURL(field, platform, raw string) (*url.URL, error) {
	u, err := p.CheckURL(field, raw)
	if err != nil {
		return nil, err
	}
	if chatURLFits(platform, u) || p.hostInside(u.Hostname()) {
		return u, nil
	}
	return nil, urlNotAllowed(field, chatURLRules[platform])
}

// chatURLFits reports whether u has the shape of platform's incoming webhooks.
func chatURLFits(platform string, u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	https := strings.EqualFold(u.Scheme, "https")
	switch platform {
	case ChannelSlack:
		return https && host == "hooks.slack.com"
	case ChannelTeams:
		return https && slices.ContainsFunc(teamsHostSuffixes, func(s string) bool { return strings.HasSuffix(host, s) })
	}
	return https
}

// hostInside reports whether host lies inside AllowNetworks as far as the policy knows:
// a literal address or localhost without a lookup, a name when it is allow-listed.
func (p OutboundPolicy) hostInside(host string) bool {
	if len(p.AllowNetworks) == 0 {
		return false
	}
	if addrs := literalAddrs(host); addrs != nil {
		return slices.ContainsFunc(addrs, func(a netip.Addr) bool { return InNetworks(a, p.AllowNetworks) })
	}
	return slices.ContainsFunc(p.AllowListedHosts, func(h string) bool { return strings.EqualFold(h, host) })
}

// ChatHostToResolve returns the host name of a chat URL whose acceptance depends on what
// the name resolves to: the URL does not fit the platform's pattern and names a host
// rather than an address. ok is false when no lookup can change the outcome.
func ChatHostToResolve(platform, raw string) (host string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !slices.Contains(ChatPlatforms, platform) || u.Hostname() == "" ||
		chatURLFits(platform, u) || literalAddrs(u.Hostname()) != nil {
		return "", false
	}
	return u.Hostname(), true
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

// ChatURLHint shows a chat URL without its secret part: scheme, host and the last four
// characters, such as https://hooks.slack.com/…abcd.
func ChatURLHint(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	s := u.String()
	tail := s
	if len(s) > 4 {
		tail = s[len(s)-4:]
	}
	return u.Scheme + "://" + u.Host + "/…" + tail
}

// RedactedURL is a webhook URL as events carry it: without its query (it may hold a
// token), credentials or fragment.
func RedactedURL(raw string) string {
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
