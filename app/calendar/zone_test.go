package calendar

import "testing"

func TestZonesAreReadByTheirOneName(t *testing.T) {
	for name, ok := range map[string]bool{
		"Europe/Paris": true, " Asia/Tokyo ": true, "America/Argentina/Buenos_Aires": true, "Etc/GMT+5": true,
		"UTC": true, "utc": true, "UTC+5:30": true, "UTC-3.5": true,
		// The same file under other names would be kept once per name.
		"./Europe/Paris": false, "Europe/./Paris": false, "Europe/Paris/": false, "/Europe/Paris": false,
		"Europe/../Europe/Paris": false, "local": false, "Local": false, "": false, "Mars/Olympus": false, "UTC+15": false,
	} {
		if _, err := ParseZone(name); (err == nil) != ok {
			t.Errorf("%q: error %v, want a zone: %v", name, err, ok)
		}
	}
	loc, _ := ParseZone("Europe/Paris")
	if again, _ := ParseZone("Europe/Paris"); again != loc {
		t.Error("a zone read twice was loaded twice")
	}
}
