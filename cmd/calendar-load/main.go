// Command calendar-load pushes a running calendar service with many concurrent
// clients mixing reads and writes, then checks that nothing it acknowledged is
// missing, and prints a JSON report. It exits 1 on any error or lost write.
//
//	calendar-load -url http://127.0.0.1:8080 -login admin -password "$PW" -c 200 -d 60s
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"calendar/cmd/internal/loadgen"
)

func main() {
	var cfg loadgen.Config
	flag.StringVar(&cfg.BaseURL, "url", "http://127.0.0.1:8080", "the service's base URL")
	flag.StringVar(&cfg.Login, "login", "admin", "an editor's or administrator's login")
	flag.StringVar(&cfg.Password, "password", os.Getenv("CALENDAR_ADMIN_PASSWORD"), "their application password")
	flag.IntVar(&cfg.Clients, "c", 200, "concurrent clients")
	flag.DurationVar(&cfg.Duration, "d", 60*time.Second, "how long to push")
	seed := flag.Uint64("seed", 1, "seed of the clients' choices")
	flag.Parse()
	cfg.Seed = *seed
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := loadgen.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(rep)
	if rep.Errors > 0 || len(rep.Lost) > 0 {
		os.Exit(1)
	}
}
