package controllers_test

import (
	"encoding/json"
	"testing"
)

// TestCostDetailsAreThePlugins: a range written in one value, a price with a
// thousands separator and a text cost come back as the plugin's REST event
// gives them (app/testdata/cost/ has the whole table).
func TestCostDetailsAreThePlugins(t *testing.T) {
	t.Parallel()
	s := startService(t)
	for _, c := range []struct{ cost, text, details string }{
		{"10–20 €", "$10 – $20", `{"currency_symbol":"","currency_code":"","currency_position":"","values":["10","20"]}`},
		{"$1,250", "$1,250", `{"currency_symbol":"","currency_code":"","currency_position":"","values":["1250"]}`},
		{"Free", "Free", `{"currency_symbol":"","currency_code":"","currency_position":"","values":["free"]}`},
	} {
		e := s.event(map[string]any{"title": "Priced", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00", "cost": c.cost})
		res := s.do("GET", eventsPath+"/"+idOf(e))
		res.expectStatus(t, 200)
		var got struct {
			Cost        string          `json:"cost"`
			CostDetails json.RawMessage `json:"cost_details"`
		}
		if err := json.Unmarshal(res.Body, &got); err != nil {
			t.Fatal(err)
		}
		if got.Cost != c.text || string(got.CostDetails) != c.details {
			t.Errorf("cost %q: %q %s, want %q %s", c.cost, got.Cost, got.CostDetails, c.text, c.details)
		}
	}
}
