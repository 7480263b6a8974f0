package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/teambition/rrule-go"

	"calendar/app/recur"
)

// A series' recurrence_summary, which each of its events carries: its rules
// in words (English, and French and German where the site's languages,
// CALENDAR_LANGUAGES, have them), its COUNT or UNTIL, how many occurrences
// are still to come and the next few starts. It depends on the time, so it
// is worked out for each answer, after the kept views (viewcache.go), from
// the rules as written, not from the occurrences made (which end two years
// ahead).

// Bounds of the summaries: the starts counted to come for one series, the
// next starts shown, the periods one series' expansion may visit, and the
// time the expansions of one answer (a page, a feed) may take together.
// Past them, remaining is null (and next left out): the text still says the
// rule.
const (
	MaxSummaryRemaining = MaxOccurrencesAhead
	MaxSummaryNext      = 5
	summaryPeriods      = 50_000
	summaryTime         = 200 * time.Millisecond
)

// RecurrenceSummary is a series' rules in words and its dates to come.
type RecurrenceSummary struct {
	// Text is the rules in words per language (en, and fr and de when the
	// site has them); empty when the rules have parts the words do not say
	// (BYYEARDAY, BYWEEKNO, BYHOUR, BYMINUTE, BYSECOND).
	Text map[string]string `json:"text"`
	// Count is the rule's COUNT, Until its UNTIL (local, in the series'
	// zone): the series' end, when it has one.
	Count int    `json:"count,omitempty"`
	Until string `json:"until,omitempty"`
	// Remaining is how many occurrences start after now; null when the
	// series never ends, has more than MaxSummaryRemaining to come, or the
	// answer's budget ran out.
	Remaining *int `json:"remaining"`
	// Next are the next starts (local, in the series' zone), at most
	// MaxSummaryNext ([] when none is to come); left out when the answer's
	// budget ran out.
	Next []string `json:"next,omitzero"`
}

// summaryBudget is what the summaries of one answer may spend: each
// series' expansion its periods, all of them the time up to the deadline.
type summaryBudget struct{ recur.Budget }

func newSummaryBudget() *summaryBudget {
	return &summaryBudget{recur.Budget{Periods: summaryPeriods, Deadline: time.Now().Add(summaryTime)}}
}

// summarize is the summary of the series start (DTSTART, its own first
// occurrence) with lines in zone, at now, in languages (en first).
func summarize(lines []string, excluded []time.Time, start time.Time, zone *time.Location, now time.Time, languages []string, budget *summaryBudget) (*RecurrenceSummary, error) {
	r, err := parseRecurrence(lines, zone)
	if err != nil {
		return nil, err
	}
	start = start.In(zone)
	out := &RecurrenceSummary{Text: map[string]string{}}
	var opt *rrule.ROption
	if len(r.options) > 0 {
		opt = &r.options[0]
		out.Count = opt.Count
		if !opt.Until.IsZero() {
			out.Until = opt.Until.In(zone).Format(DateFormat)
		}
	}
	exceptions := append(slices.Clone(r.exdates), excluded...)
	slices.SortFunc(exceptions, time.Time.Compare)
	exceptions = slices.CompactFunc(exceptions, time.Time.Equal)
	for _, lang := range append([]string{"en"}, languages...) {
		if words := phrasebooks[lang]; words != nil && out.Text[lang] == "" {
			if text, ok := words.say(opt, len(r.rdates), exceptions, start, zone); ok {
				out.Text[lang] = text
			}
		}
	}

	finite := opt == nil || opt.Count > 0 || !opt.Until.IsZero()
	limit := MaxSummaryNext
	if finite {
		limit = MaxSummaryRemaining + 1
	}
	if budget.Deadline.Before(time.Now()) {
		return out, nil
	}
	starts, err := r.within(start, now, time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), zone, limit+len(exceptions), budget.Budget)
	if errors.Is(err, recur.ErrBudget) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	if start.After(now) {
		starts = append([]time.Time{start}, starts...)
	}
	starts = slices.DeleteFunc(starts, func(t time.Time) bool { return slices.ContainsFunc(exceptions, t.Equal) })
	starts = slices.CompactFunc(starts, time.Time.Equal)
	starts = starts[:min(len(starts), limit)]
	if finite && len(starts) <= MaxSummaryRemaining {
		n := len(starts)
		out.Remaining = &n
	}
	out.Next = []string{}
	for _, t := range starts[:min(len(starts), MaxSummaryNext)] {
		out.Next = append(out.Next, t.In(zone).Format(DateFormat))
	}
	return out, nil
}

// phrasebook says rules in one language.
type phrasebook struct {
	every            map[rrule.Frequency][2]string // once, every n (%d)
	weekdays         [7]string
	monthNames       [12]string
	ordinals         map[int]string // 1..5, -1, -2
	on, onDay, onPos string         // " on %s" (weekdays), " on the %s" (month days), " on the %s %s" (position, day)
	in               string         // " in %s" (months)
	at               string         // " at %s"
	times, until     string         // ", %d times", ", until %s"
	except, exceptN  string         // ", except %s", ", except on %d dates"
	plusN            [2]string      // ", and on one more date", ", and on %d more dates"
	onDates          string         // "On %d dates" (RDATEs alone)
	and, or          string         // " and ", " or "
	lastDay          string         // "last day"
	monthDay         func(d int) string
	date             func(t time.Time, months [12]string) string
	article          string // French: "le mardi et le jeudi", "sauf le 11 et le 12 décembre"
}

// say is the rules in words; false when they have parts it cannot say.
func (p *phrasebook) say(opt *rrule.ROption, rdates int, exceptions []time.Time, start time.Time, zone *time.Location) (string, bool) {
	var b strings.Builder
	if opt == nil {
		fmt.Fprintf(&b, p.onDates, rdates+1)
		p.sayExceptions(&b, exceptions, zone)
		return b.String(), true
	}
	if len(opt.Byyearday) > 0 || len(opt.Byweekno) > 0 || len(opt.Byhour) > 0 || len(opt.Byminute) > 0 || len(opt.Bysecond) > 0 || len(opt.Byeaster) > 0 {
		return "", false
	}
	every, ok := p.every[opt.Freq]
	if !ok {
		return "", false
	}
	if opt.Interval > 1 {
		fmt.Fprintf(&b, every[1], opt.Interval)
	} else {
		b.WriteString(every[0])
	}
	if len(opt.Bymonth) > 0 {
		var names []string
		for _, m := range opt.Bymonth {
			names = append(names, p.monthNames[m-1])
		}
		fmt.Fprintf(&b, p.in, p.join(names, p.and))
	}
	if len(opt.Bymonthday) > 0 {
		var days []string
		for _, d := range opt.Bymonthday {
			switch {
			case d > 0:
				days = append(days, p.monthDay(d))
			case d == -1:
				days = append(days, p.lastDay)
			default:
				return "", false
			}
		}
		fmt.Fprintf(&b, p.onDay, p.join(days, p.and))
	}
	if len(opt.Byweekday) > 0 {
		position := 0
		if len(opt.Bysetpos) == 1 {
			position = opt.Bysetpos[0]
		} else if len(opt.Bysetpos) > 1 {
			return "", false
		}
		var days []string
		for _, wd := range opt.Byweekday {
			if wd.N() != 0 {
				if position != 0 || len(opt.Byweekday) > 1 {
					return "", false
				}
				position = wd.N()
			}
			days = append(days, p.weekdays[wd.Day()])
		}
		if position != 0 {
			ordinal, ok := p.ordinals[position]
			if !ok {
				return "", false
			}
			fmt.Fprintf(&b, p.onPos, ordinal, p.join(days, p.or))
		} else {
			for i := range days {
				days[i] = p.article + days[i]
			}
			fmt.Fprintf(&b, p.on, p.join(days, p.and))
		}
	} else if len(opt.Bysetpos) > 0 {
		return "", false
	}
	if opt.Freq != rrule.HOURLY && opt.Freq != rrule.MINUTELY {
		fmt.Fprintf(&b, p.at, start.Format("15:04"))
	}
	switch {
	case opt.Count > 0:
		fmt.Fprintf(&b, p.times, opt.Count)
	case !opt.Until.IsZero():
		// An UNTIL at midnight ends the day before: "until 2 June" is
		// written UNTIL the 3rd at 00:00 by most calendars.
		until := opt.Until.In(zone)
		if until.Hour() == 0 && until.Minute() == 0 && until.Second() == 0 {
			until = until.Add(-time.Second)
		}
		fmt.Fprintf(&b, p.until, p.date(until, p.monthNames))
	}
	switch {
	case rdates == 1:
		b.WriteString(p.plusN[0])
	case rdates > 1:
		fmt.Fprintf(&b, p.plusN[1], rdates)
	}
	p.sayExceptions(&b, exceptions, zone)
	return b.String(), true
}

// sayExceptions names up to three excepted dates, else counts them.
func (p *phrasebook) sayExceptions(b *strings.Builder, exceptions []time.Time, zone *time.Location) {
	switch {
	case len(exceptions) == 0:
	case len(exceptions) <= 3:
		var dates []string
		for i, t := range exceptions {
			dates = append(dates, p.date(t.In(zone), p.monthNames))
			if i > 0 {
				dates[i] = p.article + dates[i]
			}
		}
		fmt.Fprintf(b, p.except, p.join(dates, p.and))
	default:
		fmt.Fprintf(b, p.exceptN, len(exceptions))
	}
}

// join lists items: a, b and c.
func (p *phrasebook) join(items []string, last string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + last + items[len(items)-1]
}

// weekdays are in rrule-go's order: Monday first.
var phrasebooks = map[string]*phrasebook{
	"en": {
		every: map[rrule.Frequency][2]string{rrule.YEARLY: {"Every year", "Every %d years"}, rrule.MONTHLY: {"Every month", "Every %d months"},
			rrule.WEEKLY: {"Every week", "Every %d weeks"}, rrule.DAILY: {"Every day", "Every %d days"},
			rrule.HOURLY: {"Every hour", "Every %d hours"}, rrule.MINUTELY: {"Every minute", "Every %d minutes"}},
		weekdays:   [7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"},
		monthNames: [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
		ordinals:   map[int]string{1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", -1: "last", -2: "second to last"},
		on:         " on %s", onDay: " on the %s", onPos: " on the %s %s", in: " in %s", at: " at %s",
		times: ", %d times", until: ", until %s", except: ", except %s", exceptN: ", except on %d dates", plusN: [2]string{", and on one more date", ", and on %d more dates"},
		onDates: "On %d dates", and: " and ", or: " or ", lastDay: "last day",
		monthDay: func(d int) string {
			suffix := "th"
			if d%100 < 11 || d%100 > 13 {
				switch d % 10 {
				case 1:
					suffix = "st"
				case 2:
					suffix = "nd"
				case 3:
					suffix = "rd"
				}
			}
			return fmt.Sprint(d, suffix)
		},
		date: func(t time.Time, months [12]string) string {
			return fmt.Sprintf("%d %s %d", t.Day(), months[t.Month()-1], t.Year())
		},
	},
	"fr": {
		every: map[rrule.Frequency][2]string{rrule.YEARLY: {"Tous les ans", "Tous les %d ans"}, rrule.MONTHLY: {"Tous les mois", "Tous les %d mois"},
			rrule.WEEKLY: {"Toutes les semaines", "Toutes les %d semaines"}, rrule.DAILY: {"Tous les jours", "Tous les %d jours"},
			rrule.HOURLY: {"Toutes les heures", "Toutes les %d heures"}, rrule.MINUTELY: {"Toutes les minutes", "Toutes les %d minutes"}},
		weekdays:   [7]string{"lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"},
		monthNames: [12]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
		ordinals:   map[int]string{1: "premier", 2: "deuxième", 3: "troisième", 4: "quatrième", 5: "cinquième", -1: "dernier", -2: "avant-dernier"},
		on:         " %s", onDay: " le %s", onPos: " le %s %s", in: " en %s", at: " à %s",
		times: ", %d fois", until: ", jusqu'au %s", except: ", sauf le %s", exceptN: ", sauf à %d dates", plusN: [2]string{", et à une autre date", ", et à %d autres dates"},
		onDates: "À %d dates", and: " et ", or: " ou ", lastDay: "dernier jour",
		article: "le ",
		monthDay: func(d int) string {
			if d == 1 {
				return "1er"
			}
			return fmt.Sprint(d)
		},
		date: func(t time.Time, months [12]string) string {
			day := fmt.Sprint(t.Day())
			if t.Day() == 1 {
				day = "1er"
			}
			return fmt.Sprintf("%s %s %d", day, months[t.Month()-1], t.Year())
		},
	},
	"de": {
		every: map[rrule.Frequency][2]string{rrule.YEARLY: {"Jedes Jahr", "Alle %d Jahre"}, rrule.MONTHLY: {"Jeden Monat", "Alle %d Monate"},
			rrule.WEEKLY: {"Jede Woche", "Alle %d Wochen"}, rrule.DAILY: {"Jeden Tag", "Alle %d Tage"},
			rrule.HOURLY: {"Jede Stunde", "Alle %d Stunden"}, rrule.MINUTELY: {"Jede Minute", "Alle %d Minuten"}},
		weekdays:   [7]string{"Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"},
		monthNames: [12]string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
		ordinals:   map[int]string{1: "ersten", 2: "zweiten", 3: "dritten", 4: "vierten", 5: "fünften", -1: "letzten", -2: "vorletzten"},
		on:         " am %s", onDay: " am %s", onPos: " am %s %s", in: " im %s", at: " um %s",
		times: ", %d Mal", until: ", bis zum %s", except: ", außer am %s", exceptN: ", außer an %d Terminen", plusN: [2]string{", und an einem weiteren Termin", ", und an %d weiteren Terminen"},
		onDates: "An %d Terminen", and: " und ", or: " oder ", lastDay: "letzten Tag",
		monthDay: func(d int) string { return fmt.Sprint(d, ".") },
		date: func(t time.Time, months [12]string) string {
			return fmt.Sprintf("%d. %s %d", t.Day(), months[t.Month()-1], t.Year())
		},
	},
}
