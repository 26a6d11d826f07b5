package fetch_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// A DisallowedError says why a robots.txt is unreachable (RFC 9309
// section 2.3.1.4): the HTTP status and Retry-After of the failed fetch,
// or the network error, which errors.Is and errors.As reach.
func TestDisallowedErrorCause(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedAddr := closed.Addr().String()
	closed.Close() // nothing listens there now: connections are refused

	for _, tc := range []struct {
		name       string
		status     int
		retryAfter string
		wantStatus int
		wantWait   time.Duration
		wantText   []string
		wantIs     error
	}{
		{name: "503 with Retry-After", status: 503, retryAfter: "120", wantStatus: 503, wantWait: 2 * time.Minute, wantText: []string{"HTTP status 503", "Retry-After 2m0s"}},
		{name: "429", status: 429, wantStatus: 429, wantText: []string{"HTTP status 429"}},
		{name: "500", status: 500, wantStatus: 500, wantText: []string{"HTTP status 500"}},
		{name: "refused connection", wantText: []string{"connection refused"}, wantIs: syscall.ECONNREFUSED},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := "http://" + refusedAddr
			if tc.status != 0 {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if tc.retryAfter != "" {
						w.Header().Set("Retry-After", tc.retryAfter)
					}
					w.WriteHeader(tc.status)
				}))
				defer srv.Close()
				site = srv.URL
			}
			var logs bytes.Buffer
			var outcomes []string
			robots := &fetch.Client{
				Logger:  slog.New(slog.NewTextHandler(&logs, nil)),
				OnEvent: func(ev fetch.Event) { outcomes = append(outcomes, ev.Outcome) },
			}
			client := &http.Client{Transport: fetch.NewTransport(nil, "ExampleBot", robots)}
			resp, err := client.Get(site + "/page")
			if err == nil {
				resp.Body.Close()
			}
			var de *fetch.DisallowedError
			if !errors.As(err, &de) || de.Outcome != robotstxt.DisallowAll {
				t.Fatalf("GET: %v; want a *fetch.DisallowedError with Outcome DisallowAll", err)
			}
			var ue *fetch.UnreachableError
			if !errors.As(err, &ue) {
				t.Fatalf("GET: %v; want it to wrap an *fetch.UnreachableError", err)
			}
			if ue.Status != tc.wantStatus || ue.RetryAfter != tc.wantWait || ue.RobotsURL != site+"/robots.txt" || ue.Failures != 1 {
				t.Errorf("UnreachableError %+v; want status %d, Retry-After %v", ue, tc.wantStatus, tc.wantWait)
			}
			msg := err.Error()
			for _, want := range append(tc.wantText, `"disallow all"`) {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q does not say %q", msg, want)
				}
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.wantIs)
			}
			var op *net.OpError
			if tc.wantIs != nil && !errors.As(err, &op) {
				t.Errorf("errors.As(%v, *net.OpError) = false", err)
			}
			// One spelling of the outcome: String, events and logs.
			if len(outcomes) != 1 || outcomes[0] != robotstxt.DisallowAll.String() || !strings.Contains(logs.String(), `outcome="disallow all"`) {
				t.Errorf("events %q, log %q; want the outcome spelled %q", outcomes, logs.String(), robotstxt.DisallowAll.String())
			}
		})
	}
}

// The cause survives a shared store: a second process reading the failed
// entry gives the status, Retry-After and the error's text.
func TestDisallowedErrorCauseFromStore(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "300")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	store := fetch.NewLRU(0, 0)
	first := &fetch.Client{Cache: store}
	if _, err := first.Allowed(context.Background(), "bot", srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	first.Flush(context.Background())
	second := &fetch.Client{Cache: store}
	client := &http.Client{Transport: fetch.NewTransport(nil, "ExampleBot", second)}
	_, err := client.Get(srv.URL + "/page")
	var ue *fetch.UnreachableError
	if !errors.As(err, &ue) || ue.Status != 503 || ue.RetryAfter != 5*time.Minute || ue.Err == nil || ue.Err.Error() != "HTTP status 503" {
		t.Errorf("GET through a second process: %v (%+v)", err, ue)
	}
}

// redirectSites is a site whose robots.txt redirects (to path on the
// same site, or to the victim) and a victim that counts its requests.
func redirectSites(t *testing.T, toVictim bool) (site, victim *httptest.Server, victimHits *atomic.Int64) {
	victimHits = new(atomic.Int64)
	victim = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		victimHits.Add(1)
		w.Write([]byte("User-agent: *\nDisallow: /\n"))
	}))
	t.Cleanup(victim.Close)
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt" && toVictim:
			http.Redirect(w, r, victim.URL+"/private/delete?id=1", http.StatusFound)
		case r.URL.Path == "/robots.txt":
			http.Redirect(w, r, "/config/robots.txt", http.StatusMovedPermanently)
		default:
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
		}
	}))
	t.Cleanup(site.Close)
	return site, victim, victimHits
}

// The robots.txt redirect policies: Google's by default (five hops, any
// host, RFC 9309 section 2.3.1.2), the robots.txt's own origin only, or
// the caller's CheckRedirect alone.
func TestRedirectPolicy(t *testing.T) {
	outcome := func(c *fetch.Client, site string) (robotstxt.Outcome, *fetch.Entry) {
		r, err := c.Robots(context.Background(), site+"/x")
		if err != nil {
			t.Fatal(err)
		}
		e, _ := c.Entry(context.Background(), site+"/robots.txt")
		return r.Outcome(), e
	}
	t.Run("follow: across hosts", func(t *testing.T) {
		site, _, hits := redirectSites(t, true)
		got, _ := outcome(&fetch.Client{}, site.URL)
		if got != robotstxt.Rules || hits.Load() != 1 {
			t.Errorf("outcome %v, %d requests to the other host; want rules, 1", got, hits.Load())
		}
	})
	t.Run("same origin: another host refused", func(t *testing.T) {
		site, _, hits := redirectSites(t, true)
		got, e := outcome(&fetch.Client{Redirects: fetch.SameOriginRedirects}, site.URL)
		if got != robotstxt.DisallowAll || hits.Load() != 0 || !strings.Contains(e.LastError, "another origin") {
			t.Errorf("outcome %v, %d requests to the other host, LastError %q; want disallow all, 0, a refused redirect", got, hits.Load(), e.LastError)
		}
	})
	t.Run("same origin: the site's own path followed", func(t *testing.T) {
		site, _, _ := redirectSites(t, false)
		got, _ := outcome(&fetch.Client{Redirects: fetch.SameOriginRedirects}, site.URL)
		if got != robotstxt.Rules {
			t.Errorf("outcome %v; want rules", got)
		}
	})
	t.Run("caller: its CheckRedirect alone", func(t *testing.T) {
		site, _, hits := redirectSites(t, true)
		refuse := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return errors.New("no redirects") }}
		got, _ := outcome(&fetch.Client{HTTPClient: refuse, Redirects: fetch.CallerRedirects}, site.URL)
		if got != robotstxt.DisallowAll || hits.Load() != 0 {
			t.Errorf("refusing CheckRedirect: outcome %v, %d requests; want disallow all, 0", got, hits.Load())
		}
		// Without one, http.Client's default: up to 10 hops, so a chain of
		// 7 ends in the file (Google's 5 would count it as a 404).
		var n atomic.Int64
		chain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) <= 7 {
				http.Redirect(w, r, "/robots.txt?"+strings.Repeat("x", int(n.Load())), http.StatusFound)
				return
			}
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
		}))
		defer chain.Close()
		if got, _ := outcome(&fetch.Client{Redirects: fetch.CallerRedirects}, chain.URL); got != robotstxt.Rules {
			t.Errorf("7 hops under http.Client's default: outcome %v; want rules", got)
		}
	})
}
