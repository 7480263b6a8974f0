package controllers_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/app/throttle"
	"calendar/controllers"
)

// startThrottled starts the service with small throttle limits.
func startThrottled(t *testing.T, limits throttle.Limits) *roles {
	t.Helper()
	s := startServiceSettings(t, func(set *app.Settings) { set.Throttle = limits }, func(*controllers.Config) {})
	r := &roles{service: s, creds: map[calendar.Role]option{calendar.RoleAdministrator: asAdmin()}, ids: map[calendar.Role]float64{calendar.RoleAdministrator: 1}}
	id, pw := s.createUser("mallory", calendar.RoleSubscriber)
	r.creds[calendar.RoleSubscriber], r.ids[calendar.RoleSubscriber] = basic("mallory", pw), id
	return r
}

// smallLimits count failures over a minute: a test's guesses all fall within
// it however busy the machine (under four copies of the suite, five guesses
// and five sign-ins took longer than the 3 s window these had). That the
// window ends is app/throttle's test, on its own clock.
var smallLimits = throttle.Limits{Window: time.Minute, SlowAfter: 2, BlockAfter: 5, Step: 80 * time.Millisecond,
	MaxDelay: 200 * time.Millisecond, ClientBlockAfter: 40, SubjectBlockAfter: 12,
	SharedBurst: 12, SharedReserve: 2, SharedEvery: 3 * time.Second}

// postLimits are smallLimits with a post's budget small enough to spend in a
// test and slow enough that none of it comes back during one.
var postLimits = func() throttle.Limits {
	l := smallLimits
	l.SharedBurst, l.SharedReserve, l.SharedEvery = 4, 1, time.Minute
	return l
}()

func expectRetryAfter(t *testing.T, res *response) {
	t.Helper()
	expectRetryAfterWithin(t, res, smallLimits.Window+time.Second)
}

func expectRetryAfterWithin(t *testing.T, res *response, most time.Duration) {
	t.Helper()
	res.expectError(t, http.StatusTooManyRequests, "too_many_attempts")
	if secs, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || secs < 1 || secs > int(most/time.Second) {
		t.Fatalf("Retry-After = %q, want 1 to %v", res.Header.Get("Retry-After"), most)
	}
}

func TestWrongPasswordsAreSlowedThenRefusedForThatAccountFromThatAddress(t *testing.T) {
	t.Parallel()
	long(t)
	r := startThrottled(t, smallLimits)
	wrong := basic("admin", "guess")
	for i := 1; i <= smallLimits.BlockAfter; i++ {
		start := time.Now()
		r.do("GET", "/vendor/events/v1", wrong).expectError(t, http.StatusUnauthorized, "incorrect_password")
		if took := time.Since(start); i > smallLimits.SlowAfter && took < smallLimits.Step {
			t.Fatalf("failure %d answered in %v, want it slowed by at least %v", i, took, smallLimits.Step)
		}
	}
	expectRetryAfter(t, r.do("GET", "/vendor/events/v1", wrong))
	expectRetryAfter(t, r.do("GET", "/vendor/events/v1", asAdmin())) // the guesser's address cannot tell
	r.do("GET", "/vendor/events/v1").expectStatus(t, http.StatusOK)  // no credentials: nothing to throttle
	t.Run("the owner signs in from elsewhere", func(t *testing.T) {
		r.service.from("127.0.0.2").do("GET", "/vendor/admin/v1/users", asAdmin()).expectStatus(t, http.StatusOK)
	})
	t.Run("another account signs in from the guesser's address", func(t *testing.T) {
		r.do("GET", "/vendor/events/v1", r.creds[calendar.RoleSubscriber]).expectStatus(t, http.StatusOK)
	})
}

// A success signs in one account from one address: it must not reset the
// count of another account guessed from there.
func TestSignInsInterleavedWithGuessesDoNotResetTheCount(t *testing.T) {
	t.Parallel()
	r := startThrottled(t, smallLimits)
	for i := 0; i < smallLimits.BlockAfter; i++ {
		r.do("GET", "/vendor/events/v1", basic("admin", fmt.Sprint("guess ", i))).expectError(t, http.StatusUnauthorized, "incorrect_password")
		r.do("GET", "/vendor/events/v1", r.creds[calendar.RoleSubscriber]).expectStatus(t, http.StatusOK)
	}
	expectRetryAfter(t, r.do("GET", "/vendor/events/v1", basic("admin", "one more")))
}

func TestAnAddressGuessingManyAccountsIsRefusedAll(t *testing.T) {
	t.Parallel()
	r := startThrottled(t, smallLimits)
	spray := r.service.from("127.0.0.3")
	for i := 0; i < smallLimits.ClientBlockAfter; i++ {
		spray.do("GET", "/vendor/events/v1", basic(fmt.Sprint("user", i), "guess")).expectError(t, http.StatusUnauthorized, "incorrect_password")
	}
	expectRetryAfter(t, spray.do("GET", "/vendor/events/v1", r.creds[calendar.RoleSubscriber]))
	r.do("GET", "/vendor/events/v1", r.creds[calendar.RoleSubscriber]).expectStatus(t, http.StatusOK)
}

// Guesses at one account from many addresses refuse it to those addresses,
// not to an address that never failed on it (the owner's).
func TestAnAccountGuessedFromManyAddressesStaysOpenToItsOwner(t *testing.T) {
	t.Parallel()
	r := startThrottled(t, smallLimits)
	var guessers []*service
	for i := 0; i < smallLimits.SubjectBlockAfter; i++ {
		g := r.service.from(fmt.Sprintf("127.0.1.%d", i+1))
		g.do("GET", "/vendor/events/v1", basic("admin", "guess")).expectError(t, http.StatusUnauthorized, "incorrect_password")
		guessers = append(guessers, g)
	}
	expectRetryAfter(t, guessers[0].do("GET", "/vendor/events/v1", basic("admin", "again")))
	r.service.from("127.0.2.1").do("GET", "/vendor/admin/v1/users", asAdmin()).expectStatus(t, http.StatusOK)
}

func TestPostPasswordsAreThrottledLikeSignIns(t *testing.T) {
	t.Parallel()
	r := startThrottled(t, smallLimits)
	secret := r.event(map[string]any{"title": "Secret", "start_date": "2031-01-02 10:00:00", "end_date": "2031-01-02 11:00:00",
		"password": "sesame", "description": "hidden"})
	path := eventsPath + "/" + idOf(secret)
	for i := 0; i < smallLimits.BlockAfter; i++ {
		r.do("GET", path+"?password=guess"+strconv.Itoa(i)).expectError(t, http.StatusForbidden, "event-password-protected")
	}
	expectRetryAfter(t, r.do("GET", path+"?password=sesame"))
	list := r.do("GET", eventsPath+"?start_date=2031-01-01&end_date=2031-01-31&password=sesame").object(t)
	if e := list["events"].([]any)[0].(map[string]any); e["description"] != "" {
		t.Fatalf("a refused address unmasked the event through the list: %v", e)
	}
	elsewhere := r.service.from("127.0.0.2")
	if got := elsewhere.do("GET", path+"?password=sesame").object(t)["description"]; got != "<p>hidden</p>" {
		t.Fatalf("the right password from another address: %v", got)
	}
}

// protectedEvent makes an event only its password ("sesame") shows, and
// returns its path.
func protectedEvent(t *testing.T, s *service) string {
	t.Helper()
	secret := s.event(map[string]any{"title": "Secret", "start_date": "2031-01-02 10:00:00", "end_date": "2031-01-02 11:00:00",
		"password": "sesame", "description": "hidden"})
	return eventsPath + "/" + idOf(secret)
}

// A post's password is guessed at the post's rate, not at its guessers':
// guesses from a new address each time spend its budget, then every address
// is refused, a visitor with the right password too, until the next guess
// is due (a refusal that let the right one in would tell which was right).
func TestAPostPasswordIsGuessedAtThePostsRateFromAnyNumberOfAddresses(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.Throttle = postLimits }, func(*controllers.Config) {})
	path := protectedEvent(t, s)
	for i := 1; i <= postLimits.SharedBurst; i++ {
		s.from(fmt.Sprintf("127.0.4.%d", i)).do("GET", path+"?password=guess"+strconv.Itoa(i)).
			expectError(t, http.StatusForbidden, "event-password-protected")
	}
	visitor := s.from("127.0.4.200")
	expectRetryAfterWithin(t, visitor.do("GET", path+"?password=sesame"), postLimits.SharedEvery+time.Second)
	list := visitor.do("GET", eventsPath+"?start_date=2031-01-01&end_date=2031-01-31&password=sesame").object(t)
	if e := list["events"].([]any)[0].(map[string]any); e["description"] != "" {
		t.Fatalf("the list unmasked the event past the post's budget: %v", e)
	}
	if got := s.do("GET", path, asAdmin()).object(t)["description"]; got != "<p>hidden</p>" {
		t.Fatalf("its author, who needs no password, reads %v", got)
	}
}

// One address guessing a post spends its budget down to the reserve kept
// for addresses trying it for the first time: a visitor still gets in.
func TestOneAddressGuessingAPostDoesNotShutItToAVisitor(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.Throttle = postLimits }, func(*controllers.Config) {})
	path := protectedEvent(t, s)
	guesser := s.from("127.0.5.1")
	own := postLimits.SharedBurst - postLimits.SharedReserve // below BlockAfter: the post's budget refuses, not the address's
	for i := 1; i <= own; i++ {
		guesser.do("GET", path+"?password=guess"+strconv.Itoa(i)).expectError(t, http.StatusForbidden, "event-password-protected")
	}
	expectRetryAfterWithin(t, guesser.do("GET", path+"?password=guess"),
		time.Duration(postLimits.SharedReserve+1)*postLimits.SharedEvery+time.Second)
	if got := s.from("127.0.5.2").do("GET", path+"?password=sesame").object(t)["description"]; got != "<p>hidden</p>" {
		t.Fatalf("a visitor with the right password reads %v", got)
	}
}
