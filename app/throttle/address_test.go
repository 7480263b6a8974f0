package throttle

import (
	"fmt"
	"testing"
	"time"
)

func TestAnAddressIsKeyedAsOneClientHoldsIt(t *testing.T) {
	for _, c := range []struct{ address, key string }{
		{"192.0.2.1", "192.0.2.1"},
		{"::ffff:192.0.2.1", "192.0.2.1"}, // a dual-stack listener's IPv4 client
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"2001:DB8:1:2:0:0:0:7", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"::1", "::/64"},
		{"", ""},
		{"@", "@"}, // a Unix socket's peer
		{"not an address", "not an address"},
	} {
		if got := AddressKey(c.address); got != c.key {
			t.Errorf("AddressKey(%q) = %q, want %q", c.address, got, c.key)
		}
	}
}

// TestAnIPv6ClientIsCountedByItsSlash64: a client holding a /64 guesses
// from a new address each time; its failures are counted together, on one
// subject and on all, and its /64 alone is refused.
func TestAnIPv6ClientIsCountedByItsSlash64(t *testing.T) {
	th := New(Limits{Window: time.Minute, SlowAfter: 1, BlockAfter: 3, Step: time.Second, MaxDelay: time.Second,
		ClientBlockAfter: 5, SubjectBlockAfter: 100})
	for i := 1; i <= 3; i++ {
		th.Failed("login:admin", fmt.Sprintf("2001:db8:1:2::%x", i))
	}
	if th.Wait("login:admin", "2001:db8:1:2:aaaa::1") == 0 {
		t.Fatal("another address of the guesser's /64 may go on guessing the account")
	}
	if th.Wait("login:admin", "2001:db8:1:3::1") != 0 {
		t.Fatal("the next /64 is refused")
	}
	for i := 1; i <= 2; i++ {
		th.Failed(fmt.Sprint("login:", i), fmt.Sprintf("2001:db8:1:2::%x:0", i))
	}
	if th.Wait("login:editor", "2001:db8:1:2::beef") == 0 {
		t.Fatal("a /64 that failed on five accounts may go on")
	}
	t.Run("an IPv4-mapped address is its IPv4 one", func(t *testing.T) {
		for range 3 {
			th.Failed("post:1", "::ffff:198.51.100.7")
		}
		if th.Wait("post:1", "198.51.100.7") == 0 {
			t.Fatal("the IPv4 address is not refused")
		}
	})
	t.Run("a success resets the /64's count", func(t *testing.T) {
		th.Failed("post:2", "2001:db8:9::1")
		th.Failed("post:2", "2001:db8:9::2")
		th.Succeeded("post:2", "2001:db8:9::3")
		th.Failed("post:2", "2001:db8:9::4")
		if th.Wait("post:2", "2001:db8:9::5") != 0 {
			t.Fatal("the count went on past a success of the same /64")
		}
	})
}
