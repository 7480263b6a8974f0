// Package app is the domain of the calendar service: its records, the rules
// that govern them (validation, dates, permissions, rendering) and the services
// that coordinate the Store and the Index it declares. It knows nothing of HTTP,
// MongoDB or bleve.
package app

import (
	"context"
	"fmt"
)

// App holds the services the HTTP layer calls.
type App struct {
	store Store
	index Index
	Users *Users
}

// New wires the services over a store and an index.
func New(store Store, index Index) *App {
	return &App{store: store, index: index, Users: NewUsers(store.Users())}
}

// Ready reports whether the store and the index answer.
func (a *App) Ready(ctx context.Context) error {
	if err := a.store.Ping(ctx); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := a.index.Ping(ctx); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}
