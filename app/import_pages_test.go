package app

import (
	"os"
	"strings"
	"testing"
)

func TestAPagesJSONLDEventsAreRead(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile("testdata/imports/events.html")
	if err != nil {
		t.Fatal(err)
	}
	items, err := readJSONLDItems(page, paris(t), DefaultImportLimits)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		line := strings.Join([]string{it.Key, it.Title, it.Start, it.End, it.Zone, boolWord(it.AllDay, "all day"), boolWord(it.Canceled, "canceled"), it.Cost}, "|")
		if it.Venue != nil {
			line += "|" + it.Venue.Name + "/" + it.Venue.Meta["city"] + "/" + it.Venue.Meta["address"]
		}
		if len(it.Organizers) > 0 {
			line += "|" + it.Organizers[0].Name + "/" + it.Organizers[0].Meta["email"]
		}
		got = append(got, line)
	}
	want := []string{
		// an offset that is not the site's then: a zone of that offset
		"https://library.example.org/event/poetry-evening/|Poetry evening|2027-04-22 18:30:00|2027-04-22 21:00:00|UTC+1|||GBP 5|The Old Library/Bristol/3 Church Lane|Friends of the Library/friends@library.example.org",
		// no offset: the site's zone
		"https://library.example.org/event/choir/#event|Choir concert|2027-05-08 19:00:00|2027-05-08 21:00:00|Europe/Paris||||St Mary's//1 High Street, Bristol",
		// dates alone: all day; online: no venue
		"Book fair@2027-06-12|Book fair|2027-06-12 00:00:00|2027-06-13 00:00:00|Europe/Paris|all day|canceled|",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("read\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestJSONLDBeyondItsBoundsEndsTheRun(t *testing.T) {
	t.Parallel()
	deep := `<script type="application/ld+json">` + strings.Repeat(`{"@graph":[`, 200) + strings.Repeat(`]}`, 200) + `</script>`
	if _, err := readJSONLDItems([]byte(deep), paris(t), DefaultImportLimits); err == nil {
		t.Error("JSON-LD nested 400 deep was read")
	}
	many := `<script type="application/ld+json">[` + strings.Repeat(`{"@type":"Event","name":"e","startDate":"2027-01-01"},`, 30) + `{}]</script>`
	limits := DefaultImportLimits
	limits.Items = 20
	if _, err := readJSONLDItems([]byte(many), paris(t), limits); err == nil {
		t.Error("more events than a run imports were read")
	}
}

func TestThePluginsCSVColumnsAreRead(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/imports/events.csv")
	if err != nil {
		t.Fatal(err)
	}
	items, err := readCSVItems(data, paris(t), DefaultImportLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("%d rows", len(items))
	}
	pottery, studio := items[0], items[1]
	if pottery.Start != "2027-03-06 10:00" || pottery.End != "2027-03-06 12:30" || pottery.Zone != "Europe/Paris" || pottery.Cost != "€25" ||
		strings.Join(pottery.Categories, ",") != "Workshops,Crafts" || pottery.Venue.Meta["city"] != "Lyon" || pottery.Organizers[0].Meta["email"] != "clay@example.org" ||
		pottery.Key != "pottery workshop@2027-03-06 10:00" {
		t.Errorf("pottery: %+v", pottery)
	}
	if !studio.AllDay || studio.Start != "2027-03-20" || studio.End != "2027-03-21" || studio.Organizers != nil {
		t.Errorf("studio: %+v", studio)
	}
	if _, err := readCSVItems([]byte("Name,When\nx,y\n"), paris(t), DefaultImportLimits); err == nil {
		t.Error("a file without the plugin's columns was read")
	}
}

func boolWord(b bool, word string) string {
	if b {
		return word
	}
	return ""
}

func TestImportedHTMLKeepsWhatAWriterWithoutUnfilteredHTMLMay(t *testing.T) {
	t.Parallel()
	// WordPress' post filter: tags go, their text stays; handlers and
	// javascript: go; the tags and attributes of its list stay.
	for in, want := range map[string]string{
		"Bring your own board.<br><b>Beginners</b> welcome.<script>alert(1)</script>":                                         "Bring your own board.<br><b>Beginners</b> welcome.alert(1)",
		`<p onclick="x()">Hi <a href="javascript:alert(1)">there</a> <a href="https://x.example/" target="_blank">ok</a></p>`: `<p>Hi <a href="alert(1)">there</a> <a href="https://x.example/" target="_blank">ok</a></p>`,
		`<img src="https://x.example/a.jpg" onerror="x()" alt="A"><iframe src="https://evil.example"><p>no</p></iframe>`:      `<img src="https://x.example/a.jpg" alt="A"><p>no</p>`,
		"<style>p{}</style>Tom &amp; Jerry <unknown>kept text</unknown>":                                                      "p{}Tom &amp; Jerry kept text",
		"plain text, no tags":                        "plain text, no tags",
		"<p>the partners' programme, \"quoted\"</p>": "<p>the partners' programme, \"quoted\"</p>",
	} {
		if got := filterForeignHTML(in); got != want {
			t.Errorf("%q\n got %q\nwant %q", in, got, want)
		}
	}
}
