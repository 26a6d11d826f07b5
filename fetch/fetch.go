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
//   - A 2xx response is parsed (its first 500 KiB, once its
//     Content-Encoding, gzip or deflate, is undone: a server may send one
//     unasked; a coding the Client cannot decode is a failed fetch, never
//     a file without rules); a 4xx other than 429
//     allows everything; at most 5 redirects are followed, after which the
//     result counts as a 404. Redirects to other hosts are followed too, and
//     the file reached governs the original site only: it is cached under
//     the original robots.txt URL, never under the target's (RFC 9309
//     section 2.3.1.2). The HTTPClient's own CheckRedirect, if any, is
//     applied to every hop as well; a redirect it refuses is a failed fetch.
//     Client.Redirects chooses another policy (see RedirectPolicy).
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
//     the URL's lease fetches it. The lease is short (LeaseTTL) and renewed
//     while the fetch runs, so a holder that dies is replaced by one of the
//     waiting processes as soon as its lease lapses.
//   - The store costs a caller at most Timeout in all: its reads and its
//     lease share one budget, and a fetched copy is answered before it is
//     stored, the storing going on in the background (at most 1,024 copies
//     at once; beyond, a copy is not stored and an Event says so). Flush
//     waits for the copies being stored.
//   - The parsed rules of each copy are kept in memory (bounded by
//     MemoEntries and MemoBytes): a fresh copy is answered without asking
//     the Cache, and a copy from a shared store is parsed once per process.
//
// The Client fetches over HTTP only: an ftp:// page gets an error wrapping
// ErrUnsupportedScheme.
//
// A Transport, an http.RoundTripper, puts a Client in front of a
// crawler's own requests, and guarantees that a request robots.txt
// disallows is never sent: each request and each redirect hop is checked
// under every reading of its path that common servers apply (dot segments
// removed, slashes merged, %xx decoded), and is then sent as written; only
// its Client's robots.txt fetches, and a plain /robots.txt, pass
// unchecked. It cannot see through a server that maps two different paths
// to one resource by rules of its own (a rewrite, a case-insensitive file
// system); the documentation of [Transport] lists the readings checked
// and these limits.
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
	// DefaultLeaseTTL is how long a lease lasts unless renewed; its holder
	// renews it every third of it while it fetches, so a holder that dies
	// is replaced at most this long after its last renewal.
	DefaultLeaseTTL = 2 * time.Second
	// leasePoll is how often a process waiting on another's lease looks
	// for the entry, and for the lease having lapsed.
	leasePoll = 50 * time.Millisecond
	// maxStoreCalls bounds the store calls under way that a caller waits
	// on: a store that does not honour its context (a stalled server
	// behind a client that ignores deadlines) may keep each one's
	// goroutine, and beyond this many a call fails at once instead.
	maxStoreCalls = 4096
	// maxPendingPuts bounds the copies being stored in the background:
	// beyond, a copy is not stored, and an Event reports it.
	maxPendingPuts = 1024
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
	// Timeout bounds each fetch, redirects and body included, and, in
	// all, the store calls (reads and the lease) a caller waits on before
	// it; zero means DefaultTimeout.
	Timeout time.Duration
	// Cache stores fetched files; nil means an LRU of 10,000 entries and
	// 256 MiB.
	Cache Cache
	// MemoEntries and MemoBytes bound the parsed rules kept in memory
	// (bytes estimated from the bodies); zero means the default.
	MemoEntries, MemoBytes int
	// LeaseWait bounds how long a process without a copy waits for the
	// process holding a URL's lease (see Leaser) before fetching itself;
	// zero means Timeout plus LeaseTTL (the holder's fetch and its
	// storing).
	LeaseWait time.Duration
	// LeaseTTL is how long a lease lasts unless renewed; zero means
	// DefaultLeaseTTL. The holder renews it every third of LeaseTTL while
	// it fetches; waiting processes take it over as soon as it lapses.
	LeaseTTL time.Duration
	// Redirects is the policy for the redirects of a robots.txt fetch; the
	// zero value follows Google (see RedirectPolicy).
	Redirects RedirectPolicy
	// TTL is how long a copy is kept when the response sets no max-age;
	// MinTTL and MaxTTL bound a max-age. Zero means the default.
	TTL, MinTTL, MaxTTL time.Duration
	// RetryMin and RetryMax space out retries after failures. Zero means
	// the default.
	RetryMin, RetryMax time.Duration
	// Now tells the time; nil means time.Now. Tests set a fake clock.
	Now func() time.Time
	// Sleep, if set, waits for d on the clock of Now, or until ctx ends;
	// the lease's renewals and polls and the store's time budget then
	// run on that clock, as the Transport's pacing does on its Now and
	// Sleep. Nil means a timer: those waits are timed by the wall clock,
	// whatever Now says.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger, if set, logs each fetch (Info), each entry read from the
	// Cache (Debug) and each failure or store error (Warn).
	Logger *slog.Logger
	// OnEvent, if set, is called with the same events as Logger, from the
	// goroutine doing the fetch; it must be quick and safe for concurrent
	// use.
	OnEvent func(Event)

	initOnce   sync.Once
	http       *http.Client
	cache      Cache
	memo       *memo
	storeCalls chan struct{} // a slot per store call under way (maxStoreCalls)
	putSlots   chan struct{} // a slot per copy being stored (maxPendingPuts)
	puts       pending
	counters   counters

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
		hc.CheckRedirect = c.Redirects.checkRedirect(base.CheckRedirect)
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
		c.storeCalls = make(chan struct{}, maxStoreCalls)
		if c.putSlots == nil { // tests may set a smaller bound
			c.putSlots = make(chan struct{}, maxPendingPuts)
		}
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
// it), fetching the file when the cached entry is missing or expired. The
// entry is the one the cache and the Client's parsed rules hold, which
// read its Body: it must not be modified.
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
		c.counters.memoryHits.Add(1)
		return e, r, nil
	}
	c.mu.Lock()
	cl, ok := c.inflight[key]
	if ok {
		cl.waiters++
		c.counters.joined.Add(1)
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

// run resolves key for a call, releases the callers, and then stores what
// was fetched. The memo is updated before the call leaves c.inflight, and
// run looks at it first, so a caller that missed the memo just before the
// previous call ended finds the entry here instead of fetching again.
func (c *Client) run(ctx context.Context, key string, cl *call) {
	r := c.lookupOrFetch(ctx, key)
	cl.entry, cl.robots = r.entry, r.robots
	c.mu.Lock()
	delete(c.inflight, key)
	c.mu.Unlock()
	if r.store != nil {
		c.puts.add() // before the callers go, so that a Flush after them waits
		defer c.puts.done()
	}
	close(cl.done)
	if r.store != nil {
		r.store()
	}
}

func (c *Client) fresh(e *Entry) bool { return e != nil && c.now().Before(e.Expires) }

// A resolution is the entry of a robots.txt URL and its parsed rules, and
// what is left to do once the callers have them: store a fetched copy and
// give the lease back (nil when nothing is).
type resolution struct {
	entry  *Entry
	robots *robotstxt.Robots
	store  func()
}

func (c *Client) lookupOrFetch(ctx context.Context, key string) resolution {
	held, r := c.memo.get(key)
	if c.fresh(held) {
		return resolution{entry: held, robots: r}
	}
	// Every store call a caller waits on (reads, leases) draws on one
	// budget of Timeout.
	b := &budget{left: orDefault(c.Timeout, DefaultTimeout)}
	stored := c.get(ctx, b, key)
	if c.fresh(stored) {
		c.counters.storeHits.Add(1)
		return c.found(key, stored)
	}
	c.counters.storeMisses.Add(1)
	prev := newer(held, stored)
	var lease Lease
	if leaser, ok := c.cache.(Leaser); ok {
		var err error
		lease, err = c.tryLease(ctx, b, leaser, key)
		switch {
		case err != nil:
			// No lease to be had: fetch without one.
		case lease != nil:
			// Another process may have stored its fetch between our Get
			// and the lease.
			if e := c.get(ctx, b, key); c.fresh(e) {
				c.release(ctx, key, lease)
				return c.found(key, e)
			}
		case prev != nil && prev.Copy:
			// Another process is fetching: serve the copy we have.
			c.counters.staleServed.Add(1)
			return c.found(key, prev)
		default:
			c.counters.leaseWaits.Add(1)
			e, l := c.awaitLease(ctx, b, leaser, key)
			if e != nil {
				return c.found(key, e)
			}
			lease = l
		}
	}
	var stopRenewing func()
	if lease != nil {
		stopRenewing = c.renew(ctx, key, lease)
	}
	e, err := c.fetch(ctx, key, prev)
	res := resolution{entry: e, robots: c.memo.put(key, e, err)}
	res.store = func() {
		c.storeInBackground(ctx, key, e, stopRenewing, lease)
	}
	return res
}

// newer returns which of the entry held in memory and the one read from
// the store the next fetch follows on from, when neither is fresh. A copy
// beats no copy (the store lost it, or failed); else the later Expires
// wins, since a fetch is made only once the entry before it has expired:
// the store may still hold an older entry while the put of this
// process's last fetch is on its way, and following on from it would
// restart the failures' backoff.
func newer(held, stored *Entry) *Entry {
	switch {
	case held == nil:
		return stored
	case stored == nil:
		return held
	case held.Copy != stored.Copy:
		if held.Copy {
			return held
		}
		return stored
	case held.Expires.After(stored.Expires):
		return held
	}
	return stored
}

// found is the resolution of an entry read from the store or held: the
// memo keeps it, and there is nothing to store.
func (c *Client) found(key string, e *Entry) resolution {
	return resolution{entry: e, robots: c.memo.put(key, e, nil)}
}

// storeInBackground stores a fetched entry, after the callers have their
// answer, and then stops renewing the lease (if any) and gives it back:
// a process waiting on the lease finds the entry once the lease is gone.
// At most maxPendingPuts copies are being stored at once; beyond, the
// copy is not stored (the lease lapses by itself) and an event says so.
func (c *Client) storeInBackground(ctx context.Context, key string, e *Entry, stopRenewing func(), lease Lease) {
	if stopRenewing != nil {
		defer stopRenewing()
	}
	select {
	case c.putSlots <- struct{}{}:
	default:
		c.report(ctx, Event{RobotsURL: key, Err: &StoreError{"put", key, ErrStoreBusy}})
		return
	}
	defer func() { <-c.putSlots }()
	sctx, cancel := c.withTimeout(ctx, orDefault(c.Timeout, DefaultTimeout))
	defer cancel()
	if err := c.cache.Put(sctx, key, e); err != nil {
		c.report(ctx, Event{RobotsURL: key, Err: &StoreError{"put", key, err}})
	}
	if lease != nil {
		stopRenewing() // before the release, or a renewal could follow it
		if err := lease.Release(sctx); err != nil {
			c.report(ctx, Event{RobotsURL: key, Err: &StoreError{"release", key, err}})
		}
	}
}

// release gives a lease back, in the background: no caller waits on it.
// It takes one of the slots of the background puts, and when none is free
// it leaves the lease to lapse.
func (c *Client) release(ctx context.Context, key string, lease Lease) {
	select {
	case c.putSlots <- struct{}{}:
	default:
		return
	}
	go func() {
		defer func() { <-c.putSlots }()
		sctx, cancel := c.withTimeout(ctx, orDefault(c.Timeout, DefaultTimeout))
		defer cancel()
		if err := lease.Release(sctx); err != nil {
			c.report(ctx, Event{RobotsURL: key, Err: &StoreError{"release", key, err}})
		}
	}()
}

// renew renews a lease every third of LeaseTTL until the returned
// function is called, so that the lease outlives a fetch of any length
// but lapses soon after its holder dies.
func (c *Client) renew(ctx context.Context, key string, lease Lease) (stop func()) {
	ttl := orDefault(c.LeaseTTL, DefaultLeaseTTL)
	waiting, stopWaiting := context.WithCancel(context.Background())
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		// A renewal may take until the lease would lapse: a slow store
		// costs nothing as long as one renewal arrives in time.
		lapses := c.waitNow().Add(ttl)
		for c.sleep(waiting, ttl/3) == nil {
			sent := c.waitNow()
			sctx, cancel := c.withTimeout(ctx, lapses.Sub(sent))
			err := lease.Renew(sctx, ttl)
			cancel()
			if err != nil {
				c.report(ctx, Event{RobotsURL: key, Err: &StoreError{"renew", key, err}})
				continue
			}
			lapses = sent.Add(ttl)
		}
	}()
	// stop waits for a renewal under way, so that none follows the
	// release; a renewal ends by the time the lease would lapse (or, with
	// a store that ignores its context, at most one TTL later is waited).
	var once sync.Once
	return func() {
		once.Do(func() {
			stopWaiting()
			timeout, stopTimeout := c.after(ttl)
			defer stopTimeout()
			select {
			case <-finished:
			case <-timeout:
			}
		})
	}
}

// Flush waits until the copies being stored in the background have been
// stored (or have failed to be), or until ctx ends. A crawler calls it
// before it exits, so that its last fetches reach a shared store.
func (c *Client) Flush(ctx context.Context) error {
	c.init()
	return c.puts.wait(ctx)
}

// A budget is what is left of the time a caller may wait on the store.
type budget struct{ left time.Duration }

// storeDo runs one store call within what is left of the budget, and
// deducts the time it took. The call runs in a goroutine of its own, so
// that a store that ignores its context (a stalled server behind a client
// without deadlines) still costs the caller no more than the budget; at
// most maxStoreCalls such calls are under way at once.
func (c *Client) storeDo(ctx context.Context, b *budget, op func(context.Context) error) error {
	if b.left <= 0 {
		return ErrStoreBudget
	}
	select {
	case c.storeCalls <- struct{}{}:
	default:
		return ErrStoreBusy
	}
	start := c.waitNow()
	sctx, cancel := c.withTimeout(ctx, b.left)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() { <-c.storeCalls }()
		done <- op(sctx)
	}()
	var err error
	select {
	case err = <-done:
	case <-sctx.Done():
		err = fmt.Errorf("%w: %w", ErrStoreBudget, context.Cause(sctx))
	}
	b.left -= c.waitNow().Sub(start)
	return err
}

// get reads key from the Cache within the budget; a store error is
// reported and is a miss.
func (c *Client) get(ctx context.Context, b *budget, key string) *Entry {
	var e *Entry
	err := c.storeDo(ctx, b, func(sctx context.Context) error {
		var err error
		e, err = c.cache.Get(sctx, key)
		return err
	})
	if err != nil {
		c.report(ctx, Event{RobotsURL: key, Err: &StoreError{"get", key, err}})
		return nil
	}
	if e != nil && (c.OnEvent != nil || c.Logger != nil) {
		c.report(ctx, Event{RobotsURL: key, Cached: true, Status: e.Status, Outcome: c.outcomeName(e)})
	}
	return e
}

// tryLease asks for key's lease within the budget; an error is reported.
func (c *Client) tryLease(ctx context.Context, b *budget, leaser Leaser, key string) (Lease, error) {
	var lease Lease
	err := c.storeDo(ctx, b, func(sctx context.Context) error {
		var err error
		lease, err = leaser.TryLease(sctx, key, orDefault(c.LeaseTTL, DefaultLeaseTTL))
		return err
	})
	if err != nil {
		c.report(ctx, Event{RobotsURL: key, Err: &StoreError{"lease", key, err}})
		return nil, err
	}
	return lease, nil
}

// awaitLease waits, at most LeaseWait, for the process holding key's
// lease to store a fresh entry. The holder renews its lease while it
// fetches; when it dies the lease lapses, and the first waiter to ask
// for it then gets it and fetches, returning it, while the others go on
// waiting for its entry. It returns neither when the wait or the budget
// runs out: the caller then fetches without a lease.
func (c *Client) awaitLease(ctx context.Context, b *budget, leaser Leaser, key string) (*Entry, Lease) {
	wait := orDefault(c.LeaseWait, orDefault(c.Timeout, DefaultTimeout)+orDefault(c.LeaseTTL, DefaultLeaseTTL))
	deadline := c.waitNow().Add(wait)
	for {
		left := deadline.Sub(c.waitNow())
		if left <= 0 {
			return nil, nil
		}
		if c.sleep(ctx, min(leasePoll, left)) != nil || !c.waitNow().Before(deadline) {
			return nil, nil
		}
		if e := c.get(ctx, b, key); c.fresh(e) {
			return e, nil
		}
		lease, err := c.tryLease(ctx, b, leaser, key)
		switch {
		case lease != nil:
			// The holder may have stored its entry and let the lease
			// go between our Get and the lease.
			if e := c.get(ctx, b, key); c.fresh(e) {
				c.release(ctx, key, lease)
				return e, nil
			}
			return nil, lease
		case err != nil && b.left <= 0:
			return nil, nil
		}
	}
}

// A pending counts the copies being stored, for Flush.
type pending struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n is 0; nil means closed
}

func (p *pending) add() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n == 0 {
		p.idle = make(chan struct{})
	}
	p.n++
}

func (p *pending) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n--
	if p.n == 0 {
		close(p.idle)
	}
}

func (p *pending) wait(ctx context.Context) error {
	p.mu.Lock()
	idle := p.idle
	p.mu.Unlock()
	if idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
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
		return parseEntry(e)
	case c.unreachableTooLong(e):
		return allowAll // unreachable for 30 days, no copy
	default:
		return disallowAll
	}
}

// parseEntry returns what the copy of an entry means, as
// robotstxt.FromStatus reads its status and body, parsing the body in
// place (robotstxt.ParseOwned): an Entry is never written once made (see
// Cache and Client.Entry), so that the entry and its parsed rules share
// the body rather than hold it twice.
func parseEntry(e *Entry) *robotstxt.Robots {
	if robotstxt.StatusOutcome(e.Status) != robotstxt.Rules {
		return robotstxt.FromStatus(e.Status, nil)
	}
	return robotstxt.ParseOwned(e.Body)
}

// outcomeName names what an entry means now, for events, without parsing.
func (c *Client) outcomeName(e *Entry) string {
	switch {
	case e.Copy && e.Failures > 0:
		return OutcomeStale
	case e.Copy && e.Status >= 200 && e.Status <= 299:
		return robotstxt.Rules.String()
	case e.Copy, c.unreachableTooLong(e):
		return robotstxt.AllowAll.String()
	default:
		return robotstxt.DisallowAll.String()
	}
}

// unreachableTooLong reports whether an entry's failures have lasted past
// UnreachableLimit, after which a site without a copy allows everything.
func (c *Client) unreachableTooLong(e *Entry) bool {
	return !e.FailingSince.IsZero() && c.now().Sub(e.FailingSince) > UnreachableLimit
}
