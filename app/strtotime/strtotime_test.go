package strtotime

import (
	"encoding/json"
	"os"
	"testing"
	"time"
)

// phpCase is one row of testdata/cases.json, which PHP's strtotime
// produced (see generate.php beside it). Refused, when set, says which of the
// service's own rules refuses what PHP accepts: "year" (outside 1 to 9999),
// "offset" (beyond ±14:00) or "zone" (a zone named other than UTC, GMT, Z).
type phpCase struct {
	Zone    string `json:"zone"`
	Now     int64  `json:"now"`
	Input   string `json:"input"`
	OK      bool   `json:"ok"`
	Unix    int64  `json:"unix"`
	Local   string `json:"local"`
	Refused string `json:"refused"`
}

func TestParseAgreesWithPHP(t *testing.T) {
	raw, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []phpCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]bool{}
	for _, c := range cases {
		inputs[c.Input] = true
		loc, err := time.LoadLocation(c.Zone)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Parse(c.Input, time.Unix(c.Now, 0), loc)
		switch {
		case !c.OK && err == nil:
			t.Errorf("%s %q: got %s, PHP rejects it", c.Zone, c.Input, got)
		case c.Refused != "" && err == nil:
			t.Errorf("%s %q: got %s, the service refuses it (%s; PHP gives %s)", c.Zone, c.Input, got, c.Refused, c.Local)
		case c.Refused != "":
			// refused, as the service's own rule says
		case c.OK && err != nil:
			t.Errorf("%s %q: rejected, PHP gives %s", c.Zone, c.Input, c.Local)
		case c.OK && got.Unix() != c.Unix:
			t.Errorf("%s %q: got %s (%d), PHP gives %s (%d)", c.Zone, c.Input, got.In(loc).Format("2006-01-02 15:04:05"), got.Unix(), c.Local, c.Unix)
		}
	}
	if len(inputs) < 250 {
		t.Fatalf("only %d inputs in the PHP table", len(inputs))
	}
}

func TestADigitStringIsAUnixTimestamp(t *testing.T) {
	got, err := Parse("1700000000", time.Now(), time.UTC)
	if err != nil || got.Unix() != 1700000000 {
		t.Fatalf("got %v, %v", got, err)
	}
}
