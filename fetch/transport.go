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
// /%70rivate/x as /private/x, and a static file server reads
// /secret.html/. and /secret.html%2F as /secret.html. So before each
// request and each hop, every reading of its path that common servers
// apply is checked, against the rules as written and as servers read
// their escapes (Disallow: /%7Ejoe and Disallow: /a%21b refuse /~joe/x
// and /a!b), and the request is refused if robots.txt disallows any.
// There are at most sixteen readings, each one linear pass over the path;
// this is the one list of them, with the servers that make each:
//
//   - the path as sent (every server);
//   - the path normalized as RFC 3986 section 6.2.2 says every URI may
//     be: percent-encoded unreserved characters decoded (section 6.2.2.2;
//     RFC 9309 section 2.2.2 compares paths so too) and dot segments
//     removed (sections 5.2.4 and 6.2.2.3), %2E and %2e included;
//   - that, with repeated slashes merged (Go's http.ServeMux, which
//     cleans a path with path.Clean, and static file servers that map a
//     path to a file name);
//   - the path with every %xx decoded, %2F included, repeated slashes
//     merged and dot segments removed: what nginx resolves a location and
//     a file from (merge_slashes is on by default), and what Go's
//     http.FileServer, Caddy's file_server, lighttpd, Python's
//     http.server and Apache with AllowEncodedSlashes On open;
//   - the same without merging slashes (nginx with merge_slashes off);
//   - the same with %2F kept encoded (Apache's default
//     AllowEncodedSlashes Off decodes every other %xx);
//   - when the path holds a backslash, raw or as %5C: nginx's reading with
//     each backslash a slash, as servers on Windows read it (IIS, and
//     nginx and Apache built for Windows, whose file system takes '\'
//     for a separator);
//   - when the path holds a ';': nginx's reading of the path with each
//     segment's parameters (from a ';' to the end of the segment,
//     RFC 3986 section 3.3) removed first, as Tomcat and Jetty read it:
//     /index.jsp;jsessionid=1 is /index.jsp, and /public/..;/private is
//     /private;
//   - each reading above that ends in a slash, with its trailing slashes
//     removed: path.Clean drops them, and a static file server (Go's
//     http.FileServer, Caddy, lighttpd, Python's http.server) serves the
//     file /secret.html for /secret.html/, /secret.html/. and
//     /secret.html%2F, so a rule ending in '$' is not walked past.
//
// A reading that decodes bytes is checked in the form robots.txt rules are
// written in: each decoded byte that may not stand for itself in a path
// ('%', '?', '#', a space, a control or a non-ASCII byte), and each '*'
// and '$', which a rule reads as a wildcard and an end, is encoded again,
// in upper-case hex. The query is not a path: servers do not resolve it,
// and the matcher compares it as written, so each reading is checked with
// the query as sent and, when it differs, with its unreserved %xx decoded
// (an equivalent URI, RFC 3986 section 6.2.2.2); an empty query ("/a?")
// is checked without it too, since every server reads it as none.
//
// The rules are matched as written (Google's library), and as two
// rewritten copies of the file: each unreserved %xx of a
// pattern decoded, as RFC 9309 section 2.2.2 compares them, so
// Disallow: /%7Ejoe refuses /~joe/x; and every %xx of a pattern decoded,
// reserved characters included, in the form above, since a server reads
// /a!b and /a%21b as one file, so Disallow: /a%21b refuses /a!b too.
//
// What no reading catches, and what the readings refuse needlessly:
//
//   - a server that maps two different paths to one resource by rules of
//     its own may serve a disallowed resource under a path robots.txt
//     allows: a case-insensitive file system serving /PRIVATE as
//     /private, a Windows one ignoring trailing dots and spaces, a
//     rewrite rule, a path decoded twice, an alias or a symbolic link.
//     robots.txt is written in the site's own URL space; no client can
//     know every server's private aliases;
//   - a server that serves /a!b and /a%21b, or /dir and /dir/, as
//     different resources gets neither through the Transport when a rule
//     names one of them (Disallow: /a%21b refuses /a!b, Disallow: /dir$
//     refuses /dir/);
//   - the host the rules come from is the URL's, as robotstxt.RobotsURL
//     keys it: site.test. (a trailing dot) is site.test, whose robots.txt
//     applies, though a server may serve the dotted name from another
//     site (Caddy serves it from its default site). The Transport keeps
//     that, which refuses needlessly where the other site allows more and
//     is never less safe.
//
// The path checked is the request target net/http sends
// (URL.RequestURI), never URL.String(), whose user information and
// fragment are not sent. A request whose Host header names another site
// than its URL, or whose target is in absolute form (an Opaque
// "//host/path"), is checked against the robots.txt of each site it names
// too, since the server may read it as either; a Host or authority that
// is not a plain host and port is refused.
//
// The request is sent as written, not rewritten to a normal form: every
// reading of it has been checked, so a normal form would add no safety,
// and it would change what some servers serve (a %2F in an API path, a
// "..", a signed URL whose signature covers its spelling).
//
// Every request the Transport sends carries a User-Agent: one without
// the header gets the Client's (Client.UserAgent, or DefaultUserAgent),
// so that the site sees its pages asked for under the name its robots.txt
// was fetched for; a header the caller set, even empty, is kept.
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

	initOnce  sync.Once
	base      http.RoundTripper
	robots    *Client
	userAgent []string // the User-Agent header's value, shared by the requests that lack one
	pacer     pacer
	stats     transportCounters
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
		t.userAgent = []string{t.robots.userAgent()}
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
	if isRobotsFetch(req.Context()) {
		return t.base.RoundTrip(req)
	}
	req = t.withUserAgent(req)
	if isBareRobotsURL(req.URL) {
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

// withUserAgent returns req with the User-Agent of the Client that
// fetches the robots.txt files, when req has no User-Agent header, so that
// a site sees its pages asked for under the name its robots.txt was
// fetched and obeyed for; a User-Agent the caller set, even empty (which
// net/http sends as none), is kept. A RoundTripper must not change its
// request, so the header is set on a copy.
func (t *Transport) withUserAgent(req *http.Request) *http.Request {
	if _, ok := req.Header["User-Agent"]; ok {
		return req
	}
	// A shallow copy with a header map of its own is enough: only the
	// header changes, and the values it shares are not written.
	r := new(http.Request)
	*r = *req
	r.Header = make(http.Header, len(req.Header)+1)
	for k, v := range req.Header {
		r.Header[k] = v
	}
	r.Header["User-Agent"] = t.userAgent
	return r
}

// userAgent is the User-Agent header the Client sends.
func (c *Client) userAgent() string {
	if c.UserAgent == "" {
		return DefaultUserAgent
	}
	return c.UserAgent
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
// (pageURL on origin), or nil when every reading of its path (see
// pathReadings) is allowed by agent's rules, and by the copies of those
// rules that RFC 9309 and servers read otherwise, normal, when it is not
// nil (see normalizedRules). The path /robots.txt itself, without a
// query, is always allowed (RFC 9309 section 2.2.2).
func (t *Transport) check(agent *robotstxt.Agent, normal *normalRules, origin, pageURL, path, query string) *DisallowedError {
	if path == "/robots.txt" && query == "" {
		return nil
	}
	var copies [2]struct {
		agent *robotstxt.Agent
		rules *rewrittenRules
	}
	n := 0
	if normal != nil {
		// An array, not a slice built per call: no allocation per request.
		for _, c := range [2]*rewrittenRules{normal.rfc, normal.server} {
			if c != nil {
				copies[n].agent, copies[n].rules = c.robots.Agent(t.Agents...), c
				n++
			}
		}
	}
	// refusal returns the refusal of the reading read, if a rule
	// disallows it.
	refusal := func(read string) *DisallowedError {
		if v := agent.Explain(read); !v.Allowed {
			return &DisallowedError{Agent: agent.Name(), Verdict: v}
		}
		for _, c := range copies[:n] {
			if v := c.agent.Explain(read); !v.Allowed {
				return &DisallowedError{Agent: agent.Name(), Verdict: c.rules.asWritten(v)}
			}
		}
		return nil
	}
	if plainPath(path) && query != "?" && !strings.Contains(query, "%") {
		// The common case: the only reading is the URL as sent, whose
		// path and query pageURL holds.
		return refusal(pageURL)
	}
	queries := [3]string{query, decodeUnreserved(query)}
	if query == "?" {
		queries[2] = "" // "/a?" is "/a" to every server
	}
	for _, p := range pathReadings(path) {
		for i, q := range queries {
			if i == 1 && q == query || i == 2 && query != "?" {
				continue
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
