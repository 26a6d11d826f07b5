package fetch_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// Attempts to walk past the Transport with requests whose URL, Host
// header or request target say one thing to the check and another to the
// server. Each goes to a loopback server that plays several sites (by
// the Host it reads) and logs what it receives.

// A vhostHit is what the server received: the Host it read the request
// as, its decoded and escaped path, and its request target.
type vhostHit struct{ Host, Path, RawPath, RequestURI string }

type vhostServer struct {
	mu   sync.Mutex
	hits map[string][]vhostHit // by the X-Case header of the request
}

// newVhostServer starts a server for the sites of rules (host -> the
// robots.txt it serves): /go?to=URL redirects to URL with the status of
// ?status (302 by default), anything else is a page. base dials it
// whatever the host.
func newVhostServer(t *testing.T, rules map[string]string) (s *vhostServer, base *http.Transport) {
	t.Helper()
	s = &vhostServer{hits: map[string][]vhostHit{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = strings.Trim(r.Host, "[]") // no port
		}
		if r.URL.Path == "/robots.txt" && r.URL.RawQuery == "" {
			fmt.Fprint(w, rules[host])
			return
		}
		s.mu.Lock()
		id := r.Header.Get("X-Case")
		s.hits[id] = append(s.hits[id], vhostHit{r.Host, r.URL.Path, r.URL.RawPath, r.RequestURI})
		s.mu.Unlock()
		if to := r.URL.Query().Get("to"); to != "" {
			status := http.StatusFound
			fmt.Sscan(r.URL.Query().Get("status"), &status)
			w.Header().Set("Location", to) // as is: http.Redirect would clean it
			w.WriteHeader(status)
			return
		}
		fmt.Fprint(w, "page")
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	base = &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	}}
	t.Cleanup(base.CloseIdleConnections)
	return s, base
}

func (s *vhostServer) received(id string) []vhostHit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[id]
}

// TestTransportRequestTargets: what is checked is the request net/http
// sends (URL.RequestURI on the connection to URL.Host, with the Host
// header req.Host), never req.URL.String(); and every site the server may
// read the request as must allow it.
func TestTransportRequestTargets(t *testing.T) {
	rules := map[string]string{
		"a.test":             "User-agent: *\nDisallow: /private\n",
		"b.test":             "User-agent: *\nDisallow:\n",
		"::1":                "User-agent: *\nDisallow: /private\n",
		"xn--bcher-kva.test": "User-agent: *\nDisallow: /private\n",
	}
	s, base := newVhostServer(t, rules)
	client := &http.Client{Transport: fetch.NewTransport(base, "ExampleBot", &fetch.Client{HTTPClient: &http.Client{Transport: base}})}
	handMade := func(u *url.URL) *http.Request {
		return &http.Request{Method: http.MethodGet, URL: u, Header: http.Header{}}
	}
	parsed := func(rawURL string) *http.Request {
		req, err := http.NewRequest(http.MethodGet, rawURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		return req
	}
	withHost := func(req *http.Request, host string) *http.Request { req.Host = host; return req }
	withOpaque := func(req *http.Request, opaque string) *http.Request { req.URL.Opaque = opaque; return req }
	redirect := func(from, to string, status int) *http.Request {
		req := parsed(from + "/go?status=" + fmt.Sprint(status) + "&to=" + url.QueryEscape(to))
		if status == http.StatusTemporaryRedirect {
			req = withBody(req, "payload")
		}
		return req
	}
	for _, tc := range []struct {
		name string
		req  *http.Request
		want []vhostHit // what the server receives; nil when nothing is sent
	}{
		// RFC 3986 section 3.2.1: user information is not sent (net/http
		// turns it into an Authorization header), and it may hold a ';',
		// where Google's matcher starts the path of a URL string.
		{"userinfo ;", handMade(&url.URL{Scheme: "http", Host: "a.test", User: url.User("x;"), Path: "/private/x"}), nil},
		{"userinfo ; password", handMade(&url.URL{Scheme: "http", Host: "a.test", User: url.UserPassword("u", "p;"), Path: "/private/x"}), nil},
		{"userinfo allowed", handMade(&url.URL{Scheme: "http", Host: "a.test", User: url.User("x;"), Path: "/public"}), []vhostHit{{"a.test", "/public", "", "/public"}}},
		// The fragment is not sent.
		{"fragment", handMade(&url.URL{Scheme: "http", Host: "a.test", Path: "/public", Fragment: "/private"}), []vhostHit{{"a.test", "/public", "", "/public"}}},
		// The Host header names the site the server reads the request as
		// (RFC 9110 section 7.2); one that does not parse as a host is
		// refused: nginx and Go's ServeMux read "a.test:abc" as a.test.
		{"Host other site", withHost(parsed("http://b.test/private/x"), "a.test"), nil},
		{"Host other site spelled", withHost(parsed("http://b.test/private/x"), "A.TEST.:80"), nil},
		{"Host bad port", withHost(parsed("http://b.test/private/x"), "a.test:abc"), nil},
		{"Host with path", withHost(parsed("http://b.test/private/x"), "a.test/x"), nil},
		{"Host same site", withHost(parsed("http://b.test/private/x"), "B.test:80"), []vhostHit{{"B.test:80", "/private/x", "", "/private/x"}}},
		// An absolute-form target (RFC 9112 section 3.2.2) names a site,
		// read by a server that serves many; it is sent on the connection
		// to the URL's host, whose server may serve one: both must allow.
		{"absolute form names a.test", withOpaque(parsed("http://b.test/"), "//a.test/private/x"), nil},
		{"absolute form on a.test", withOpaque(parsed("http://a.test/"), "//b.test/private/x"), nil},
		{"absolute form allowed", withOpaque(parsed("http://a.test/"), "//b.test/public"), []vhostHit{{"b.test", "/public", "", "http://b.test/public"}}},
		{"origin form opaque", withOpaque(parsed("http://a.test/"), "/private/x"), nil},
		// URL.RawPath counts only when it encodes Path (URL.EscapedPath).
		{"RawPath not of Path", handMade(&url.URL{Scheme: "http", Host: "a.test", Path: "/public/x", RawPath: "/private/x"}), []vhostHit{{"a.test", "/public/x", "", "/public/x"}}},
		{"RawPath of Path", handMade(&url.URL{Scheme: "http", Host: "a.test", Path: "/private/x", RawPath: "/%70rivate/x"}), nil},
		{"raw # in Path", handMade(&url.URL{Scheme: "http", Host: "a.test", Path: "/private#x"}), nil},
		{"raw ? in Path", handMade(&url.URL{Scheme: "http", Host: "a.test", Path: "/private?x"}), nil},
		{"relative Path", handMade(&url.URL{Scheme: "http", Host: "a.test", Path: "private/x"}), nil},
		// Servers on Windows take a backslash for a slash.
		{"backslash", parsed(`http://a.test/public\..\private`), nil},
		{"backslash opaque", withOpaque(parsed("http://a.test/"), `/public\..\private`), nil},
		// Tomcat and Jetty drop path parameters (RFC 3986 section 3.3).
		{"params ..;", parsed("http://a.test/public/..;/private/x"), nil},
		{"params segment", parsed("http://a.test/;jsessionid=1/private/x"), nil},
		{"params allowed", parsed("http://a.test/public;x/y"), []vhostHit{{"a.test", "/public;x/y", "", "/public;x/y"}}},
		{"upper-case scheme", handMade(&url.URL{Scheme: "HTTP", Host: "a.test", Path: "/private/x"}), nil},
		// One site, however its host is written (RFC 3986 section 6.2.2.1
		// and 6.2.3).
		{"trailing dot", parsed("http://a.test./private"), nil},
		{"default port", parsed("http://A.TEST:80/private"), nil},
		{"IPv6", parsed("http://[0:0::1]:80/private"), nil},
		{"IDN", parsed("http://BÜCHER.test/private"), nil},
		// Each hop of a redirect is a request like any other, resolved as
		// RFC 3986 section 5.2 says (dot segments removed).
		{"hop dot segments", redirect("http://b.test", "http://a.test/public/../private/x", 302), []vhostHit{{"b.test", "/go", "", ""}}},
		{"hop protocol-relative", redirect("http://b.test", "//a.test/private", 302), []vhostHit{{"b.test", "/go", "", ""}}},
		{"hop through /robots.txt/..", redirect("http://a.test", "/robots.txt/../private", 302), []vhostHit{{"a.test", "/go", "", ""}}},
		{"hop relative ..", redirect("http://a.test", "../private/x", 302), []vhostHit{{"a.test", "/go", "", ""}}},
		{"hop %2E%2E", redirect("http://a.test", "/public/%2E%2E/private", 302), []vhostHit{{"a.test", "/go", "", ""}}},
		{"hop 307 with a body", redirect("http://a.test", "/private/x", 307), []vhostHit{{"a.test", "/go", "", ""}}},
		{"hop other port", redirect("http://b.test", "http://a.test:80/private", 301), []vhostHit{{"b.test", "/go", "", ""}}},
		{"hop robots.txt?query", redirect("http://b.test", "http://a.test/robots.txt?x=/private", 302), []vhostHit{{"b.test", "/go", "", ""}, {"a.test", "/robots.txt", "", "/robots.txt?x=/private"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Header.Set("X-Case", tc.name)
			resp, err := client.Do(tc.req)
			if err == nil {
				resp.Body.Close()
			}
			var de *fetch.DisallowedError
			refused := errors.As(err, &de) || err != nil && strings.Contains(err.Error(), "fetch: the robots.txt of")
			last := len(tc.want) - 1
			if wantSent := last >= 0 && tc.want[last].Path != "/go"; refused == wantSent {
				t.Errorf("error %v; want sent = %v", err, wantSent)
			}
			got := s.received(tc.name)
			for i := range got { // the target of a hop is not the case's to write out
				if got[i].Path == "/go" {
					got[i].RequestURI = ""
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("received (-want +got):\n%s", diff)
			}
		})
	}
}

func withBody(req *http.Request, body string) *http.Request {
	req.Method = http.MethodPost
	req.Body = io.NopCloser(bytes.NewReader([]byte(body)))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader([]byte(body))), nil }
	return req
}

// RFC 9309 section 2.2.2: a percent-encoded unreserved octet of a rule
// is decoded before comparison, so Disallow: /%7Ejoe disallows /~joe,
// which a server reads as the same path. Google's matcher, and so
// Allowed, compares patterns as written; the Transport also checks each
// request against the rules with those octets decoded, and with every
// octet decoded as a server reads it. Before, GET /~joe/x and GET
// /private/x were sent.
func TestTransportEncodedRules(t *testing.T) {
	rules := map[string]string{
		"a.test": "User-agent: *\r\nDisallow: /%7Ejoe # /%7Ejoe\r\nDisallow: /%70rivate\r\nAllow: /%70rivate/open\r\nDisallow: /x%2Fy\r\n",
	}
	s, base := newVhostServer(t, rules)
	client := &http.Client{Transport: fetch.NewTransport(base, "ExampleBot", &fetch.Client{HTTPClient: &http.Client{Transport: base}})}
	for _, tc := range []struct {
		path string
		rule robotstxt.Rule // the rule that refuses it, as written; none when sent
	}{
		{"/~joe/x", robotstxt.Rule{Pattern: "/%7Ejoe", Line: 2}},
		{"/%7ejoe/x", robotstxt.Rule{Pattern: "/%7Ejoe", Line: 2}},
		{"/%7Ejoe/x", robotstxt.Rule{Pattern: "/%7Ejoe", Line: 2}},
		{"/private/x", robotstxt.Rule{Pattern: "/%70rivate", Line: 3}},
		{"/pr%69vate/x", robotstxt.Rule{Pattern: "/%70rivate", Line: 3}},
		{"/private/open", robotstxt.Rule{}}, // the longer allow (RFC 9309 section 2.2.2)
		{"/public", robotstxt.Rule{}},
		// A reserved character's %xx is not decoded by RFC 9309 (RFC
		// 3986 section 2.2), but nginx, Go's http.FileServer and Apache
		// with AllowEncodedSlashes On read x%2Fy as x/y, so the
		// Transport refuses both (its documented over-blocking).
		{"/x/y", robotstxt.Rule{Pattern: "/x%2Fy", Line: 5}},
		{"/x%2Fy", robotstxt.Rule{Pattern: "/x%2Fy", Line: 5}},
	} {
		req, _ := http.NewRequest(http.MethodGet, "http://a.test"+tc.path, nil)
		req.Header.Set("X-Case", tc.path)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		var de *fetch.DisallowedError
		switch {
		case tc.rule.Line == 0 && err != nil:
			t.Errorf("GET %s: %v; want it sent", tc.path, err)
		case tc.rule.Line != 0 && !errors.As(err, &de):
			t.Errorf("GET %s: %v; want a *fetch.DisallowedError", tc.path, err)
		case tc.rule.Line != 0 && de.Verdict.Rule != tc.rule:
			t.Errorf("GET %s: refused by %+v; want %+v", tc.path, de.Verdict.Rule, tc.rule)
		}
		if got, sent := len(s.received(tc.path)), tc.rule.Line == 0; (got == 1) != sent {
			t.Errorf("GET %s: received %d times; want sent = %v", tc.path, got, sent)
		}
	}
}

// The mark by which the Transport knows a robots.txt fetch holds only
// while that fetch runs: a context kept from one (here by a wrapper of the
// Client's transport), stripped of its cancellation, makes a request like
// any other. Before, GET /private/x with it was sent unchecked.
func TestTransportKeptRobotsContext(t *testing.T) {
	s, base := newVhostServer(t, map[string]string{"a.test": "User-agent: *\nDisallow: /private\n"})
	var mu sync.Mutex
	var kept context.Context
	keeping := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		kept = req.Context()
		mu.Unlock()
		return base.RoundTrip(req)
	})
	client := &http.Client{Transport: fetch.NewTransport(base, "ExampleBot", &fetch.Client{HTTPClient: &http.Client{Transport: keeping}})}
	if _, err := get(t, client, "http://a.test/public"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	ctx := context.WithoutCancel(kept)
	mu.Unlock()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://a.test/private/x", nil)
	req.Header.Set("X-Case", "kept")
	resp, err := client.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	var de *fetch.DisallowedError
	if !errors.As(err, &de) {
		t.Errorf("GET /private/x with a robots.txt fetch's context: %v; want a *fetch.DisallowedError", err)
	}
	if got := s.received("kept"); len(got) != 0 {
		t.Errorf("received %v; want nothing", got)
	}
}

// TestTransportRequestShapes: thousands of requests built at random from
// the shapes above (user information, a fragment, a Host header naming
// the site or another, spelled otherwise or not a host, an absolute-form
// target naming either site) around the generated spellings of allowed
// and disallowed paths. The server logs each request by the site it read
// it as (Go's server: the absolute-form authority, else the Host header)
// and the path it resolved: none is disallowed there, and every request
// that each site it names allows is received.
func TestTransportRequestShapes(t *testing.T) {
	rules := map[string]string{"a.test": spellingRules["a.test"], "b.test": spellingRules["b.test"]}
	robots := map[string]*robotstxt.Robots{}
	for host, body := range rules {
		robots[host] = robotstxt.Parse([]byte(body))
	}
	s, base := newVhostServer(t, rules)
	client := &http.Client{Transport: fetch.NewTransport(base, "bot", &fetch.Client{HTTPClient: &http.Client{Transport: base}})}
	siteOf := func(host string) string {
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		return strings.ToLower(strings.TrimSuffix(host, "."))
	}
	// allows says whether the site host names allows the escaped path as
	// servers read it; a host that is not one is no site.
	allows := func(host, escaped string) bool {
		r, ok := robots[siteOf(host)]
		if !ok || strings.Contains(host, ":abc") {
			return false
		}
		p, err := url.Parse(escaped)
		if err != nil {
			return false
		}
		return spellingTruth(map[string]*robotstxt.Robots{siteOf(host): r}, &url.URL{Scheme: "http", Host: siteOf(host), Path: p.Path, RawPath: p.RawPath})
	}
	hosts := []string{"a.test", "A.TEST.", "a.test:80", "b.test", "B.test:80"}
	users := []*url.Userinfo{nil, nil, url.User("x"), url.User("x;"), url.UserPassword("u", "p;q")}
	hostHeaders := []string{"", "", "", "", "a.test", "b.test", "A.test.", "a.test:abc"}
	rng := rand.New(rand.NewPCG(21, 22))
	var sent, refused int
	for i := 0; i < 3000; i++ {
		host := hosts[rng.IntN(len(hosts))]
		bases := spellingBases[siteOf(host)]
		escaped := spell(rng, bases[rng.IntN(len(bases))])
		p, err := url.Parse(escaped)
		if err != nil || p.EscapedPath() != escaped {
			continue
		}
		u := &url.URL{Scheme: "http", Host: host, User: users[rng.IntN(len(users))], Path: p.Path, RawPath: p.RawPath}
		if rng.IntN(8) == 0 {
			u.Fragment = "/private"
		}
		req := &http.Request{Method: http.MethodGet, URL: u, Header: http.Header{}, Host: hostHeaders[rng.IntN(len(hostHeaders))]}
		names := []string{host}
		if req.Host != "" {
			names = append(names, req.Host)
		}
		if rng.IntN(6) == 0 {
			other := hosts[rng.IntN(len(hosts))]
			u.Opaque = "//" + other + escaped
			names = append(names, other)
		}
		want := true
		for _, name := range names {
			want = want && allows(name, escaped)
		}
		id := fmt.Sprint(i)
		req.Header.Set("X-Case", id)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			sent++
		} else {
			refused++
		}
		got := s.received(id)
		if len(got) > 1 || (len(got) == 1) != want {
			t.Errorf("%s (Host %q, Opaque %q): received %v (error %v); want sent = %v", u.Redacted(), req.Host, u.Opaque, got, err, want)
		}
		for _, h := range got {
			if !allows(h.Host, (&url.URL{Path: h.Path, RawPath: h.RawPath}).EscapedPath()) {
				t.Errorf("%s (Host %q, Opaque %q): the server read %s%s, which robots.txt disallows", u.Redacted(), req.Host, u.Opaque, h.Host, h.Path)
			}
		}
	}
	t.Logf("%d requests sent, %d refused", sent, refused)
	if sent < 300 || refused < 300 {
		t.Errorf("%d sent, %d refused: the generator does not reach both", sent, refused)
	}
}
