// Package gazetteer finds the approximate position of a city from its name and
// country, offline, from GeoNames-derived data the binary embeds (see
// docs/gazetteer.md for its sources, licences and size).
package gazetteer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

//go:embed places.tsv.gz
var data []byte

type place struct {
	lat, lng float64
	admin1   string
}

var (
	load      sync.Once
	cities    map[string][]place // "CC\x00folded name" -> places in file order
	countries map[string]string  // folded country name or code -> ISO alpha-2
)

// Locate returns the position of a city in a country (its name, or ISO code).
// When several cities of the country share the name, state picks the one in
// that first-level division when it matches the data's code (US states by
// their two-letter code), else the first is taken.
func Locate(city, country, state string) (lat, lng float64, ok bool) {
	load.Do(parse)
	code, known := countries[Fold(country)]
	if !known {
		return 0, 0, false
	}
	candidates := cities[code+"\x00"+Fold(city)]
	if len(candidates) == 0 {
		return 0, 0, false
	}
	best := candidates[0]
	for _, c := range candidates {
		if state != "" && strings.EqualFold(c.admin1, strings.TrimSpace(state)) {
			best = c
			break
		}
	}
	return best.lat, best.lng, true
}

// Fold is how names are compared: trimmed, lower case, without accents.
func Fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(strings.TrimSpace(s))) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func parse() {
	cities, countries = map[string][]place{}, map[string]string{}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		panic("gazetteer: embedded data is corrupt: " + err.Error())
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		switch {
		case len(f) == 3 && f[0] == "=":
			countries[f[1]] = f[2]
		case len(f) == 5:
			lat, err1 := strconv.ParseFloat(f[2], 64)
			lng, err2 := strconv.ParseFloat(f[3], 64)
			if err1 == nil && err2 == nil {
				key := f[0] + "\x00" + f[1]
				cities[key] = append(cities[key], place{lat, lng, f[4]})
			}
		}
	}
	if err := sc.Err(); err != nil {
		panic("gazetteer: embedded data is corrupt: " + err.Error())
	}
}
