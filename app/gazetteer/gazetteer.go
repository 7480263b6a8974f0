// Package gazetteer finds the approximate position of a city from its name and
// country, offline, from GeoNames-derived data the binary embeds (see
// docs/gazetteer.md for its sources, licences, rules and size).
package gazetteer

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// data is made by generate.mjs; its format is described there.
//
//go:embed places.tsv.gz
var data []byte

type place struct {
	lat, lng int32 // thousandths of a degree
	pop      int32 // 0 when unknown, or when no other place of the country shares a name
	admin1   string
}

// A ref is a place's index in places, shifted left once; its low bit is set
// when the place is known by the name as an alternate name, not its own.
type ref = uint32

// country holds the names of one country's places and divisions. Most names
// belong to a single place, kept in one; the others are in many.
type country struct {
	one       map[string]ref
	many      map[string][]ref
	divisions map[string]string // division name -> code
}

var (
	load      sync.Once
	places    []place
	byCountry map[string]*country // ISO alpha-2 -> its names
	// countryCodes are byCountry's keys in order, so that Anywhere's ties
	// always go the same way.
	countryCodes []string
	countries    map[string]string // country name or code -> ISO alpha-2
)

// Locate returns the position of a city in a country (its name in any language,
// or ISO code). Names are compared by key (folded, with a few spellings
// unified). Among the places of the country known by that name, it takes, in
// this order, one whose own name it is and that lies in state, one known by it
// as an alternate name in state, one whose own name it is, one known by it as an
// alternate name; within each, the most populous. state matches a place's
// first-level division by code (US states by their two-letter code) or by
// name ("Maine", "England").
func Locate(city, country, state string) (lat, lng float64, ok bool) {
	load.Do(parse)
	code, known := countries[key(country)]
	if !known || byCountry[code] == nil {
		return 0, 0, false
	}
	best, _ := byCountry[code].best(key(city), strings.TrimSpace(state))
	if best < 0 {
		return 0, 0, false
	}
	return places[best].position()
}

// Anywhere is Locate without a country: each country's place by Locate's
// rule, then, among those, one that lies in state before the others, the
// most populous first, a place's own name before an alternate name, and the
// first country by code. So "Paris" is the French capital, "Cologne" is Köln
// rather than the villages of Italy and Minnesota whose own name it is, and
// "Paris, Texas" (Texas naming no French division) is Paris, Texas.
func Anywhere(city, state string) (lat, lng float64, ok bool) {
	load.Do(parse)
	name, state := key(city), strings.TrimSpace(state)
	best, bestRank := -1, 0
	for _, code := range countryCodes {
		p, rank := byCountry[code].best(name, state)
		if p < 0 {
			continue
		}
		if best < 0 || rank&2 < bestRank&2 ||
			rank&2 == bestRank&2 && (places[p].pop > places[best].pop || places[p].pop == places[best].pop && rank < bestRank) {
			best, bestRank = p, rank
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	return places[best].position()
}

// Find reads a place as people write it: a city, then perhaps its state or
// province, then perhaps its country, separated by commas ("Köln",
// "Paris, France", "Portland, ME, USA", "Paris, Texas"). Without a last part
// that names a country, it is found by Anywhere; a text that is not found so
// is tried as one name ("Washington, D.C.").
func Find(text string) (lat, lng float64, ok bool) {
	load.Do(parse)
	var parts []string
	for _, p := range strings.Split(text, ",") {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return 0, 0, false
	}
	state := ""
	if len(parts) >= 3 {
		state = parts[1]
	}
	if last := parts[len(parts)-1]; len(parts) >= 2 {
		if _, isCountry := countries[key(last)]; isCountry {
			return Locate(parts[0], last, state)
		}
		state = parts[1]
	}
	if lat, lng, ok = Anywhere(parts[0], state); ok || len(parts) == 1 {
		return lat, lng, ok
	}
	return Anywhere(text, "")
}

// best is the country's place known by name (a key) by Locate's rule, and its
// rank: 0 its own name in state, 1 an alternate name in state, 2 its own
// name, 3 an alternate name; -1 when none.
func (c *country) best(name, state string) (best, bestRank int) {
	refs := c.many[name]
	if r, found := c.one[name]; found {
		refs = []ref{r}
	}
	division := ""
	if state != "" {
		division = c.divisions[key(state)]
	}
	best = -1
	for _, r := range refs {
		p := &places[r>>1]
		rank := int(r & 1)
		if state == "" || !(strings.EqualFold(p.admin1, state) || division != "" && p.admin1 == division) {
			rank += 2
		}
		if best < 0 || rank < bestRank || rank == bestRank && p.pop > places[best].pop {
			best, bestRank = int(r>>1), rank
		}
	}
	return best, bestRank
}

func (p place) position() (lat, lng float64, ok bool) {
	return float64(p.lat) / 1e3, float64(p.lng) / 1e3, true
}

// Fold folds a name: trimmed, lower case, without accents. Names are compared
// by key, which starts from it.
func Fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(strings.TrimSpace(s))) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// key is the name places are looked up by: Fold, then apostrophes dropped,
// hyphens, dashes and commas read as spaces, spaces collapsed, and a leading
// Saint, Sankt, Sint, St. or St written "saint" (Sainte, Ste. or Ste
// "sainte"), so "St. Gallen", "St.Gallen", "Sankt Gallen" and "Sankt-Gallen"
// are one name, and so are "Washington, D.C." and "Washington D.C.".
func key(s string) string {
	words := strings.Fields(strings.Map(func(r rune) rune {
		switch r {
		case '\'', '’', '‘', '`', 'ʼ', 'ʻ', '´':
			return -1
		case '-', '‐', '‑', '–', '—', ',':
			return ' '
		}
		return r
	}, Fold(s)))
	if len(words) > 0 {
		if w, ok := saints[words[0]]; ok {
			words[0] = w
		} else if i := strings.IndexByte(words[0], '.'); i > 0 && i+1 < len(words[0]) {
			if w, ok := saints[words[0][:i+1]]; ok {
				words = append([]string{w, words[0][i+1:]}, words[1:]...)
			}
		}
	}
	return strings.Join(words, " ")
}

var saints = map[string]string{
	"saint": "saint", "sankt": "saint", "sint": "saint", "st": "saint", "st.": "saint",
	"sainte": "sainte", "ste": "sainte", "ste.": "sainte",
}

func parse() {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		panic("gazetteer: embedded data is corrupt: " + err.Error())
	}
	// Names are substrings of text, which stays in memory as long as they do.
	// Its size is in the gzip trailer: one allocation, no copy.
	var b strings.Builder
	if n := len(data); n >= 4 {
		b.Grow(int(binary.LittleEndian.Uint32(data[n-4:])))
	}
	if _, err := io.Copy(&b, zr); err != nil {
		panic("gazetteer: embedded data is corrupt: " + err.Error())
	}
	text := b.String()

	// A first pass sizes the tables, so that filling them wastes no memory on growth.
	var nPlaces, nCountries int
	hints := map[string]int{} // country -> about how many names its places have
	for line, rest, more := "", text, true; more; {
		line, rest, more = strings.Cut(rest, "\n")
		switch {
		case strings.HasPrefix(line, "="):
			nCountries++
		case len(line) > 2 && line[2] == '\t':
			nPlaces++
			// The line's names, less one if it has alternates: close to the
			// number of distinct names, as places share some.
			hints[line[:2]] += strings.Count(line, "|") + 1
		}
	}
	places, countries = make([]place, 0, nPlaces), make(map[string]string, nCountries)
	byCountry = make(map[string]*country, len(hints))
	get := func(cc string) *country {
		c := byCountry[cc]
		if c == nil {
			c = &country{one: make(map[string]ref, hints[cc]), many: map[string][]ref{}, divisions: map[string]string{}}
			byCountry[cc] = c
		}
		return c
	}
	for line, rest, more := "", text, true; more; {
		line, rest, more = strings.Cut(rest, "\n")
		var f [7]string
		n := 0
		for field, tail, ok := "", line, true; ok && n < len(f); n++ {
			field, tail, ok = strings.Cut(tail, "\t")
			f[n] = field
		}
		switch {
		case n == 3 && f[0] == "=":
			countries[f[1]] = f[2]
		case n == 4 && f[0] == "@":
			get(f[1]).divisions[f[2]] = f[3]
		case n == 7:
			lat, err1 := strconv.ParseFloat(f[2], 64)
			lng, err2 := strconv.ParseFloat(f[3], 64)
			pop, err3 := 0, error(nil)
			if f[5] != "" {
				pop, err3 = strconv.Atoi(f[5])
			}
			if err1 != nil || err2 != nil || err3 != nil {
				continue
			}
			r := ref(len(places)) << 1
			places = append(places, place{lat: int32(lat*1e3 + half(lat)), lng: int32(lng*1e3 + half(lng)), pop: int32(pop), admin1: f[4]})
			c := get(f[0])
			c.add(f[1], r)
			c.add(f[6], r|1)
		}
	}
	countryCodes = make([]string, 0, len(byCountry))
	for code := range byCountry {
		countryCodes = append(countryCodes, code)
	}
	sort.Strings(countryCodes)
}

func half(x float64) float64 {
	if x < 0 {
		return -0.5
	}
	return 0.5
}

// add files the place r under each of the '|'-separated names.
func (c *country) add(names string, r ref) {
	for name, rest, more := "", names, names != ""; more; {
		name, rest, more = strings.Cut(rest, "|")
		if list, ok := c.many[name]; ok {
			c.many[name] = append(list, r)
		} else if first, ok := c.one[name]; ok {
			delete(c.one, name)
			c.many[name] = []ref{first, r}
		} else {
			c.one[name] = r
		}
	}
}
