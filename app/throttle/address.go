package throttle

import "net/netip"

// AddressKey is the key a client's address is counted under, by this
// throttle and by every other bound on addresses: an IPv4 address as it is;
// an IPv6 address by its /64, the network one subscriber, one host or one
// virtual machine is given, whose 2^64 addresses its holder may use in turn
// (counted one by one, each would be a fresh client); an IPv4-mapped IPv6
// address (::ffff:192.0.2.1) as its IPv4 address, and an IPv6 zone
// (fe80::1%eth0) left out. What is no address (an empty client, a Unix
// socket's name) is its own key.
func AddressKey(address string) string {
	a, err := netip.ParseAddr(address)
	if err != nil {
		return address
	}
	group := AddressGroup(a)
	if group.Addr().Is4() {
		return group.Addr().String()
	}
	return group.String()
}

// AddressGroup is the network AddressKey names: an IPv4 address alone (a
// /32), an IPv6 address's /64; for the bounds that hold addresses as such
// (the connections').
func AddressGroup(a netip.Addr) netip.Prefix {
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.Prefix(64) // the zero prefix for the zero address
	return p
}
