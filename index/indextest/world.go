package indextest

import (
	"time"

	"calendar/app/calendar"
)

// The world's posts and terms, by what they are.
const (
	// Venues: published in Paris, a draft in Lyon, protected in Paris,
	// published without a position, and two either side of the antimeridian.
	salle, halle, bataclan, nowhere, fiji, samoa int64 = 1, 2, 3, 4, 5, 6
	// Organizers: published, private.
	jazzOrg, privateOrg int64 = 10, 11
	// Events, published unless their name says otherwise.
	pleyelJazz, lyonRock, lateJazz, draftJam, pendingGig, privateShow, trashedGig, futureFest int64 = 20, 21, 22, 23, 24, 25, 26, 27
	series, occurrence, newYork, protected, pacific, samoaDance, moonParty                    int64 = 28, 29, 30, 31, 32, 33, 34
	// An uploaded image, the one pleyelJazz shows.
	poster int64 = 60
	// Terms: categories (bebop under jazz, hardRock under rock), tags.
	jazz, bebop, rock, hardRock, outdoor, free int64 = 1, 2, 3, 4, 5, 6
)

// Positions of the venues.
var (
	paris = &calendar.Geo{Lat: 48.877, Lng: 2.301}
	lyon  = &calendar.Geo{Lat: 45.7324, Lng: 4.8245}
	bast  = &calendar.Geo{Lat: 48.8631, Lng: 2.3708}
	suva  = &calendar.Geo{Lat: -17.7, Lng: 179.5}
	apia  = &calendar.Geo{Lat: -13.8, Lng: -172.1}
)

const posterSource = "https://example.com/poster.jpg"

type world struct {
	posts  []*calendar.Post
	terms  []*calendar.Term
	events []*calendar.Post
	byID   map[int64]*calendar.Post
}

// at is a UTC instant of 2030 ("03-01 20:00"), or of another year ("1969-07-20 20:17").
func at(s string) time.Time {
	layout := "2006-01-02 15:04"
	if len(s) == len("01-02 15:04") {
		s = "2030-" + s
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		panic(err)
	}
	return t
}

// newWorld is every kind of post and term, in every status, so that each
// filter keeps some and leaves some. Events carry their venue's public
// position, as the app indexes them (calendar.PublicPosition).
func newWorld() world {
	var w world
	venues := map[int64]*calendar.Post{}
	venue := func(id int64, title, status, password string, geo *calendar.Geo, city, date string) {
		v := &calendar.Post{ID: id, Type: calendar.PostTypeVenue, Title: title, Status: status, Author: 1, Password: password,
			Geo: geo, Meta: map[string]string{"city": city}, Date: at(date), Modified: at(date)}
		venues[id] = v
		w.posts = append(w.posts, v)
	}
	venue(salle, "Salle Pleyel", calendar.StatusPublish, "", paris, "Paris", "01-05 10:00")
	venue(halle, "Halle Tony Garnier", calendar.StatusDraft, "", lyon, "Lyon", "01-06 10:00")
	venues[halle].Author = 2
	venue(bataclan, "Le Bataclan", calendar.StatusPublish, "pw", bast, "Paris", "01-07 10:00")
	venue(nowhere, "Nowhere Hall", calendar.StatusPublish, "", nil, "Nulle part", "01-08 10:00")
	venue(fiji, "Suva Stage", calendar.StatusPublish, "", suva, "Suva", "01-04 10:00")
	venue(samoa, "Apia Stage", calendar.StatusPublish, "", apia, "Apia", "01-03 10:00")
	w.posts = append(w.posts,
		&calendar.Post{ID: jazzOrg, Type: calendar.PostTypeOrganizer, Title: "Jazz Org", Status: calendar.StatusPublish, Author: 1,
			Meta: map[string]string{"email": "contact@jazz.example"}, Date: at("01-02 10:00"), Modified: at("01-02 10:00")},
		&calendar.Post{ID: privateOrg, Type: calendar.PostTypeOrganizer, Title: "Private Org", Status: calendar.StatusPrivate, Author: 2,
			Date: at("01-01 10:00"), Modified: at("01-01 10:00")},
		&calendar.Post{ID: poster, Type: calendar.PostTypeAttachment, Title: "poster", Status: calendar.StatusInherit, Author: 1,
			Meta: map[string]string{calendar.MetaSource: posterSource}, Date: at("01-01 09:00"), Modified: at("01-01 09:00")})

	event := func(id int64, title, status string, author int64, start, date string) *calendar.Post {
		e := &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Title: title, Status: status, Author: author,
			Start: at(start), End: at(start).Add(2 * time.Hour), Date: at(date), Modified: at(date)}
		w.posts, w.events = append(w.posts, e), append(w.events, e)
		return e
	}
	place := func(e *calendar.Post, v int64) { e.Venue, e.VenueGeo = v, calendar.PublicPosition(venues[v]) }

	e := event(pleyelJazz, "Jazz at Pleyel", calendar.StatusPublish, 1, "03-01 20:00", "02-01 10:00")
	place(e, salle)
	e.Content, e.Organizers, e.Categories, e.Tags, e.Featured, e.ImageID = "An evening of swing", []int64{jazzOrg}, []int64{jazz, bebop}, []int64{outdoor}, true, poster
	e = event(lyonRock, "Rock in Lyon", calendar.StatusPublish, 1, "03-04 22:00", "02-02 10:00")
	place(e, halle)
	e.Categories, e.Tags = []int64{rock}, []int64{outdoor, free}
	e = event(lateJazz, "Late Jazz", calendar.StatusPublish, 1, "03-01 20:00", "02-01 10:00") // pleyelJazz's start and date
	place(e, salle)
	e.Excerpt, e.Categories, e.HideFromListings = "Bebop till dawn", []int64{jazz}, true
	event(draftJam, "Draft jam", calendar.StatusDraft, 2, "03-03 20:00", "02-03 10:00").Categories = []int64{jazz}
	event(pendingGig, "Pending gig", calendar.StatusPending, 2, "03-04 20:00", "02-04 10:00")
	event(privateShow, "Private show", calendar.StatusPrivate, 3, "03-05 20:00", "02-05 10:00")
	event(trashedGig, "Trashed gig", calendar.StatusTrash, 2, "03-06 20:00", "02-06 10:00")
	event(futureFest, "Future fest", calendar.StatusFuture, 2, "03-07 20:00", "02-07 10:00")
	for _, o := range []struct {
		id    int64
		start string
	}{{series, "04-01 19:00"}, {occurrence, "04-08 19:00"}} {
		e = event(o.id, "Weekly session", calendar.StatusPublish, 1, o.start, "01-20 10:00")
		place(e, nowhere)
		e.Content, e.Organizers, e.Categories, e.Modified = "Weekly jazz session", []int64{jazzOrg, privateOrg}, []int64{rock, hardRock}, at("02-20 10:00")
		if o.id == series {
			e.Recurrence = []string{"RRULE:FREQ=WEEKLY;COUNT=2"}
		} else {
			e.Parent = series
		}
	}
	// 20:00 on 4 March in New York, 01:00 on the 5th in UTC: by wall clock,
	// before lyonRock (22:00 on the 4th, UTC); by instant, after.
	e = event(newYork, "Soirée New York", calendar.StatusPublish, 1, "03-05 01:00", "02-08 10:00")
	e.TimeZone, e.Tags = "America/New_York", []int64{free}
	e = event(protected, "Protected talk", calendar.StatusPublish, 1, "03-08 20:00", "02-09 10:00")
	place(e, bataclan)
	e.Password, e.Content = "pw", "secret words"
	e = event(pacific, "Pacific jazz", calendar.StatusPublish, 1, "03-01 20:00", "01-31 10:00") // pleyelJazz's start, an earlier date
	place(e, fiji)
	e.Categories = []int64{jazz}
	e = event(samoaDance, "Samoa dance", calendar.StatusPublish, 1, "03-10 20:00", "02-11 10:00")
	place(e, samoa)
	e.Tags = []int64{outdoor}
	event(moonParty, "Moon landing party", calendar.StatusPublish, 1, "1969-07-20 20:17", "1960-01-01 10:00")

	term := func(id int64, taxonomy, name, slug, description string, parent int64) {
		w.terms = append(w.terms, &calendar.Term{ID: id, Taxonomy: taxonomy, Name: name, Slug: slug, Description: description, Parent: parent})
	}
	term(jazz, calendar.TaxonomyCategory, "Jazz", "jazz", "Swing and bop", 0)
	term(bebop, calendar.TaxonomyCategory, "Bebop", "bebop", "Fast jazz", jazz)
	term(rock, calendar.TaxonomyCategory, "Rock", "rock", "Loud", 0)
	term(hardRock, calendar.TaxonomyCategory, "Hard Rock", "hard-rock", "", rock)
	term(outdoor, calendar.TaxonomyTag, "Outdoor", "outdoor", "", 0)
	term(free, calendar.TaxonomyTag, "Free", "free", "", 0)
	w.byID = map[int64]*calendar.Post{}
	for _, p := range w.posts {
		w.byID[p.ID] = p
	}
	return w
}
