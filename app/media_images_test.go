package app_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// A post's image, without HTTP: an upload named by ID or by one of its URLs,
// a foreign URL kept or sideloaded, the sizes as WordPress writes them, and
// what deleting the upload does to the posts that show it.

// imageOf is a post's image as clients read it.
func imageOf(t *testing.T, post any) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(jsonAt(t, post, "image"), &m); err != nil {
		t.Fatalf("image = %s, want an object", jsonAt(t, post, "image"))
	}
	return m
}

func TestAPostsImageNamesAnUploadByIDOrByItsURL(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.upload("poster.jpg", photo(t, 1200, 900))
	thumb := sizeNamed(a.MediaDetails.Sizes, "thumbnail").SourceURL
	for _, e := range []*app.EventView{
		w.event("By ID", "2030-05-01", app.EventInput{PostFields: app.PostFields{Image: ptr(fmtID(a.ID))}}),
		w.event("By URL", "2030-05-02", app.EventInput{PostFields: app.PostFields{Image: &thumb}}), // any of its files is the image
	} {
		img := imageOf(t, e)
		if img["id"] != float64(a.ID) || img["url"] != a.SourceURL || img["extension"] != "jpg" ||
			img["width"] != 1200.0 || img["height"] != 900.0 || img["filesize"] == nil {
			t.Fatalf("%v: image = %v", e.Title, img)
		}
		medium, _ := img["sizes"].(map[string]any)["medium"].(map[string]any)
		if medium["width"] != 300.0 || medium["height"] != 225.0 || medium["mime-type"] != "image/jpeg" ||
			medium["url"] != sizeNamed(a.MediaDetails.Sizes, "medium").SourceURL {
			t.Fatalf("%v: sizes.medium = %v", e.Title, medium)
		}
	}
	venue := w.venue("Hall", app.LinkedInput{PostFields: app.PostFields{Image: ptr(fmtID(a.ID))}})
	if imageOf(t, venue)["id"] != float64(a.ID) {
		t.Fatalf("venue image = %+v", venue.Image)
	}
	foreign := "https://cdn.example.org/p/poster.webp?v=2"
	img := imageOf(t, w.event("Foreign", "2030-05-03", app.EventInput{PostFields: app.PostFields{Image: &foreign}}))
	if img["url"] != foreign || img["extension"] != "webp" || img["id"] != nil {
		t.Fatalf("a foreign URL: image = %v, want it as given", img)
	}
	for _, bad := range []string{"999999", "0", "http://x/uploads/2020/01/nothing.jpg", "javascript:alert(1)", "map[x:1]"} {
		_, err := w.app.Events.Create(w.ctx, w.admin(), gala(func(in *app.EventInput) { in.Image = &bad }))
		invalid(t, err)
	}
}

func fmtID(id int64) string { return strconv.FormatInt(id, 10) }

func TestDeletingAnUploadRemovesItFromThePostsAndTheFeedSaysSo(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.upload("poster.jpg", photo(t, 400, 300))
	event := w.event("Gala", "2030-05-01", app.EventInput{PostFields: app.PostFields{Image: ptr(fmtID(a.ID))}})
	organizer, err := w.app.Organizers.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Ann"), Image: ptr(fmtID(a.ID))}})
	w.must(err)
	before, err := w.app.Changes(w.ctx, visitor, app.ChangesRequest{})
	w.must(err)

	_, err = w.app.Media.Delete(w.ctx, w.admin(), a.ID, true)
	w.must(err)

	got, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: event.ID}, "")
	w.must(err)
	if got.Image != false {
		t.Fatalf("event image after the delete = %v, want false", got.Image)
	}
	o, err := w.app.Organizers.Get(w.ctx, visitor, app.PostRef{ID: organizer.ID}, "")
	w.must(err)
	if o.Image != nil {
		t.Fatalf("organizer image after the delete = %+v, want none", o.Image)
	}
	if data, _ := w.served(a.SourceURL); data != nil {
		t.Fatal("the deleted upload's file is still served")
	}
	changes, err := w.app.Changes(w.ctx, visitor, app.ChangesRequest{Since: before.LastSeq})
	w.must(err)
	updated := map[int64]bool{}
	for _, c := range changes.Changes {
		if c.Action == "updated" {
			updated[c.ID] = true
		}
	}
	if !updated[event.ID] || !updated[organizer.ID] {
		t.Fatalf("the feed since the delete: %+v; want the event and the organizer updated", changes.Changes)
	}
}

// fetcher is a sideloader that serves one image to whoever asks, or
// refuses, and counts the fetches.
type fetcher struct {
	image   []byte
	refused bool
	fetches atomic.Int32
}

func (f *fetcher) Fetch(_ context.Context, _ string, _ int64) ([]byte, error) {
	f.fetches.Add(1)
	if f.refused {
		return nil, app.ErrFetchRefused
	}
	return f.image, nil
}

func TestSideloadingFetchesAForeignImageOnceIntoTheLibrary(t *testing.T) {
	t.Parallel()
	origin := &fetcher{image: photo(t, 800, 600)}
	w := newWorld(t, func(s *app.Settings) { s.Sideload = origin })
	url := "https://cdn.example.org/media/summer-poster.jpg"
	img := imageOf(t, w.event("First", "2030-05-01", app.EventInput{PostFields: app.PostFields{Image: &url}}))
	if img["id"] == nil || img["width"] != 800.0 || img["url"] == url {
		t.Fatalf("sideloaded image = %v, want an attachment of ours", img)
	}
	if again := imageOf(t, w.event("Second", "2030-05-02", app.EventInput{PostFields: app.PostFields{Image: &url}})); again["id"] != img["id"] {
		t.Fatalf("the same URL again became attachment %v, want %v", again["id"], img["id"])
	}
	if n := origin.fetches.Load(); n != 1 {
		t.Fatalf("the origin was asked %d times, want once", n)
	}
	a, err := w.app.Media.Get(w.ctx, visitor, int64(img["id"].(float64)))
	w.must(err)
	if a.Slug != "summer-poster" {
		t.Fatalf("sideloaded attachment = %+v", a)
	}
}

// A fetch refused (an address that is not public: the sideloader's rule,
// controllers/sideload.go) or a caller who may not upload leaves the URL as
// given.
func TestAnImageNotSideloadedStaysTheURLAsGiven(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		origin  *fetcher
		role    calendar.Role
		fetches int32
	}{
		"the fetch refused":                  {&fetcher{refused: true}, calendar.RoleAdministrator, 1},
		"sent by a contributor":              {&fetcher{image: photo(t, 80, 60)}, calendar.RoleContributor, 0},
		"sent by an author, who may upload ": {&fetcher{image: photo(t, 80, 60)}, calendar.RoleAuthor, 1},
	} {
		w := newWorld(t, func(s *app.Settings) { s.Sideload = c.origin })
		url := "https://cdn.example.org/poster.jpg"
		e, err := w.app.Events.Create(w.ctx, w.callers[c.role], gala(func(in *app.EventInput) { in.Image = &url }))
		w.must(err)
		img := imageOf(t, e)
		kept := img["id"] == nil && img["url"] == url
		if kept != (c.role != calendar.RoleAuthor) || c.origin.fetches.Load() != c.fetches {
			t.Errorf("%s: image %v after %d fetches", name, img, c.origin.fetches.Load())
		}
	}
}

// The sizes of an image as WordPress 6.1 keeps them in an attachment's
// metadata: _wp_make_subsizes (wp-admin/includes/image.php) makes medium,
// large, thumbnail and medium_large first, then the other registered sizes
// in the order they were registered (1536x1536 and 2048x2048, added by
// _wp_add_additional_image_sizes in wp-includes/media.php), and adds each to
// the metadata as it is made; a size the original is not larger than fails
// (image_resize_dimensions) and is left out. Each size's metadata is its
// file, width, height, mime-type and, since 6.0, filesize. The media
// endpoint writes them in that order and adds "full" after them; the
// plugin's image object passes them on, the file replaced by the url
// (Tribe__REST__Post_Repository::get_image_data). app/imaging/testdata/
// dimensions.json holds WordPress' own answers for these dimensions.
func TestALargeImageHasEveryWordPressSizeInWordPressOrderWithItsFileSize(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// Wider than 2048, so that every size is made; a banner, so that the
	// test stays cheap.
	a := w.upload("stage.jpg", photo(t, 2100, 900))
	order := []string{"medium", "large", "thumbnail", "medium_large", "1536x1536", "2048x2048"}
	dims := map[string][2]int{"medium": {300, 129}, "large": {1024, 439}, "thumbnail": {150, 150},
		"medium_large": {768, 329}, "1536x1536": {1536, 658}, "2048x2048": {2048, 878}, "full": {2100, 900}}
	keysAre(t, a, append(slices.Clone(order), "full"), "media_details", "sizes")
	if full, _ := w.served(a.SourceURL); a.MediaDetails.FileSize != int64(len(full)) {
		t.Fatalf("media_details.filesize = %v, not the served file's length %d", a.MediaDetails.FileSize, len(full))
	}
	for _, size := range a.MediaDetails.Sizes {
		want := []string{"file", "width", "height", "filesize", "mime_type", "source_url"}
		if size.Name == "full" {
			want = []string{"file", "width", "height", "mime_type", "source_url"} // WordPress writes it apart from the metadata
		}
		keysAre(t, a, want, "media_details", "sizes", size.Name)
		if [2]int{size.Width, size.Height} != dims[size.Name] {
			t.Fatalf("media_details.sizes.%s is %vx%v, want %v", size.Name, size.Width, size.Height, dims[size.Name])
		}
		if served, _ := w.served(size.SourceURL); size.Name != "full" && size.FileSize != int64(len(served)) {
			t.Fatalf("media_details.sizes.%s.filesize = %v, its file is %v bytes", size.Name, size.FileSize, len(served))
		}
	}
	id := fmtID(a.ID)
	event := w.event("Stage night", "2030-06-01", app.EventInput{PostFields: app.PostFields{Image: &id}})
	venue := w.venue("Stage", app.LinkedInput{PostFields: app.PostFields{Image: &id}})
	organizer, err := w.app.Organizers.Create(w.ctx, w.admin(), app.LinkedInput{PostFields: app.PostFields{Title: ptr("Stage crew"), Image: &id}})
	w.must(err)
	for name, post := range map[string]any{"the event": event, "the venue": venue, "the organizer": organizer} {
		keysAre(t, post, order, "image", "sizes")
		for _, size := range order {
			keysAre(t, post, []string{"width", "height", "mime-type", "filesize", "url"}, "image", "sizes", size)
			var v struct {
				Width, Height int
				FileSize      int64
				URL           string
			}
			w.must(json.Unmarshal(jsonAt(t, post, "image", "sizes", size), &v))
			if served, _ := w.served(v.URL); [2]int{v.Width, v.Height} != dims[size] || v.FileSize != int64(len(served)) {
				t.Fatalf("%s: image.sizes.%s = %+v, want %v and the served file's length", name, size, v, dims[size])
			}
		}
	}
}

func TestAnImageHasOnlyTheSizesItIsLargerThan(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, tc := range []struct {
		w, h  int
		sizes []string // in the image object; media_details adds full when there is any
	}{
		{1600, 400, []string{"medium", "large", "thumbnail", "medium_large", "1536x1536"}}, // banners: the widths decide, at a quarter of the pixels
		{1200, 400, []string{"medium", "large", "thumbnail", "medium_large"}},
		{200, 100, []string{"thumbnail"}},
		{100, 80, nil},
	} {
		a := w.upload("photo.jpg", photo(t, tc.w, tc.h))
		want := tc.sizes
		if len(want) > 0 {
			want = append(slices.Clone(want), "full")
		}
		if got := sizeNames(a.MediaDetails.Sizes); !slices.Equal(got, want) {
			t.Fatalf("%dx%d: media_details.sizes are %v, want %v", tc.w, tc.h, got, want)
		}
		e := w.event("Photo", "2030-06-02", app.EventInput{PostFields: app.PostFields{Image: ptr(fmtID(a.ID))}})
		img := imageOf(t, e)
		if len(tc.sizes) == 0 {
			if _, has := img["sizes"]; has {
				t.Fatalf("%dx%d: image.sizes = %v, want none (the plugin drops an empty one)", tc.w, tc.h, img["sizes"])
			}
			continue
		}
		keysAre(t, e, tc.sizes, "image", "sizes")
	}
}

// An upload stored before the sizes' byte sizes were kept (and before the
// two largest sizes were made) has its sizes in the order WordPress
// registers them and no filesize: it reads without them, in WordPress'
// order, as an attachment WordPress made before 6.0 does.
func TestAnImageStoredBeforeFileSizesWereKeptReadsWithoutThem(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.upload("old.jpg", photo(t, 1200, 900))
	event := w.event("Old photo", "2030-06-03", app.EventInput{PostFields: app.PostFields{Image: ptr(fmtID(a.ID))}})
	registered := []string{"thumbnail", "medium", "medium_large", "large"}
	asBefore := func(f *calendar.MediaFile) {
		slices.SortFunc(f.Sizes, func(x, y calendar.MediaSize) int {
			return slices.Index(registered, x.Name) - slices.Index(registered, y.Name)
		})
		for i := range f.Sizes {
			f.Sizes[i].FileSize = 0
		}
	}
	for _, id := range []int64{a.ID, event.ID} {
		p, err := w.store.Posts().Get(w.ctx, id)
		w.must(err)
		if p.Media != nil {
			asBefore(p.Media)
		}
		if p.ImageFile != nil {
			asBefore(p.ImageFile)
		}
		w.must(w.store.Posts().Update(w.ctx, p))
	}
	order := []string{"medium", "large", "thumbnail", "medium_large"}
	attachment, err := w.app.Media.Get(w.ctx, visitor, a.ID)
	w.must(err)
	shown, err := w.app.Events.Get(w.ctx, visitor, app.PostRef{ID: event.ID}, "")
	w.must(err)
	for _, tc := range []struct {
		name string
		post any
		keys []string
		path []string
	}{
		{"the attachment", attachment, []string{"file", "width", "height", "mime_type", "source_url"}, []string{"media_details", "sizes"}},
		{"the event", shown, []string{"width", "height", "mime-type", "url"}, []string{"image", "sizes"}},
	} {
		if got := jsonKeys(t, jsonAt(t, tc.post, tc.path...)); !slices.Equal(got[:len(order)], order) {
			t.Fatalf("%s: %v, want %v first", tc.name, got, order)
		}
		for _, name := range order {
			keysAre(t, tc.post, tc.keys, append(slices.Clone(tc.path), name)...)
		}
	}
}
