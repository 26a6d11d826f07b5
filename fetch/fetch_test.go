package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/fakeclock"
)

// waitUntil yields until cond reports true, and fails the test after 10 s
// of the wall clock (a test that hangs); no clock time is waited for.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatal("waited 10 s for a condition")
		}
	}
}

// site is a test server whose robots.txt handler the test can change, and
// which counts the requests for /robots.txt.
type site struct {
	*httptest.Server
	hits    atomic.Int64
	mu      sync.Mutex
	handler http.HandlerFunc
	agents  []string
}

func newSite(t *testing.T, h http.HandlerFunc) *site {
	s := &site{handler: h}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			s.hits.Add(1)
		}
		s.mu.Lock()
		h := s.handler
		s.agents = append(s.agents, r.UserAgent())
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) set(h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = h
}

func serve(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }
}

func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Error(w, http.StatusText(code), code) }
}

const rules = "User-agent: *\nDisallow: /private\n"

func newClient(clock *fakeclock.Clock) *Client {
	return &Client{Now: clock.Now, Timeout: 2 * time.Second}
}

// answer asks the client about /private and /public of the site.
func answer(t *testing.T, c *Client, s *site) (private, public bool, outcome robotstxt.Outcome) {
	t.Helper()
	r, err := c.Robots(context.Background(), s.URL+"/private/page")
	if err != nil {
		t.Fatalf("Robots: %v", err)
	}
	return r.Allowed("bot", s.URL+"/private/page"), r.Allowed("bot", s.URL+"/public"), r.Outcome()
}

// RFC 9309 section 2.3.1 (2xx, 4xx, 5xx) and Google's robots.txt
// documentation (429 as a server error): each status class.
func TestStatusClasses(t *testing.T) {
	tests := []struct {
		name             string
		handler          http.HandlerFunc
		private, public  bool
		outcome          robotstxt.Outcome
		lastErrorContain string
	}{
		{"200", serve(rules), false, true, robotstxt.Rules, ""},
		{"404", status(404), true, true, robotstxt.AllowAll, ""},
		{"401", status(401), true, true, robotstxt.AllowAll, ""},
		{"403", status(403), true, true, robotstxt.AllowAll, ""},
		{"429", status(429), false, false, robotstxt.DisallowAll, "HTTP status 429"},
		{"500", status(500), false, false, robotstxt.DisallowAll, "HTTP status 500"},
		{"503", status(503), false, false, robotstxt.DisallowAll, "HTTP status 503"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, tt.handler)
			c := newClient(fakeclock.New())
			private, public, outcome := answer(t, c, s)
			if private != tt.private || public != tt.public || outcome != tt.outcome {
				t.Errorf("private %v public %v outcome %v; want %v %v %v", private, public, outcome, tt.private, tt.public, tt.outcome)
			}
			e, _ := c.Entry(context.Background(), s.URL+"/robots.txt")
			if !strings.Contains(e.LastError, tt.lastErrorContain) || (tt.lastErrorContain == "") != (e.LastError == "") {
				t.Errorf("LastError %q, want it to contain %q", e.LastError, tt.lastErrorContain)
			}
		})
	}
}

func TestUserAgentHeader(t *testing.T) {
	s := newSite(t, serve(rules))
	c := &Client{UserAgent: "ExampleBot/1.0"}
	if _, err := c.Allowed(context.Background(), "ExampleBot", s.URL+"/"); err != nil {
		t.Fatal(err)
	}
	c2 := &Client{}
	if _, err := c2.Allowed(context.Background(), "x", s.URL+"/"); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if diff := cmp.Diff([]string{"ExampleBot/1.0", DefaultUserAgent}, s.agents); diff != "" {
		t.Errorf("User-Agent headers (-want +got):\n%s", diff)
	}
}

// RFC 9309 section 2.3.1.4: a 503, then recovery once the retry comes due.
func TestRecoveryAfter503(t *testing.T) {
	s := newSite(t, status(503))
	clock := fakeclock.New()
	c := newClient(clock)
	if _, public, _ := answer(t, c, s); public {
		t.Fatal("allowed during a 503")
	}
	s.set(serve(rules))
	clock.Advance(DefaultRetryMin / 2)
	if _, public, _ := answer(t, c, s); public || s.hits.Load() != 1 {
		t.Fatalf("retried before the backoff elapsed (hits %d)", s.hits.Load())
	}
	clock.Advance(DefaultRetryMin)
	private, public, outcome := answer(t, c, s)
	if private || !public || outcome != robotstxt.Rules || s.hits.Load() != 2 {
		t.Errorf("after recovery: private %v public %v outcome %v hits %d", private, public, outcome, s.hits.Load())
	}
}

// Retries are spaced out exponentially up to RetryMax.
func TestRetryBackoff(t *testing.T) {
	s := newSite(t, status(500))
	clock := fakeclock.New()
	c := &Client{Now: clock.Now, RetryMin: time.Minute, RetryMax: 10 * time.Minute}
	var gaps []time.Duration
	for i := 0; i < 6; i++ {
		e, err := c.Entry(context.Background(), s.URL+"/robots.txt")
		if err != nil {
			t.Fatal(err)
		}
		gaps = append(gaps, e.Expires.Sub(clock.Now()))
		clock.Advance(e.Expires.Sub(clock.Now()))
	}
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 10 * time.Minute, 10 * time.Minute}
	if diff := cmp.Diff(want, gaps); diff != "" {
		t.Errorf("retry gaps (-want +got):\n%s", diff)
	}
	if s.hits.Load() != 6 {
		t.Errorf("%d fetches, want 6", s.hits.Load())
	}
}

// laggingCache is a store whose puts land late: its Get returns the first
// entry put for a URL, as a store does while later puts are on their way.
type laggingCache struct {
	mu    sync.Mutex
	first map[string]*Entry
}

func (c *laggingCache) Get(_ context.Context, k string) (*Entry, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.first[k], nil
}

func (c *laggingCache) Put(_ context.Context, k string, e *Entry) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.first[k]; !ok {
		c.first[k] = e
	}
	return nil
}

// The backoff follows on from this process's last fetch, not from an
// older entry the store still returns: a store that lags behind the
// Client's background puts must not restart the retries' doubling (the
// cause of a TestRetryBackoff failure under -race).
func TestRetryBackoffLaggingStore(t *testing.T) {
	s := newSite(t, status(500))
	clock := fakeclock.New()
	c := &Client{Cache: &laggingCache{first: map[string]*Entry{}}, Now: clock.Now, RetryMin: time.Minute, RetryMax: 10 * time.Minute}
	var gaps []time.Duration
	var failures []int
	for i := 0; i < 6; i++ {
		e, err := c.Entry(context.Background(), s.URL+"/robots.txt")
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		gaps = append(gaps, e.Expires.Sub(clock.Now()))
		failures = append(failures, e.Failures)
		clock.Advance(e.Expires.Sub(clock.Now()))
	}
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 10 * time.Minute, 10 * time.Minute}
	if diff := cmp.Diff(want, gaps); diff != "" {
		t.Errorf("retry gaps (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 2, 3, 4, 5, 6}, failures); diff != "" {
		t.Errorf("failures counted (-want +got):\n%s", diff)
	}
}

// RFC 9309 section 2.3.1.2 (at least five redirects) and Google's robots.txt
// documentation (a chain longer than five counts as a 404): five redirects
// are followed; a sixth, or a loop, counts as 404.
func TestRedirects(t *testing.T) {
	tests := []struct {
		name    string
		hops    int // redirects before the file
		outcome robotstxt.Outcome
	}{
		{"5 redirects are followed", 5, robotstxt.Rules},
		{"6 redirects count as 404", 6, robotstxt.AllowAll},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, nil)
			hops := tt.hops
			s.set(func(w http.ResponseWriter, r *http.Request) {
				// Redirect to itself with a counter, then serve the file.
				n := len(r.URL.Query().Get("n"))
				if n < hops {
					http.Redirect(w, r, "/robots.txt?n="+strings.Repeat("x", n+1), http.StatusMovedPermanently)
					return
				}
				io.WriteString(w, rules)
			})
			_, _, outcome := answer(t, newClient(fakeclock.New()), s)
			if outcome != tt.outcome {
				t.Errorf("outcome %v, want %v", outcome, tt.outcome)
			}
		})
	}
	t.Run("a redirect loop counts as 404", func(t *testing.T) {
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/robots.txt", http.StatusFound)
		})
		private, public, outcome := answer(t, newClient(fakeclock.New()), s)
		if !private || !public || outcome != robotstxt.AllowAll {
			t.Errorf("loop: private %v public %v outcome %v", private, public, outcome)
		}
	})
}

// RFC 9309 section 2.3.1.4 (unreachable): a timeout is a server error.
func TestSlowServerTimesOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	c := &Client{Now: fakeclock.New().Now, Timeout: 50 * time.Millisecond}
	_, public, outcome := answer(t, c, s)
	if public || outcome != robotstxt.DisallowAll {
		t.Errorf("slow server: public %v outcome %v", public, outcome)
	}
	e, _ := c.Entry(context.Background(), s.URL+"/robots.txt")
	if !strings.Contains(e.LastError, "deadline exceeded") {
		t.Errorf("LastError %q", e.LastError)
	}
}

// RFC 9309 section 2.3.1.4 (unreachable): a reset connection is a server
// error, before or during the body.
func TestConnectionReset(t *testing.T) {
	for _, partial := range []bool{false, true} {
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			if partial {
				w.Header().Set("Content-Length", "100000")
				io.WriteString(w, rules)
				w.(http.Flusher).Flush()
			}
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		})
		_, public, outcome := answer(t, newClient(fakeclock.New()), s)
		if public || outcome != robotstxt.DisallowAll {
			t.Errorf("reset (partial body %v): public %v outcome %v", partial, public, outcome)
		}
	}
}

// RFC 9309 section 2.5 (at least 500 KiB) and Google's robots.txt
// documentation (500 KiB): only the first 500 KiB of a body are read.
func TestBodyOver500KiB(t *testing.T) {
	body := rules + strings.Repeat("#", robotstxt.DefaultMaxSize) + "\nDisallow: /public\n"
	s := newSite(t, serve(body))
	c := newClient(fakeclock.New())
	private, public, _ := answer(t, c, s)
	if private || !public {
		t.Errorf("private %v public %v: want the rule past 500 KiB ignored", private, public)
	}
	e, _ := c.Entry(context.Background(), s.URL+"/robots.txt")
	if len(e.Body) != robotstxt.DefaultMaxSize+1 {
		t.Errorf("cached body of %d bytes, want %d (the limit and one byte to say the file goes on)", len(e.Body), robotstxt.DefaultMaxSize+1)
	}
}

// RFC 9309 section 2.4 (caching, at most 24 hours unless unreachable) and
// Google's robots.txt documentation (Cache-Control max-age honoured):
// 24 hours by default; max-age shortens or lengthens it within
// the bounds.
func TestCacheLifetime(t *testing.T) {
	tests := []struct {
		name         string
		cacheControl string
		ttl, maxTTL  time.Duration // Client settings
		want         time.Duration
	}{
		{"default", "", 0, 0, 24 * time.Hour},
		{"max-age short", "max-age=600", 0, 0, 10 * time.Minute},
		{"max-age long", "public, max-age=172800", 0, 0, 48 * time.Hour},
		{"max-age below MinTTL", "max-age=5", 0, 0, DefaultMinTTL},
		{"max-age above MaxTTL", "max-age=31536000", 0, 0, DefaultMaxTTL},
		{"custom bounds", "max-age=31536000", 0, 30 * 24 * time.Hour, 30 * 24 * time.Hour},
		{"custom TTL", "no-cache", time.Hour, 0, time.Hour},
		{"garbage max-age", "max-age=soon", 0, 0, 24 * time.Hour},
		// RFC 9111 1.2.2: an overflowing max-age counts as 2^31 seconds,
		// so as long a lifetime as MaxTTL allows, not the default.
		{"max-age overflow", "max-age=99999999999999999999", 0, 0, DefaultMaxTTL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				if tt.cacheControl != "" {
					w.Header().Set("Cache-Control", tt.cacheControl)
				}
				io.WriteString(w, rules)
			})
			clock := fakeclock.New()
			c := &Client{Now: clock.Now, TTL: tt.ttl, MaxTTL: tt.maxTTL}
			answer(t, c, s)
			clock.Advance(tt.want - time.Second)
			answer(t, c, s)
			if s.hits.Load() != 1 {
				t.Fatalf("refetched before %v", tt.want)
			}
			clock.Advance(2 * time.Second)
			answer(t, c, s)
			if s.hits.Load() != 2 {
				t.Errorf("not refetched after %v", tt.want)
			}
		})
	}
}

// One fetch per robots.txt URL at a time: many goroutines asking at once
// cause exactly one request.
func TestConcurrentCallersShareOneFetch(t *testing.T) {
	release := make(chan struct{})
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		io.WriteString(w, rules)
	})
	c := newClient(fakeclock.New())
	const callers = 50
	var wg sync.WaitGroup
	results := make(chan bool, callers)
	for i := 0; i < callers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ok, err := c.Allowed(context.Background(), "bot", fmt.Sprintf("%s/public/%d", s.URL, i))
			if err != nil {
				t.Error(err)
			}
			results <- ok
		}(i)
	}
	// Release the server once every other caller waits on the fetch.
	key := s.URL + "/robots.txt"
	for {
		c.mu.Lock()
		cl := c.inflight[key]
		waiting := cl != nil && cl.waiters == callers-1
		c.mu.Unlock()
		if waiting {
			break
		}
		time.Sleep(time.Millisecond) // polling the goroutines, not waiting out real time
	}
	close(release)
	wg.Wait()
	close(results)
	for ok := range results {
		if !ok {
			t.Error("a caller got the wrong answer")
		}
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("%d requests reached the server, want 1", n)
	}
}

// Google's robots.txt documentation (unreachable for more than 30 days):
// after 30 days of failures, the last copy, or allow all.
func TestThirtyDayRule(t *testing.T) {
	t.Run("no copy: disallow, then allow after 30 days", func(t *testing.T) {
		s := newSite(t, status(503))
		clock := fakeclock.New()
		c := &Client{Now: clock.Now, RetryMax: 24 * time.Hour}
		for day := 0; day <= 31; day++ {
			_, public, _ := answer(t, c, s)
			if want := day > 30; public != want {
				t.Fatalf("day %d: public allowed %v, want %v", day, public, want)
			}
			clock.Advance(24 * time.Hour)
		}
	})
	t.Run("with a copy: the copy, before and after 30 days", func(t *testing.T) {
		s := newSite(t, serve(rules))
		clock := fakeclock.New()
		c := &Client{Now: clock.Now}
		answer(t, c, s)
		s.set(status(503))
		for day := 1; day <= 40; day++ {
			clock.Advance(24 * time.Hour)
			private, public, outcome := answer(t, c, s)
			if private || !public || outcome != robotstxt.Rules {
				t.Fatalf("day %d: private %v public %v outcome %v; want the cached rules", day, private, public, outcome)
			}
		}
		e, _ := c.Entry(context.Background(), s.URL+"/robots.txt")
		if e.Failures == 0 || e.FailingSince.IsZero() || !strings.Contains(e.LastError, "503") {
			t.Errorf("failure state not recorded: %+v", e)
		}
	})
}

func TestInvalidURLs(t *testing.T) {
	c := &Client{}
	for _, u := range []string{"mailto:x@y", "/relative", "http://"} {
		if _, err := c.Allowed(context.Background(), "bot", u); err == nil {
			t.Errorf("Allowed(%q): no error", u)
		}
	}
}

func TestContextEnds(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	c := &Client{Timeout: time.Minute}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Allowed(ctx, "bot", s.URL+"/"); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// A shared store keeps entries in their wire form only.
type mapCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *mapCache) Get(_ context.Context, k string) (*Entry, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	data, ok := c.m[k]
	if !ok {
		return nil, nil
	}
	e := new(Entry)
	return e, e.UnmarshalBinary(data)
}

func (c *mapCache) Put(_ context.Context, k string, e *Entry) error {
	data, err := e.MarshalBinary()
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = data
	return nil
}

func TestSharedCache(t *testing.T) {
	s := newSite(t, serve(rules))
	shared := &mapCache{m: map[string][]byte{}}
	clock := fakeclock.New()
	a := &Client{Now: clock.Now, Cache: shared}
	b := &Client{Now: clock.Now, Cache: shared}
	answer(t, a, s)
	a.Flush(context.Background()) // the copy is stored in the background
	private, public, _ := answer(t, b, s)
	if private || !public || s.hits.Load() != 1 {
		t.Errorf("second crawler: private %v public %v hits %d", private, public, s.hits.Load())
	}
}

func TestLRU(t *testing.T) {
	ctx := context.Background()
	has := func(c *LRU, k string) (*Entry, bool) {
		e, err := c.Get(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		return e, e != nil
	}
	c := NewLRU(2, 0)
	c.Put(ctx, "a", &Entry{Status: 1})
	c.Put(ctx, "b", &Entry{Status: 2})
	has(c, "a")
	c.Put(ctx, "c", &Entry{Status: 3}) // evicts b, the least recently used
	if _, ok := has(c, "b"); ok || c.Len() != 2 {
		t.Errorf("b kept, or %d entries", c.Len())
	}
	if e, ok := has(c, "a"); !ok || e.Status != 1 {
		t.Error("a evicted")
	}
	c.Put(ctx, "a", &Entry{Status: 4})
	if e, _ := has(c, "a"); e.Status != 4 {
		t.Error("a not replaced")
	}

	bytes := NewLRU(0, 3000)
	for i := 0; i < 10; i++ {
		bytes.Put(ctx, fmt.Sprint(i), &Entry{Body: make([]byte, 1000)})
	}
	if bytes.Len() != 2 {
		t.Errorf("byte-bounded LRU holds %d entries, want 2", bytes.Len())
	}
	if _, ok := has(bytes, "9"); !ok {
		t.Error("the newest entry was evicted")
	}
}

func TestMaxAge(t *testing.T) {
	tests := []struct {
		values []string
		want   time.Duration
		ok     bool
	}{
		{nil, 0, false},
		{[]string{"max-age=60"}, time.Minute, true},
		{[]string{"public", "MAX-AGE=120"}, 2 * time.Minute, true},
		{[]string{`max-age="30"`}, 30 * time.Second, true},
		{[]string{"max-age=-1, max-age=10"}, 10 * time.Second, true},
		{[]string{"s-maxage=60"}, 0, false},
		{[]string{"max-age=99999999999999999999"}, 1 << 31 * time.Second, true}, // RFC 9111 1.2.2
		{[]string{"max-age=9999999999"}, 1 << 31 * time.Second, true},
	}
	for _, tt := range tests {
		h := http.Header{}
		for _, v := range tt.values {
			h.Add("Cache-Control", v)
		}
		got, ok := maxAge(h)
		if got != tt.want || ok != tt.ok {
			t.Errorf("maxAge(%q) = %v, %v; want %v, %v", tt.values, got, ok, tt.want, tt.ok)
		}
	}
}

func Example() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()

	client := &Client{UserAgent: "ExampleBot/1.0 (+https://example.com/bot)"}
	for _, page := range []string{site.URL + "/", site.URL + "/private/report.html"} {
		ok, err := client.Allowed(context.Background(), "ExampleBot", page)
		fmt.Println(strings.TrimPrefix(page, site.URL), ok, err)
	}
	// Output:
	// / true <nil>
	// /private/report.html false <nil>
}
