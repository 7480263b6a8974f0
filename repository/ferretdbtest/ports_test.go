package ferretdbtest

import "testing"

// TestAClaimedPortIsNotClaimedAgain: a port's lock is held by the open file
// that took it, so any other taker (another test process; here another open
// of the same lock file) is refused while the first lives.
func TestAClaimedPortIsNotClaimedAgain(t *testing.T) {
	dir := t.TempDir()
	if !claimIn(dir, 25000) {
		t.Fatal("a port nobody claimed was refused")
	}
	if claimIn(dir, 25000) {
		t.Fatal("a claimed port was claimed again")
	}
	if !claimIn(dir, 25001) {
		t.Fatal("another port was refused")
	}
}
