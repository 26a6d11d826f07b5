package fetch

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/seed50c7eacc/robotstxt"
)

// A Transport is an http.RoundTripper that obeys robots.txt: it sends a
// request only when the site's robots.txt, as a Client fetches and caches
// it, allows it for the crawler's agent, and it spaces out the requests to
// each host. Give it to an http.Client and every request the client makes
// is checked, each hop of a redirect included, since an http.Client calls
// its Transport once per hop:
//
//	client := &http.Client{Transport: fetch.NewTransport(http.DefaultTransport, "ExampleBot", robots)}
//
// A disallowed request is not sent: RoundTrip returns a *DisallowedError
// (wrapped by the http.Client in a *url.Error; use errors.As).
//
// What an unreachable robots.txt means follows Google's rules as the
// Client applies them (RFC 9309, section 2.3.1.4): while a site's
// robots.txt cannot be fetched (5xx, 429, network errors) its last copy
// applies, and without one nothing is sent, the error saying the file is
// unreachable, until the failures have lasted 30 days; a missing
// robots.txt (4xx) allows everything. An error of the Client itself (the
// request's context ended) fails the request; it is never read as
// permission.
//
// Requests for /robots.txt, and the redirect hops of such a request, pass
// straight to Base, unchecked and unpaced. So the Client may fetch through
// the very http.Client that uses this Transport without waiting on itself.
//
// Politeness: the requests to one host (host name and port) are spaced by
// the agent's Crawl-delay, or the interval of its Request-rate when that
// is longer, bounded by MinDelay and MaxDelay. After a 429 or 503
// response the host is left alone for its Retry-After (seconds or an HTTP
// date), or for a backoff doubling from DefaultBackoff, up to MaxBackoff.
// A request waits in RoundTrip for its turn, concurrent requests to one
// host queueing in order, and gives up when its context ends; one whose
// deadline comes before its turn fails at once with an error wrapping
// context.DeadlineExceeded. An http.Client's Timeout sets such a deadline
// and counts the wait: keep it above MaxDelay (colly's default of 10
// seconds is not). No goroutine is started; the state of at most MaxHosts
// hosts is kept, the least recently used forgotten first (a host whose last
// request is older than its delay loses nothing by being forgotten; beyond
// MaxHosts hosts busy at once, a forgotten host may be asked sooner).
//
// A Transport is safe for concurrent use. Set its fields before its first
// use and not after.
type Transport struct {
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Agents are the product tokens the crawler obeys, most specific first
	// (see robotstxt.Robots.Agent): "Googlebot-Image", "Googlebot". The
	// first that a group of the file names decides; else the "*" groups,
	// which are all that apply when Agents is empty.
	Agents []string
	// Robots fetches and caches the robots.txt files; nil means a Client
	// of the Transport's own that fetches through Base.
	Robots *Client

	// MinDelay is the least time between two requests to one host, even
	// when its robots.txt asks for none. Zero means none.
	MinDelay time.Duration
	// MaxDelay caps the Crawl-delay or Request-rate interval of a
	// robots.txt; zero means DefaultMaxDelay. It must not be below MinDelay.
	MaxDelay time.Duration
	// MaxBackoff caps a host's pause after a 429 or 503 response; zero
	// means DefaultMaxBackoff.
	MaxBackoff time.Duration
	// MaxHosts bounds how many hosts pacing state is kept for; zero means
	// DefaultMaxHosts.
	MaxHosts int

	// Now tells the time and Sleep waits for d or until ctx ends, so that
	// tests can pace on a fake clock; nil means time.Now and a timer.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error

	initOnce sync.Once
	base     http.RoundTripper
	robots   *Client
	pacer    pacer
}

// NewTransport returns a Transport that sends requests through base (nil
// means http.DefaultTransport) when the robots.txt files that robots
// fetches allow them to agent, a product token such as "ExampleBot". To
// obey further tokens when the file does not name agent, append them to
// its Agents.
func NewTransport(base http.RoundTripper, agent string, robots *Client) *Transport {
	return &Transport{Base: base, Agents: []string{agent}, Robots: robots}
}

func (t *Transport) init() {
	t.initOnce.Do(func() {
		t.base = t.Base
		if t.base == nil {
			t.base = http.DefaultTransport
		}
		t.robots = t.Robots
		if t.robots == nil {
			t.robots = &Client{HTTPClient: &http.Client{Transport: t.base}, Now: t.Now}
		}
		t.pacer = pacer{
			minDelay:   max(t.MinDelay, 0),
			maxDelay:   orDefault(t.MaxDelay, DefaultMaxDelay),
			backoff:    DefaultBackoff,
			maxBackoff: orDefault(t.MaxBackoff, DefaultMaxBackoff),
			maxHosts:   t.MaxHosts,
			now:        t.Now,
			sleep:      t.Sleep,
		}
		if t.pacer.maxHosts <= 0 {
			t.pacer.maxHosts = DefaultMaxHosts
		}
		if t.pacer.now == nil {
			t.pacer.now = time.Now
		}
		if t.pacer.sleep == nil {
			t.pacer.sleep = sleepContext
		}
	})
}

// RoundTrip sends req through Base if robots.txt allows it, once the host
// may be asked again. See Transport for the rules.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.init()
	if isRobotsFetch(req) {
		return t.base.RoundTrip(req)
	}
	ctx := req.Context()
	pageURL := req.URL.String()
	robots, err := t.robots.Robots(ctx, pageURL)
	if err != nil {
		closeBody(req)
		return nil, fmt.Errorf("fetch: the robots.txt of %s: %w", pageURL, err)
	}
	agent := robots.Agent(t.Agents...)
	if v := agent.Explain(pageURL); !v.Allowed {
		closeBody(req)
		return nil, &DisallowedError{URL: pageURL, Agent: agent.Name(), Verdict: v, Outcome: robots.Outcome()}
	}
	host := strings.ToLower(req.URL.Host)
	if err := t.pacer.wait(ctx, host, interval(agent)); err != nil {
		closeBody(req)
		return nil, err
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		t.pacer.pause(host, resp.Header)
	}
	return resp, err
}

// CloseIdleConnections closes the idle connections of Base, when it has
// such a method, so that http.Client.CloseIdleConnections reaches it.
func (t *Transport) CloseIdleConnections() {
	t.init()
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// interval is the time a robots.txt asks between two requests of agent:
// its Crawl-delay or its Request-rate interval, the longer.
func interval(agent *robotstxt.Agent) time.Duration {
	d, _ := agent.CrawlDelay()
	if rr, ok := agent.RequestRate(); ok && rr > d {
		d = rr
	}
	return d
}

// isRobotsFetch reports whether req asks for a robots.txt file, or is a
// redirect hop of a request that did: the http.Client links each hop to
// the response that caused it.
func isRobotsFetch(req *http.Request) bool {
	for hop := 0; req != nil && hop < 64; hop++ {
		if req.URL != nil && req.URL.Path == "/robots.txt" {
			return true
		}
		if req.Response == nil {
			return false
		}
		req = req.Response.Request
	}
	return false
}

// closeBody closes the body of a request that is not sent, as a
// RoundTripper must.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// A DisallowedError is the error of a request that robots.txt does not
// allow, and that was therefore not sent.
type DisallowedError struct {
	URL   string // the request's URL
	Agent string // the agent whose rules applied (see robotstxt.Agent.Name)
	// Verdict is the rule that decided; its Rule.Line is 0 when no rule
	// did (Outcome is then DisallowAll).
	Verdict robotstxt.Verdict
	// Outcome is DisallowAll when the site's robots.txt is unreachable,
	// and Rules when a rule of the file disallows the URL.
	Outcome robotstxt.Outcome
}

// Error says which URL was not requested and why: the rule that
// disallows it, or its unreachable robots.txt.
func (e *DisallowedError) Error() string {
	if e.Outcome == robotstxt.DisallowAll {
		return fmt.Sprintf("fetch: %s not requested: its robots.txt is unreachable, so nothing may be crawled for now", e.URL)
	}
	return fmt.Sprintf("fetch: robots.txt disallows %s for %s: %v", e.URL, e.Agent, e.Verdict)
}
