package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed50c7eacc/robotstxt"
)

// A Transport is an http.RoundTripper that obeys robots.txt: it sends a
// request only when the site's robots.txt, as a Client fetches and caches
// it, allows it for the crawler's agent, and it spaces out the requests to
// each site. Give it to an http.Client and every request the client makes
// is checked, each hop of a redirect included, since an http.Client calls
// its Transport once per hop:
//
//	client := &http.Client{Transport: fetch.NewTransport(http.DefaultTransport, "ExampleBot", robots)}
//
// A disallowed request is not sent: RoundTrip returns a *DisallowedError
// (wrapped by the http.Client in a *url.Error; use errors.As).
//
// What is checked is what the server will read. robotstxt.Robots.Allowed
// matches a URL exactly as written, as Google's library does, but a server
// reads /public/../private/x, /public/%2E%2E/private/x, //private/x and
// /%70rivate/x as /private/x. So before each request and each hop, every
// reading of its path that common servers apply is checked, and the
// request is refused if robots.txt disallows any: the path as sent; the
// path normalized as RFC 3986 section 6.2.2 allows (unreserved %xx decoded,
// dot segments removed, %2E included), with and without repeated slashes
// merged (Go's http.ServeMux and static file servers); the path with every
// %xx decoded, %2F included, and dot segments removed, with and without
// slashes merged (nginx, merge_slashes on or off); the same with %2F
// kept encoded (Apache); when the path holds a backslash, nginx's
// reading with each backslash a slash (servers on Windows); and when it
// holds a ';', nginx's reading with each segment's parameters dropped
// (Tomcat, Jetty: /public/..;/private is /private). The query is
// matched as the matcher matches it, as sent and with its unreserved %xx
// decoded. There are at most eight
// readings, each one linear pass over the path. The path checked is the
// request target net/http sends (URL.RequestURI), never URL.String(),
// whose user information and fragment are not sent. A request whose Host
// header names another site than its URL, or whose target is in absolute
// form (an Opaque "//host/path"), is checked against the robots.txt of
// each site it names too, since the server may read it as either; a Host
// or authority that is not a plain host and port is refused.
//
// The request is sent as written, not rewritten to a normal form: every
// reading of it has been checked, so a normal form would add no safety,
// and it would change what some servers serve (a %2F in an API path, a
// "..", a signed URL whose signature covers its spelling).
//
// The rules are matched as written (Google's library), and also as RFC
// 9309 section 2.2.2 compares them, each unreserved %xx of a pattern
// decoded: a server reads /~joe as /%7Ejoe, so Disallow: /%7Ejoe refuses
// a request for /~joe/x too, and the refusal names the rule as written.
//
// What it cannot guarantee: a server that maps two different paths to one
// resource by rules of its own (a case-insensitive file system serving
// /PRIVATE as /private or a Windows one ignoring trailing dots and
// spaces, a rewrite rule, a path decoded twice, nginx reading a rule's
// %2F as the slash the rule did not write) may serve a disallowed resource under
// a path robots.txt allows. robots.txt is written in the site's own URL space; no client can
// know every server's private aliases.
//
// The robots.txt fetches of the Client pass straight to Base, unchecked
// and unpaced: the Client marks the context of its requests, and an
// http.Client gives every redirect hop the context of the request it
// started from, so the hops of a robots.txt fetch keep the mark and no hop
// of any other request can have it (the mark is unexported). So the Client
// may fetch through the very http.Client that uses this Transport without
// waiting on itself. Which hops the robots.txt fetch follows is the
// Client's RedirectPolicy. The crawler's own request for a site's
// /robots.txt (without a query) is implicitly allowed (RFC 9309 section
// 2.2.2) and passes straight to Base too, unpaced.
//
// What an unreachable robots.txt means follows Google's rules as the
// Client applies them (RFC 9309, section 2.3.1.4): while a site's
// robots.txt cannot be fetched (5xx, 429, network errors) its last copy
// applies, and without one nothing is sent, the error's Cause saying why
// (an *UnreachableError: the HTTP status and Retry-After, or the network
// error), until the failures have lasted 30 days; a missing robots.txt
// (4xx) allows everything. An error of the Client itself (the request's
// context ended) fails the request; it is never read as permission.
//
// Politeness: the requests to one site, its origin as robotstxt.RobotsURL
// keys it (scheme, host lower-cased and in punycode, a trailing dot and a
// default port dropped: site.test, SITE.test:80 and site.test. are one),
// are spaced by the agent's Crawl-delay, or the interval of its
// Request-rate when that is longer, bounded by MinDelay and MaxDelay.
// After a 429 or 503 response the site is left alone for its Retry-After
// (seconds or an HTTP date), or for a backoff doubling from
// DefaultBackoff, up to MaxBackoff. A request waits in RoundTrip for its
// turn, concurrent requests to one site queueing in order, and gives up
// when its context ends; one whose deadline comes before its turn fails at
// once with an error wrapping context.DeadlineExceeded. An http.Client's
// Timeout sets such a deadline and counts the wait: keep it above MaxDelay
// (colly's default of 10 seconds is not). No goroutine is started; the
// state of at most MaxHosts sites is kept, the least recently used
// forgotten first (a site whose last request is older than its delay
// loses nothing by being forgotten; beyond MaxHosts sites busy at once, a
// forgotten site may be asked sooner).
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
	stats    transportCounters
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

// RoundTrip sends req through Base if robots.txt allows it, once the
// site may be asked again. See Transport for the rules.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.init()
	if isRobotsFetch(req.Context()) || isBareRobotsURL(req.URL) {
		return t.base.RoundTrip(req)
	}
	pageURL, path, query := targetURL(req.URL.Scheme, req.URL.Host, req.URL)
	t.stats.requests.Add(1)
	key, robots, err := t.allow(req, pageURL, req.URL.Scheme, req.URL.Host, path, query)
	if err == nil {
		err = t.allowOtherSites(req, key, path, query)
	}
	if err != nil {
		t.stats.countRefusal(err)
		closeBody(req)
		return nil, err
	}
	ctx := req.Context()
	origin := strings.TrimSuffix(key, "/robots.txt")
	if err := t.pacer.wait(ctx, origin, interval(robots.Agent(t.Agents...))); err != nil {
		closeBody(req)
		return nil, err
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		t.pacer.pause(origin, resp.Header)
	}
	return resp, err
}

// allow checks the request target path and query of req against the
// robots.txt of the site scheme://host, and returns that robots.txt URL
// and its rules, or the refusal. pageURL is scheme://host, path and
// query: see targetURL.
func (t *Transport) allow(req *http.Request, pageURL, scheme, host, path, query string) (key string, robots *robotstxt.Robots, err error) {
	key, err = siteKey(scheme, host, pageURL)
	if err != nil {
		return "", nil, fmt.Errorf("fetch: the robots.txt of %s: %w", pageURL, err)
	}
	e, parsed, err := t.robots.resolve(req.Context(), key)
	if err != nil {
		return "", nil, fmt.Errorf("fetch: the robots.txt of %s: %w", pageURL, err)
	}
	robots = t.robots.rulesOf(e, parsed)
	agent := robots.Agent(t.Agents...)
	var normal *normalRules
	if robots == parsed && parsed != nil {
		normal = t.robots.memo.normal(key, e, parsed)
	}
	if d := t.check(agent, normal, strings.TrimSuffix(key, "/robots.txt"), pageURL, path, query); d != nil {
		d.URL, d.Outcome = pageURL, robots.Outcome()
		if d.Outcome == robotstxt.DisallowAll {
			d.Cause = t.robots.unreachable(key, e)
		}
		return "", nil, d
	}
	return key, robots, nil
}

// allowOtherSites checks req against the robots.txt of every other site
// the server may read it as, besides its URL's (whose robots.txt URL is
// key): the site its Host header names, and the site an absolute-form
// request target names (an Opaque "//host/path": RFC 9112 section 3.2.2
// has the server read the request as that host's, though it is sent on
// the connection to the URL's host, whose server may serve one site
// only). A Host or an authority that does not parse as a host is refused:
// the check cannot know which site the server reads it as (nginx and Go's
// ServeMux read the Host "site.test:abc" as site.test's).
func (t *Transport) allowOtherSites(req *http.Request, key, path, query string) error {
	other := func(scheme, host string) error {
		pageURL := scheme + "://" + host + path + query
		k, err := siteKey(scheme, host, pageURL)
		if err != nil {
			return fmt.Errorf("fetch: the robots.txt of %s: %w", pageURL, err)
		}
		if k == key {
			return nil
		}
		_, _, err = t.allow(req, pageURL, scheme, host, path, query)
		return err
	}
	if req.Host != "" && req.Host != req.URL.Host {
		if err := other(req.URL.Scheme, req.Host); err != nil {
			return err
		}
	}
	if scheme, host, ok := absoluteAuthority(req.URL); ok {
		return other(scheme, host)
	}
	return nil
}

// siteKey returns the robots.txt URL of the site that scheme and host
// (a URL's host, a Host header, the authority of an absolute-form
// target) name, given pageURL, which is scheme://host followed by a
// path. A host that holds more than a host and a port (user information,
// a path, a query) is an error, not read the way url.Parse would read
// it: a server may read it otherwise.
func siteKey(scheme, host, pageURL string) (string, error) {
	if host == "" || strings.ContainsAny(host, "/?#@\\ ") {
		return "", &robotstxt.URLError{Op: "RobotsURL", URL: scheme + "://" + host, Err: robotstxt.ErrInvalidHost}
	}
	return robotsKey(pageURL)
}

// targetURL returns the URL a request to u is checked as: scheme://host
// followed by the request target net/http sends (see requestTarget), and
// that target's path and query, slices of it. It is built from what is
// sent, not from u.String(), which holds the user information, whose ';'
// Google's matcher would take for the start of the path (so
// http://x;@site/private was matched as /;@site/private), and the
// fragment, which is not sent. It allocates once for a URL with a path.
func targetURL(scheme, host string, u *url.URL) (pageURL, path, query string) {
	if u.Opaque == "" {
		if p := u.EscapedPath(); p != "" && p[0] == '/' {
			sep := ""
			if u.ForceQuery || u.RawQuery != "" {
				sep = "?"
			}
			pageURL = scheme + "://" + host + p + sep + u.RawQuery
			n := len(scheme) + len("://") + len(host)
			return pageURL, pageURL[n : n+len(p)], pageURL[n+len(p):]
		}
	}
	path, query = requestTarget(u)
	return scheme + "://" + host + path + query, path, query
}

// absoluteAuthority returns the scheme and the authority of a request
// target that net/http sends in absolute form (an Opaque URL whose
// RequestURI is "scheme://host/path").
func absoluteAuthority(u *url.URL) (scheme, host string, ok bool) {
	if u.Opaque == "" {
		return "", "", false
	}
	target := u.RequestURI()
	if strings.HasPrefix(target, "/") {
		return "", "", false
	}
	scheme, rest, ok := strings.Cut(target, "://")
	if !ok {
		return "", "", false
	}
	if j := strings.IndexAny(rest, "/?"); j >= 0 {
		rest = rest[:j]
	}
	return scheme, rest, true
}

// isBareRobotsURL reports whether u is a site's /robots.txt, without a
// query: implicitly allowed (RFC 9309 section 2.2.2), it needs no
// robots.txt to be fetched first, so that a request for it never waits on
// a fetch of itself, even one that lost the Client's mark (a wrapper
// that replaced its context).
func isBareRobotsURL(u *url.URL) bool {
	return u.Opaque == "" && u.RawQuery == "" && !u.ForceQuery && u.EscapedPath() == "/robots.txt"
}

// check returns the refusal of a request whose target is path and query
// (pageURL on origin), or nil when every reading of its path is allowed
// (see pathReadings) by agent's rules, and by those rules as RFC 9309
// compares them, normal, when it is not nil (see normalizedRules). The
// path /robots.txt itself, without a query, is always allowed (RFC 9309
// section 2.2.2).
func (t *Transport) check(agent *robotstxt.Agent, normal *normalRules, origin, pageURL, path, query string) *DisallowedError {
	if path == "/robots.txt" && query == "" {
		return nil
	}
	var normalAgent *robotstxt.Agent
	if normal != nil {
		normalAgent = normal.robots.Agent(t.Agents...)
	}
	// refusal returns the refusal of the reading read, if a rule
	// disallows it.
	refusal := func(read string) *DisallowedError {
		if v := agent.Explain(read); !v.Allowed {
			return &DisallowedError{Agent: agent.Name(), Verdict: v}
		}
		if normalAgent != nil {
			if v := normalAgent.Explain(read); !v.Allowed {
				return &DisallowedError{Agent: agent.Name(), Verdict: normal.asWritten(v)}
			}
		}
		return nil
	}
	if plainPath(path) && !strings.Contains(query, "%") {
		// The common case: the only reading is the URL as sent, whose
		// path and query pageURL holds.
		return refusal(pageURL)
	}
	queries := [2]string{query, decodeUnreserved(query)}
	for _, p := range pathReadings(path) {
		for i, q := range queries {
			if i == 1 && q == query {
				break
			}
			read := origin + p + q
			if d := refusal(read); d != nil {
				if p != path || q != query {
					d.Reading = read
				}
				return d
			}
		}
	}
	return nil
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

// robotsFetchKey marks the context of the requests a Client makes for
// robots.txt files. An http.Client gives each redirect hop the context of
// the request it started from, so every hop of a robots.txt fetch carries
// the mark and no hop of any other request can: the mark is unexported,
// so no caller can set it. Nor can a caller reuse one: the mark lapses
// when its fetch ends, so a context kept from a robots.txt fetch (by a
// CheckRedirect, a Base, a trace hook), even stripped of its cancellation
// by context.WithoutCancel, makes a request like any other.
type robotsFetchKey struct{}

// A robotsFetchMark is the mark of one robots.txt fetch; it holds while
// the fetch runs.
type robotsFetchMark struct{ ended atomic.Bool }

// markRobotsFetch returns ctx marked as a robots.txt fetch's, and the
// function that ends the mark, which the fetch calls when it is over.
func markRobotsFetch(ctx context.Context) (context.Context, func()) {
	m := &robotsFetchMark{}
	return context.WithValue(ctx, robotsFetchKey{}, m), func() { m.ended.Store(true) }
}

// isRobotsFetch reports whether a request's context is that of a
// robots.txt fetch a Client is making.
func isRobotsFetch(ctx context.Context) bool {
	m, _ := ctx.Value(robotsFetchKey{}).(*robotsFetchMark)
	return m != nil && !m.ended.Load()
}

// closeBody closes the body of a request that is not sent, as a
// RoundTripper must.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
