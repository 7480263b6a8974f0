package main

import (
	"context"
	"fmt"
	"io"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
)

// verify compares the index with the store, with the service stopped (the
// embedded store refuses a second process): every stored post must have its
// entry, equal field by field, and the index no other post. It first
// applies the changes the index has not (a crash between a store write and
// its index write leaves some), as the next start would, and says how many:
// only what remains after that is a fault, named post by post, which a
// reindex mends.
func verify(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	cfg, err := loadConfig(args, getenv, out)
	if err != nil {
		return err
	}
	store, _, idx, err := openStoreAndIndex(ctx, cfg)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	defer idx.Close()
	if idx.Fresh {
		return fmt.Errorf("there was no index under %s: start the service or run reindex", cfg.DataDir)
	}
	if idx.Outdated { // its entries are of another shape than this release's
		return fmt.Errorf("the index under %s is of mapping version %d, this release builds %d: start the service (it builds the new one beside the old) or run reindex",
			cfg.DataDir, idx.Version, versionsOf(cfg).Mapping)
	}
	before := 0
	if _, err := verifyIndex(ctx, store, idx, func(p *calendar.Post, _ error) {
		if p != nil { // not the count of posts, which follows from them
			before++
		}
	}); err != nil {
		return err
	}
	if _, err := app.New(store, idx, app.Settings{SiteURL: cfg.SiteURL}).CatchUp(ctx); err != nil {
		return fmt.Errorf("applying the changes the index had not: %w", err)
	}
	differ, differPosts := 0, 0
	checked, err := verifyIndex(ctx, store, idx, func(p *calendar.Post, problem error) {
		differ++
		if p != nil {
			differPosts++
		}
		fmt.Fprintln(out, problem)
	})
	if err != nil {
		return err
	}
	if mended := before - differPosts; mended > 0 {
		fmt.Fprintf(out, "%d posts differed by changes the index had not applied yet (a crash between a store write and its index write); applied them, as the next start would\n", mended)
	}
	if differ > 0 {
		return fmt.Errorf("%d of %d posts differ between the store and the index: run reindex", differ, checked)
	}
	fmt.Fprintf(out, "the index holds the store's %d posts as they are\n", checked)
	return nil
}

// verifyIndex checks every stored post against its index entry, telling
// differ about each that differs, then the count of posts the index holds.
func verifyIndex(ctx context.Context, store calendar.Store, idx *index.Live, differ func(p *calendar.Post, problem error)) (int, error) {
	var after int64
	n := 0
	for {
		posts, err := store.Posts().Scan(ctx, after, 500)
		if err != nil {
			return n, err
		}
		if len(posts) == 0 {
			break
		}
		if err := app.PlaceEvents(ctx, store, posts); err != nil { // as the index places them
			return n, err
		}
		for _, p := range posts {
			if err := idx.VerifyPost(ctx, p); err != nil {
				differ(p, err)
			}
		}
		n += len(posts)
		after = posts[len(posts)-1].ID
	}
	indexed, err := idx.CountPosts(ctx)
	if err != nil {
		return n, err
	}
	if indexed != n {
		differ(nil, fmt.Errorf("the index holds %d posts, the store %d", indexed, n))
	}
	return n, nil
}
