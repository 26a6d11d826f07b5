package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// A rawHit is what a server received, byte for byte: its request target
// and the escaped path net/http read from it.
type rawHit struct {
	RequestURI  string
	EscapedPath string
	RawPath     string
	RawQuery    string
}

// newRawLogServer starts a server that serves body as its /robots.txt,
// redirects /public/go?to=X to X (the Location as written: http.Redirect
// would clean it) and logs every other request as received.
func newRawLogServer(t *testing.T, body string) (srv *httptest.Server, hits func() []rawHit) {
	t.Helper()
	var mu sync.Mutex
	var log []rawHit
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.RequestURI == "/robots.txt" {
			fmt.Fprint(w, body)
			return
		}
		mu.Lock()
		log = append(log, rawHit{r.RequestURI, r.URL.EscapedPath(), r.URL.RawPath, r.URL.RawQuery})
		mu.Unlock()
		if r.URL.Path == "/public/go" {
			w.Header().Set("Location", r.URL.Query().Get("to"))
			w.WriteHeader(http.StatusFound)
			return
		}
		fmt.Fprint(w, "page")
	}))
	t.Cleanup(srv.Close)
	return srv, func() []rawHit {
		mu.Lock()
		defer mu.Unlock()
		return append([]rawHit(nil), log...)
	}
}

// hitOf is the rawHit of a request for target (path and query) sent as
// written: its request target, its path and its query unchanged. RawPath
// is the written path when net/http would not spell Path that way itself,
// and empty when it would (url.URL.EscapedPath).
func hitOf(target, rawPath string) rawHit {
	path, query, _ := strings.Cut(target, "?")
	return rawHit{RequestURI: target, EscapedPath: path, RawPath: rawPath, RawQuery: query}
}

// The Transport checks every reading of a request's path (the path with
// its unreserved %xx decoded among them), but it sends the request as
// the caller wrote it: an allowed URL whose path holds %xx escapes, in
// upper or lower case, reaches the server with the same request target,
// byte for byte, and so does a redirect hop whose Location holds them.
func TestTransportSendsAsWritten(t *testing.T) {
	srv, hits := newRawLogServer(t, "User-agent: *\nDisallow: /private\n")
	client := &http.Client{Transport: fetch.NewTransport(srv.Client().Transport, "ExampleBot", &fetch.Client{HTTPClient: srv.Client()})}
	for _, tc := range []struct {
		name    string
		target  string // the path and query the caller writes
		rawPath string // the server's URL.RawPath: empty when net/http spells the path so itself
	}{
		// A normal form would decode %7e and %7E (unreserved: RFC 3986
		// 6.2.2.2) and upper-case %2f; the request keeps them as written.
		{"lower %7e, %2F", "/public/%7euser/a%2Fb?q=%7e&r=a%2fb", "/public/%7euser/a%2Fb"},
		{"upper %7E, lower %2f", "/public/%7Euser/a%2fb?q=%7E", "/public/%7Euser/a%2fb"},
		{"UTF-8 upper", "/public/caf%C3%A9?q=caf%C3%A9", ""}, // net/http's own spelling
		{"UTF-8 lower", "/public/caf%c3%a9?q=caf%c3%a9", "/public/caf%c3%a9"},
		{"escaped letters", "/public/%41%62c?%41=%62", "/public/%41%62c"},
		{"escaped dot segment", "/public/%2E%2E%2fx/%2e", "/public/%2E%2E%2fx/%2e"}, // /x/ to nginx: allowed
		{"params and space", "/public/a%20b;p=%3B?x=%20", "/public/a%20b;p=%3B"},
	} {
		req, err := http.NewRequest(http.MethodGet, srv.URL+tc.target, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		before := len(hits())
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("%s: GET %s: %v; want it sent", tc.name, tc.target, err)
			continue
		}
		resp.Body.Close()
		got := hits()[before:]
		if diff := cmp.Diff([]rawHit{hitOf(tc.target, tc.rawPath)}, got); diff != "" {
			t.Errorf("%s: GET %s: the server received (-want +got):\n%s", tc.name, tc.target, diff)
		}
	}

	// A redirect hop is sent as its Location writes it, whether the
	// Location is a path or an absolute URL.
	for _, tc := range []struct {
		name, location, target, rawPath string
	}{
		{"Location path", "/public/%7Ehop/a%2fb?x=%41", "/public/%7Ehop/a%2fb?x=%41", "/public/%7Ehop/a%2fb"},
		{"Location URL", srv.URL + "/public/caf%c3%a9/%7e?q=%c3%a9", "/public/caf%c3%a9/%7e?q=%c3%a9", "/public/caf%c3%a9/%7e"},
	} {
		start := "/public/go?to=" + escapeQuery(tc.location)
		before := len(hits())
		resp, err := client.Get(srv.URL + start)
		if err != nil {
			t.Errorf("%s: GET %s: %v; want both hops sent", tc.name, start, err)
			continue
		}
		resp.Body.Close()
		got := hits()[before:]
		want := []rawHit{hitOf(start, ""), hitOf(tc.target, tc.rawPath)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the server received (-want +got):\n%s", tc.name, diff)
		}
	}

	// The same server and Transport refuse a spelling of /private: the
	// readings are checked, only the sending is as written.
	before := len(hits())
	_, err := client.Get(srv.URL + "/public/%2E%2E/%70rivate/x")
	var de *fetch.DisallowedError
	if !errors.As(err, &de) {
		t.Errorf("GET /public/%%2E%%2E/%%70rivate/x: %v; want a *fetch.DisallowedError", err)
	}
	if got := hits()[before:]; len(got) != 0 {
		t.Errorf("a refused request reached the server: %v", got)
	}
}

// escapeQuery escapes s as a query value, every byte but letters and
// digits as %XX, so that the server's Query().Get gives s back exactly.
func escapeQuery(s string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b)
}

// Client.Allowed answers as Google's library does: it matches the URL as
// given, and so gives, for every spelling, the verdict of
// robotstxt.Parse(body).Allowed(agent, url). Google's robots.txt
// documentation
// (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt)
// has the rules matched against the URL's path, and Google's open-source
// matcher (github.com/google/robotstxt), which robotstxt follows, takes
// that path as written: it removes no dot segments, merges no slashes and
// decodes no %xx, though RFC 9309 section 2.2.2 compares after decoding
// the unreserved %xx. The Transport, which decides what is sent, refuses
// the same spellings under every reading a server may apply (see
// TestTransportSpellingsRefused). The two answers differ on purpose; this
// test pins both, and that the Client's is the library's.
func TestClientAllowedStaysGoogleExact(t *testing.T) {
	const agent = "ExampleBot"
	const body = "User-agent: *\nDisallow: /private\nDisallow: /%7Ejoe\n"
	srv, hits := newRawLogServer(t, body)
	robots := &fetch.Client{HTTPClient: srv.Client()}
	client := &http.Client{Transport: fetch.NewTransport(srv.Client().Transport, agent, robots)}
	google := robotstxt.Parse([]byte(body))

	// What each party answers for a URL.
	type verdict struct {
		Library bool // robotstxt.Parse(body).Allowed(agent, url)
		Client  bool // Client.Allowed(ctx, agent, url)
		Refused bool // the Transport returned a *fetch.DisallowedError
		Sent    bool // the request reached the server
	}
	for _, tc := range []struct {
		path    string
		google  bool // Google's verdict: its matcher takes the path as written
		refused bool // the Transport refuses it: some reading is disallowed
	}{
		{"/private/x", false, true},                        // the control: both refuse
		{"/public/../private/x", true, true},               // RFC 3986 5.2.4 dot segments: the matcher keeps them
		{"/public/%2E%2E/private/x", true, true},           // %2E is '.'
		{"/%70rivate/x", true, true},                       // %70 is 'p': RFC 9309 2.2.2 decodes it, Google's matcher does not
		{"//private/x", true, true},                        // nginx merges slashes; the matcher does not
		{"/public%2F..%2Fprivate/x", true, true},           // nginx decodes %2F
		{"/public/..;/private/x", true, true},              // Tomcat and Jetty drop ";" parameters
		{"/~joe/x", true, true},                            // the rule /%7Ejoe, its %7E decoded (RFC 9309 2.2.2)
		{"/%7Ejoe/x", false, true},                         // the rule as written
		{"/private%2Fx", false, true},                      // /private is a prefix of the path as written
		{"/public/x", true, false},                         // allowed by all
		{"/public/%7euser/a%2Fb?q=%70rivate", true, false}, // allowed by all
		{"/PRIVATE/x", true, false},                        // case matters under every reading
	} {
		u := srv.URL + tc.path
		ok, err := robots.Allowed(context.Background(), agent, u)
		if err != nil {
			t.Fatalf("Client.Allowed(%q): %v", u, err)
		}
		got := verdict{Library: google.Allowed(agent, u), Client: ok}
		before := len(hits())
		resp, err := client.Get(u)
		if resp != nil {
			resp.Body.Close()
		}
		got.Sent = len(hits()) > before
		var de *fetch.DisallowedError
		switch {
		case errors.As(err, &de):
			got.Refused = true
			t.Logf("%s: refused under the reading %s", tc.path, de.Reading)
		case err != nil:
			t.Errorf("GET %s: %v; want it sent or a *fetch.DisallowedError", tc.path, err)
		}
		want := verdict{Library: tc.google, Client: tc.google, Refused: tc.refused, Sent: !tc.refused}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.path, diff)
		}
	}
}
