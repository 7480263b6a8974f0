package controllers_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/controllers"
)

// imageOf is an object's image as the plugin's clients read it.
func imageOf(t *testing.T, object map[string]any) map[string]any {
	t.Helper()
	img, ok := object["image"].(map[string]any)
	if !ok {
		t.Fatalf("image = %v, want an object", object["image"])
	}
	return img
}

func TestAPostsImageNamesAnUploadByIDOrByItsURL(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		a := s.upload("poster.jpg", photo(t, 1200, 900))
		_, sizes := details(t, a)
		thumb := sizes["thumbnail"].(map[string]any)["source_url"]
		byID := at("By ID", "2030-05-01 20:00", "2030-05-01 23:00")
		byID["image"] = a["id"]
		byURL := at("By URL", "2030-05-02 20:00", "2030-05-02 23:00")
		byURL["image"] = thumb // any of its files is the image
		for _, e := range []map[string]any{s.event(byID), s.event(byURL)} {
			img := imageOf(t, e)
			if img["id"] != a["id"] || img["url"] != a["source_url"] || img["extension"] != "jpg" ||
				img["width"] != 1200.0 || img["height"] != 900.0 || img["filesize"] == nil {
				t.Fatalf("%v: image = %v", e["title"], img)
			}
			medium, _ := img["sizes"].(map[string]any)["medium"].(map[string]any)
			if medium["width"] != 300.0 || medium["height"] != 225.0 || medium["mime-type"] != "image/jpeg" ||
				medium["url"] != sizes["medium"].(map[string]any)["source_url"] {
				t.Fatalf("%v: sizes.medium = %v", e["title"], medium)
			}
		}
		venue := s.create("venue", asAdmin(), "venue", "Hall", "image", fmt.Sprint(a["id"]))
		if imageOf(t, venue)["id"] != a["id"] {
			t.Fatalf("venue image = %v", venue["image"])
		}
		foreign := at("Foreign", "2030-05-03 20:00", "2030-05-03 23:00")
		foreign["image"] = "https://cdn.example.org/p/poster.webp?v=2"
		img := imageOf(t, s.event(foreign))
		if img["url"] != "https://cdn.example.org/p/poster.webp?v=2" || img["extension"] != "webp" || img["id"] != nil {
			t.Fatalf("a foreign URL: image = %v, want it as given", img)
		}
		for _, bad := range []any{999999, "0", s.URL + "/uploads/2020/01/nothing.jpg", "javascript:alert(1)", map[string]any{"x": 1}} {
			fields := at("Bad", "2030-05-04 20:00", "2030-05-04 23:00")
			fields["image"] = bad
			s.do("POST", eventsPath, asAdmin(), jsonBody(fields)).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		}
	})
}

func TestDeletingAnUploadRemovesItFromThePostsAndTheFeedSaysSo(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		a := s.upload("poster.jpg", photo(t, 400, 300))
		fields := at("Gala", "2030-05-01 20:00", "2030-05-01 23:00")
		fields["image"] = a["id"]
		event := s.event(fields)
		organizer := s.create("organizer", asAdmin(), "organizer", "Ann", "image", fmt.Sprint(a["id"]))
		feed := s.do("GET", "/vendor/events/v1/changes")
		feed.expectStatus(t, http.StatusOK)
		since := feed.object(t)["last_seq"]

		s.do("DELETE", fmt.Sprintf("%s/%v?force=true", mediaPath, a["id"]), asAdmin()).expectStatus(t, http.StatusOK)

		got := s.do("GET", fmt.Sprintf("%s/%v", eventsPath, event["id"])).object(t)
		if got["image"] != false {
			t.Fatalf("event image after the delete = %v, want false", got["image"])
		}
		if o := s.do("GET", fmt.Sprintf("/vendor/events/v1/organizers/%v", organizer["id"])).object(t); o["image"] != nil {
			t.Fatalf("organizer image after the delete = %v, want none", o["image"])
		}
		s.fetch(a["source_url"].(string)).expectError(t, http.StatusNotFound, "rest_no_route")
		changes := s.do("GET", fmt.Sprintf("/vendor/events/v1/changes?since=%v", since)).object(t)["changes"].([]any)
		updated := map[float64]bool{}
		for _, c := range changes {
			c := c.(map[string]any)
			if c["action"] == "updated" {
				updated[c["id"].(float64)] = true
			}
		}
		if !updated[event["id"].(float64)] || !updated[organizer["id"].(float64)] {
			t.Fatalf("the feed since the delete: %v; want the event and the organizer updated", changes)
		}
	})
}

// imageServer serves one JPEG and counts the requests it gets.
func imageServer(t *testing.T, jpg []byte) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/jpeg")
		_, _ = w.Write(jpg)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestSideloadingFetchesAForeignImageOnceIntoTheLibrary(t *testing.T) {
	t.Parallel()
	origin, hits := imageServer(t, photo(t, 800, 600))
	allowAll := func(netip.AddrPort) bool { return true }
	onTheEmbeddedStore(t, func(set *app.Settings) {
		set.Sideload = controllers.NewSideloaderAllowing(5*time.Second, allowAll)
	}, func(t *testing.T, s *service) {
		url := origin.URL + "/media/summer-poster.jpg"
		first := at("First", "2030-05-01 20:00", "2030-05-01 23:00")
		first["image"] = url
		img := imageOf(t, s.event(first))
		if img["id"] == nil || img["width"] != 800.0 || img["url"] == url {
			t.Fatalf("sideloaded image = %v, want an attachment of ours", img)
		}
		second := at("Second", "2030-05-02 20:00", "2030-05-02 23:00")
		second["image"] = url
		if again := imageOf(t, s.event(second)); again["id"] != img["id"] {
			t.Fatalf("the same URL again became attachment %v, want %v", again["id"], img["id"])
		}
		if n := hits.Swap(0); n != 1 { // per store
			t.Fatalf("the origin was asked %d times, want once", n)
		}
		a := s.do("GET", fmt.Sprintf("%s/%v", mediaPath, img["id"])).object(t)
		if a["slug"] != "summer-poster" {
			t.Fatalf("sideloaded attachment = %v", a)
		}
	})
}

func TestSideloadingNeverReachesPrivateAddresses(t *testing.T) {
	t.Parallel()
	origin, hits := imageServer(t, photo(t, 80, 60))
	onTheEmbeddedStore(t, func(set *app.Settings) { set.Sideload = controllers.NewSideloader(5 * time.Second) }, func(t *testing.T, s *service) {
		fields := at("Inside", "2030-05-01 20:00", "2030-05-01 23:00")
		fields["image"] = origin.URL + "/poster.jpg"
		img := imageOf(t, s.event(fields))
		if img["id"] != nil || img["url"] != fields["image"] {
			t.Fatalf("image = %v, want the URL as given", img)
		}
		if hits.Load() != 0 {
			t.Fatalf("the loopback server was asked %d times", hits.Load())
		}
	})
}

func TestOnlyThoseWhoMayUploadHaveImagesSideloaded(t *testing.T) {
	t.Parallel()
	origin, hits := imageServer(t, photo(t, 80, 60))
	onTheEmbeddedStore(t, func(set *app.Settings) {
		set.Sideload = controllers.NewSideloaderAllowing(5*time.Second, func(netip.AddrPort) bool { return true })
	}, func(t *testing.T, s *service) {
		_, contributor := s.createUser("contributor", calendar.RoleContributor)
		fields := at("Draft", "2030-05-01 20:00", "2030-05-01 23:00")
		fields["image"] = origin.URL + "/poster.jpg"
		img := imageOf(t, s.event(fields, basic("contributor", contributor)))
		if img["id"] != nil || hits.Load() != 0 {
			t.Fatalf("a contributor's image = %v after %d fetches, want the URL as given and none", img, hits.Load())
		}
	})
}
