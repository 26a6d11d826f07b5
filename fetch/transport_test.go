package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// testClock is a fake clock; its Sleep moves it forward instead of
// waiting, so pacing is tested without timing.
type testClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.sleeps = append(c.sleeps, d)
	return nil
}

// fakeWeb is a base RoundTripper serving any number of hosts from memory:
// each host's robots.txt from robots (404 when absent), and canned
// responses by path. It logs every request it receives, with the fake time.
type fakeWeb struct {
	clock     *testClock
	mu        sync.Mutex
	robots    map[string]string // host -> robots.txt body
	responses map[string]func() *http.Response
	log       []sent
}

type sent struct {
	Host, Path string
	At         time.Duration // since the clock's start
}

var clockStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newFakeWeb(clock *testClock) *fakeWeb {
	return &fakeWeb{clock: clock, robots: map[string]string{}, responses: map[string]func() *http.Response{}}
}

func (w *fakeWeb) RoundTrip(req *http.Request) (*http.Response, error) {
	w.mu.Lock()
	w.log = append(w.log, sent{req.URL.Host, req.URL.Path, w.clock.Now().Sub(clockStart)})
	body, hasRobots := w.robots[req.URL.Host]
	canned := w.responses[req.URL.Path]
	w.mu.Unlock()
	resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}}
	switch {
	case req.URL.Path == "/robots.txt" && !hasRobots:
		resp.StatusCode = http.StatusNotFound
	case req.URL.Path == "/robots.txt":
		resp.Body = io.NopCloser(strings.NewReader(body))
	case canned != nil:
		resp = canned()
	}
	if resp.Body == nil {
		resp.Body = http.NoBody
	}
	resp.Request = req
	return resp, nil
}

// pages returns the logged requests other than for robots.txt.
func (w *fakeWeb) pages() []sent {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []sent
	for _, s := range w.log {
		if s.Path != "/robots.txt" {
			out = append(out, s)
		}
	}
	return out
}

// newFakeCrawler returns an http.Client whose Transport obeys the fake
// web's robots.txt files for agents, on the fake clock.
func newFakeCrawler(web *fakeWeb, configure func(*fetch.Transport), agents ...string) *http.Client {
	robots := &fetch.Client{HTTPClient: &http.Client{Transport: web}, Now: web.clock.Now}
	t := &fetch.Transport{Base: web, Agents: agents, Robots: robots, Now: web.clock.Now, Sleep: web.clock.Sleep}
	if configure != nil {
		configure(t)
	}
	return &http.Client{Transport: t}
}

func get(t *testing.T, c *http.Client, url string) (*http.Response, error) {
	t.Helper()
	resp, err := c.Get(url)
	if err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return resp, err
}

// RFC 9309, section 2.2.2: a disallowed URL must not be accessed; the
// error says why, with the rule that decided.
// newPathLogServer starts a test server that records the path of every
// request before handle answers it; paths returns those recorded so far.
func newPathLogServer(t *testing.T, handle http.HandlerFunc) (srv *httptest.Server, paths func() []string) {
	t.Helper()
	var mu sync.Mutex
	var log []string
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		log = append(log, r.URL.Path)
		mu.Unlock()
		handle(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), log...)
	}
}

func TestTransportDisallows(t *testing.T) {
	web := newFakeWeb(newTestClock())
	web.robots["a.example"] = "User-agent: *\nDisallow: /private\n"
	client := newFakeCrawler(web, nil, "ExampleBot")
	if _, err := get(t, client, "http://a.example/public"); err != nil {
		t.Fatalf("GET /public: %v", err)
	}
	_, err := get(t, client, "http://a.example/private/x")
	var de *fetch.DisallowedError
	if !errors.As(err, &de) {
		t.Fatalf("GET /private/x: error %v; want a *fetch.DisallowedError", err)
	}
	want := &fetch.DisallowedError{
		URL:     "http://a.example/private/x",
		Agent:   "ExampleBot",
		Verdict: robotstxt.Verdict{Allowed: false, Rule: robotstxt.Rule{Pattern: "/private", Line: 2}},
		Outcome: robotstxt.Rules,
	}
	if diff := cmp.Diff(want, de); diff != "" {
		t.Errorf("DisallowedError (-want +got):\n%s", diff)
	}
	if got, want := web.pages(), []sent{{"a.example", "/public", 0}}; !cmp.Equal(got, want) {
		t.Errorf("requests sent = %v; want only %v", got, want)
	}
}

// An http.Client calls its Transport once per redirect hop, so a redirect
// into a disallowed path is stopped before the hop is sent.
func TestTransportRedirectIntoDisallowed(t *testing.T) {
	srv, paths := newPathLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case "/go":
			http.Redirect(w, r, "/private/secret", http.StatusFound)
		default:
			fmt.Fprint(w, "page")
		}
	})
	client := &http.Client{Transport: fetch.NewTransport(srv.Client().Transport, "ExampleBot", &fetch.Client{HTTPClient: srv.Client()})}
	_, err := get(t, client, srv.URL+"/go")
	var de *fetch.DisallowedError
	if !errors.As(err, &de) || de.URL != srv.URL+"/private/secret" {
		t.Fatalf("GET /go: error %v; want a *fetch.DisallowedError for /private/secret", err)
	}
	if log, want := paths(), []string{"/robots.txt", "/go"}; !cmp.Equal(log, want) {
		t.Errorf("server log = %q; want %q", log, want)
	}
}

// One http.Client may serve both the pages and the robots.txt fetches:
// the robots.txt request and its redirect hops (RFC 9309, section 2.3.1.2:
// at least five are followed) pass through unchecked, so the Client does
// not wait on its own fetch.
func TestTransportSharedClientNoDeadlock(t *testing.T) {
	srv, paths := newPathLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/config/robots-moved", http.StatusMovedPermanently)
		case "/config/robots-moved":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		default:
			fmt.Fprint(w, "page")
		}
	})
	// The robots.txt Client's timeout is far longer than the test's: a
	// deadlock would surface as the test's context ending.
	robots := &fetch.Client{Timeout: 20 * time.Second}
	client := &http.Client{Transport: fetch.NewTransport(srv.Client().Transport, "ExampleBot", robots)}
	robots.HTTPClient = client

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, tc := range []struct {
		path    string
		allowed bool
	}{{"/public", true}, {"/private/x", false}} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+tc.path, nil)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		var de *fetch.DisallowedError
		switch {
		case tc.allowed && err != nil:
			t.Errorf("GET %s: %v; want it sent", tc.path, err)
		case !tc.allowed && !errors.As(err, &de):
			t.Errorf("GET %s: error %v; want a *fetch.DisallowedError from the moved robots.txt", tc.path, err)
		}
	}
	// The robots.txt, fetched through the same client, is also fetchable
	// by the crawler itself.
	if _, err := get(t, client, srv.URL+"/robots.txt"); err != nil {
		t.Errorf("GET /robots.txt: %v", err)
	}
	if log, want := paths(), []string{"/robots.txt", "/config/robots-moved", "/public", "/robots.txt", "/config/robots-moved"}; !cmp.Equal(log, want) {
		t.Errorf("server log = %q; want %q", log, want)
	}
}

// RFC 9309, section 2.3.1.4: while a robots.txt is unreachable (5xx)
// the crawler must assume complete disallow; the error says so.
func TestTransportUnreachableRobots(t *testing.T) {
	web := newFakeWeb(newTestClock())
	failing := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == "/robots.txt" {
			return &http.Response{StatusCode: http.StatusServiceUnavailable, Body: http.NoBody, Header: http.Header{}, Request: req}, nil
		}
		return web.RoundTrip(req)
	})
	robots := &fetch.Client{HTTPClient: &http.Client{Transport: failing}, Now: web.clock.Now}
	client := &http.Client{Transport: &fetch.Transport{Base: failing, Agents: []string{"ExampleBot"}, Robots: robots, Now: web.clock.Now, Sleep: web.clock.Sleep}}
	_, err := get(t, client, "http://down.example/page")
	var de *fetch.DisallowedError
	if !errors.As(err, &de) || de.Outcome != robotstxt.DisallowAll || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("GET with robots.txt unreachable: error %v; want a *fetch.DisallowedError with Outcome DisallowAll", err)
	}
	if got := web.pages(); len(got) != 0 {
		t.Errorf("pages sent while robots.txt is unreachable: %v", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// A failure of the robots.txt Client (here the request's context ending)
// fails the request; it is never read as permission.
func TestTransportContextEndedBeforeRobots(t *testing.T) {
	web := newFakeWeb(newTestClock())
	client := newFakeCrawler(web, nil, "ExampleBot")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://a.example/page", nil)
	if _, err := client.Do(req); !errors.Is(err, context.Canceled) {
		t.Errorf("Do with a cancelled context: %v; want context.Canceled", err)
	}
	if got := web.pages(); len(got) != 0 {
		t.Errorf("pages sent: %v", got)
	}
}

// Crawl-delay and Request-rate (not in RFC 9309; Bing's and Yandex's
// documentation, and the 1996 extended standard proposal) space out the
// requests to one host, the longer of the two applying, within MinDelay
// and MaxDelay. Other hosts do not wait.
func TestTransportPacing(t *testing.T) {
	tests := []struct {
		name      string
		robots    string
		configure func(*fetch.Transport)
		wantGap   time.Duration
	}{
		{"no delay", "User-agent: *\nDisallow: /private\n", nil, 0},
		{"crawl-delay", "User-agent: *\nCrawl-delay: 5\n", nil, 5 * time.Second},
		{"fractional crawl-delay", "User-agent: *\nCrawl-delay: 0.25\n", nil, 250 * time.Millisecond},
		{"request-rate", "User-agent: *\nRequest-rate: 1/10\n", nil, 10 * time.Second},
		{"longer of the two", "User-agent: *\nCrawl-delay: 2\nRequest-rate: 6/1m\n", nil, 10 * time.Second},
		{"hostile crawl-delay capped at 30 s", "User-agent: *\nCrawl-delay: 99999999999999\n", nil, 30 * time.Second},
		{"MaxDelay", "User-agent: *\nCrawl-delay: 20\n", func(t *fetch.Transport) { t.MaxDelay = 3 * time.Second }, 3 * time.Second},
		{"MinDelay", "User-agent: *\nCrawl-delay: 1\n", func(t *fetch.Transport) { t.MinDelay = 4 * time.Second }, 4 * time.Second},
		{"the agent's group", "User-agent: *\nCrawl-delay: 9\nDisallow: /x\n\nUser-agent: examplebot\nCrawl-delay: 1\n", nil, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			web := newFakeWeb(newTestClock())
			web.robots["a.example"] = tt.robots
			web.robots["b.example"] = tt.robots
			client := newFakeCrawler(web, tt.configure, "ExampleBot")
			for _, u := range []string{"http://a.example/1", "http://b.example/1", "http://a.example/2", "http://a.example/3", "http://b.example/2"} {
				if _, err := get(t, client, u); err != nil {
					t.Fatalf("GET %s: %v", u, err)
				}
			}
			g := tt.wantGap
			want := []sent{{"a.example", "/1", 0}, {"b.example", "/1", 0}, {"a.example", "/2", g}, {"a.example", "/3", 2 * g}, {"b.example", "/2", 2 * g}}
			if diff := cmp.Diff(want, web.pages()); diff != "" {
				t.Errorf("requests sent (-want +got):\n%s", diff)
			}
		})
	}
}

// RFC 9110, section 10.2.3 (Retry-After) and sections 15.5.21 (429) and
// 15.6.4 (503): the host is left alone for the time the response gives,
// as seconds or an HTTP date, within MaxBackoff; without one, for a
// backoff that doubles.
func TestTransportBackoff(t *testing.T) {
	tooMany := func(retryAfter string) func() *http.Response {
		return func() *http.Response {
			h := http.Header{}
			if retryAfter != "" {
				h.Set("Retry-After", retryAfter)
			}
			return &http.Response{StatusCode: http.StatusTooManyRequests, Header: h}
		}
	}
	tests := []struct {
		name      string
		slow      func() *http.Response
		configure func(*fetch.Transport)
		wantPause []time.Duration // the pauses after each of two slow responses
	}{
		{"429 Retry-After seconds", tooMany("20"), nil, []time.Duration{20 * time.Second, 20 * time.Second}},
		{"429 Retry-After date", tooMany(clockStart.Add(90 * time.Second).Format(http.TimeFormat)), nil, []time.Duration{90 * time.Second, 0}},
		{"503 without Retry-After doubles", func() *http.Response { return &http.Response{StatusCode: http.StatusServiceUnavailable} }, nil, []time.Duration{fetch.DefaultBackoff, 2 * fetch.DefaultBackoff}},
		{"unreadable Retry-After", tooMany("soon"), nil, []time.Duration{fetch.DefaultBackoff, 2 * fetch.DefaultBackoff}},
		{"capped by MaxBackoff", tooMany("86400"), func(t *fetch.Transport) { t.MaxBackoff = time.Minute }, []time.Duration{time.Minute, time.Minute}},
		{"default cap", tooMany("99999999999999999999999"), nil, []time.Duration{fetch.DefaultMaxBackoff, fetch.DefaultMaxBackoff}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newTestClock()
			web := newFakeWeb(clock)
			web.robots["a.example"] = "User-agent: *\nCrawl-delay: 1\n"
			web.responses["/slow"] = tt.slow
			client := newFakeCrawler(web, tt.configure, "ExampleBot")
			for _, p := range []string{"/slow", "/slow", "/next"} {
				resp, err := get(t, client, "http://a.example"+p)
				if err != nil {
					t.Fatalf("GET %s: %v", p, err)
				}
				if p == "/slow" && resp.StatusCode < 429 {
					t.Fatalf("GET /slow: status %d", resp.StatusCode)
				}
			}
			got := web.pages()
			second := max(tt.wantPause[0], time.Second)
			third := second + max(tt.wantPause[1], time.Second)
			want := []sent{{"a.example", "/slow", 0}, {"a.example", "/slow", second}, {"a.example", "/next", third}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("requests sent (-want +got):\n%s", diff)
			}
		})
	}
}

// A request waiting for its turn gives up when its context ends, and
// gives its turn back; one whose deadline comes before its turn fails at
// once rather than wait in vain.
func TestTransportWaitHonoursContext(t *testing.T) {
	clock := newTestClock()
	web := newFakeWeb(clock)
	web.robots["a.example"] = "User-agent: *\nCrawl-delay: 10\n"
	client := newFakeCrawler(web, nil, "ExampleBot")
	if _, err := get(t, client, "http://a.example/1"); err != nil {
		t.Fatal(err)
	}
	// The robots.txt is cached now, so a cancelled context reaches the wait.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://a.example/2", nil)
	if _, err := client.Do(req); !errors.Is(err, context.Canceled) {
		t.Errorf("Do with a cancelled context: %v; want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, "http://a.example/3", nil)
	if _, err := client.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Do with a deadline before the turn: %v; want context.DeadlineExceeded", err)
	}
	if len(clock.sleeps) != 0 {
		t.Errorf("slept %v; want no sleep", clock.sleeps)
	}
	// The abandoned turns were given back: the next request waits 10 s
	// after the first, not 30 s.
	if _, err := get(t, client, "http://a.example/4"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]sent{{"a.example", "/1", 0}, {"a.example", "/4", 10 * time.Second}}, web.pages()); diff != "" {
		t.Errorf("requests sent (-want +got):\n%s", diff)
	}
}

// The Transport obeys an ordered list of product tokens, as
// robotstxt.Robots.Agent does: Googlebot-Image follows the googlebot
// group when there is no googlebot-image group (the group-selection
// example of Google's robots.txt documentation).
func TestTransportAgentList(t *testing.T) {
	web := newFakeWeb(newTestClock())
	web.robots["a.example"] = "user-agent: googlebot-news\ndisallow: /group1\n\nuser-agent: *\ndisallow: /group2\n\nuser-agent: googlebot\ndisallow: /group3\n"
	client := newFakeCrawler(web, nil, "Googlebot-Image", "Googlebot")
	for _, tc := range []struct {
		path    string
		allowed bool
	}{{"/group1", true}, {"/group2", true}, {"/group3", false}} {
		_, err := get(t, client, "http://a.example"+tc.path)
		var de *fetch.DisallowedError
		if got := !errors.As(err, &de); got != tc.allowed {
			t.Errorf("GET %s: error %v; want allowed = %v", tc.path, err, tc.allowed)
		}
		if de != nil && de.Agent != "Googlebot" {
			t.Errorf("DisallowedError.Agent = %q; want Googlebot, whose group decided", de.Agent)
		}
	}
}

// Many goroutines crawl many hosts at once, with fewer hosts remembered
// than crawled (run with -race): every answer is right and no disallowed
// page is sent.
func TestTransportConcurrentHosts(t *testing.T) {
	const hosts, perHost, workers = 300, 6, 32
	clock := newTestClock()
	web := newFakeWeb(clock)
	for h := range hosts {
		web.robots[fmt.Sprintf("h%d.example", h)] = fmt.Sprintf("User-agent: *\nDisallow: /private\nCrawl-delay: %d\n", h%3)
	}
	client := newFakeCrawler(web, func(t *fetch.Transport) { t.MaxHosts = 50 }, "ExampleBot")
	goroutines := runtime.NumGoroutine()
	jobs := make(chan string)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var disallowed, failed int
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range jobs {
				resp, err := client.Get(u)
				var de *fetch.DisallowedError
				mu.Lock()
				switch {
				case errors.As(err, &de):
					disallowed++
				case err != nil:
					failed++
				default:
					resp.Body.Close()
				}
				mu.Unlock()
			}
		}()
	}
	for i := range perHost {
		for h := range hosts {
			path := "/page"
			if i%2 == 1 {
				path = "/private/page"
			}
			jobs <- fmt.Sprintf("http://h%d.example%s%d", h, path, i)
		}
	}
	close(jobs)
	wg.Wait()
	if failed != 0 || disallowed != hosts*perHost/2 {
		t.Errorf("failed = %d, disallowed = %d; want 0, %d", failed, disallowed, hosts*perHost/2)
	}
	pages := web.pages()
	if len(pages) != hosts*perHost/2 {
		t.Errorf("%d pages sent; want %d", len(pages), hosts*perHost/2)
	}
	for _, p := range pages {
		if strings.HasPrefix(p.Path, "/private") {
			t.Errorf("disallowed page sent: %v", p)
		}
	}
	// No goroutine per host is left behind. The robots.txt Client's fetch
	// goroutines end just after their callers are released, so allow them
	// a moment (this bounds the check, it does not time anything).
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > goroutines && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutines {
		t.Errorf("%d goroutines after the crawl of %d hosts; %d before", n, hosts, goroutines)
	}
}

// BenchmarkTransport measures what the Transport adds to each request when
// the site's robots.txt is cached: base is the canned base RoundTripper
// alone, transport the same behind a Transport, for a request without a
// User-Agent (which the Transport sends with the Client's, on a copy) and
// one with its own.
func BenchmarkTransport(b *testing.B) {
	canned := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == "/robots.txt" {
			return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("User-agent: *\nDisallow: /private/\nCrawl-delay: 0\n")), Request: req}, nil
		}
		return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: req}, nil
	})
	robots := &fetch.Client{HTTPClient: &http.Client{Transport: canned}}
	tr := fetch.NewTransport(canned, "ExampleBot", robots)
	req, _ := http.NewRequest(http.MethodGet, "https://www.example.com/products/item-1234?color=blue", nil)
	if _, err := tr.RoundTrip(req); err != nil { // caches the robots.txt
		b.Fatal(err)
	}
	named := req.Clone(req.Context())
	named.Header.Set("User-Agent", "ExampleBot/1.0")
	for _, bc := range []struct {
		name string
		rt   http.RoundTripper
		req  *http.Request
	}{{"base", canned, req}, {"transport", tr, req}, {"transport-own-user-agent", tr, named}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := bc.rt.RoundTrip(bc.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// closingWeb is a fakeWeb that counts CloseIdleConnections calls.
type closingWeb struct {
	*fakeWeb
	closed int
}

func (w *closingWeb) CloseIdleConnections() { w.closed++ }

// With Robots nil the Transport fetches robots.txt through Base itself;
// http.Client.CloseIdleConnections reaches Base through the Transport.
func TestTransportDefaultsAndCloseIdle(t *testing.T) {
	web := &closingWeb{fakeWeb: newFakeWeb(newTestClock())}
	web.robots["a.example"] = "User-agent: *\nDisallow: /private\n"
	client := &http.Client{Transport: fetch.NewTransport(web, "ExampleBot", nil)}
	if _, err := get(t, client, "http://a.example/page"); err != nil {
		t.Errorf("GET /page: %v", err)
	}
	var de *fetch.DisallowedError
	if _, err := get(t, client, "http://a.example/private"); !errors.As(err, &de) {
		t.Errorf("GET /private: %v; want a *fetch.DisallowedError", err)
	}
	web.mu.Lock()
	if len(web.log) != 2 || web.log[0].Path != "/robots.txt" {
		t.Errorf("requests = %v; want /robots.txt through Base, then /page", web.log)
	}
	web.mu.Unlock()
	client.CloseIdleConnections()
	if web.closed != 1 {
		t.Errorf("Base.CloseIdleConnections called %d times; want 1", web.closed)
	}
}

// The Transport knows the robots.txt fetches of its Client by a mark on
// their context, not by their path: a redirect through a /robots.txt URL
// is a hop like any other, and a disallowed hop after it is not sent
// (issue: GET /public/x, 302 /robots.txt?go, 302 /private/secret was).
func TestTransportRedirectThroughRobotsURL(t *testing.T) {
	srv, paths := newPathLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt" && r.URL.RawQuery == "":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case r.URL.Path == "/robots.txt":
			w.Header().Set("Location", "/private/secret")
			w.WriteHeader(http.StatusFound)
		case r.URL.Path == "/public/x":
			w.Header().Set("Location", "/robots.txt?go")
			w.WriteHeader(http.StatusFound)
		default:
			fmt.Fprint(w, "page")
		}
	})
	client := &http.Client{Transport: fetch.NewTransport(srv.Client().Transport, "ExampleBot", &fetch.Client{HTTPClient: srv.Client()})}
	_, err := get(t, client, srv.URL+"/public/x")
	var de *fetch.DisallowedError
	if !errors.As(err, &de) || de.URL != srv.URL+"/private/secret" {
		t.Errorf("GET /public/x: error %v; want a *fetch.DisallowedError for /private/secret", err)
	}
	if log, want := paths(), []string{"/robots.txt", "/public/x", "/robots.txt"}; !cmp.Equal(log, want) {
		t.Errorf("server log = %q; want %q", log, want)
	}
}

// RFC 9309 section 2.2.2: the /robots.txt URI is implicitly allowed, so
// the crawler's own GET of it is sent even when the file disallows
// everything; with a query it is a URL like any other.
func TestTransportRobotsURLImplicitlyAllowed(t *testing.T) {
	web := newFakeWeb(newTestClock())
	web.robots["a.example"] = "User-agent: *\nDisallow: /\n"
	client := newFakeCrawler(web, nil, "ExampleBot")
	if _, err := get(t, client, "http://a.example/robots.txt"); err != nil {
		t.Errorf("GET /robots.txt: %v", err)
	}
	var de *fetch.DisallowedError
	if _, err := get(t, client, "http://a.example/robots.txt?x"); !errors.As(err, &de) {
		t.Errorf("GET /robots.txt?x: %v; want a *fetch.DisallowedError", err)
	}
	if got, want := len(web.log), 2; got != want { // the Client's fetch and the crawler's
		t.Errorf("%d requests sent (%v); want %d", got, web.log, want)
	}
}

// The spellings of a disallowed path of the issue, and others, are each
// refused before they are sent; allowed ones are sent as written.
func TestTransportSpellingsRefused(t *testing.T) {
	srv, paths := newPathLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\nDisallow: /*.php$\n")
			return
		}
		fmt.Fprint(w, "page")
	})
	client := &http.Client{Transport: fetch.NewTransport(srv.Client().Transport, "ExampleBot", &fetch.Client{HTTPClient: srv.Client()})}
	for _, tc := range []struct {
		path    string
		reading string // the reading refused, "" for the path as sent
	}{
		{"/private/x", ""},
		{"/public/../private/x", "/private/x"}, // RFC 3986 5.2.4
		{"/public/%2E%2E/private/x", "/private/x"},
		{"/public/%2e./private/x", "/private/x"},
		{"//private/x", "/private/x"},              // nginx merge_slashes
		{"/%70rivate/x", "/private/x"},             // RFC 3986 6.2.2.2, RFC 9309 2.2.2
		{"/%70RIVATE/x", ""},                       // not /private: allowed (below)
		{"/public%2F..%2Fprivate/x", "/private/x"}, // nginx decodes %2F too
		{"/index.ph%70", "/index.php"},
		{"/x/./../private", "/private"},
	} {
		if tc.path == "/%70RIVATE/x" {
			if _, err := get(t, client, srv.URL+tc.path); err != nil {
				t.Errorf("GET %s: %v; want it sent", tc.path, err)
			}
			continue
		}
		_, err := get(t, client, srv.URL+tc.path)
		var de *fetch.DisallowedError
		if !errors.As(err, &de) {
			t.Errorf("GET %s: error %v; want a *fetch.DisallowedError", tc.path, err)
			continue
		}
		if want := srv.URL + tc.reading; tc.reading != "" && de.Reading != want {
			t.Errorf("GET %s: Reading %q; want %q", tc.path, de.Reading, want)
		}
	}
	if log, want := paths(), []string{"/robots.txt", "/pRIVATE/x"}; !cmp.Equal(log, want) {
		t.Errorf("server log = %q; want %q", log, want)
	}
}

// Pacing is by origin, keyed as robotstxt.RobotsURL keys it: site.test,
// site.test:80, SITE.test and site.test. are one site, whose Crawl-delay
// spaces all their requests (issue: they went out at 0, 0, 0 and 2 s), and
// so are an IDN host and its punycode.
func TestTransportPacingByOrigin(t *testing.T) {
	web := newFakeWeb(newTestClock())
	web.robots["site.test"] = "User-agent: *\nCrawl-delay: 2\n"
	client := newFakeCrawler(web, nil, "ExampleBot")
	for _, u := range []string{"http://site.test/1", "http://site.test:80/2", "http://site.test./3", "http://SITE.test/4"} {
		if _, err := get(t, client, u); err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
	}
	var at []time.Duration
	for _, p := range web.pages() {
		at = append(at, p.At)
	}
	if want := []time.Duration{0, 2 * time.Second, 4 * time.Second, 6 * time.Second}; !cmp.Equal(at, want) {
		t.Errorf("requests sent at %v; want %v", at, want)
	}

	// An IDN host and its punycode are one site too.
	web = newFakeWeb(newTestClock())
	web.robots["xn--bcher-kva.test"] = "User-agent: *\nCrawl-delay: 2\n"
	client = newFakeCrawler(web, nil, "ExampleBot")
	for _, u := range []string{"http://bücher.test/1", "http://XN--BCHER-KVA.test/2"} {
		if _, err := get(t, client, u); err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
	}
	at = nil
	for _, p := range web.pages() {
		at = append(at, p.At)
	}
	if want := []time.Duration{0, 2 * time.Second}; !cmp.Equal(at, want) {
		t.Errorf("IDN: requests sent at %v; want %v", at, want)
	}
}

// A request whose Host header names another site than its URL is read by
// the server as that site's: its robots.txt must allow it too.
func TestTransportHostHeader(t *testing.T) {
	web := newFakeWeb(newTestClock())
	web.robots["a.example"] = "User-agent: *\nDisallow:\n"
	web.robots["b.example"] = "User-agent: *\nDisallow: /private\n"
	client := newFakeCrawler(web, nil, "ExampleBot")
	for _, tc := range []struct {
		host, path string
		allowed    bool
	}{
		{"", "/private/x", true},
		{"b.example", "/private/x", false},
		{"b.example", "/public", true},
		{"A.example:80", "/private/x", true}, // the URL's own site, spelled otherwise
	} {
		req, _ := http.NewRequest(http.MethodGet, "http://a.example"+tc.path, nil)
		req.Host = tc.host
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		var de *fetch.DisallowedError
		if got := !errors.As(err, &de); got != tc.allowed || (err != nil && de == nil) {
			t.Errorf("GET %s with Host %q: %v; want allowed = %v", tc.path, tc.host, err, tc.allowed)
		}
		if de != nil && !strings.HasPrefix(de.URL, "http://b.example/") {
			t.Errorf("DisallowedError.URL = %q; want the URL as the server reads it, on b.example", de.URL)
		}
	}
}
