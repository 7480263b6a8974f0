package ical

import (
	"maps"
	"slices"
	"time"
)

// Zones are the zones a calendar's local times name, each with the years it
// is described for, and what describing them takes: the years worked out
// (each year described, and the year before each run of them, whose last
// change opens the run) and the bytes of the VTIMEZONEs.
type Zones struct {
	known  *yearBlocks
	zones  map[string]map[int]bool // the years described, by zone name
	blocks map[zoneYear]yearBlock  // the years the VTIMEZONEs are made of
	years  int
	bytes  int
}

// NewZones describes no zone yet; the years it works out are kept for the
// calendars to come.
func NewZones() *Zones { return newZones(knownYears) }

func newZones(known *yearBlocks) *Zones {
	return &Zones{known: known, zones: map[string]map[int]bool{}, blocks: map[zoneYear]yearBlock{}}
}

// ZoneYears are years a calendar's local times in a zone fall in.
type ZoneYears struct {
	Zone  *time.Location
	Years []int
}

func (z *Zones) has(zone string, year int) bool { return z.zones[zone][year] }

// Grow describes the years too when fits allows the totals that makes (the
// years worked out, the bytes of the VTIMEZONEs), and reports whether it
// did. The years are counted before any is worked out, so years refused
// for their number cost nothing.
func (z *Zones) Grow(more []ZoneYears, fits func(years, bytes int) bool) bool {
	locs := map[string]*time.Location{}
	added := map[string][]int{} // per zone, the years not described yet, sorted
	for _, m := range more {
		name := m.Zone.String()
		locs[name] = m.Zone
		for _, y := range m.Years {
			if !z.has(name, y) {
				added[name] = append(added[name], y)
			}
		}
	}
	years := z.years
	for name, ys := range added {
		slices.Sort(ys)
		ys = slices.Compact(ys)
		added[name] = ys
		counted := map[int]bool{}
		for _, y := range ys {
			for _, x := range []int{y - 1, y} {
				if !z.has(name, x) && !z.has(name, x+1) && !counted[x] {
					counted[x] = true
					years++
				}
			}
		}
	}
	if !fits(years, z.bytes) {
		return false
	}
	size := z.bytes
	got := map[zoneYear]yearBlock{}
	block := func(name string, year int) yearBlock {
		key := zoneYear{name, year}
		b, ok := z.blocks[key]
		if !ok {
			b = z.known.year(locs[name], year)
			got[key] = b
		}
		return b
	}
	for name, ys := range added {
		if z.zones[name] == nil {
			size += zoneFrameBytes(name)
		}
		for i, y := range ys {
			size += len(block(name, y).changes)
			if !z.has(name, y-1) && (i == 0 || ys[i-1] != y-1) { // y opens a run
				size += len(block(name, y-1).next)
			}
			if z.has(name, y+1) { // the run y+1 opened now starts earlier
				size -= len(block(name, y).next)
			}
		}
	}
	if !fits(years, size) {
		return false
	}
	for name, ys := range added {
		if z.zones[name] == nil {
			z.zones[name] = map[int]bool{}
		}
		for _, y := range ys {
			z.zones[name][y] = true
		}
	}
	maps.Copy(z.blocks, got)
	z.years, z.bytes = years, size
	return true
}

// zoneFrameBytes are the bytes of a VTIMEZONE's lines around its observances.
func zoneFrameBytes(name string) int {
	w := &Writer{}
	writeZoneFrame(w, name, func() {})
	return w.Len()
}

func writeZoneFrame(w *Writer, name string, observances func()) {
	w.Line("BEGIN", "", "VTIMEZONE")
	w.Line("TZID", "", Text(name))
	observances()
	w.Line("END", "", "VTIMEZONE")
}

// Write writes a VTIMEZONE a zone, in the order of their names: for each
// run of consecutive years, the observance in effect when it begins, then
// every change up to its end, each with its real offsets.
func (z *Zones) Write(w *Writer) {
	for _, name := range slices.Sorted(maps.Keys(z.zones)) {
		years := slices.Sorted(maps.Keys(z.zones[name]))
		writeZoneFrame(w, name, func() {
			for i, y := range years {
				if i == 0 || years[i-1] != y-1 {
					w.Append(z.blocks[zoneYear{name, y - 1}].next)
				}
				w.Append(z.blocks[zoneYear{name, y}].changes)
			}
		})
	}
}
