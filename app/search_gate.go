package app

import (
	"context"
	"math"
	"strconv"
	"sync"
	"time"

	"calendar/app/lru"
	"calendar/app/throttle"
)

// The turns of text searches. There is one slot per core; anonymous callers
// together hold at most all of them but one (anonymousSlots), so that however
// many anonymous clients search, signed-in callers find a slot. A freed
// slot goes to the waiting search whose searcher (an account, or an
// anonymous client's address, an IPv6 one's /64: searcherOf) has used the slots least lately:
// each search's time in its slot, plus a millisecond (many quick searches
// weigh too), counts against its searcher and halves every second. A visitor
// who searches now and then is so served next, ahead of clients that search
// without pause, whatever their number.

// searchDebtHalfLife is how fast a searcher's use of the slots is forgiven.
const searchDebtHalfLife = time.Second

// searchCostFloor is what every search counts at least.
const searchCostFloor = time.Millisecond

// maxSearchers bounds the searchers whose use is remembered; one forgotten
// counts as having used nothing.
const maxSearchers = 4096

type searchGate struct {
	mu        sync.Mutex
	free      int // slots free
	anonymous int // slots anonymous searches may still take
	waiting   []*searchTurn
	debts     *lru.Cache[string, searchDebt]
	now       func() time.Time
}

// searchDebt is a searcher's use of the slots, in seconds, at a time.
type searchDebt struct {
	seconds float64
	at      time.Time
}

// searchTurn is one search waiting for, or holding, a slot.
type searchTurn struct {
	who     searcher
	granted chan struct{} // closed when the slot is the search's
	held    bool
}

// anonymousSlots: all the slots but one, at least one.
func anonymousSlots(slots int) int { return max(1, slots-1) }

func newSearchGate(slots int) *searchGate {
	return &searchGate{free: slots, anonymous: anonymousSlots(slots), debts: lru.New[string, searchDebt](maxSearchers), now: time.Now}
}

// take waits for a slot for who until ctx ends, and returns the function
// that gives it back.
func (g *searchGate) take(ctx context.Context, who searcher) (release func(), err error) {
	turn := &searchTurn{who: who, granted: make(chan struct{})}
	g.mu.Lock()
	g.waiting = append(g.waiting, turn)
	g.dispatch()
	g.mu.Unlock()
	select {
	case <-turn.granted:
	case <-ctx.Done():
		g.mu.Lock()
		held := turn.held
		if !held {
			g.leave(turn)
		}
		g.mu.Unlock()
		if held { // given meanwhile: given back
			g.give(turn, 0)
		}
		return nil, ctx.Err()
	}
	began := g.now()
	return func() { g.give(turn, g.now().Sub(began)) }, nil
}

// give frees turn's slot, having held it for took.
func (g *searchGate) give(turn *searchTurn, took time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.free++
	if turn.who.anonymous {
		g.anonymous++
	}
	now := g.now()
	d := g.debtOf(turn.who.key, now)
	g.debts.Put(turn.who.key, searchDebt{seconds: d + (took + searchCostFloor).Seconds(), at: now})
	g.dispatch()
}

// dispatch gives the free slots to the waiting searches whose searchers
// owe least, the earliest first among equals; an anonymous one only while
// the anonymous share has room.
func (g *searchGate) dispatch() {
	now := g.now()
	for g.free > 0 {
		next, least := -1, math.Inf(1)
		for k, t := range g.waiting {
			if t.who.anonymous && g.anonymous == 0 {
				continue
			}
			if d := g.debtOf(t.who.key, now); d < least {
				next, least = k, d
			}
		}
		if next < 0 {
			return
		}
		turn := g.waiting[next]
		g.leave(turn)
		g.free--
		if turn.who.anonymous {
			g.anonymous--
		}
		turn.held = true
		close(turn.granted)
	}
}

func (g *searchGate) leave(turn *searchTurn) {
	for k, t := range g.waiting {
		if t == turn {
			g.waiting = append(g.waiting[:k], g.waiting[k+1:]...)
			return
		}
	}
}

// debtOf is what key owes at now, halved for every searchDebtHalfLife since
// it was last charged.
func (g *searchGate) debtOf(key string, now time.Time) float64 {
	d, ok := g.debts.Get(key)
	if !ok {
		return 0
	}
	return d.seconds * math.Exp2(-now.Sub(d.at).Seconds()/searchDebtHalfLife.Seconds())
}

// searcher is who a search counts against.
type searcher struct {
	key       string
	anonymous bool
}

// searcherOf is the searcher of a caller: a signed-in one by account, an
// anonymous one by address (the client's: Caller.Client), keyed as every
// bound on addresses keys it (an IPv6 one by its /64), so that a client
// that sends each search from another address of its network is still one
// searcher, not a new one who has used nothing.
func searcherOf(c Caller) searcher {
	if c.User != nil {
		return searcher{key: "user " + strconv.FormatInt(c.User.ID, 10)}
	}
	return searcher{key: "address " + throttle.AddressKey(c.Client), anonymous: true}
}

type searcherContextKey struct{}

// searchingAs is ctx carrying the caller its index searches count against.
func searchingAs(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, searcherContextKey{}, searcherOf(c))
}

// searcherIn is the searcher ctx carries; the service's own work (none
// given) counts as a signed-in searcher's.
func searcherIn(ctx context.Context) searcher {
	who, _ := ctx.Value(searcherContextKey{}).(searcher)
	return who
}
