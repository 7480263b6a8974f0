package recur

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/teambition/rrule-go"
)

// oracleCase is one line of testdata/oracle.json: a rule, a window and the
// starts rrule-go gives in it. rrule-go is not run here, as it never
// returns on some rules; from the module root,
//
//	go run ./app/recur/testdata/generate.go
//
// runs it and writes the table again.
type oracleCase struct {
	Rule    string   `json:"rule"`
	Zone    string   `json:"zone"`
	DTStart string   `json:"dtstart"`
	After   string   `json:"after"`
	Until   string   `json:"until"`
	Limit   int      `json:"limit"`
	Want    []string `json:"want"`
	Invalid bool     `json:"invalid"`
}

func TestExpandAgreesWithRRuleGo(t *testing.T) {
	raw, err := os.ReadFile("testdata/oracle.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []oracleCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 500 {
		t.Fatalf("%d cases in the table; regenerate it", len(cases))
	}
	failed := 0
	for _, c := range cases {
		got, err := expandCase(t, c)
		switch {
		case c.Invalid:
			if err == nil {
				t.Errorf("%s from %s %s: no error, rrule-go refuses the rule", c.Rule, c.DTStart, c.Zone)
			}
		case err != nil:
			t.Errorf("%s from %s %s: %v", c.Rule, c.DTStart, c.Zone, err)
		case !slices.Equal(got, c.Want):
			t.Errorf("%s from %s %s in (%s, %s] limit %d:\n got %v\nwant %v", c.Rule, c.DTStart, c.Zone, c.After, c.Until, c.Limit, got, c.Want)
		default:
			continue
		}
		if failed++; failed == 20 {
			t.Fatal("too many failures")
		}
	}
}

// expandCase runs Expand on a case as the service would, the result written
// as the table writes it.
func expandCase(t *testing.T, c oracleCase) ([]string, error) {
	t.Helper()
	loc, err := time.LoadLocation(c.Zone)
	if err != nil {
		t.Fatal(err)
	}
	dtstart, err1 := time.ParseInLocation("2006-01-02T15:04:05", c.DTStart, loc)
	after, err2 := time.Parse(time.RFC3339, c.After)
	until, err3 := time.Parse(time.RFC3339, c.Until)
	opt, err4 := rrule.StrToROptionInLocation(c.Rule, loc)
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			t.Fatalf("%s: %v", c.Rule, err)
		}
	}
	starts, err := Expand(*opt, dtstart, after, until, c.Limit, Budget{Periods: 1 << 20})
	var out []string
	for _, s := range starts {
		out = append(out, s.Format(time.RFC3339))
	}
	return out, err
}
