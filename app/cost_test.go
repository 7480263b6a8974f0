package app

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestCostFollowsThePluginsTable: every cost of the oracle table (made by
// testdata/cost/generate.php with the plugin's own cost code) is stored and
// rendered as the plugin's REST event answers it: the symbol and position
// inferred on write, then `cost` and `cost_details.values` on read.
func TestCostFollowsThePluginsTable(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/cost/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Input            json.RawMessage `json:"input"`
		Cost             string          `json:"cost"`
		CurrencySymbol   string          `json:"currency_symbol"`
		CurrencyPosition string          `json:"currency_position"`
		Values           []string        `json:"values"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("only %d cases in testdata/cost/cases.json", len(cases))
	}
	for _, c := range cases {
		var cost []string
		if err := json.Unmarshal(c.Input, &cost); err != nil {
			var one string
			if err := json.Unmarshal(c.Input, &one); err != nil {
				t.Fatalf("input %s: %v", c.Input, err)
			}
			cost = []string{one}
		}
		symbol, position := CurrencyOf(cost)
		text, values := costText(cost, symbol, position)
		if symbol != c.CurrencySymbol || position != c.CurrencyPosition {
			t.Errorf("cost %s: currency %q %q, want %q %q", c.Input, symbol, position, c.CurrencySymbol, c.CurrencyPosition)
		}
		if text != c.Cost {
			t.Errorf("cost %s: cost %q, want %q", c.Input, text, c.Cost)
		}
		if !slices.Equal(values, c.Values) {
			t.Errorf("cost %s: values %q, want %q", c.Input, values, c.Values)
		}
	}
}
