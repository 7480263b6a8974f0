package app_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
	"calendar/repository/bolt"
)

// BenchmarkHostileSearch measures the plugin's search (and the relevance
// search) over 2,000 ordinary events, then again after a contributor planted
// the worst content the service accepts: a 1 MB one-word title when it is
// taken, else the longest title and description it takes, each one word, in
// 50 events. A search of a hundred one-letter words is measured against a
// one-word search. No cache answers: every iteration searches the index.
//
//	go test ./app -run '^$' -bench BenchmarkHostileSearch -benchtime 20x
func BenchmarkHostileSearch(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	store, err := bolt.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close(ctx)
	idx, err := index.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	a := app.New(store, idx, app.Settings{SiteURL: "http://x", ResultCacheSize: -1})
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		b.Fatal(err)
	}
	user, _ := a.Users.Authenticate(ctx, "", "admin", "a long enough password")
	admin := app.Caller{User: user}
	created, err := a.Users.Create(ctx, admin, app.UserInput{Login: "planter", Role: calendar.RoleContributor})
	if err != nil {
		b.Fatal(err)
	}
	planter, _ := a.Users.AuthenticateToken(ctx, "", created.ApplicationPassword)
	contributor := app.Caller{User: planter}
	rng := rand.New(rand.NewPCG(1, 2))
	vocabulary := strings.Fields("jazz rock night open air festival concert theatre dance film market talk workshop family kids food wine beer")
	sentence := func(n int) string {
		words := make([]string, n)
		for i := range words {
			words[i] = vocabulary[rng.IntN(len(vocabulary))] + fmt.Sprint(rng.IntN(500))
		}
		return strings.Join(words, " ")
	}
	for i := 0; i < 2000; i++ {
		day := 1 + i%28
		if _, err := a.Events.Create(ctx, admin, event(sentence(4), sentence(60), fmt.Sprintf("2031-01-%02d", day))); err != nil {
			b.Fatal(err)
		}
	}
	var letters []string
	for i := 0; i < 100; i++ {
		letters = append(letters, string(rune('a'+i%26)))
	}
	searches := []struct{ name, search, order string }{
		{"one word", "jazz", ""}, {"a hundred one-letter words", strings.Join(letters, " "), ""},
		{"one word by relevance", "festival", "relevance"},
	}
	run := func(phase string) {
		for _, s := range searches {
			b.Run(phase+"/"+s.name, func(b *testing.B) {
				f := app.EventFilter{Search: &s.search, OrderBy: s.order, Dates: app.Dates{"start_date": "2031-01-01", "end_date": "2031-01-31"}}
				for i := 0; i < b.N; i++ {
					if _, err := a.Events.List(ctx, app.Caller{}, f); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
	run("clean")
	giant := func(n int) string { // one word of n bytes, a different one each time
		return strings.Repeat(string(rune('a'+rng.IntN(26))), n)
	}
	var plantedIDs []int64
	for i := 0; i < 50; i++ {
		e, err := a.Events.Create(ctx, contributor, event(giant(1<<20), "", "2031-01-05"))
		if err != nil {
			if e, err = a.Events.Create(ctx, contributor, event(giant(calendar.MaxTitleBytes), giant(calendar.MaxDescriptionBytes), "2031-01-05")); err != nil {
				b.Fatal(err)
			}
		}
		plantedIDs = append(plantedIDs, e.ID)
	}
	b.Logf("planted %d events of giant words", len(plantedIDs))
	run("planted")
	page2 := app.EventFilter{Page: app.PageRequest{Page: 2}, Dates: app.Dates{"start_date": "2031-01-01", "end_date": "2031-01-31"}}
	b.Run("planted/a list alone", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := a.Events.List(ctx, app.Caller{}, page2); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("planted/a list while 16 clients search a hundred words", func(b *testing.B) {
		stop := make(chan struct{})
		var hostile sync.WaitGroup
		for c := 0; c < 16; c++ {
			hostile.Add(1)
			go func() {
				defer hostile.Done()
				for {
					select {
					case <-stop:
						return
					default:
						_, _ = a.Events.List(ctx, app.Caller{}, app.EventFilter{Search: ptr(strings.Join(letters, " "))})
					}
				}
			}()
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := a.Events.List(ctx, app.Caller{}, page2); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		close(stop)
		hostile.Wait()
	})
	for _, id := range plantedIDs {
		if _, err := a.Events.Delete(ctx, contributor, app.PostRef{ID: id}, true); err != nil {
			b.Fatal(err)
		}
	}
	run("deleted")
}

// event is an event write of a title and a description, on one day.
func event(title, description, day string) app.EventInput {
	in := app.EventInput{PostFields: app.PostFields{Title: &title}, StartDate: ptr(day + " 10:00"), EndDate: ptr(day + " 11:00")}
	if description != "" {
		in.Description = &description
	}
	return in
}
