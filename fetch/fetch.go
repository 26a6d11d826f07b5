// Package fetch gets robots.txt files over HTTP and caches them the way
// Google's crawler does (RFC 9309 section 2.3 and Google's "How Google
// interprets the robots.txt specification"), so that a crawler only asks
// "may this agent fetch this URL?".
//
//	client := &fetch.Client{UserAgent: "ExampleBot/1.0 (+https://example.com/bot)"}
//	ok, err := client.Allowed(ctx, "ExampleBot", "https://example.com/page")
//
// The rules it follows:
//   - The robots.txt URL of a page is robotstxt.RobotsURL(page); files are
//     cached by that URL, so one copy serves every page and every agent of
//     the site.
//   - A 2xx response is parsed (its first 500 KiB); a 4xx other than 429
//     allows everything; at most 5 redirects are followed, after which the
//     result counts as a 404. Redirects to other hosts are followed too, and
//     the file reached governs the original site only: it is cached under
//     the original robots.txt URL, never under the target's (RFC 9309
//     section 2.3.1.2). The HTTPClient's own CheckRedirect, if any, is
//     applied to every hop as well; a redirect it refuses is a failed fetch.
//   - A copy is kept for 24 hours, or for the response's Cache-Control
//     max-age, within MinTTL and MaxTTL. Its ETag and Last-Modified are
//     kept, and it is revalidated with If-None-Match and If-Modified-Since:
//     a 304 renews its lifetime and keeps its body.
//   - A 5xx, a 429, a timeout or any network error is a failure. After a
//     failure the last copy keeps being used, however old; without one,
//     nothing is allowed, until failures have lasted 30 days, after which
//     everything is. Failed fetches are retried with exponential backoff
//     (RetryMin doubling up to RetryMax), or after the response's
//     Retry-After (within RetryMin and RetryMax), rather than on every
//     question.
//   - Only one fetch of a robots.txt URL is under way at a time in a
//     process: concurrent callers wait for it. Across processes sharing a
//     Cache that is a Leaser (such as the Redis store), only the holder of
//     the URL's lease fetches it.
//   - The parsed rules of each copy are kept in memory (bounded by
//     MemoEntries and MemoBytes): a fresh copy is answered without asking
//     the Cache, and a copy from a shared store is parsed once per process.
//
// The Client fetches over HTTP only: an ftp:// page gets an error wrapping
// ErrUnsupportedScheme.
package fetch

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/seed50c7eacc/robotstxt"
)

// Defaults of the Client's settings.
const (
	DefaultTTL      = 24 * time.Hour
	DefaultMinTTL   = time.Minute
	DefaultMaxTTL   = 7 * 24 * time.Hour
	DefaultRetryMin = time.Minute
	DefaultRetryMax = 24 * time.Hour
	DefaultTimeout  = 30 * time.Second
	// UnreachableLimit is how long failures may last before a site with no
	// cached copy is treated as having no robots.txt (Google's
	// documentation: a robots.txt unreachable for more than 30 days).
	UnreachableLimit = 30 * 24 * time.Hour
	// MaxRedirects is how many redirects are followed (RFC 9309 2.3.1.2).
	MaxRedirects = 5
	// DefaultUserAgent is sent when Client.UserAgent is empty.
	DefaultUserAgent = "robotstxt-fetch (+https://github.com/seed50c7eacc/robotstxt)"
	// DefaultMemoEntries and DefaultMemoBytes bound the parsed memo.
	DefaultMemoEntries = 10000
	DefaultMemoBytes   = 256 << 20
	// defaultCacheEntries and defaultCacheBytes bound the default LRU.
	defaultCacheEntries = 10000
	defaultCacheBytes   = 256 << 20
	// leasePoll is how often a process waiting on another's lease looks
	// for the entry.
	leasePoll = 20 * time.Millisecond
)

// A Client fetches and caches robots.txt files. Its zero value is ready to
// use; set fields before its first use and not after. It is safe for
// concurrent use.
type Client struct {
	// HTTPClient makes the requests; nil means http.DefaultClient. The
	// Client uses a copy of it whose CheckRedirect enforces MaxRedirects
	// and then calls HTTPClient.CheckRedirect, if set.
	HTTPClient *http.Client
	// UserAgent is the User-Agent header sent; empty means DefaultUserAgent.
	UserAgent string
	// Timeout bounds each fetch, redirects and body included; zero means
	// DefaultTimeout.
	Timeout time.Duration
	// Cache stores fetched files; nil means an LRU of 10,000 entries and
	// 256 MiB.
	Cache Cache
	// MemoEntries and MemoBytes bound the parsed rules kept in memory
	// (bytes estimated from the bodies); zero means the default.
	MemoEntries, MemoBytes int
	// LeaseWait bounds how long a process without a copy waits for the
	// process holding a URL's lease (see Leaser) before fetching itself;
	// zero means Timeout.
	LeaseWait time.Duration
	// TTL is how long a copy is kept when the response sets no max-age;
	// MinTTL and MaxTTL bound a max-age. Zero means the default.
	TTL, MinTTL, MaxTTL time.Duration
	// RetryMin and RetryMax space out retries after failures. Zero means
	// the default.
	RetryMin, RetryMax time.Duration
	// Now tells the time; nil means time.Now. Tests set a fake clock.
	Now func() time.Time
	// Logger, if set, logs each fetch (Info), each entry read from the
	// Cache (Debug) and each failure or store error (Warn).
	Logger *slog.Logger
	// OnEvent, if set, is called with the same events as Logger, from the
	// goroutine doing the fetch; it must be quick and safe for concurrent
	// use.
	OnEvent func(Event)

	initOnce sync.Once
	http     *http.Client
	cache    Cache
	memo     *memo

	mu       sync.Mutex
	inflight map[string]*call
}

// A call is one resolution of a robots.txt URL under way, which concurrent
// callers share.
type call struct {
	done    chan struct{}
	entry   *Entry
	robots  *robotstxt.Robots
	waiters int // callers waiting besides the first (for tests)
}

func (c *Client) init() {
	c.initOnce.Do(func() {
		base := c.HTTPClient
		if base == nil {
			base = http.DefaultClient
		}
		hc := *base
		callerCheck := base.CheckRedirect
		hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if len(via) > MaxRedirects {
				return http.ErrUseLastResponse // the 3xx then counts as a 404
			}
			if callerCheck != nil {
				return callerCheck(req, via)
			}
			return nil
		}
		c.http = &hc
		c.cache = c.Cache
		if c.cache == nil {
			c.cache = NewLRU(defaultCacheEntries, defaultCacheBytes)
		}
		entries, bytes := c.MemoEntries, c.MemoBytes
		if entries <= 0 {
			entries = DefaultMemoEntries
		}
		if bytes <= 0 {
			bytes = DefaultMemoBytes
		}
		c.memo = newMemo(entries, bytes)
	})
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Allowed reports whether agent may fetch pageURL, fetching the site's
// robots.txt if no fresh copy is cached. The error is non-nil only when no
// answer can be given: pageURL is not a valid http or https URL, or ctx
// ended first.
func (c *Client) Allowed(ctx context.Context, agent, pageURL string) (bool, error) {
	r, err := c.Robots(ctx, pageURL)
	if err != nil {
		return false, err
	}
	return r.Allowed(agent, pageURL), nil
}

// Robots returns the rules that govern pageURL: the parsed robots.txt of
// its site, or a blanket answer (see robotstxt.Outcome) when the file is
// missing or unreachable. The error is non-nil only when no answer can be
// given: pageURL is not a valid http or https URL (an ftp:// page gives
// ErrUnsupportedScheme), or ctx ended first.
func (c *Client) Robots(ctx context.Context, pageURL string) (*robotstxt.Robots, error) {
	key, err := robotsKey(pageURL)
	if err != nil {
		return nil, err
	}
	e, r, err := c.resolve(ctx, key)
	if err != nil {
		return nil, err
	}
	return c.rulesOf(e, r), nil
}

// robotsKey returns the robots.txt URL the Client fetches for pageURL.
func robotsKey(pageURL string) (string, error) {
	key, err := robotstxt.RobotsURL(pageURL)
	if err != nil {
		return "", err
	}
	if !isHTTP(key) {
		return "", fmt.Errorf("%w: %q (robots.txt is fetched over HTTP only)", ErrUnsupportedScheme, pageURL)
	}
	return key, nil
}

// isHTTP reports whether a URL as RobotsURL writes it (scheme lower-cased)
// is one the Client can fetch.
func isHTTP(robotsURL string) bool {
	return strings.HasPrefix(robotsURL, "http://") || strings.HasPrefix(robotsURL, "https://")
}

// Entry returns the cache entry of a robots.txt URL (as RobotsURL returns
// it), fetching the file when the cached entry is missing or expired.
func (c *Client) Entry(ctx context.Context, robotsURL string) (*Entry, error) {
	if !isHTTP(robotsURL) {
		return nil, fmt.Errorf("%w: %q", ErrUnsupportedScheme, robotsURL)
	}
	e, _, err := c.resolve(ctx, robotsURL)
	return e, err
}

// resolve returns the current entry of a robots.txt URL and its parsed
// rules: from the memo when fresh, else through one shared call.
func (c *Client) resolve(ctx context.Context, key string) (*Entry, *robotstxt.Robots, error) {
	c.init()
	if e, r := c.memo.get(key); c.fresh(e) {
		return e, r, nil
	}
	c.mu.Lock()
	cl, ok := c.inflight[key]
	if ok {
		cl.waiters++
	} else {
		cl = &call{done: make(chan struct{})}
		if c.inflight == nil {
			c.inflight = make(map[string]*call)
		}
		c.inflight[key] = cl
		// The call serves every caller, so no caller's context may cut it
		// short: the Client's timeout bounds it.
		go c.run(context.WithoutCancel(ctx), key, cl)
	}
	c.mu.Unlock()
	select {
	case <-cl.done:
		return cl.entry, cl.robots, nil
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
}

// run resolves key for a call and releases the callers. The memo is
// updated before the call leaves c.inflight, and run looks at it first, so
// a caller that missed the memo just before the previous call ended finds
// the entry here instead of fetching again.
func (c *Client) run(ctx context.Context, key string, cl *call) {
	cl.entry, cl.robots = c.lookupOrFetch(ctx, key)
	c.mu.Lock()
	delete(c.inflight, key)
	c.mu.Unlock()
	close(cl.done)
}

func (c *Client) fresh(e *Entry) bool { return e != nil && c.now().Before(e.Expires) }

func (c *Client) lookupOrFetch(ctx context.Context, key string) (*Entry, *robotstxt.Robots) {
	held, r := c.memo.get(key)
	if c.fresh(held) {
		return held, r
	}
	stored := c.get(ctx, key)
	if c.fresh(stored) {
		return stored, c.memo.put(key, stored)
	}
	prev := stored
	if prev == nil || !prev.Copy && held != nil && held.Copy {
		prev = held // the store lost the copy or failed: the one in memory still counts
	}
	if leaser, ok := c.cache.(Leaser); ok {
		ttl := orDefault(c.Timeout, DefaultTimeout) + 5*time.Second
		sctx, cancel := c.storeContext(ctx)
		granted, release, err := leaser.TryLease(sctx, key, ttl)
		cancel()
		switch {
		case err != nil:
			c.report(ctx, Event{RobotsURL: key, Err: &StoreError{"lease", key, err}})
		case granted:
			defer release()
			// Another process may have stored its fetch between our Get
			// and the lease.
			if e := c.get(ctx, key); c.fresh(e) {
				return e, c.memo.put(key, e)
			}
		case prev != nil && prev.Copy:
			// Another process is fetching: serve the copy we have.
			return prev, c.memo.put(key, prev)
		default:
			if e := c.awaitLease(ctx, key); e != nil {
				return e, c.memo.put(key, e)
			}
		}
	}
	e := c.fetch(ctx, key, prev)
	sctx, cancel := c.storeContext(ctx)
	defer cancel()
	if err := c.cache.Put(sctx, key, e); err != nil {
		c.report(ctx, Event{RobotsURL: key, Err: &StoreError{"put", key, err}})
	}
	return e, c.memo.put(key, e)
}

// storeContext bounds one store call by the Client's Timeout: the calls
// run for every waiting caller, under no caller's deadline.
func (c *Client) storeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, orDefault(c.Timeout, DefaultTimeout))
}

// get reads key from the Cache; a store error is reported and is a miss.
func (c *Client) get(ctx context.Context, key string) *Entry {
	sctx, cancel := c.storeContext(ctx)
	e, err := c.cache.Get(sctx, key)
	cancel()
	if err != nil {
		c.report(ctx, Event{RobotsURL: key, Err: &StoreError{"get", key, err}})
		return nil
	}
	if e != nil && (c.OnEvent != nil || c.Logger != nil) {
		c.report(ctx, Event{RobotsURL: key, Cached: true, Status: e.Status, Outcome: c.outcomeName(e)})
	}
	return e
}

// awaitLease waits, at most LeaseWait, for the process holding key's lease
// to store a fresh entry.
func (c *Client) awaitLease(ctx context.Context, key string) *Entry {
	deadline := time.NewTimer(orDefault(c.LeaseWait, orDefault(c.Timeout, DefaultTimeout)))
	defer deadline.Stop()
	tick := time.NewTicker(leasePoll)
	defer tick.Stop()
	for {
		select {
		case <-deadline.C:
			return nil
		case <-tick.C:
			if e := c.get(ctx, key); c.fresh(e) {
				return e
			}
		}
	}
}

// Blanket answers, built once; a *Robots is immutable.
var (
	allowAll    = robotstxt.FromStatus(http.StatusNotFound, nil)
	disallowAll = robotstxt.FromStatus(http.StatusServiceUnavailable, nil)
)

// rulesOf returns what an entry means now, given its parsed copy.
func (c *Client) rulesOf(e *Entry, parsed *robotstxt.Robots) *robotstxt.Robots {
	switch {
	case e.Copy && parsed != nil:
		return parsed
	case e.Copy:
		return robotstxt.FromStatus(e.Status, e.Body)
	case c.unreachableTooLong(e):
		return allowAll // unreachable for 30 days, no copy
	default:
		return disallowAll
	}
}

// outcomeName names what an entry means now, for events, without parsing.
func (c *Client) outcomeName(e *Entry) string {
	switch {
	case e.Copy && e.Failures > 0:
		return "stale"
	case e.Copy && e.Status >= 200 && e.Status <= 299:
		return "rules"
	case e.Copy, c.unreachableTooLong(e):
		return "allow-all"
	default:
		return "disallow-all"
	}
}

// unreachableTooLong reports whether an entry's failures have lasted past
// UnreachableLimit, after which a site without a copy allows everything.
func (c *Client) unreachableTooLong(e *Entry) bool {
	return !e.FailingSince.IsZero() && c.now().Sub(e.FailingSince) > UnreachableLimit
}
