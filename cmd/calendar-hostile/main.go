// Command calendar-hostile measures what a running calendar service keeps
// for its visitors while accounts attack it: a visitor lists events, first
// alone, then while eight clients upload images whose pixels cost far more
// than their bytes and four clients of an author create series that start
// years ago. It samples the service's resident memory (its /proc entry,
// given -pid) and prints a JSON report: the visitor's list latencies in both
// phases, their ratio, the peak resident memory, and what the attackers got;
// then lists again, alone, with what the attack left stored.
//
//	calendar-hostile -url http://127.0.0.1:8080 -password "$PW" -pid $(pgrep -f 'calendar$') -d 60s
//
// With -attack search (search.go) the visitor searches instead, and the
// attack is an author's events holding a dictionary of random words and
// anonymous clients searching it for random fragments. With -attack bodies
// (bodies.go), -uploaders anonymous clients send large bodies to routes
// that need credentials.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

type config struct {
	url, login, password string
	pid                  int
	quiet, hostile       time.Duration
	uploaders, flooders  int
	attack               string
	search               searchAttack
	bodyMiB              int
}

// report is what the command prints.
type report struct {
	QuietP50Ms, QuietP95Ms     float64
	HostileP50Ms, HostileP95Ms float64
	P50Ratio                   float64
	// After the attack, with what it left stored (the series' occurrences
	// fill the visitor's windows): how much of the slowdown is the data's.
	AfterP50Ms, AfterP95Ms float64
	P50RatioToAfter        float64
	PeakRSSMB              float64
	VisitorErrors          int
	Uploads                map[string]int // by status
	SeriesCreated          int
	SeriesStatuses         map[string]int
}

func main() {
	var c config
	flag.StringVar(&c.url, "url", "http://127.0.0.1:8080", "the service's base URL")
	flag.StringVar(&c.login, "login", "admin", "an administrator's login")
	flag.StringVar(&c.password, "password", os.Getenv("CALENDAR_ADMIN_PASSWORD"), "their application password")
	flag.IntVar(&c.pid, "pid", 0, "the service's process ID, for its resident memory (0: not measured)")
	flag.DurationVar(&c.quiet, "quiet", 20*time.Second, "how long the visitor lists alone")
	flag.DurationVar(&c.hostile, "d", 60*time.Second, "how long the attack lasts")
	flag.IntVar(&c.uploaders, "uploaders", 8, "clients uploading costly images")
	flag.IntVar(&c.flooders, "flooders", 4, "clients creating series that start years ago")
	flag.StringVar(&c.attack, "attack", "uploads", "uploads (costly images and series), search (a giant dictionary searched for fragments) or bodies (anonymous large bodies to routes that need credentials)")
	flag.IntVar(&c.bodyMiB, "body-mib", 10, "with -attack bodies: the size of each body, in MiB")
	c.search.flags()
	flag.Parse()
	var rep any
	var err error
	switch c.attack {
	case "uploads":
		rep, err = run(context.Background(), c)
	case "search":
		rep, err = runSearch(context.Background(), c)
	case "bodies":
		rep, err = runBodies(context.Background(), c)
	default:
		err = fmt.Errorf("-attack is uploads, search or bodies, not %q", c.attack)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(rep)
}

func run(ctx context.Context, c config) (*report, error) {
	api := strings.TrimSuffix(c.url, "/") + "/vendor/events/v1"
	admin := func(r *http.Request) { r.SetBasicAuth(c.login, c.password) }
	author, err := createAuthor(c, admin)
	if err != nil {
		return nil, err
	}
	if err := seedConcerts(api, admin); err != nil {
		return nil, err
	}
	rep := &report{Uploads: map[string]int{}, SeriesStatuses: map[string]int{}}
	peak := make(chan float64, 1)
	stopSampling := make(chan struct{})
	go func() { peak <- sampleRSS(c.pid, stopSampling) }()

	quiet, errs := visit(api, c.quiet)
	rep.VisitorErrors += errs

	ctx, stop := context.WithTimeout(ctx, c.hostile)
	defer stop()
	var wg sync.WaitGroup
	var mu sync.Mutex
	deep, photo := png16(4000, 4000), gradientJPEG(4000, 3000)
	for i := range c.uploaders {
		wg.Go(func() {
			for n := 0; ctx.Err() == nil; n++ {
				name, data, kind := "deep.png", deep, "image/png"
				if (i+n)%2 == 1 {
					name, data, kind = "photo.jpg", photo, "image/jpeg"
				}
				status, _, err := send("POST", api+"/media", kind, data, admin, func(r *http.Request) {
					r.Header.Set("Content-Disposition", `attachment; filename="`+name+`"`)
				})
				mu.Lock()
				rep.Uploads[statusKey(status, err)]++
				mu.Unlock()
			}
		})
	}
	for i := range c.flooders {
		wg.Go(func() {
			for n := 0; ctx.Err() == nil; n++ {
				body := fmt.Sprintf(`{"title": "Daily %d-%d", "start_date": "2000-01-01 09:00", "end_date": "2000-01-01 10:00", "recurrence": ["RRULE:FREQ=DAILY"]}`, i, n)
				status, _, err := send("POST", api+"/events", "application/json", []byte(body), author)
				mu.Lock()
				rep.SeriesStatuses[statusKey(status, err)]++
				if status == http.StatusCreated {
					rep.SeriesCreated++
				}
				mu.Unlock()
			}
		})
	}
	hostile, errs := visit(api, c.hostile)
	rep.VisitorErrors += errs
	wg.Wait()
	close(stopSampling)
	rep.PeakRSSMB = <-peak
	after, errs := visit(api, c.quiet)
	rep.VisitorErrors += errs
	rep.AfterP50Ms, rep.AfterP95Ms = percentile(after, 50), percentile(after, 95)
	if rep.AfterP50Ms > 0 {
		rep.P50RatioToAfter = percentile(hostile, 50) / rep.AfterP50Ms
	}
	rep.QuietP50Ms, rep.QuietP95Ms = percentile(quiet, 50), percentile(quiet, 95)
	rep.HostileP50Ms, rep.HostileP95Ms = percentile(hostile, 50), percentile(hostile, 95)
	if rep.QuietP50Ms > 0 {
		rep.P50Ratio = rep.HostileP50Ms / rep.QuietP50Ms
	}
	return rep, nil
}

// seedConcerts creates the 300 events the visitor lists: "Concert N", one
// to sixty days ahead, at twenty halls.
func seedConcerts(api string, admin func(*http.Request)) error {
	start := time.Now().AddDate(0, 0, 1)
	for i := range 300 {
		day := start.AddDate(0, 0, i%60).Format("2006-01-02")
		body := fmt.Sprintf(`{"title": "Concert %d", "start_date": "%s 20:00", "end_date": "%s 22:00", "venue": {"venue": "Hall %d", "city": "Lyon", "country": "France"}}`, i, day, day, i%20)
		if status, _, err := send("POST", api+"/events", "application/json", []byte(body), admin); err != nil || status != http.StatusCreated {
			return fmt.Errorf("seeding event %d: %d %v", i, status, err)
		}
	}
	return nil
}

// visit lists events as a visitor for d, each list a window of its own so
// that no answer is reused, and returns the latencies in milliseconds.
func visit(api string, d time.Duration) ([]float64, int) {
	var took []float64
	errs := 0
	rng := rand.New(rand.NewPCG(1, 2))
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		from := time.Now().AddDate(0, 0, rng.IntN(30))
		q := "?per_page=10&start_date=" + from.Format("2006-01-02") + "&end_date=" + from.AddDate(0, 0, 7+rng.IntN(30)).Format("2006-01-02")
		began := time.Now()
		status, _, err := send("GET", api+"/events"+q, "", nil)
		if err != nil || status != http.StatusOK {
			errs++
			continue
		}
		took = append(took, float64(time.Since(began).Microseconds())/1000)
	}
	return took, errs
}

func createAuthor(c config, admin func(*http.Request)) (func(*http.Request), error) {
	return createUser(c, admin, "flooder", "author")
}

// createUser creates a user of the role, and returns how to sign their requests.
func createUser(c config, admin func(*http.Request), name, role string) (func(*http.Request), error) {
	login := fmt.Sprintf("%s-%d", name, time.Now().UnixNano())
	status, body, err := send("POST", strings.TrimSuffix(c.url, "/")+"/vendor/admin/v1/users", "application/json",
		[]byte(`{"login": "`+login+`", "role": "`+role+`"}`), admin)
	if err != nil || status != http.StatusCreated {
		return nil, fmt.Errorf("creating the %s: %d %v %s", role, status, err, body)
	}
	var created struct {
		Password string `json:"application_password"`
	}
	if err := json.Unmarshal(body, &created); err != nil {
		return nil, err
	}
	return func(r *http.Request) { r.SetBasicAuth(login, created.Password) }, nil
}

var client = &http.Client{Timeout: 5 * time.Minute}

func send(method, url, contentType string, body []byte, opts ...func(*http.Request)) (int, []byte, error) {
	return sendWith(client, method, url, contentType, body, opts...)
}

func sendWith(client *http.Client, method, url, contentType string, body []byte, opts ...func(*http.Request)) (int, []byte, error) {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for _, o := range opts {
		o(req)
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, raw, err
}

func statusKey(status int, err error) string {
	if err != nil {
		return "error"
	}
	return strconv.Itoa(status)
}

// sampleRSS reads the process's resident memory every 100 ms until stop,
// and returns the most it saw, in MB (0 without a pid).
func sampleRSS(pid int, stop chan struct{}) float64 {
	most := 0.0
	for {
		if pid > 0 {
			most = max(most, residentMB(pid))
		}
		select {
		case <-stop:
			return most
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func residentMB(pid int) float64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

func percentile(ms []float64, p int) float64 {
	if len(ms) == 0 {
		return 0
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

// png16 is a 16-bit RGBA PNG of w×h: a few hundred kilobytes, eight bytes
// a pixel once decoded.
func png16(w, h int) []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewRGBA64(image.Rect(0, 0, w, h)))
	return b.Bytes()
}

// gradientJPEG is a w×h photo-like JPEG: what a camera uploads.
func gradientJPEG(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x ^ y) & 0xff), 255})
		}
	}
	var b bytes.Buffer
	_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: 90})
	return b.Bytes()
}
