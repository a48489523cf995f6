package assess

import "net/netip"

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
