// Command calendar-bench measures the service's list queries: it seeds N
// realistic events through the real store and index, serves them over HTTP on
// loopback, and replays a fixed query mix from a second process (itself, run
// with -client), beside a plain net/http hello-world as the ceiling.
//
//	go run ./cmd/calendar-bench -n 100000
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"calendar/app"
	"calendar/cmd/internal/gc"
	"calendar/controllers"
	"calendar/index"
	"calendar/repository/bolt"
)

func main() {
	n := flag.Int("n", 100000, "events to seed")
	each := flag.Duration("each", 5*time.Second, "how long each query kind is measured")
	warmup := flag.Bool("warmup", true, "send every query of the mix once, unmeasured, before the measurements (the first reads of a just opened index fault its files into memory; with the cache, warm figures are then all answers from it)")
	conc := flag.Int("c", 16, "concurrent clients in the throughput runs")
	cpuProfile := flag.String("cpuprofile", "", "write the server's CPU profile during the query runs to this file")
	noCache := flag.Bool("nocache", false, "turn the list result cache and the rendered events off (cold figures)")
	rebuildProfile := flag.String("rebuildprofile", "", "write the CPU profile of the index rebuild to this file")
	rebuildOnly := flag.Bool("rebuildonly", false, "stop after the rebuild (seeding and rebuild figures only)")
	recurring := flag.Float64("recurring", 0, "fraction of the n events that are series (weekly, 20 occurrences: the series and 19 occurrence events) and their occurrences; adds the post_parent query kind")
	dataDir := flag.String("dir", "", "keep the store and the index in this directory and reuse them on the next run (default: a temporary one)")
	client := flag.Bool("client", false, "internal: run as the load client")
	url := flag.String("url", "", "internal: the client's target")
	paths := flag.String("paths", "", "internal: the client's paths, one per line in a file")
	flag.Parse()
	gc.Tune() // as the service does
	if !*client {
		gc.FitUploads(gc.DefaultUploadMemory) // as the service serves, by default
	}
	if *client {
		if err := runClient(*url, *paths, *each, *conc); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if *recurring < 0 || *recurring > 1 {
		fmt.Fprintln(os.Stderr, "calendar-bench: -recurring is a fraction between 0 and 1")
		os.Exit(2)
	}
	if err := run(*n, *recurring, *dataDir, *each, *warmup, *conc, *cpuProfile, *noCache, *rebuildProfile, *rebuildOnly); err != nil {
		fmt.Fprintln(os.Stderr, "calendar-bench:", err)
		os.Exit(1)
	}
}

func run(n int, recurring float64, dir string, each time.Duration, warmup bool, conc int, cpuProfile string, noCache bool, rebuildProfile string, rebuildOnly bool) error {
	ctx := context.Background()
	if dir == "" {
		tmp, err := os.MkdirTemp("", "calendar-bench")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	store, err := bolt.Open(dir)
	if err != nil {
		return err
	}
	defer store.Close(ctx)
	idx, err := index.Open(dir)
	if err != nil {
		return err
	}
	defer idx.Close()
	settings := app.Settings{SiteURL: "http://127.0.0.1", PerPage: 10}
	if noCache {
		settings.ResultCacheSize = -1
	}
	a := app.New(store, idx, settings)
	if _, err := a.Users.EnsureAdmin(ctx, "bench admin password"); err != nil {
		return err
	}
	w, err := newWorld(ctx, store, n, recurring)
	if err != nil {
		return err
	}
	start := time.Now()
	if idx.Fresh || rebuildOnly {
		if err := rebuild(ctx, a, rebuildProfile); err != nil {
			return err
		}
	}
	settle(idx, start)
	if rebuildOnly {
		return nil
	}

	api := controllers.New(controllers.Config{SiteURL: "http://127.0.0.1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, a)
	serviceURL, stopService := serve(api)
	defer stopService()
	hello := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"hello":"world"}`))
	})
	helloURL, stopHello := serve(hello)
	defer stopHello()

	fmt.Printf("\n%d events (%d of them series and their occurrences: %d series of %d), %d venues, %d organizers, %d categories, %d tags; result cache %v; GOMAXPROCS shared by server and client\n\n",
		n, w.seriesCount*seriesOccurrences, w.seriesCount, seriesOccurrences, len(w.venues), len(w.organizers), len(w.categories), len(w.tags), !noCache)
	stopProfile, err := startProfile(cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	var all []string
	for _, kind := range w.mix() {
		all = append(all, kind.paths...)
	}
	if warmup {
		if _, err := runClientProcess(serviceURL, all, 0, conc); err != nil {
			return err
		}
	}
	fmt.Println("| query | requests | errors | p50 | p99 | req/s | server CPU a request |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, kind := range w.mix() {
		if err := measure(kind.name, serviceURL, kind.paths, each, 1); err != nil {
			return err
		}
	}
	if *only != "" {
		return nil
	}
	if err := measure(fmt.Sprintf("mix, %d clients", conc), serviceURL, all, each, conc); err != nil {
		return err
	}
	afterMix := rss()
	if err := measure(fmt.Sprintf("GET /events/<id>, %d clients", conc), serviceURL, w.singles(), each, conc); err != nil {
		return err
	}
	if err := measure(fmt.Sprintf("hello-world ceiling, %d clients", conc), helloURL, []string{"/"}, each, conc); err != nil {
		return err
	}
	fmt.Printf("\nserver resident memory after the mix: %s\nat the end: %s\n", afterMix, rss())
	return nil
}

func rebuild(ctx context.Context, a *app.App, profile string) error {
	stopProfile, err := startProfile(profile)
	if err != nil {
		return err
	}
	start, cpuStart := time.Now(), cpuTime()
	peak := watchPeak()
	docs, err := a.Rebuild(ctx, nil)
	stopProfile()
	if err != nil {
		return err
	}
	fmt.Printf("index rebuild: %d documents in %v (%.0f/s, %.1f CPU seconds); %s; the highest of 5 samples a second: %s\n", docs, time.Since(start).Round(time.Millisecond),
		float64(docs)/time.Since(start).Seconds(), (cpuTime() - cpuStart).Seconds(), "RSS "+rss(), peak())
	return nil
}

// watchPeak samples the resident memory five times a second until the
// returned function is called, which tells the highest sample.
func watchPeak() func() string {
	stop, done := make(chan struct{}), make(chan string)
	go func() {
		highest, at, best := int64(0), time.Now(), ""
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		begun := time.Now()
		for {
			select {
			case <-stop:
				done <- fmt.Sprintf("%s, %v after the start", best, at.Sub(begun).Round(time.Second))
				return
			case <-tick.C:
				now := rss()
				if kb, _ := strconv.ParseInt(strings.Fields(now)[0], 10, 64); kb > highest {
					highest, at, best = kb, time.Now(), now
				}
			}
		}
	}()
	return func() string { close(stop); return <-done }
}

// settle waits until bleve has merged what it wants to merge (the segments a
// rebuild leaves, or that an earlier run left unmerged): merges running beside
// the measurements would take a core from them.
func settle(idx *index.Live, since time.Time) {
	files, _ := idx.Segments()
	quiet := time.Now()
	for time.Since(quiet) < 10*time.Second {
		time.Sleep(250 * time.Millisecond)
		now, merging := idx.Segments()
		if merging || now != files {
			quiet = time.Now()
		}
		files = now
	}
	fmt.Printf("index settled: %d segments, %v after the start (%v with no merge before that); RSS %s\n", files,
		time.Since(since).Round(time.Second), time.Since(quiet).Round(time.Second), rss())
}

// serve runs a handler on a loopback port.
func serve(h http.Handler) (string, func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }
}

// measure runs the client process on paths and prints one table row, with
// the server's CPU time (this process's, the client being another) over the
// requests answered: on a machine shared with other work, steadier than
// the latencies, which wait for a core.
func measure(name, url string, paths []string, each time.Duration, conc int) error {
	cpuStart := cpuTime()
	r, err := runClientProcess(url, paths, each, conc)
	if err != nil {
		return fmt.Errorf("client for %s: %w", name, err)
	}
	perRequest := time.Duration(0)
	if r.Requests > 0 {
		perRequest = (cpuTime() - cpuStart) / time.Duration(r.Requests)
	}
	fmt.Printf("| %s | %d | %d | %s | %s | %.0f | %s |\n", name, r.Requests, r.Errors, ms(r.P50), ms(r.P99), r.RPS, ms(perRequest))
	return nil
}

// runClientProcess runs the client process on paths for a while.
func runClientProcess(url string, paths []string, each time.Duration, conc int) (result, error) {
	var r result
	f, err := os.CreateTemp("", "paths")
	if err != nil {
		return r, err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(strings.Join(paths, "\n")); err != nil {
		return r, err
	}
	f.Close()
	out, err := exec.Command(os.Args[0], "-client", "-url", url, "-paths", f.Name(), "-each", each.String(), "-c", fmt.Sprint(conc)).Output()
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal(out, &r)
}

// startProfile writes a CPU profile to file until the returned stop is called;
// with no file it does nothing.
func startProfile(file string) (stop func(), err error) {
	if file == "" {
		return func() {}, nil
	}
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

// cpuTime is the CPU time the process used so far, user and system: steadier
// than wall time on a machine whose speed varies from run to run.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// rss is the resident memory, with its anonymous part (the heap) and its
// file part (the index files mapped into memory, which the kernel may drop).
func rss() string {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	fields := map[string]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok {
			fields[name] = strings.TrimSpace(value)
		}
	}
	return fmt.Sprintf("%s (anonymous %s, files %s: %s; the peak so far %s)", fields["VmRSS"], fields["RssAnon"], fields["RssFile"], mappedFiles(), fields["VmHWM"])
}

// mappedFiles splits the resident pages of mapped files between the store
// and the index.
func mappedFiles() string {
	raw, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return "unknown"
	}
	var store, idx, other, anonymous int64
	var into *int64
	for _, line := range strings.Split(string(raw), "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) >= 5 && strings.Contains(fields[0], "-"): // a mapping's first line
			path := ""
			if len(fields) >= 6 {
				path = fields[5]
			}
			switch {
			case !strings.HasPrefix(path, "/"):
				into = &anonymous
			case strings.HasSuffix(path, ".db"):
				into = &store
			case strings.Contains(path, ".zap"):
				into = &idx
			default:
				into = &other
			}
		case len(fields) == 3 && fields[0] == "Rss:" && into != nil:
			kb, _ := strconv.ParseInt(fields[1], 10, 64)
			*into += kb
		}
	}
	return fmt.Sprintf("store %d kB, index %d kB, other files %d kB", store, idx, other)
}
