package colly_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// fakeClock paces the crawl without real waiting: Sleep moves it forward.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return nil
}

// logged is one request as the server saw it, at the fake time.
type logged struct {
	path string
	at   time.Time
}

// site is a loopback web site with a robots.txt, a redirect into a
// disallowed path, and a page that answers 429 once. It logs every
// request it receives.
type site struct {
	*httptest.Server
	clock *fakeClock
	mu    sync.Mutex
	log   []logged
	slow  int // requests for /slow so far
}

const robotsTxt = `User-agent: *
Disallow: /private/
Crawl-delay: 2
`

func newSite(clock *fakeClock) *site {
	s := &site{clock: clock}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.log = append(s.log, logged{r.URL.Path, clock.Now()})
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		switch {
		case r.URL.Path == "/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, robotsTxt)
		case r.URL.Path == "/":
			fmt.Fprint(w, `<a href="/a">a</a> <a href="/private/plans">plans</a> <a href="/moved">moved</a> <a href="/slow">slow</a> <a href="/b">b</a>`)
		case r.URL.Path == "/moved":
			http.Redirect(w, r, "/private/draft", http.StatusMovedPermanently)
		case r.URL.Path == "/slow":
			s.mu.Lock()
			s.slow++
			first := s.slow == 1
			s.mu.Unlock()
			if first {
				w.Header().Set("Retry-After", "20")
				http.Error(w, "slow down", http.StatusTooManyRequests)
				return
			}
			fmt.Fprint(w, `<a href="/c">c</a>`)
		case strings.HasPrefix(r.URL.Path, "/private/"):
			fmt.Fprint(w, "secret")
		default:
			fmt.Fprint(w, `<a href="/">home</a> <a href="/c">c</a>`)
		}
	}))
	return s
}

// TestCollyCrawl runs a real colly crawl through fetch.Transport and checks,
// from the server's own log, that robots.txt and the host's pace were
// obeyed.
func TestCollyCrawl(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	srv := newSite(clock)
	defer srv.Close()

	robots := &fetch.Client{HTTPClient: srv.Client(), UserAgent: "ExampleBot/1.0", Now: clock.Now}
	transport := fetch.NewTransport(srv.Client().Transport, "ExampleBot", robots)
	transport.Now, transport.Sleep = clock.Now, clock.Sleep

	c := colly.NewCollector(colly.UserAgent("ExampleBot/1.0"))
	c.WithTransport(transport)
	// The timeout of colly's http.Client includes the time a request
	// waits for its turn in the Transport: leave room for the host's pace.
	c.SetRequestTimeout(time.Minute)
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		e.Request.Visit(e.Attr("href"))
	})
	var mu sync.Mutex
	var disallowed []string
	var statuses []int
	c.OnError(func(r *colly.Response, err error) {
		mu.Lock()
		defer mu.Unlock()
		var de *fetch.DisallowedError
		if errors.As(err, &de) {
			disallowed = append(disallowed, strings.TrimPrefix(de.URL, srv.URL))
			return
		}
		statuses = append(statuses, r.StatusCode)
	})
	// A later visit of /slow, as a crawler's retry queue would make it.
	c.OnScraped(func(r *colly.Response) {
		if r.Request.URL.Path == "/b" {
			r.Request.Visit("/slow?again")
		}
	})
	if err := c.Visit(srv.URL + "/"); err != nil {
		t.Fatalf("Visit: %v", err)
	}
	c.Wait()

	srv.mu.Lock()
	defer srv.mu.Unlock()
	var pages []string
	for _, l := range srv.log {
		if strings.HasPrefix(l.path, "/private/") {
			t.Errorf("the server received a disallowed request: %s", l.path)
		}
		if l.path != "/robots.txt" {
			pages = append(pages, l.path)
		}
	}
	// The crawl finished: every allowed page was fetched.
	want := []string{"/", "/a", "/c", "/moved", "/slow", "/b", "/slow"}
	if !slices.Equal(pages, want) {
		t.Errorf("pages requested = %q; want %q", pages, want)
	}
	slices.Sort(disallowed)
	if want := []string{"/private/draft", "/private/plans"}; !slices.Equal(disallowed, want) {
		t.Errorf("disallowed = %q; want %q (the redirect target included)", disallowed, want)
	}
	if !slices.Equal(statuses, []int{http.StatusTooManyRequests}) {
		t.Errorf("error statuses = %v; want one 429", statuses)
	}
	// Crawl-delay: 2 between requests to the host, and the 20 s of
	// Retry-After after the 429.
	var prev logged
	for _, l := range srv.log {
		if l.path == "/robots.txt" {
			continue
		}
		if prev.path != "" {
			if gap := l.at.Sub(prev.at); gap < 2*time.Second {
				t.Errorf("%s came %v after %s; want at least 2s (Crawl-delay)", l.path, gap, prev.path)
			}
		}
		prev = l
	}
	if after := nextAfter(srv.log, firstSlow(srv.log)); after < 20*time.Second {
		t.Errorf("the next request came %v after the 429; want at least 20s (Retry-After)", after)
	}
}

// firstSlow returns when /slow was first requested.
func firstSlow(log []logged) time.Time {
	for _, l := range log {
		if l.path == "/slow" {
			return l.at
		}
	}
	return time.Time{}
}

// nextAfter returns the gap between the request at t and the next page
// request.
func nextAfter(log []logged, t time.Time) time.Duration {
	for _, l := range log {
		if l.path != "/robots.txt" && l.at.After(t) {
			return l.at.Sub(t)
		}
	}
	return 0
}
