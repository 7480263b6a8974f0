package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"calendar/app/calendar"
	"calendar/repository/bolt"
)

// TestConcurrentEditsSurviveSIGKILL: writers edit fields of the same few
// events at once, each writer its own field of one event, until the service
// is killed with SIGKILL. After a restart each field holds the value its
// writer last had acknowledged (or the one it was sending when the service
// died), and calendar verify finds the index equal to the store.
func TestConcurrentEditsSurviveSIGKILL(t *testing.T) {
	t.Parallel()
	long(t)
	dir, addr := t.TempDir(), freeAddr(t)
	c := startChild(t, dir, addr)
	const events = 3
	fields := []string{"title", "excerpt", "website", "cost"}
	var ids []int64
	for i := range events {
		status, m, err := c.post("/vendor/events/v1/events",
			fmt.Sprintf(`{"title": "Event %d", "start_date": "2030-01-0%d 10:00", "end_date": "2030-01-0%d 12:00"}`, i, i+1, i+1))
		if err != nil || status != http.StatusCreated {
			t.Fatalf("create: %d %v", status, err)
		}
		ids = append(ids, int64(m["id"].(float64)))
	}
	type slot struct{ acked, sending string }
	var mu sync.Mutex
	slots := map[string]*slot{}
	acked := 0
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for _, id := range ids {
		for _, field := range fields {
			key := fmt.Sprint(id, "/", field)
			mine := &slot{} // the map is written here only: writers keep their own slot
			slots[key] = mine
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					value := fmt.Sprintf("%s %d", field, i)
					if field == "website" {
						value = fmt.Sprintf("https://example.org/%d", i)
					}
					mu.Lock()
					mine.sending = value
					mu.Unlock()
					body, _ := json.Marshal(map[string]string{field: value})
					status, _, err := c.post(fmt.Sprint("/vendor/events/v1/events/", id), string(body))
					if err != nil {
						return // the service is gone
					}
					if status == http.StatusOK {
						mu.Lock()
						mine.acked = value
						acked++
						mu.Unlock()
					}
				}
			}()
		}
	}
	c.killOnce(t, 240, func() int { mu.Lock(); defer mu.Unlock(); return acked })
	close(stop)
	wg.Wait()

	c = startChild(t, dir, addr)
	c.stop(t)
	ctx := context.Background()
	store, err := bolt.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		p, err := store.Posts().Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, field := range fields {
			s := slots[fmt.Sprint(id, "/", field)]
			if got := storedField(p, field); s.acked != "" && got != s.acked && got != s.sending {
				t.Errorf("event %d: %s is %q; its writer last had %q acknowledged (and was sending %q)", id, field, got, s.acked, s.sending)
			}
		}
	}
	store.Close(ctx)
	var out strings.Builder
	if err := verify(ctx, nil, env(map[string]string{"CALENDAR_DATA_DIR": dir}), &out); err != nil {
		t.Fatalf("calendar verify after the restart: %v\n%s", err, out.String())
	}
	t.Logf("%d acknowledged edits; verify: %s", acked, strings.TrimSpace(out.String()))
}

func storedField(p *calendar.Post, field string) string {
	switch field {
	case "title":
		return p.Title
	case "excerpt":
		return p.Excerpt
	case "website":
		if p.Website == nil {
			return ""
		}
		return *p.Website
	}
	return strings.Join(p.Cost, ",")
}
