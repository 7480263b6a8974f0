package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// The search attack: an author fills events with a dictionary of random
// words (40 events of 8,000 distinct words: 320,000), and anonymous clients,
// each from an address of its own, search the events without pause for nine
// random fragments, which no kept answer serves. The visitor searches events
// for a word of theirs (each search a window of its own), alone, then beside
// the attackers.

type searchAttack struct {
	planted, words, searchers int
	lone, crafted             bool
}

// craftedPrefixes are what -crafted attackers search for, and
// craftedWords how many planted words begin with each: as many as a
// fragment may begin (10,000), less the random words that hold it.
var craftedPrefixes = []string{"qqa", "qqb", "qqc", "qqd", "qqe", "qqf", "qqg", "qqh", "qqi"}

const craftedWords = 9800

func (a *searchAttack) flags() {
	flag.IntVar(&a.planted, "planted", 40, "-attack search: events an author fills with random words")
	flag.IntVar(&a.words, "words", 8000, "-attack search: random words in each of them")
	flag.BoolVar(&a.lone, "lone", false, "-attack search: the attackers search by relevance for nine lone Chinese characters (a walk of every word the index holds, which only the turns of the search slots bound) instead of nine random fragments")
	flag.BoolVar(&a.crafted, "crafted", false, "-attack search: the author's words make nine fragments each begin 9,800 of them (what a search may read), and the attackers search for those nine, every search a window of its own")
	flag.IntVar(&a.searchers, "searchers", 4, "-attack search: anonymous clients searching for random fragments, each from an address of its own (127.0.0.2 and up: the service must listen on 127.0.0.1)")
}

// searchReport is what the search attack prints.
type searchReport struct {
	Dictionary                 int // distinct words planted
	QuietP50Ms, QuietP95Ms     float64
	HostileP50Ms, HostileP95Ms float64
	P50Ratio                   float64
	VisitorSearches            int // beside the attackers
	VisitorErrors              int
	Attacks                    map[string]int // the attackers' answers by status
	AttackP50Ms                float64
}

func runSearch(ctx context.Context, c config) (*searchReport, error) {
	api := strings.TrimSuffix(c.url, "/") + "/vendor/events/v1"
	admin := func(r *http.Request) { r.SetBasicAuth(c.login, c.password) }
	author, err := createUser(c, admin, "planter", "author")
	if err != nil {
		return nil, err
	}
	if err := seedConcerts(api, admin); err != nil {
		return nil, err
	}
	rep := &searchReport{Attacks: map[string]int{}}
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	day := time.Now().AddDate(0, 2, 0).Format("2006-01-02")
	for i := range c.search.planted {
		words := make([]string, c.search.words)
		for k := range words {
			words[k] = randomLetters(rng, 5+rng.IntN(5))
			if g := i*len(words) + k; c.search.crafted && g < len(craftedPrefixes)*craftedWords {
				words[k] = craftedPrefixes[g%len(craftedPrefixes)] + randomLetters(rng, 4)
			}
			seen[words[k]] = true
		}
		body := fmt.Sprintf(`{"title": "Words %d", "start_date": "%s 20:00", "end_date": "%s 22:00", "description": %q}`, i, day, day, strings.Join(words, " "))
		if status, raw, err := send("POST", api+"/events", "application/json", []byte(body), author); err != nil || status != http.StatusCreated {
			return nil, fmt.Errorf("planting event %d: %d %v %.200s", i, status, err, raw)
		}
	}
	rep.Dictionary = len(seen)

	visitor := rand.New(rand.NewPCG(1, 2))
	quiet, errs := searchAsVisitor(api, visitor, c.quiet)
	rep.VisitorErrors += errs

	ctx, stop := context.WithTimeout(ctx, c.hostile)
	defer stop()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var took []float64
	for i := range c.search.searchers {
		from := clientFrom(fmt.Sprintf("127.0.0.%d", 2+i))
		rng := rand.New(rand.NewPCG(5, uint64(i)))
		wg.Go(func() {
			for ctx.Err() == nil {
				fragments := make([]string, 9)
				order := ""
				for k := range fragments {
					fragments[k] = randomLetters(rng, 3+rng.IntN(4))
					if c.search.lone {
						fragments[k], order = string(rune(0x4e00+rng.IntN(0x5000))), "&orderby=relevance"
					}
				}
				if c.search.crafted {
					fragments = craftedPrefixes
					order = "&strict_dates=true&start_date=" + url.QueryEscape(time.Now().Add(time.Duration(rng.IntN(86400))*time.Second).Format("2006-01-02 15:04:05"))
				}
				began := time.Now()
				status, _, err := sendWith(from, "GET", api+"/events?search="+url.QueryEscape(strings.Join(fragments, " "))+order, "", nil)
				mu.Lock()
				rep.Attacks[statusKey(status, err)]++
				if status == http.StatusOK {
					took = append(took, float64(time.Since(began).Microseconds())/1000)
				}
				mu.Unlock()
			}
		})
	}
	hostile, errs := searchAsVisitor(api, visitor, c.hostile)
	rep.VisitorErrors += errs
	wg.Wait()
	rep.QuietP50Ms, rep.QuietP95Ms = percentile(quiet, 50), percentile(quiet, 95)
	rep.HostileP50Ms, rep.HostileP95Ms = percentile(hostile, 50), percentile(hostile, 95)
	rep.VisitorSearches = len(hostile)
	if rep.QuietP50Ms > 0 {
		rep.P50Ratio = rep.HostileP50Ms / rep.QuietP50Ms
	}
	rep.AttackP50Ms = percentile(took, 50)
	return rep, nil
}

// searchAsVisitor searches events for "concert" for d, every 50 ms, each
// search a window of its own, to the second (strict_dates), so that no kept
// answer serves it, and returns the latencies in milliseconds.
func searchAsVisitor(api string, rng *rand.Rand, d time.Duration) ([]float64, int) {
	var took []float64
	errs := 0
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		from := time.Now().AddDate(0, 0, rng.IntN(30)).Add(time.Duration(rng.IntN(86400)) * time.Second)
		window := "start_date=" + url.QueryEscape(from.Format("2006-01-02 15:04:05")) + "&end_date=" + from.AddDate(0, 0, 7+rng.IntN(30)).Format("2006-01-02")
		began := time.Now()
		status, _, err := send("GET", api+"/events?per_page=10&strict_dates=true&search=concert&"+window, "", nil)
		if err != nil || status != http.StatusOK {
			errs++
			continue
		}
		took = append(took, float64(time.Since(began).Microseconds())/1000)
	}
	return took, errs
}

func randomLetters(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + rng.IntN(26))
	}
	return string(b)
}

// clientFrom is a client whose connections come from the address ip (any
// of 127.0.0.0/8 on Linux's loopback), so that the service sees a client of
// its own.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	return &http.Client{Timeout: 5 * time.Minute, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 1}}
}
