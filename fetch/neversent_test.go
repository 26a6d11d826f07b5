package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/seed50c7eacc/robotstxt/fetch"
)

// The two ways past a rule that were open before: a rule ending in '$'
// walked past by a trailing "/." or an encoded trailing slash, and a rule
// with a reserved character percent-encoded walked past by the character
// itself. A static file server (Go's http.FileServer, Caddy, lighttpd,
// Python's http.server) serves /secret.html/. and /secret.html%2F as
// /secret.html, and /a!b and /a%21b as one file.

// reservedChars are the reserved characters of RFC 3986 section 2.2:
// gen-delims, then sub-delims.
const reservedChars = ":/?#[]@" + "!$&'()*+,;="

// A cleaningServer reads a request as a static file server does: its path
// decoded (%2F included, as net/http's URL.Path holds it) and cleaned by
// path.Clean, which drops dot segments, repeated slashes and a trailing
// slash. It logs each path it resolves, by the request's X-Case header.
type cleaningServer struct {
	mu       sync.Mutex
	resolved map[string][]string
}

func newCleaningServer(t *testing.T, robots string) (*cleaningServer, *http.Transport) {
	t.Helper()
	s := &cleaningServer{resolved: map[string][]string{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" && r.URL.RawQuery == "" {
			fmt.Fprint(w, robots)
			return
		}
		s.mu.Lock()
		id := r.Header.Get("X-Case")
		s.resolved[id] = append(s.resolved[id], path.Clean(r.URL.Path))
		s.mu.Unlock()
		fmt.Fprint(w, "page")
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	base := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	}}
	t.Cleanup(base.CloseIdleConnections)
	return s, base
}

func (s *cleaningServer) got(id string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resolved[id]
}

// TestTransportNeverSendsDollarWalkPast: a rule ending in '$' (RFC 9309
// section 2.2.3) matches the path that ends there; a server that cleans
// the path as path.Clean does reads /docs/file.pdf/. and
// /docs/file.pdf%2F as /docs/file.pdf, so the Transport refuses them.
func TestTransportNeverSendsDollarWalkPast(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /secret.html$\n"
	s, base := newCleaningServer(t, robots)
	client := &http.Client{Transport: fetch.NewTransport(base, "ExampleBot", &fetch.Client{HTTPClient: &http.Client{Transport: base}})}
	var cases []string
	for _, file := range []string{"/docs/file.pdf", "/secret.html"} {
		for _, tail := range []string{"/.", "/./", "/", "%2f", "%2F", "//", "/.//", "/%2e", "/%2E/", "%2F.", "%2f%2f", "/x/..", "/x/../"} {
			cases = append(cases, file+tail)
		}
	}
	for _, target := range cases {
		t.Run(target, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, "http://site.test"+target, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("X-Case", target)
			resp, err := client.Do(req)
			if err == nil {
				resp.Body.Close()
			}
			var de *fetch.DisallowedError
			if !errors.As(err, &de) {
				t.Errorf("GET %s: err = %v, want a *fetch.DisallowedError; the server resolved it as %q", target, err, s.got(target))
			}
			if got := s.got(target); len(got) != 0 {
				t.Errorf("GET %s reached the server as %q", target, got)
			}
		})
	}
	// The allowed paths next to the files still go.
	s.mustReceive(t, client, "/docs/file.pdf.html", "/docs/", "/secret.html.bak", "/docs/file.pdfx/")
}

// mustReceive sends each target, which robots.txt allows, and checks
// that the server received it.
func (s *cleaningServer) mustReceive(t *testing.T, client *http.Client, targets ...string) {
	t.Helper()
	for _, target := range targets {
		req, _ := http.NewRequest(http.MethodGet, "http://site.test"+target, nil)
		req.Header.Set("X-Case", target)
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("GET %s: %v; robots.txt allows it", target, err)
			continue
		}
		resp.Body.Close()
		if len(s.got(target)) != 1 {
			t.Errorf("GET %s was not received", target)
		}
	}
}

// TestTransportNeverSendsReservedEscapes: Disallow: /r/a%21b keeps /r/a!b
// apart in Google's matcher (RFC 9309 section 2.2.2 decodes unreserved
// characters alone), but a server reads both spellings as one path, so
// the Transport refuses each spelling of every reserved character of RFC
// 3986 section 2.2, the rule's hex in either case.
func TestTransportNeverSendsReservedEscapes(t *testing.T) {
	var rules strings.Builder
	rules.WriteString("User-agent: *\n")
	type spelling struct{ target, resolves string }
	var cases []spelling
	for i := 0; i < len(reservedChars); i++ {
		c := reservedChars[i]
		for _, ruleHex := range []string{fmt.Sprintf("%02X", c), fmt.Sprintf("%02x", c)} {
			dir := fmt.Sprintf("/r%d%s/", i, ruleHex[1:]) // one directory per rule
			fmt.Fprintf(&rules, "Disallow: %sa%%%sb\n", dir, ruleHex)
			escaped := []string{"%" + strings.ToUpper(ruleHex), "%" + strings.ToLower(ruleHex)}
			for _, e := range escaped {
				cases = append(cases, spelling{dir + "a" + e + "b", dir + "a" + string(c) + "b"})
			}
			// The character itself, where it stays in the path: '?'
			// starts the query and '#' the fragment, which name other
			// resources.
			if c != '?' && c != '#' {
				cases = append(cases, spelling{dir + "a" + string(c) + "b", dir + "a" + string(c) + "b"})
			}
		}
	}
	s, base := newCleaningServer(t, rules.String())
	client := &http.Client{Transport: fetch.NewTransport(base, "ExampleBot", &fetch.Client{HTTPClient: &http.Client{Transport: base}})}
	for _, tc := range cases {
		req, err := http.NewRequest(http.MethodGet, "http://site.test"+tc.target, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Case", tc.target)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		var de *fetch.DisallowedError
		if !errors.As(err, &de) {
			t.Errorf("GET %s (a server reads %s): err = %v, want a *fetch.DisallowedError", tc.target, tc.resolves, err)
		}
		if got := s.got(tc.target); len(got) != 0 {
			t.Errorf("GET %s reached the server as %q", tc.target, got)
		}
	}
	// Paths next to the rules still go.
	s.mustReceive(t, client, "/r0a/ab", "/r7/a-b", "/r8/a%22b")
}
