package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"calendar/repository/ferretdbtest"
)

// TestTwoReplicasOnOneMongoDBSeeEachOthersWrites runs two services, each with
// its own index, on one MongoDB-protocol server: what A writes and deletes shows
// in B's lists within two sync intervals, and B's change to a venue in A's
// rendering of an event at it.
func TestTwoReplicasOnOneMongoDBSeeEachOthersWrites(t *testing.T) {
	t.Parallel()
	uri := ferretdbtest.Start(t)
	const interval = 500 * time.Millisecond
	replica := func(name string) (string, func()) {
		addr, stop := serveInProcess(t, map[string]string{"CALENDAR_DATA_DIR": t.TempDir(), "CALENDAR_MONGODB_URI": uri,
			"CALENDAR_MONGODB_DB": "replicas", "CALENDAR_SYNC_INTERVAL": interval.String(), "CALENDAR_ADMIN_PASSWORD": childPassword},
			&syncWriter{b: &strings.Builder{}})
		return addr, func() {
			if err := stop(); err != nil {
				t.Errorf("replica %s: %v", name, err)
			}
		}
	}
	a, stopA := replica("A")
	defer stopA()
	b, stopB := replica("B")
	defer stopB()
	ca, cb := &child{addr: a}, &child{addr: b}

	names := func(addr string) string {
		res, err := http.Get("http://" + addr + "/vendor/events/v1/venues")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var list struct {
			Venues []struct {
				Venue string `json:"venue"`
			} `json:"venues"`
			Total int `json:"total"`
		}
		_ = json.NewDecoder(res.Body).Decode(&list)
		var out []string
		for _, v := range list.Venues {
			out = append(out, v.Venue)
		}
		return fmt.Sprintf("%s (%d)", strings.Join(out, ","), list.Total) // the total comes from the index
	}
	// within is how long addr took to list want: the replica syncs every
	// interval; how soon is logged, not asserted (a busy machine is slower).
	within := func(addr, want string) time.Duration {
		start := time.Now()
		waitFor(t, func() bool { return names(addr) == want }, func() string {
			return fmt.Sprintf("%s to list %q (it lists %q)", addr, want, names(addr))
		})
		return time.Since(start)
	}

	status, v, err := ca.post("/vendor/events/v1/venues", `{"venue": "made on A"}`)
	if err != nil || status != http.StatusCreated {
		t.Fatalf("create on A: %d %v", status, err)
	}
	if got := names(a); got != "made on A (1)" {
		t.Fatalf("A does not see its own write at once: %q", got)
	}
	t.Logf("B saw A's create after %v", within(b, "made on A (1)"))

	status, onB, err := cb.post("/vendor/events/v1/venues", `{"venue": "made on B"}`)
	if err != nil || status != http.StatusCreated {
		t.Fatalf("create on B: %d %v", status, err)
	}
	t.Logf("A saw B's create after %v", within(a, "made on B,made on A (2)"))

	// A keeps the events it rendered (app/viewcache.go): B's change to what
	// one embeds shows on A once A has applied it.
	venueOnB := int64(onB["id"].(float64))
	status, event, err := ca.post("/vendor/events/v1/events", fmt.Sprintf(`{"title": "e", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00", "venue": %d}`, venueOnB))
	if err != nil || status != http.StatusCreated {
		t.Fatalf("create an event on A: %d %v", status, err)
	}
	venueOfEvent := func() string {
		res, err := http.Get(fmt.Sprintf("http://%s/vendor/events/v1/events/%d", a, int64(event["id"].(float64))))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var e struct {
			Venue struct {
				Venue string `json:"venue"`
			} `json:"venue"`
		}
		_ = json.NewDecoder(res.Body).Decode(&e)
		return e.Venue.Venue
	}
	if got := venueOfEvent(); got != "made on B" {
		t.Fatalf("A shows the event at %q", got)
	}
	if status, _, _ := cb.post(fmt.Sprintf("/vendor/events/v1/venues/%d", venueOnB), `{"venue": "renamed on B"}`); status != http.StatusOK {
		t.Fatalf("rename on B: %d", status)
	}
	waitFor(t, func() bool { return venueOfEvent() == "renamed on B" }, func() string {
		return fmt.Sprintf("A to show the event at the renamed venue (it shows %q)", venueOfEvent())
	})

	// A declaration changed on A: B's filter and facet by the field follow
	// it from the change feed, and B's own index is brought in line.
	if status, _, err := ca.post("/vendor/admin/v1/fields", `{"key": "lang", "label": "Language", "type": "select", "options": ["en", "fr"], "public": true}`); err != nil || status != http.StatusCreated {
		t.Fatalf("declare on A: %d %v", status, err)
	}
	if status, _, err := ca.post(fmt.Sprintf("/vendor/events/v1/events/%d", int64(event["id"].(float64))), `{"custom_fields": {"lang": "fr"}}`); err != nil || status != http.StatusOK {
		t.Fatalf("a value on A: %d %v", status, err)
	}
	inFrench := func() string {
		res, err := http.Get("http://" + b + "/vendor/events/v1/events?start_date=2030-01-01&end_date=2030-01-02&cf%5Blang%5D=fr&facets=cf.lang")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var list struct {
			Total  int `json:"total"`
			Facets any `json:"facets"`
		}
		_ = json.NewDecoder(res.Body).Decode(&list)
		return fmt.Sprintf("%d %d %v", res.StatusCode, list.Total, list.Facets)
	}
	waitFor(t, func() bool { return strings.HasPrefix(inFrench(), "400 ") }, func() string {
		return fmt.Sprintf("B to refuse a filter by a field not filterable (it answers %q)", inFrench())
	})
	if status, err := ca.do("PATCH", "/vendor/admin/v1/fields/lang", "application/json", []byte(`{"filterable": true}`), nil); err != nil || status != http.StatusOK {
		t.Fatalf("made filterable on A: %d %v", status, err)
	}
	start := time.Now()
	const followed = "200 1 map[cf.lang:[map[count:1 name:fr]]]"
	waitFor(t, func() bool { return inFrench() == followed }, func() string {
		return fmt.Sprintf("B to filter and count by the field made filterable on A (it answers %q)", inFrench())
	})
	t.Logf("B followed A's declaration after %v", time.Since(start))

	req, _ := http.NewRequest("DELETE", fmt.Sprintf("http://%s/vendor/events/v1/venues/%d?force=true", a, int64(v["id"].(float64))), nil)
	req.SetBasicAuth("admin", childPassword)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("delete on A: %v %v", res, err)
	}
	res.Body.Close()
	t.Logf("B saw A's delete after %v", within(b, "renamed on B (1)"))
}

func waitReady(t *testing.T, addr string) {
	t.Helper()
	waitFor(t, func() bool { return ready(addr) }, func() string { return addr + " to get ready" })
}

// readyClient gives up on an answer after a while: whatever else holds
// the port (another test process's listener) may never answer, and the wait
// for readiness asks again. It keeps no connection open, which the
// connection bounds' tests would count.
var readyClient = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}

// ready reports whether the service at addr answers /readyz with 200.
func ready(addr string) bool {
	res, err := readyClient.Get("http://" + addr + "/readyz")
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}
