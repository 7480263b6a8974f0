package app

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sync/semaphore"

	"calendar/app/calendar"
	"calendar/app/imaging"
)

// What uploads may take of the machine, process-wide: how many bodies are
// read or held at once, how much memory decoding takes at once (known from
// each image's header before it is decoded), a slot of heavy work (one
// core) per decode, and how long one decode may run. An upload waits for
// room (UploadWait, then 503), and one that could never fit is refused
// (400).

// Defaults of the upload budget (Settings.UploadMemory, UploadsInFlight,
// UploadWait, DecodeTime).
const (
	DefaultUploadMemory    = 384 << 20
	DefaultUploadsInFlight = 4
	DefaultUploadWait      = 30 * time.Second
	DefaultDecodeTime      = 10 * time.Second
)

// uploadBudget is shared by every upload of the process.
type uploadBudget struct {
	memory     *semaphore.Weighted
	memorySize int64
	receiving  chan struct{}
	wait       time.Duration
	decode     time.Duration
}

func newUploadBudget(s Settings) *uploadBudget {
	return &uploadBudget{memory: semaphore.NewWeighted(s.UploadMemory), memorySize: s.UploadMemory,
		receiving: make(chan struct{}, s.UploadsInFlight), wait: s.UploadWait, decode: s.DecodeTime}
}

// errUploadBusy answers an upload that waited for room in vain.
func errUploadBusy(wait time.Duration) *calendar.Error {
	e := calendar.NewError(calendar.KindUnavailable, "rest_upload_busy", "The service is processing as many uploads as it can; try again shortly.")
	e.RetryAfter = wait
	return e
}

// Receive is called before an upload's body is read: it checks that the
// caller may upload at all, then waits for one of the uploads in flight.
// The returned release ends the upload's hold; it is nil with an error.
func (m *Media) Receive(ctx context.Context, caller Caller) (release func(), err error) {
	if !caller.Can(calendar.CapUploadFiles) {
		return nil, errCannotUpload(caller.User)
	}
	b := m.budget
	wait, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	select {
	case b.receiving <- struct{}{}:
		return func() { <-b.receiving }, nil
	case <-wait.Done():
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, errUploadBusy(b.wait)
	}
}

// process decodes an upload within the budget: refused when its decoding
// needs more memory than the whole budget or more time than DecodeTime,
// after waiting for its memory and a decoder otherwise.
func (m *Media) process(ctx context.Context, data []byte) (*imaging.Result, error) {
	b := m.budget
	cost, err := imaging.Cost(data, imaging.WordPressSizes)
	if err != nil {
		return nil, errNotAnImage(err)
	}
	if cost > b.memorySize {
		return nil, calendar.NewError(calendar.KindInvalid, "rest_upload_image_too_large",
			"The image needs "+itoa(cost>>20)+" MB to process; the service gives an image at most "+itoa(b.memorySize>>20)+" MB.").
			With("needs_bytes", cost).With("max_bytes", b.memorySize)
	}
	wait, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	if err := b.memory.Acquire(wait, cost); err != nil {
		return nil, errUploadBusy(b.wait)
	}
	defer b.memory.Release(cost)
	release, err := m.takeHeavy(wait) // a core, not all of them
	if err != nil {
		return nil, errUploadBusy(b.wait)
	}
	defer release()
	img, err := imaging.Process(data, imaging.Limits{MaxPixels: m.settings.MaxPixels, Deadline: time.Now().Add(b.decode), Cores: 1},
		imaging.WordPressSizes)
	switch {
	case errors.Is(err, imaging.ErrTooManyPixels):
		return nil, calendar.NewError(calendar.KindInvalid, "rest_upload_image_too_large",
			"The image has more than "+itoa(m.settings.MaxPixels)+" pixels.")
	case errors.Is(err, imaging.ErrTooSlow):
		return nil, calendar.NewError(calendar.KindInvalid, "rest_upload_image_too_complex",
			"The image takes longer than "+b.decode.String()+" to decode.")
	case err != nil:
		return nil, errNotAnImage(err)
	}
	return img, nil
}

func errNotAnImage(cause error) *calendar.Error {
	e := calendar.NewError(calendar.KindInvalid, "rest_upload_invalid_type", "Sorry, you are not allowed to upload this file type (JPEG, PNG, GIF and WebP images only).")
	e.Cause = cause
	return e
}
