package fetch

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/seed50c7eacc/robotstxt"
)

// ErrUnsupportedScheme is returned (wrapped) for a page whose scheme the
// Client cannot fetch a robots.txt file for: it speaks HTTP only, so an
// ftp:// page, whose robots.txt RFC 9309 places on the FTP server, gets this
// error rather than a made-up answer. It is robotstxt.ErrUnsupportedScheme,
// which RobotsURL returns for schemes with no robots.txt at all, so one
// errors.Is test covers both.
var ErrUnsupportedScheme = robotstxt.ErrUnsupportedScheme

// OutcomeStale is the Event.Outcome of a failed fetch that left a
// previous copy in use; the other outcomes are spelled as
// robotstxt.Outcome.String spells them ("rules", "allow all", "disallow
// all"), everywhere: events, logs and the robotstxt command's JSON.
const OutcomeStale = "stale"

// Errors of the store calls the Client gives up on, reported in a
// StoreError (see Client.Timeout and Flush).
var (
	// ErrStoreBudget: the store did not answer within what was left of
	// the Timeout a caller may wait on it in all.
	ErrStoreBudget = errors.New("the store did not answer within the Client's Timeout")
	// ErrStoreBusy: too many store calls were under way (the store is
	// stalled), so this one was not made; for a put, the copy was not
	// stored.
	ErrStoreBusy = errors.New("too many store calls under way")
)

// A StoreError is a Cache's Get or Put that failed. The Client treats it as
// a miss and reports it; it never becomes an answer.
type StoreError struct {
	Op        string // "get", "put", "lease", "renew", "release" or "delete" (Purge)
	RobotsURL string // the key of the entry
	Err       error  // the store's error
}

// Error says which operation failed, for which robots.txt URL, and why.
func (e *StoreError) Error() string {
	return "fetch: cache " + e.Op + " " + e.RobotsURL + ": " + e.Err.Error()
}

// Unwrap returns the store's error, for errors.Is and errors.As.
func (e *StoreError) Unwrap() error { return e.Err }

// An Event reports one fetch of a robots.txt file, one lookup answered
// from a store, or one store error, to Client.OnEvent and Client.Logger.
type Event struct {
	RobotsURL string // the robots.txt URL the event is about
	// Fetched is true when a request was made; false when the entry came
	// from the Cache (Cached) or only a store error is reported.
	Fetched bool
	Cached  bool // the entry came from the Cache (or another process's fetch)
	// Status is the HTTP status of the final response (0 when none).
	Status int
	// Outcome is what the entry now means for crawling: "rules",
	// "allow all", "disallow all" (robotstxt.Outcome.String), or
	// OutcomeStale ("stale") when a failed fetch left a previous copy in
	// use.
	Outcome  string
	Duration time.Duration // of the request, redirects and body included
	Err      error         // why the fetch failed, or the store error
}

// report sends an event to the hook and the logger.
func (c *Client) report(ctx context.Context, ev Event) {
	c.counters.count(ev)
	if c.OnEvent != nil {
		c.OnEvent(ev)
	}
	if c.Logger == nil {
		return
	}
	level := slog.LevelDebug
	if ev.Fetched {
		level = slog.LevelInfo
	}
	if ev.Err != nil {
		level = slog.LevelWarn
	}
	attrs := []slog.Attr{
		slog.String("url", ev.RobotsURL),
		slog.Bool("fetched", ev.Fetched),
		slog.Bool("cached", ev.Cached),
		slog.Int("status", ev.Status),
		slog.String("outcome", ev.Outcome),
		slog.Duration("duration", ev.Duration),
	}
	if ev.Err != nil {
		attrs = append(attrs, slog.String("error", ev.Err.Error()))
	}
	c.Logger.LogAttrs(ctx, level, "robots.txt", attrs...)
}
