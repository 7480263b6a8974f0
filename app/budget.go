package app

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"calendar/app/calendar"
)

// DefaultSearchBudget is how long one index search may take before its
// request is answered with ErrSearchTimeout.
const DefaultSearchBudget = 5 * time.Second

// budgetedIndex gives every search of the index a time budget, so that a
// request always gets an answer, in the error shape when the budget runs
// out, and is never held for as long as a search takes. Bleve stops a search
// between matches once its context ends, but not while it expands a query's
// words over its dictionaries; such a search goes on in the background after
// its request was answered. Searches of text (the costly ones) take one of a
// slot per core while they run, background included, so that many of them at
// once wait for each other instead of taking every core from the rest; the
// slots are given in turns (searchGate: anonymous callers share all but one,
// and who searched least lately goes first).
type budgetedIndex struct {
	calendar.Index
	budget time.Duration
	gate   *searchGate
}

func newBudgetedIndex(idx calendar.Index, budget time.Duration) *budgetedIndex {
	return newBudgetedIndexOf(idx, budget, runtime.GOMAXPROCS(0))
}

func newBudgetedIndexOf(idx calendar.Index, budget time.Duration, slots int) *budgetedIndex {
	if budget <= 0 {
		budget = DefaultSearchBudget
	}
	return &budgetedIndex{Index: idx, budget: budget, gate: newSearchGate(slots)}
}

func (b *budgetedIndex) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	heavy := len(q.Words) > 0 || len(q.Fragments) > 0 || q.Relevance != ""
	return withinBudget(ctx, b, heavy, func(ctx context.Context) (calendar.PostPage, error) { return b.Index.SearchPosts(ctx, q) })
}

func (b *budgetedIndex) SearchTerms(ctx context.Context, q calendar.TermQuery) ([]int64, error) {
	return withinBudget(ctx, b, q.Search != "", func(ctx context.Context) ([]int64, error) { return b.Index.SearchTerms(ctx, q) })
}

func (b *budgetedIndex) CountLinks(ctx context.Context, link calendar.Link, among calendar.PostQuery) (map[int64]int, error) {
	return withinBudget(ctx, b, false, func(ctx context.Context) (map[int64]int, error) { return b.Index.CountLinks(ctx, link, among) })
}

func withinBudget[T any](ctx context.Context, b *budgetedIndex, heavy bool, search func(context.Context) (T, error)) (T, error) {
	var zero T
	ctx, cancel := context.WithTimeout(ctx, b.budget)
	defer cancel()        // a search still running then sees its context end
	if ctx.Err() != nil { // the request went away before
		return zero, budgetError(ctx)
	}
	release := func() {}
	if heavy {
		var err error
		if release, err = b.gate.take(ctx, searcherIn(ctx)); err != nil {
			return zero, budgetError(ctx)
		}
	}
	type answer struct {
		value T
		err   error
	}
	done := make(chan answer, 1)
	go func() {
		defer release()
		v, err := search(ctx)
		done <- answer{v, err}
	}()
	select {
	case a := <-done:
		if a.err != nil && ctx.Err() != nil {
			return zero, budgetError(ctx)
		}
		return a.value, a.err
	case <-ctx.Done():
		return zero, budgetError(ctx)
	}
}

// budgetError is the caller's own cancellation as it is, or ErrSearchTimeout.
func budgetError(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return ErrSearchTimeout(context.Cause(ctx))
	}
	return ctx.Err()
}

// ErrSearchTimeout is the answer to a search that ran out of its budget. It
// unwraps to context.DeadlineExceeded.
func ErrSearchTimeout(cause error) *calendar.Error {
	return &calendar.Error{Kind: calendar.KindUnavailable, Code: "search_timeout", Cause: fmt.Errorf("index search: %w", cause),
		Message:    "The search took longer than the service allows; narrow it down (fewer or longer words) or try again shortly.",
		RetryAfter: time.Second}
}
