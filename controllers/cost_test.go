package controllers_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestCostsReadAsWritten: a range written in one value keeps its symbol
// (not "10–20 € – 20–20 €"), a thousands separator leaves the value a
// number (the plugin's "1250"), a text cost gives its slug as its value (the
// plugin's key, "free"), and a new price without a symbol stays in the
// event's currency. The whole table, against the plugin's own answers, is
// app/cost_test.go's.
func TestCostsReadAsWritten(t *testing.T) {
	t.Parallel()
	s := startService(t)
	read := func(t *testing.T, id string) (string, string) {
		res := s.do(http.MethodGet, eventsPath+"/"+id)
		res.expectStatus(t, http.StatusOK)
		var got struct {
			Cost        string          `json:"cost"`
			CostDetails json.RawMessage `json:"cost_details"`
		}
		if err := json.Unmarshal(res.Body, &got); err != nil {
			t.Fatal(err)
		}
		return got.Cost, string(got.CostDetails)
	}
	for _, c := range []struct{ cost, text, details string }{
		{"10–20 €", "10€ – 20€", `{"currency_symbol":"€","currency_code":"","currency_position":"postfix","values":["10","20"]}`},
		{"$1,250", "$1,250", `{"currency_symbol":"$","currency_code":"","currency_position":"prefix","values":["1250"]}`},
		{"1.250,50 €", "1.250,50€", `{"currency_symbol":"€","currency_code":"","currency_position":"postfix","values":["1250.50"]}`},
		{"Free", "Free", `{"currency_symbol":"","currency_code":"","currency_position":"","values":["free"]}`},
	} {
		t.Run(c.cost, func(t *testing.T) {
			e := s.event(map[string]any{"title": "Priced", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00", "cost": c.cost})
			if text, details := read(t, idOf(e)); text != c.text || details != c.details {
				t.Errorf("%q %s, want %q %s", text, details, c.text, c.details)
			}
		})
	}
	t.Run("a price without a symbol stays in the event's currency", func(t *testing.T) {
		e := s.event(map[string]any{"title": "Euros", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00", "cost": "20€"})
		s.do(http.MethodPost, eventsPath+"/"+idOf(e), asAdmin(), jsonBody(map[string]any{"cost": "25"})).expectStatus(t, http.StatusOK)
		if text, _ := read(t, idOf(e)); text != "25€" {
			t.Fatalf("cost %q, want 25€", text)
		}
	})
}
