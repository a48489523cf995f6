package assess

import (
	"net/netip"
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
