package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// When a robots.txt cannot be had (RFC 9309 section 2.3.1.4: a 5xx, a
// 429, a refused connection, a timeout, a body cut short) nothing of the
// site is sent, and the refusal says why; a robots.txt that redirects in
// a loop, or one whose rule stands past 500 KiB, is read as Google reads
// it (RFC 9309 sections 2.3.1.2 and 2.5); a caller whose context ends
// gets that error, never a permission.
func TestTransportRobotsFaults(t *testing.T) {
	padding := "#" + strings.Repeat("x", robotstxt.DefaultMaxSize) + "\n"
	var mu sync.Mutex
	pages := map[string]int{}
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host // no port
		}
		if r.URL.Path != "/robots.txt" {
			mu.Lock()
			pages[host+r.URL.Path]++
			mu.Unlock()
			return
		}
		switch host {
		case "s500.test":
			w.WriteHeader(http.StatusInternalServerError)
		case "s429.test":
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(http.StatusTooManyRequests)
		case "slow.test":
			<-release
		case "cut.test":
			w.Header().Set("Content-Length", "1000")
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
			conn, buf, _ := http.NewResponseController(w).Hijack()
			buf.Flush()
			conn.Close()
		case "loop.test":
			http.Redirect(w, r, "/robots.txt", http.StatusFound)
		case "first.test":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n"+padding)
		case "past.test":
			fmt.Fprint(w, padding+"User-agent: *\nDisallow: /private\n")
		}
	}))
	defer srv.Close()
	defer close(release)
	addr := srv.Listener.Addr().String()
	base := &http.Transport{DialContext: func(ctx context.Context, _, hostPort string) (net.Conn, error) {
		if strings.HasPrefix(hostPort, "refused.test:") {
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
		}
		return (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	}}
	defer base.CloseIdleConnections()
	client := &http.Client{Transport: fetch.NewTransport(base, "ExampleBot", &fetch.Client{HTTPClient: &http.Client{Transport: base}, Timeout: 300 * time.Millisecond})}
	for _, tc := range []struct {
		host    string
		outcome robotstxt.Outcome // of the refusal; 0 (Rules) and sent for the allowed
		sent    bool
		status  int // of the cause
	}{
		{"s500.test", robotstxt.DisallowAll, false, 500},
		{"s429.test", robotstxt.DisallowAll, false, 429},
		{"slow.test", robotstxt.DisallowAll, false, 0},
		{"cut.test", robotstxt.DisallowAll, false, 0},
		{"refused.test", robotstxt.DisallowAll, false, 0},
		{"loop.test", robotstxt.AllowAll, true, 0},
		{"first.test", robotstxt.Rules, false, 0},
		{"past.test", robotstxt.Rules, true, 0},
	} {
		_, err := get(t, client, "http://"+tc.host+"/private/x")
		mu.Lock()
		n := pages[tc.host+"/private/x"]
		mu.Unlock()
		if got := n == 1; got != tc.sent || (err == nil) != tc.sent {
			t.Errorf("%s: GET /private/x: %v, received %d times; want sent = %v", tc.host, err, n, tc.sent)
			continue
		}
		if tc.sent {
			continue
		}
		var de *fetch.DisallowedError
		if !errors.As(err, &de) || de.Outcome != tc.outcome {
			t.Errorf("%s: %v; want a *fetch.DisallowedError with outcome %v", tc.host, err, tc.outcome)
			continue
		}
		var ue *fetch.UnreachableError
		if tc.outcome == robotstxt.DisallowAll && (!errors.As(err, &ue) || ue.Status != tc.status) {
			t.Errorf("%s: %v; want an *fetch.UnreachableError with status %d", tc.host, err, tc.status)
		}
	}

	// A caller's context that ends before the robots.txt is had fails the
	// request with its error.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://slow.test:81/private/x", nil)
	_, err := client.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("GET with a context ending first: %v; want context.DeadlineExceeded", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := pages["slow.test/private/x"]; n != 0 {
		t.Errorf("slow.test/private/x received %d times", n)
	}
}

// Many goroutines asking at once for pages of sites whose robots.txt is
// slow to come: one fetch per site, no disallowed page received, every
// allowed one received. Run with -race.
func TestTransportConcurrentFirstFetch(t *testing.T) {
	const sites, perSite = 8, 40
	var robotsFetches atomic.Int64
	var mu sync.Mutex
	received := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robotsFetches.Add(1)
			time.Sleep(50 * time.Millisecond)
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
			return
		}
		mu.Lock()
		received[r.Host+r.URL.Path]++
		mu.Unlock()
	}))
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	base := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	}}
	defer base.CloseIdleConnections()
	client := &http.Client{Transport: fetch.NewTransport(base, "ExampleBot", &fetch.Client{HTTPClient: &http.Client{Transport: base}})}
	var wg sync.WaitGroup
	for s := range sites {
		for i := range perSite {
			wg.Add(1)
			go func() {
				defer wg.Done()
				path := fmt.Sprintf("/public/%d", i)
				if i%2 == 1 {
					path = fmt.Sprintf("/public/%%2E%%2E/private/%d", i)
				}
				resp, err := client.Get(fmt.Sprintf("http://s%d.test%s", s, path))
				if err == nil {
					resp.Body.Close()
				}
				var de *fetch.DisallowedError
				if (i%2 == 1) != errors.As(err, &de) {
					t.Errorf("GET s%d.test%s: %v", s, path, err)
				}
			}()
		}
	}
	wg.Wait()
	if n := robotsFetches.Load(); n != sites {
		t.Errorf("%d robots.txt fetches; want %d", n, sites)
	}
	mu.Lock()
	defer mu.Unlock()
	for key, n := range received {
		if strings.Contains(key, "private") || n != 1 {
			t.Errorf("received %s %d times", key, n)
		}
	}
	if len(received) != sites*perSite/2 {
		t.Errorf("%d pages received; want %d", len(received), sites*perSite/2)
	}
}
