package controllers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

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

// rawAt is the JSON value at a path of keys in raw.
func rawAt(t *testing.T, raw []byte, path ...string) json.RawMessage {
	t.Helper()
	for _, key := range path {
		var object map[string]json.RawMessage
		if err := json.Unmarshal(raw, &object); err != nil {
			t.Fatalf("no object for %q in %s: %v", key, raw, err)
		}
		value, ok := object[key]
		if !ok {
			t.Fatalf("no %q in %s", key, raw)
		}
		raw = value
	}
	return raw
}

// servedLength is the length of the file a size's URL serves.
func (s *service) servedLength(t *testing.T, url string) float64 {
	t.Helper()
	res := s.fetch(url)
	res.expectStatus(t, http.StatusOK)
	return float64(len(res.Body))
}

func TestALargeImageHasEveryWordPressSizeInWordPressOrderWithItsFileSize(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		// Wider than 2048, so that every size is made; a banner, so that
		// the test stays cheap.
		upload := s.do("POST", mediaPath, asAdmin(), rawUpload("stage.jpg", "image/jpeg", photo(t, 2100, 900)))
		upload.expectStatus(t, http.StatusCreated)
		order := []string{"medium", "large", "thumbnail", "medium_large", "1536x1536", "2048x2048"}
		dims := map[string][2]float64{"medium": {300, 129}, "large": {1024, 439}, "thumbnail": {150, 150},
			"medium_large": {768, 329}, "1536x1536": {1536, 658}, "2048x2048": {2048, 878}, "full": {2100, 900}}

		details := rawAt(t, upload.Body, "media_details")
		sizes := rawAt(t, details, "sizes")
		if got := keyOrder(t, sizes); !slices.Equal(got, append(order, "full")) {
			t.Fatalf("media_details.sizes are %v, want %v then full", got, order)
		}
		var meta struct{ FileSize float64 }
		if err := json.Unmarshal(details, &meta); err != nil || meta.FileSize != s.servedLength(t, upload.object(t)["source_url"].(string)) {
			t.Fatalf("media_details.filesize = %v (%v), not the served file's length", meta.FileSize, err)
		}
		for _, name := range append(order, "full") {
			size := rawAt(t, sizes, name)
			want := "file width height filesize mime_type source_url"
			if name == "full" {
				want = "file width height mime_type source_url" // WordPress writes it apart from the metadata
			}
			if got := strings.Join(keyOrder(t, size), " "); got != want {
				t.Fatalf("media_details.sizes.%s has %s, want %s", name, got, want)
			}
			var v struct {
				Width, Height, FileSize float64
				SourceURL               string `json:"source_url"`
			}
			if err := json.Unmarshal(size, &v); err != nil {
				t.Fatal(err)
			}
			if [2]float64{v.Width, v.Height} != dims[name] {
				t.Fatalf("media_details.sizes.%s is %vx%v, want %v", name, v.Width, v.Height, dims[name])
			}
			if served := s.servedLength(t, v.SourceURL); name != "full" && v.FileSize != served {
				t.Fatalf("media_details.sizes.%s.filesize = %v, its file is %v bytes", name, v.FileSize, served)
			}
		}

		id := fmt.Sprint(upload.object(t)["id"])
		fields := at("Stage night", "2030-06-01 20:00", "2030-06-01 23:00")
		fields["image"] = id
		event := s.event(fields)
		venue := s.create("venue", asAdmin(), "venue", "Stage", "image", id)
		organizer := s.create("organizer", asAdmin(), "organizer", "Stage crew", "image", id)
		for _, read := range []string{"events/" + idOf(event), "venues/" + idOf(venue), "organizers/" + idOf(organizer)} {
			res := s.do("GET", "/vendor/events/v1/"+read)
			res.expectStatus(t, http.StatusOK)
			sizes := rawAt(t, res.Body, "image", "sizes")
			if got := keyOrder(t, sizes); !slices.Equal(got, order) {
				t.Fatalf("%s: image.sizes are %v, want %v", read, got, order)
			}
			for _, name := range order {
				size := rawAt(t, sizes, name)
				if got := strings.Join(keyOrder(t, size), " "); got != "width height mime-type filesize url" {
					t.Fatalf("%s: image.sizes.%s has %s", read, name, got)
				}
				var v struct {
					Width, Height, FileSize float64
					URL                     string
				}
				if err := json.Unmarshal(size, &v); err != nil {
					t.Fatal(err)
				}
				if [2]float64{v.Width, v.Height} != dims[name] || v.FileSize != s.servedLength(t, v.URL) {
					t.Fatalf("%s: image.sizes.%s = %s, want %v and the served file's length", read, name, size, dims[name])
				}
			}
		}
	})
}

func TestAnImageHasOnlyTheSizesItIsLargerThan(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		for _, tc := range []struct {
			w, h  int
			sizes []string // in the image object; media_details adds full when there is any
		}{
			{1600, 1200, []string{"medium", "large", "thumbnail", "medium_large", "1536x1536"}},
			{1200, 900, []string{"medium", "large", "thumbnail", "medium_large"}},
			{200, 100, []string{"thumbnail"}},
			{100, 80, nil},
		} {
			t.Run(fmt.Sprintf("%dx%d", tc.w, tc.h), func(t *testing.T) {
				upload := s.do("POST", mediaPath, asAdmin(), rawUpload("photo.jpg", "image/jpeg", photo(t, tc.w, tc.h)))
				upload.expectStatus(t, http.StatusCreated)
				want := tc.sizes
				if len(want) > 0 {
					want = append(slices.Clone(want), "full")
				}
				if got := keyOrder(t, rawAt(t, upload.Body, "media_details", "sizes")); !slices.Equal(got, want) {
					t.Fatalf("media_details.sizes are %v, want %v", got, want)
				}
				fields := at("Photo", "2030-06-02 20:00", "2030-06-02 23:00")
				fields["image"] = upload.object(t)["id"]
				img := imageOf(t, s.event(fields))
				if len(tc.sizes) == 0 {
					if _, has := img["sizes"]; has {
						t.Fatalf("image.sizes = %v, want none (the plugin drops an empty one)", img["sizes"])
					}
					return
				}
				var got []string
				for name := range img["sizes"].(map[string]any) {
					got = append(got, name)
				}
				if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(tc.sizes))) {
					t.Fatalf("image.sizes are %v, want %v", got, tc.sizes)
				}
			})
		}
	})
}

// An upload stored before the sizes' byte sizes were kept (and before the
// two largest sizes were made) has its sizes in the order WordPress
// registers them and no filesize: it reads without them, in WordPress'
// order, as an attachment WordPress made before 6.0 does.
func TestAnImageStoredBeforeFileSizesWereKeptReadsWithoutThem(t *testing.T) {
	t.Parallel()
	onTheEmbeddedStore(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		a := s.upload("old.jpg", photo(t, 1200, 900))
		fields := at("Old photo", "2030-06-03 20:00", "2030-06-03 23:00")
		fields["image"] = a["id"]
		event := s.event(fields)
		registered := []string{"thumbnail", "medium", "medium_large", "large"}
		asBefore := func(f *calendar.MediaFile) {
			slices.SortFunc(f.Sizes, func(x, y calendar.MediaSize) int {
				return slices.Index(registered, x.Name) - slices.Index(registered, y.Name)
			})
			for i := range f.Sizes {
				f.Sizes[i].FileSize = 0
			}
		}
		ctx := context.Background()
		for _, id := range []any{a["id"], event["id"]} {
			p, err := s.store.Posts().Get(ctx, int64(id.(float64)))
			if err != nil {
				t.Fatal(err)
			}
			if p.Media != nil {
				asBefore(p.Media)
			}
			if p.ImageFile != nil {
				asBefore(p.ImageFile)
			}
			if err := s.store.Posts().Update(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		order := []string{"medium", "large", "thumbnail", "medium_large"}
		for _, tc := range []struct {
			read, keys string
			path       []string
		}{
			{mediaPath + "/" + fmt.Sprint(a["id"]), "file width height mime_type source_url", []string{"media_details", "sizes"}},
			{eventsPath + "/" + idOf(event), "width height mime-type url", []string{"image", "sizes"}},
		} {
			res := s.do("GET", tc.read)
			res.expectStatus(t, http.StatusOK)
			sizes := rawAt(t, res.Body, tc.path...)
			got := keyOrder(t, sizes)
			if !slices.Equal(got[:len(order)], order) {
				t.Fatalf("%s: %v, want %v first", tc.read, got, order)
			}
			for _, name := range order {
				if keys := strings.Join(keyOrder(t, rawAt(t, sizes, name)), " "); keys != tc.keys {
					t.Fatalf("%s: %s has %s, want %s", tc.read, name, keys, tc.keys)
				}
			}
		}
	})
}
