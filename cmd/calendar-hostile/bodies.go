package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// bodiesReport is what -attack bodies prints: anonymous clients, each from
// an address of its own (127.0.0.2 and up), send large bodies to the upload
// route (JSON, urlencoded, untyped in turn) and to the admin namespace, and
// one announces a large body and sends six bytes of it, while the visitor
// lists. Errors are the attackers' sends the service cut short by closing
// the connection once it had refused the body unread.
type bodiesReport struct {
	QuietP50Ms, HostileP50Ms, P50Ratio float64
	PeakRSSMB                          float64
	BaselineRSSMB                      float64
	Answers                            map[string]int // by status
	SlowestRefusalMs                   float64
	// UnsentBodyAnswerMs is how long the answer to a request that announced
	// its body and sent six bytes of it took (-1: none came in a minute).
	UnsentBodyAnswerMs float64
	UnsentBodyStatus   int
	VisitorErrors      int
}

func runBodies(ctx context.Context, c config) (*bodiesReport, error) {
	api := strings.TrimSuffix(c.url, "/") + "/vendor/events/v1"
	admin := func(r *http.Request) { r.SetBasicAuth(c.login, c.password) }
	if err := seedConcerts(api, admin); err != nil {
		return nil, err
	}
	rep := &bodiesReport{Answers: map[string]int{}, BaselineRSSMB: residentMB(c.pid)}
	quiet, errs := visit(api, c.quiet)
	rep.VisitorErrors += errs
	peak := make(chan float64, 1)
	stopSampling := make(chan struct{})
	go func() { peak <- sampleRSS(c.pid, stopSampling) }()

	ctx, stop := context.WithTimeout(ctx, c.hostile)
	defer stop()
	body := bytes.Repeat([]byte(`{"_method":"PUT","x":"`), (c.bodyMiB<<20)/22)
	targets := []struct{ path, contentType string }{
		{api + "/media", "application/json"},
		{api + "/media", "application/x-www-form-urlencoded"},
		{api + "/media", ""},
		{strings.TrimSuffix(c.url, "/") + "/vendor/admin/v1/users", "application/json"},
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range c.uploaders {
		from := clientFrom(fmt.Sprintf("127.0.0.%d", 2+i)) // each attacker an address of its own, as a visitor's is
		wg.Go(func() {
			for n := 0; ctx.Err() == nil; n++ {
				t := targets[(i+n)%len(targets)]
				sent := body
				if strings.HasSuffix(t.path, "/users") {
					sent = body[:900<<10] // within the 1 MiB of a route's body
				}
				began := time.Now()
				status, _, err := sendWith(from, "POST", t.path, t.contentType, sent)
				took := float64(time.Since(began).Microseconds()) / 1000
				mu.Lock()
				rep.Answers[statusKey(status, err)]++
				rep.SlowestRefusalMs = max(rep.SlowestRefusalMs, took)
				mu.Unlock()
			}
		})
	}
	wg.Go(func() { rep.UnsentBodyAnswerMs, rep.UnsentBodyStatus = unsentBody(api+"/media", c.bodyMiB<<20) })
	hostile, errs := visit(api, c.hostile)
	rep.VisitorErrors += errs
	wg.Wait()
	close(stopSampling)
	rep.PeakRSSMB = <-peak
	rep.QuietP50Ms, rep.HostileP50Ms = percentile(quiet, 50), percentile(hostile, 50)
	if rep.QuietP50Ms > 0 {
		rep.P50Ratio = rep.HostileP50Ms / rep.QuietP50Ms
	}
	return rep, nil
}

// unsentBody announces a body of length bytes as JSON, sends six, and waits
// up to a minute for the answer.
func unsentBody(target string, length int) (float64, int) {
	u, err := url.Parse(target)
	if err != nil {
		return -1, 0
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		return -1, 0
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	began := time.Now()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"_me", u.Path, u.Host, length)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return -1, 0
	}
	res.Body.Close()
	return float64(time.Since(began).Microseconds()) / 1000, res.StatusCode
}
