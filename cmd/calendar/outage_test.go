package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"calendar/repository/ferretdbtest"
)

// TestTheServiceRidesOutAMongoDBRestart stops the database under a stream of
// writes and starts it again: while it is down requests fail with 503
// store_unavailable in the error shape (and readyz says 503); afterwards the
// same process serves again, and every write it acknowledged is there, in the
// store and in the index.
func TestTheServiceRidesOutAMongoDBRestart(t *testing.T) {
	t.Parallel()
	db := ferretdbtest.StartServer(t)
	logs := &syncWriter{b: &strings.Builder{}}
	addr, _ := serveInProcess(t, map[string]string{"CALENDAR_DATA_DIR": t.TempDir(), "CALENDAR_MONGODB_DB": "outage",
		"CALENDAR_MONGODB_URI": db.URI() + "?serverSelectionTimeoutMS=500", "CALENDAR_ADMIN_PASSWORD": childPassword}, logs)
	svc := &child{addr: addr}

	var mu sync.Mutex
	acked := map[int64]string{} // venue ID -> name
	var ackedIDs []int64
	statuses := map[int]int{}
	var badShapes []string
	record := func(status int, m map[string]any, err error, ok int) {
		mu.Lock()
		defer mu.Unlock()
		statuses[status]++
		switch {
		case err != nil:
			badShapes = append(badShapes, err.Error())
		case status == ok:
		case status == http.StatusServiceUnavailable:
			if data, _ := m["data"].(map[string]any); m["code"] != "store_unavailable" || data["status"] != float64(503) {
				badShapes = append(badShapes, fmt.Sprint(m))
			}
		default:
			badShapes = append(badShapes, fmt.Sprint(status, m))
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	// client repeats step, a request every 5 ms, until stop closes.
	client := func(step func(i int)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				step(i)
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}
	// One writer: FerretDB's $inc is not atomic under concurrent writers (real
	// MongoDB's is), and ID allocation is not what this test is about.
	client(func(i int) {
		name := fmt.Sprintf("venue %d", i)
		status, m, err := svc.post("/vendor/events/v1/venues", fmt.Sprintf(`{"venue": %q}`, name))
		record(status, m, err, http.StatusCreated)
		if status == http.StatusCreated {
			mu.Lock()
			acked[int64(m["id"].(float64))] = name
			ackedIDs = append(ackedIDs, int64(m["id"].(float64)))
			mu.Unlock()
		}
	})
	for r := 0; r < 4; r++ {
		client(func(i int) {
			path := fmt.Sprintf("/vendor/events/v1/venues?per_page=%d", i%10+1)
			mu.Lock()
			if n := len(ackedIDs); n > 0 && r%2 == 1 {
				path = fmt.Sprintf("/vendor/events/v1/venues/%d", ackedIDs[i%n])
			}
			mu.Unlock()
			var m map[string]any
			status, err := getJSON("http://"+addr+path, &m)
			record(status, m, err, http.StatusOK)
		})
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(acked)
	}
	waitFor(t, func() bool { return count() >= 10 }, func() string { return fmt.Sprintf("10 acknowledged writes (%d so far)", count()) })
	before := count()
	db.Stop()
	waitFor(t, func() bool { return readyz(t, addr) == http.StatusServiceUnavailable }, func() string {
		return "readyz to answer 503 with the database down"
	})
	db.Restart()
	recovered := time.Now()
	n := count()
	waitFor(t, func() bool { return count() >= n+20 }, func() string { return "20 writes acknowledged after the database's return" })
	t.Logf("writes succeed again %v after the restart", time.Since(recovered).Round(time.Millisecond))
	close(stop)
	wg.Wait()

	t.Logf("%d acknowledged (%d before the outage); statuses %v", len(acked), before, statuses)
	if statuses[http.StatusServiceUnavailable] == 0 {
		t.Error("no request saw the outage")
	}
	if len(badShapes) > 0 {
		t.Errorf("answers other than 201 or 503 store_unavailable: %q; logs:\n%s", badShapes, logs.String())
	}
	if status := readyz(t, addr); status != http.StatusOK {
		t.Errorf("readyz after the restart: %d", status)
	}
	listed := map[int64]bool{}
	for page := 1; ; page++ {
		var list struct {
			Venues     []struct{ ID int64 }
			TotalPages int `json:"total_pages"`
		}
		get(t, fmt.Sprintf("http://%s/vendor/events/v1/venues?per_page=50&page=%d", addr, page), &list)
		for _, v := range list.Venues {
			listed[v.ID] = true
		}
		if page >= list.TotalPages {
			break
		}
	}
	for id, name := range acked {
		var v struct{ Venue string }
		if status := get(t, fmt.Sprintf("http://%s/vendor/events/v1/venues/%d", addr, id), &v); status != http.StatusOK || v.Venue != name {
			t.Errorf("acknowledged venue %d (%s): %d %q", id, name, status, v.Venue)
		}
		if !listed[id] {
			t.Errorf("acknowledged venue %d is not listed", id)
		}
	}
}

// getJSON reads a JSON answer of any status.
func getJSON(url string, into any) (int, error) {
	res, err := http.Get(url)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	return res.StatusCode, json.NewDecoder(res.Body).Decode(into)
}

func readyz(t *testing.T, addr string) int {
	return get(t, "http://"+addr+"/readyz", nil)
}

func get(t *testing.T, url string, into any) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if into != nil {
		if err := json.Unmarshal(raw, into); err != nil {
			t.Fatalf("%s: %v: %s", url, err, raw)
		}
	}
	return res.StatusCode
}
