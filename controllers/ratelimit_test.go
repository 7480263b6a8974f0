package controllers_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"calendar/controllers"
)

func TestRepeatedWrongPasswordsAreSlowedThenRefused(t *testing.T) {
	limits := controllers.AuthLimits{Window: 2 * time.Second, SlowAfter: 2, BlockAfter: 5, Step: 80 * time.Millisecond, MaxDelay: 200 * time.Millisecond}
	s := startServiceWith(t, func(c *controllers.Config) { c.AuthLimits = limits })
	wrong := basic("admin", "guess")
	timed := func(opts ...option) (*response, time.Duration) {
		start := time.Now()
		res := s.do("GET", "/vendor/events/v1", opts...)
		return res, time.Since(start)
	}
	for i := 1; i <= limits.BlockAfter; i++ {
		res, took := timed(wrong)
		res.expectError(t, http.StatusUnauthorized, "incorrect_password")
		if i > limits.SlowAfter && took < limits.Step {
			t.Fatalf("failure %d answered in %v, want it slowed by at least %v", i, took, limits.Step)
		}
	}
	for name, cred := range map[string]option{"a wrong password": wrong, "even the right one": asAdmin()} {
		res, _ := timed(cred)
		res.expectError(t, http.StatusTooManyRequests, "too_many_attempts")
		if secs, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || secs < 1 || secs > 3 {
			t.Fatalf("%s: Retry-After = %q", name, res.Header.Get("Retry-After"))
		}
	}
	s.do("GET", "/vendor/events/v1").expectStatus(t, http.StatusOK) // without credentials: not throttled
	s.do("GET", "/readyz").expectStatus(t, http.StatusOK)
	time.Sleep(limits.Window)
	s.do("GET", "/vendor/admin/v1/users", asAdmin()).expectStatus(t, http.StatusOK)
	t.Run("a success forgets earlier failures", func(t *testing.T) {
		for i := 0; i < limits.BlockAfter-1; i++ {
			s.do("GET", "/vendor/events/v1", wrong)
		}
		s.do("GET", "/vendor/admin/v1/users", asAdmin()).expectStatus(t, http.StatusOK)
		for i := 0; i < limits.BlockAfter-1; i++ {
			s.do("GET", "/vendor/events/v1", wrong).expectError(t, http.StatusUnauthorized, "incorrect_password")
		}
	})
}
