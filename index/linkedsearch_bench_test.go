package index

import (
	"context"
	"fmt"
	"testing"

	"calendar/app/calendar"
)

// BenchmarkVenueSearch is an anonymous visitor's venue search of 24 bytes
// ("salle pleyel paris 75008": four fragments, all looked for within one of
// the venues' ten searchable fields), one page of ten, on an empty index
// and on 10,000 venues, of which 100 match (their description).
//
//	go test ./index -run '^$' -bench BenchmarkVenueSearch -count 5
func BenchmarkVenueSearch(b *testing.B) {
	for _, venues := range []int{0, 10000} {
		b.Run(fmt.Sprintf("venues=%d", venues), func(b *testing.B) {
			idx, err := Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer idx.Close()
			ctx := context.Background()
			if err := idx.PutPosts(ctx, benchVenues(venues)); err != nil {
				b.Fatal(err)
			}
			q := calendar.PostQuery{Type: calendar.PostTypeVenue, Statuses: []string{calendar.StatusPublish},
				Fragments: []string{"salle", "pleyel", "paris", "75008"}, Limit: 10}
			for b.Loop() {
				if page, err := idx.SearchPosts(ctx, q); err != nil || page.Total != venues/100 {
					b.Fatalf("%+v, %v; want %d matches", page, err, venues/100)
				}
			}
		})
	}
}

// benchVenues are n venues with an address, a city, a zip and a phone, and
// a title and description of a few words; every hundredth an excerpt
// that the search finds.
func benchVenues(n int) []*calendar.Post {
	streets := []string{"rue du Faubourg Saint-Honoré", "avenue du Temple", "boulevard Voltaire", "place de la République", "quai de la Seine"}
	cities := []string{"Paris", "Lyon", "Marseille", "Toulouse", "Lille", "Bordeaux", "Nantes"}
	kinds := []string{"Salle", "Théâtre", "Club", "Halle", "Studio", "Cave"}
	posts := make([]*calendar.Post, 0, n)
	for i := 1; i <= n; i++ {
		posts = append(posts, &calendar.Post{ID: int64(i), Type: calendar.PostTypeVenue, Status: calendar.StatusPublish,
			Title:   fmt.Sprintf("%s %d %s", kinds[i%len(kinds)], i, cities[i%len(cities)]),
			Content: fmt.Sprintf("A venue of %d seats, open since %d.", 50+i%900, 1900+i%120),
			Excerpt: map[bool]string{true: "Salle Pleyel, 252 rue du Faubourg Saint-Honoré, 75008 Paris"}[i%100 == 0],
			Meta: map[string]string{"address": fmt.Sprintf("%d, %s", 1+i%200, streets[i%len(streets)]), "city": cities[i%len(cities)],
				"zip": fmt.Sprintf("%05d", 10000+i*7%89999), "phone": fmt.Sprintf("+33 1 %02d %02d %02d %02d", i%100, i/100%100, i*3%100, i*7%100)}})
	}
	return posts
}
