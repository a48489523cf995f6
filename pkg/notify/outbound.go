// Package notify delivers events outside the service: signed webhook POSTs, Slack, Teams
// and Mattermost messages, and e-mails rendered from embedded templates. Every outbound
// HTTP connection passes the SSRF guard of this file.
package notify

import (
	"fmt"
	"net/netip"
	"syscall"

	"github.com/assay-dev/assay/pkg/assess"
)

// RefusedError is the error of a connection the guard refused.
type RefusedError struct {
	Addr   netip.Addr
	Reason string
}

// Error implements error; it names the variable that would permit the address.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("outbound connection to %s refused: %s (not in OUTBOUND_ALLOW_NETWORKS)", e.Addr, e.Reason)
}

// checkDial applies the SSRF rule to an address about to be dialled. The rule itself is
// assess.OutboundAddressAllowed, which the store also applies to literal IPs when a URL is
// saved. With plainHTTP, only allow-listed addresses pass.
func checkDial(addr netip.Addr, allow []netip.Prefix, plainHTTP bool) error {
	addr = addr.WithZone("").Unmap()
	switch {
	case assess.InNetworks(addr, allow):
		return nil
	case !assess.OutboundAddressAllowed(addr, nil):
		return &RefusedError{Addr: addr, Reason: describe(addr)}
	case plainHTTP:
		return &RefusedError{Addr: addr, Reason: "plain http is only allowed to allow-listed networks"}
	}
	return nil
}

// describe names the class of an internal address for the delivery log.
func describe(addr netip.Addr) string {
	switch {
	case addr.IsUnspecified():
		return "unspecified address"
	case addr.IsLoopback():
		return "loopback address"
	case addr.IsPrivate():
		return "private network"
	case addr.IsMulticast():
		return "multicast address"
	case addr.IsLinkLocalUnicast():
		return "link-local address"
	case addr.Is6():
		return "internal address (through NAT64)"
	default:
		return "internal or reserved address"
	}
}

// dialControl returns a net.Dialer Control hook that checks the address actually being
// dialled, after name resolution, so neither DNS answers nor redirects can steer a
// delivery to an internal address.
func dialControl(allow []netip.Prefix, plainHTTP bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("outbound connection to %q refused: %w", address, err)
		}
		return checkDial(ap.Addr(), allow, plainHTTP)
	}
}
