package guard_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/guard"
)

const siteRobots = `User-agent: *
Disallow: /private/

User-agent: GPTBot
Disallow: /

User-agent: Googlebot
Disallow: /nogoogle/
`

const (
	gptbot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	imagebot  = "Googlebot-Image/1.0"
	chrome    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	unknown   = "ExampleCrawler/0.1 (+https://example.com/crawler)"
)

func serve(t *testing.T, h http.Handler, ua, target string) (int, string) {
	t.Helper()
	req := httptest.NewRequest("GET", "http://site.test"+target, nil)
	req.RemoteAddr = "192.0.2.10:40000"
	if ua != "" {
		req.Header.Set("User-Agent", ua)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

var page = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page") })

// The crawler's own group decides (RFC 9309 section 2.2.1: the group
// naming its token, else "*"); a request that names no crawler passes;
// /robots.txt always passes (RFC 9309 section 2.2.2).
func TestHandler(t *testing.T) {
	var logged bytes.Buffer
	g := guard.New([]byte(siteRobots))
	g.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	h := g.Handler(page)
	for _, tc := range []struct {
		ua, target string
		want       int
		body       string
	}{
		{gptbot, "/public", 403, "refused: robots.txt disallows /public for GPTBot (line 5: disallow: /)\n"},
		{gptbot, "/robots.txt", 200, "page"},
		{googlebot, "/private/x", 200, "page"}, // Googlebot's group, not "*"
		{googlebot, "/nogoogle/x", 403, "refused: robots.txt disallows /nogoogle/x for Googlebot (line 8: disallow: /nogoogle/)\n"},
		{imagebot, "/nogoogle/x", 403, "refused: robots.txt disallows /nogoogle/x for Googlebot-Image (line 8: disallow: /nogoogle/)\n"}, // falls back to Googlebot
		{unknown, "/private/x", 403, "refused: robots.txt disallows /private/x for ExampleCrawler (line 2: disallow: /private/)\n"},
		{unknown, "/public/../private/x", 403, "refused: robots.txt disallows /private/x for ExampleCrawler (line 2: disallow: /private/)\n"},
		{unknown, "/%70rivate/x", 403, "refused: robots.txt disallows /private/x for ExampleCrawler (line 2: disallow: /private/)\n"},
		{chrome, "/private/x", 200, "page"},
		{"", "/private/x", 200, "page"},
	} {
		code, body := serve(t, h, tc.ua, tc.target)
		if code != tc.want || body != tc.body {
			t.Errorf("GET %s as %q: %d %q, want %d %q", tc.target, tc.ua, code, body, tc.want, tc.body)
		}
	}
	want := guard.Stats{Requests: 10, Crawlers: 7, Refused: 6} // /robots.txt is not asked who asks
	if diff := cmp.Diff(want, g.Stats()); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
	if n := strings.Count(logged.String(), "guard: refused"); n != 6 {
		t.Errorf("%d refusal events logged, want 6:\n%s", n, logged.String())
	}
	g.Status = http.StatusNotFound
	if code, _ := serve(t, h, gptbot, "/x"); code != 404 {
		t.Errorf("with Status 404, a refusal answers %d", code)
	}
}

// fakeResolver answers reverse and forward lookups from tables.
type fakeResolver struct {
	ptr     map[string][]string
	a       map[string][]string
	failing bool
}

func (f fakeResolver) LookupAddr(_ context.Context, addr string) ([]string, error) {
	if f.failing {
		return nil, &net.DNSError{Err: "server misbehaving", Name: addr, IsTemporary: true}
	}
	if names, ok := f.ptr[addr]; ok {
		return names, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: addr, IsNotFound: true}
}

func (f fakeResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	var out []net.IPAddr
	for _, a := range f.a[host] {
		out = append(out, net.IPAddr{IP: net.ParseIP(a)})
	}
	if out == nil {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}

// Google documents two ways to verify Googlebot: its published IP ranges,
// and a reverse DNS name in googlebot.com, google.com or
// googleusercontent.com that resolves forward to the same address.
func TestVerifiers(t *testing.T) {
	ranges := &guard.IPRanges{}
	if err := ranges.Load(context.Background(), nil, []guard.RangeList{{Crawlers: []string{"Googlebot"}, Source: "testdata/ranges-googlebot.json"}}); err != nil {
		t.Fatal(err)
	}
	res := fakeResolver{
		ptr: map[string][]string{
			"66.249.66.1":  {"crawl-66-249-66-1.googlebot.com."},
			"192.0.2.7":    {"crawl-192-0-2-7.googlebot.com."}, // a name it does not resolve back to
			"198.51.100.9": {"host.example.net."},
		},
		a: map[string][]string{
			"crawl-66-249-66-1.googlebot.com": {"66.249.66.1"},
			"crawl-192-0-2-7.googlebot.com":   {"198.51.100.200"},
		},
	}
	dns := &guard.ReverseDNS{Resolver: res}
	for _, tc := range []struct {
		v       guard.Verifier
		crawler string
		addr    string
		want    guard.Verification
	}{
		{ranges, "Googlebot", "66.249.64.5", guard.Genuine},
		{ranges, "googlebot", "::ffff:66.249.66.30", guard.Genuine},
		{ranges, "Googlebot", "2001:4860:4801:10::1", guard.Genuine},
		{ranges, "Googlebot", "66.249.64.40", guard.Impostor},
		{ranges, "GPTBot", "66.249.64.5", guard.Unverified},
		{dns, "Googlebot", "66.249.66.1", guard.Genuine},
		{dns, "Googlebot", "192.0.2.7", guard.Impostor},    // forward does not confirm
		{dns, "Googlebot", "198.51.100.9", guard.Impostor}, // another domain
		{dns, "Googlebot", "203.0.113.1", guard.Impostor},  // no reverse name
		{dns, "ExampleCrawler", "203.0.113.1", guard.Unverified},
		{guard.Verifiers{ranges, dns}, "bingbot", "203.0.113.1", guard.Impostor},
	} {
		got, err := tc.v.Verify(context.Background(), tc.crawler, netip.MustParseAddr(tc.addr))
		if err != nil || got != tc.want {
			t.Errorf("%T.Verify(%s, %s) = %v, %v; want %v", tc.v, tc.crawler, tc.addr, got, err, tc.want)
		}
	}
	// A resolver that fails is an error, never an answer.
	failing := &guard.ReverseDNS{Resolver: fakeResolver{failing: true}}
	if v, err := failing.Verify(context.Background(), "Googlebot", netip.MustParseAddr("66.249.66.1")); err == nil || v != guard.Unverified {
		t.Errorf("a failing resolver gives %v, %v; want Unverified and an error", v, err)
	}
	if err := ranges.Load(context.Background(), nil, []guard.RangeList{{Crawlers: []string{"Googlebot"}, Source: "testdata/missing.json"}}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("loading a missing list: %v", err)
	}
	if v, _ := ranges.Verify(context.Background(), "Googlebot", netip.MustParseAddr("66.249.64.5")); v != guard.Genuine {
		t.Errorf("a list that failed to load lost its ranges")
	}
}

// The site chooses what an impostor gets; a claim that cannot be checked
// is taken at its word, so the crawler's group applies.
func TestImpostorPolicy(t *testing.T) {
	ranges := &guard.IPRanges{}
	ranges.Set([]string{"GPTBot", "Googlebot"}, []netip.Prefix{netip.MustParsePrefix("198.51.100.0/24")})
	for _, tc := range []struct {
		policy guard.ImpostorPolicy
		ua     string
		target string
		want   int
	}{
		{guard.AsUnnamed, gptbot, "/public", 200},        // from 192.0.2.10: not GPTBot, so a client like any other
		{guard.Refuse, gptbot, "/public", 403},           // refused for the lie
		{guard.Refuse, googlebot, "/private/x", 403},     // the same for any claim the ranges deny
		{guard.AsUnnamed, googlebot, "/nogoogle/x", 200}, // an impostor is not held to Googlebot's group
		{guard.Refuse, unknown, "/private/x", 403},       // no list: taken at its word, its group applies
		{guard.Refuse, unknown, "/public", 200},
	} {
		g := guard.New([]byte(siteRobots))
		g.Verifier, g.Impostors = ranges, tc.policy
		if code, body := serve(t, g.Handler(page), tc.ua, tc.target); code != tc.want {
			t.Errorf("policy %v, GET %s as %q: %d %q, want %d", tc.policy, tc.target, tc.ua, code, body, tc.want)
		}
	}
	g := guard.New([]byte(siteRobots))
	g.Verifier = ranges
	g.ClientAddr = func(*http.Request) (netip.Addr, bool) { return netip.MustParseAddr("198.51.100.5"), true }
	if code, _ := serve(t, g.Handler(page), gptbot, "/public"); code != 403 {
		t.Errorf("a genuine GPTBot is not held to its group: %d", code)
	}
}

// A robots.txt that changes on disk applies from the next look at it; a
// file that disappears keeps the last copy.
func TestFileSource(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(path, []byte("User-agent: *\nDisallow: /a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := guard.FileSource(path, time.Nanosecond)
	if err != nil {
		t.Fatal(err)
	}
	h := guard.NewFunc(src).Handler(page)
	if code, _ := serve(t, h, unknown, "/a"); code != 403 {
		t.Fatalf("first copy: /a answered %d", code)
	}
	if err := os.WriteFile(path, []byte("User-agent: *\nDisallow: /b/longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _ := serve(t, h, unknown, "/a"); code != 200 {
		t.Errorf("second copy: /a answered %d", code)
	}
	if code, _ := serve(t, h, unknown, "/b/longer"); code != 403 {
		t.Errorf("second copy: /b/longer answered %d", code)
	}
	os.Remove(path)
	if code, _ := serve(t, h, unknown, "/b/longer"); code != 403 {
		t.Errorf("the file removed: /b/longer answered %d", code)
	}
	if _, err := guard.FileSource(filepath.Join(t.TempDir(), "none"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("FileSource of a missing file: %v", err)
	}
}

// Enforce answers a refused request and reports it; a request it passes
// is left to the caller untouched (no status, header or body written),
// and both are counted, as Handler counts them.
func TestEnforce(t *testing.T) {
	g := guard.New([]byte(siteRobots))
	type result struct {
		Passed      bool
		Status      int
		ContentType string
		Body        string
	}
	for _, tc := range []struct {
		ua, target string
		want       result
	}{
		{chrome, "/private/x", result{Passed: true, Status: 200}},
		{googlebot, "/x", result{Passed: true, Status: 200}},
		{gptbot, "/robots.txt", result{Passed: true, Status: 200}},
		{gptbot, "/x", result{Status: 403, ContentType: "text/plain; charset=utf-8", Body: "refused: robots.txt disallows /x for GPTBot (line 5: disallow: /)\n"}},
	} {
		req := httptest.NewRequest("GET", "http://site.test"+tc.target, nil)
		req.Header.Set("User-Agent", tc.ua)
		rec := httptest.NewRecorder()
		passed := g.Enforce(rec, req)
		got := result{passed, rec.Code, rec.Header().Get("Content-Type"), rec.Body.String()}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s as %q (-want +got):\n%s", tc.target, tc.ua, diff)
		}
		if passed && (rec.Flushed || len(rec.Header()) != 0) {
			t.Errorf("%s as %q: passed, but wrote %v", tc.target, tc.ua, rec.Header())
		}
	}
	if diff := cmp.Diff(guard.Stats{Requests: 4, Crawlers: 2, Refused: 1}, g.Stats()); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
}
