package index

import (
	"context"
	"strings"
	"testing"

	"calendar/app/calendar"
)

// TestNoIndexedWordIsLongerThanTheCap: a giant word is kept cut, so that no
// search of the index reads it whole, and so are the parts of a venue's
// words; a protected post's text is not kept at all.
func TestNoIndexedWordIsLongerThanTheCap(t *testing.T) {
	idx := openIndex(t, t.TempDir())
	defer idx.Close()
	ctx := context.Background()
	giant := strings.Repeat("zéta", 20000)
	posts := []*calendar.Post{
		{ID: 1, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "Giant " + giant, Content: "body " + giant + " tail"},
		{ID: 2, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: "Hall", Content: giant, Meta: map[string]string{"address": giant}},
		{ID: 3, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "Locked", Password: "pw", Content: "secretword"},
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	reader, err := bleveOf(idx).Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := reader.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for field, limit := range map[string]int{fieldWords: calendar.MaxWordBytes, fieldFoldedTitle: calendar.MaxWordBytes, fieldWordParts: calendar.MaxWordBytes,
		partsField("content"): calendar.MaxWordBytes, partsField("address"): calendar.MaxWordBytes} {
		dict, err := r.FieldDict(field)
		if err != nil {
			t.Fatal(err)
		}
		terms := 0
		for entry, err := dict.Next(); entry != nil || err != nil; entry, err = dict.Next() {
			if err != nil {
				t.Fatal(err)
			}
			terms++
			if len(entry.Term) > limit {
				t.Errorf("%s holds a term of %d bytes, bound %d", field, len(entry.Term), limit)
			}
			if entry.Term == "secretword" {
				t.Errorf("%s holds a protected post's word", field)
			}
		}
		dict.Close()
		if terms == 0 {
			t.Errorf("%s holds nothing", field)
		}
	}
}
