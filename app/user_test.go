package app

import "testing"

func TestApplicationPasswords(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		p := NewApplicationPassword()
		if len(p) != 29 || len(normalizePassword(p)) != 24 {
			t.Fatalf("password %q is not 24 characters in six groups", p)
		}
		if seen[p] {
			t.Fatalf("password %q generated twice", p)
		}
		seen[p] = true
	}
	if hashPassword("abcd efgh") != hashPassword("abcdefgh") {
		t.Fatal("spaces change the hash")
	}
}
