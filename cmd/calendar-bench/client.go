package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// result is what the client process reports.
type result struct {
	Requests int           `json:"requests"`
	Errors   int           `json:"errors"`
	P50      time.Duration `json:"p50"`
	P99      time.Duration `json:"p99"`
	RPS      float64       `json:"rps"`
}

// runClient sends the paths round-robin from conc goroutines for a while, or
// each path once when each is 0, and prints a result as JSON.
func runClient(url, pathsFile string, each time.Duration, conc int) error {
	raw, err := os.ReadFile(pathsFile)
	if err != nil {
		return err
	}
	paths := strings.Split(string(raw), "\n")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc}}
	var mu sync.Mutex
	var latencies []time.Duration
	errors := 0
	deadline := time.Now().Add(each)
	start := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < conc; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			var mine []time.Duration
			bad := 0
			for i := c; (each == 0 && i < len(paths)) || (each > 0 && time.Now().Before(deadline)); i += conc {
				t := time.Now()
				res, err := client.Get(url + paths[i%len(paths)])
				if err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				mine = append(mine, time.Since(t))
				if err != nil || (res.StatusCode != http.StatusOK) {
					bad++
				}
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			errors += bad
			mu.Unlock()
		}(c)
	}
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	r := result{Requests: len(latencies), Errors: errors, RPS: float64(len(latencies)) / elapsed.Seconds()}
	if len(latencies) > 0 {
		r.P50 = latencies[len(latencies)/2]
		r.P99 = latencies[len(latencies)*99/100]
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}
