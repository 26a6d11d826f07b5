// Package fetch gets robots.txt files over HTTP and caches them the way
// Google's crawler does (SPEC 2), so that a crawler only asks "may this
// agent fetch this URL?".
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
//     result counts as a 404.
//   - A copy is kept for 24 hours, or for the response's Cache-Control
//     max-age, within MinTTL and MaxTTL.
//   - A 5xx, a 429, a timeout or any network error is a failure. After a
//     failure the last copy keeps being used, however old; without one,
//     nothing is allowed, until failures have lasted 30 days, after which
//     everything is. Failed fetches are retried with exponential backoff
//     (RetryMin doubling up to RetryMax) rather than on every question.
//   - Only one fetch of a robots.txt URL is under way at a time: concurrent
//     callers wait for it.
package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
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
	// cached copy is treated as having no robots.txt (SPEC 2.5).
	UnreachableLimit = 30 * 24 * time.Hour
	// MaxRedirects is how many redirects are followed (SPEC 2.3).
	MaxRedirects = 5
	// DefaultUserAgent is sent when Client.UserAgent is empty.
	DefaultUserAgent = "robotstxt-fetch (+https://github.com/seed50c7eacc/robotstxt)"
	// defaultCacheEntries and defaultCacheBytes bound the default LRU.
	defaultCacheEntries = 10000
	defaultCacheBytes   = 256 << 20
)

// A Client fetches and caches robots.txt files. Its zero value is ready to
// use; set fields before its first use and not after. It is safe for
// concurrent use.
type Client struct {
	// HTTPClient makes the requests; nil means http.DefaultClient. The
	// Client uses a copy of it with its own redirect policy.
	HTTPClient *http.Client
	// UserAgent is the User-Agent header sent; empty means DefaultUserAgent.
	UserAgent string
	// Timeout bounds each fetch, redirects and body included; zero means
	// DefaultTimeout.
	Timeout time.Duration
	// Cache stores fetched files; nil means an LRU of 10,000 entries and
	// 256 MiB.
	Cache Cache
	// TTL is how long a copy is kept when the response sets no max-age;
	// MinTTL and MaxTTL bound a max-age. Zero means the default.
	TTL, MinTTL, MaxTTL time.Duration
	// RetryMin and RetryMax space out retries after failures. Zero means
	// the default.
	RetryMin, RetryMax time.Duration
	// Now tells the time; nil means time.Now. Tests set a fake clock.
	Now func() time.Time

	initOnce sync.Once
	http     *http.Client
	cache    Cache

	mu       sync.Mutex
	inflight map[string]*call
}

// A call is one fetch under way, which concurrent callers share.
type call struct {
	done    chan struct{}
	entry   *Entry
	waiters int // callers waiting besides the one fetching (for tests)
}

func (c *Client) init() {
	c.initOnce.Do(func() {
		base := c.HTTPClient
		if base == nil {
			base = http.DefaultClient
		}
		hc := *base
		hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if len(via) > MaxRedirects {
				return http.ErrUseLastResponse // the 3xx then counts as a 404
			}
			return nil
		}
		c.http = &hc
		c.cache = c.Cache
		if c.cache == nil {
			c.cache = NewLRU(defaultCacheEntries, defaultCacheBytes)
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
// answer can be given: pageURL is not a valid http, https or ftp URL, or
// ctx ended first.
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
// given: pageURL is not a valid http, https or ftp URL, or ctx ended first.
func (c *Client) Robots(ctx context.Context, pageURL string) (*robotstxt.Robots, error) {
	key, err := robotstxt.RobotsURL(pageURL)
	if err != nil {
		return nil, err
	}
	e, err := c.Entry(ctx, key)
	if err != nil {
		return nil, err
	}
	return c.robotsOf(e), nil
}

// Entry returns the cache entry of a robots.txt URL (as RobotsURL returns
// it), fetching the file when the cached entry is missing or expired.
func (c *Client) Entry(ctx context.Context, robotsURL string) (*Entry, error) {
	c.init()
	if e, ok := c.cache.Get(robotsURL); ok && c.now().Before(e.Expires) {
		return e, nil
	}
	c.mu.Lock()
	if cl, ok := c.inflight[robotsURL]; ok {
		cl.waiters++
		c.mu.Unlock()
		select {
		case <-cl.done:
			return cl.entry, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	cl := &call{done: make(chan struct{})}
	if c.inflight == nil {
		c.inflight = make(map[string]*call)
	}
	c.inflight[robotsURL] = cl
	c.mu.Unlock()
	// The fetch serves every caller, so no caller's context may cut it
	// short: the Client's timeout bounds it.
	go c.run(context.WithoutCancel(ctx), robotsURL, cl)
	select {
	case <-cl.done:
		return cl.entry, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run fetches robotsURL for a call, stores the entry and releases the
// callers.
func (c *Client) run(ctx context.Context, robotsURL string, cl *call) {
	prev, _ := c.cache.Get(robotsURL)
	cl.entry = c.fetch(ctx, robotsURL, prev)
	c.cache.Put(robotsURL, cl.entry)
	c.mu.Lock()
	delete(c.inflight, robotsURL)
	c.mu.Unlock()
	close(cl.done)
}

// robotsOf returns what an entry means now.
func (c *Client) robotsOf(e *Entry) *robotstxt.Robots {
	switch {
	case e.Copy && e.Robots != nil:
		return e.Robots
	case e.Copy:
		return robotstxt.FromStatus(e.Status, e.Body)
	case !e.FailingSince.IsZero() && c.now().Sub(e.FailingSince) > UnreachableLimit:
		return robotstxt.FromStatus(http.StatusNotFound, nil) // SPEC 2.5: unreachable for 30 days, no copy
	default:
		return robotstxt.FromStatus(http.StatusServiceUnavailable, nil)
	}
}

// fetch gets robotsURL and returns the new entry, given the previous one
// (or nil).
func (c *Client) fetch(ctx context.Context, robotsURL string, prev *Entry) *Entry {
	now := c.now()
	ctx, cancel := context.WithTimeout(ctx, orDefault(c.Timeout, DefaultTimeout))
	defer cancel()
	resp, err := c.get(ctx, robotsURL)
	if err != nil {
		return c.failed(prev, now, err)
	}
	defer resp.Body.Close()
	var body []byte
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		body, err = io.ReadAll(io.LimitReader(resp.Body, robotstxt.DefaultMaxSize))
		if err != nil {
			return c.failed(prev, now, fmt.Errorf("reading the body: %w", err))
		}
	}
	robots := robotstxt.FromStatus(resp.StatusCode, body)
	if robots.Outcome() == robotstxt.DisallowAll {
		return c.failed(prev, now, fmt.Errorf("HTTP status %d", resp.StatusCode))
	}
	return &Entry{
		Copy:      true,
		Status:    resp.StatusCode,
		Body:      body,
		FetchedAt: now,
		Expires:   now.Add(c.lifetime(resp.Header)),
		Robots:    robots,
	}
}

func (c *Client) get(ctx context.Context, robotsURL string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, robotsURL, nil)
	if err != nil {
		return nil, err
	}
	ua := c.UserAgent
	if ua == "" {
		ua = DefaultUserAgent
	}
	req.Header.Set("User-Agent", ua)
	return c.http.Do(req)
}

// failed returns the entry after a failed fetch: the previous copy, if any,
// is kept; the next try is spaced out.
func (c *Client) failed(prev *Entry, now time.Time, err error) *Entry {
	e := &Entry{FailingSince: now, Failures: 1, LastError: err.Error()}
	if prev != nil {
		e.Copy, e.Status, e.Body, e.FetchedAt, e.Robots = prev.Copy, prev.Status, prev.Body, prev.FetchedAt, prev.Robots
		if !prev.FailingSince.IsZero() {
			e.FailingSince, e.Failures = prev.FailingSince, prev.Failures+1
		}
	}
	backoff := orDefault(c.RetryMin, DefaultRetryMin)
	ceiling := orDefault(c.RetryMax, DefaultRetryMax)
	for i := 1; i < e.Failures && backoff < ceiling; i++ {
		backoff *= 2
	}
	e.Expires = now.Add(min(backoff, ceiling))
	return e
}

// lifetime is how long a copy is kept: the max-age of its Cache-Control
// header within MinTTL and MaxTTL, or TTL (SPEC 2.7).
func (c *Client) lifetime(h http.Header) time.Duration {
	ttl := orDefault(c.TTL, DefaultTTL)
	if age, ok := maxAge(h); ok {
		ttl = max(orDefault(c.MinTTL, DefaultMinTTL), min(age, orDefault(c.MaxTTL, DefaultMaxTTL)))
	}
	return ttl
}

// maxAge returns the max-age directive of the Cache-Control headers.
func maxAge(h http.Header) (time.Duration, bool) {
	for _, v := range h.Values("Cache-Control") {
		for _, directive := range strings.Split(v, ",") {
			name, value, ok := strings.Cut(strings.TrimSpace(directive), "=")
			if !ok || !strings.EqualFold(name, "max-age") {
				continue
			}
			secs, err := strconv.ParseInt(strings.Trim(value, `"`), 10, 64)
			if err != nil || secs < 0 {
				continue
			}
			if secs > int64(DefaultMaxTTL/time.Second)*1000 {
				secs = int64(DefaultMaxTTL/time.Second) * 1000 // keep the Duration in range
			}
			return time.Duration(secs) * time.Second, true
		}
	}
	return 0, false
}
