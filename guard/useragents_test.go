package guard_test

import (
	"bufio"
	"fmt"
	"net/http/httptest"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/guard"
)

// Real User-Agent headers from two public lists, recorded in testdata
// with their licences: browsers from the npm package user-agents, and
// crawlers (each with the pattern that names it) from the npm package
// crawler-user-agents.

func readLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// tokenRun matches the runs of product-token bytes (RFC 9309 section
// 2.2.1) of a header.
var tokenRun = regexp.MustCompile(`[A-Za-z_-]+`)

// A browser is never refused, however the file reads: here every group
// of the file disallows everything, and the file names every word of
// every browser header as a group of its own.
func TestBrowsersAlwaysPass(t *testing.T) {
	browsers := readLines(t, "browser-user-agents.txt")
	if len(browsers) < 900 {
		t.Fatalf("only %d browser headers in testdata", len(browsers))
	}
	words := map[string]bool{}
	for _, ua := range browsers {
		for _, w := range tokenRun.FindAllString(ua, -1) {
			words[w] = true
		}
	}
	var file strings.Builder
	file.WriteString("User-agent: *\nDisallow: /\n\n")
	for w := range words {
		fmt.Fprintf(&file, "User-agent: %s\nDisallow: /\n\n", w)
	}
	g := guard.New([]byte(file.String()))
	refused := 0
	for _, ua := range browsers {
		req := httptest.NewRequest("GET", "http://site.test/page", nil)
		req.Header.Set("User-Agent", ua)
		if d := g.Decide(req); !d.Allowed || d.Crawler != "" {
			refused++
			if refused <= 10 {
				t.Errorf("browser %q read as crawler %q (allowed %v)", ua, d.Crawler, d.Allowed)
			}
		}
	}
	t.Logf("%d browser headers, %d words named by the file: %d refused", len(browsers), len(words), refused)
}

// patternToken returns the product token a crawler-user-agents pattern
// names, when the pattern is a plain token (with an escaped '/' after
// it, or nothing): "Googlebot\/" is Googlebot.
func patternToken(pattern string) (string, bool) {
	p := strings.TrimSuffix(pattern, `\/`)
	if p == "" || !robotstxt.ValidAgent(p) {
		return "", false
	}
	return p, true
}

// Every crawler header is refused what its group disallows, and the
// group chosen is the one robotstxt.Robots.Agent chooses for the token the
// list says the crawler sends. The file names every plain token of the
// list, each group disallowing /private/ (and, for even-numbered groups,
// /private/ except for /private/open/), and the "*" group disallows /star/.
func TestCrawlersRefusedByTheirGroup(t *testing.T) {
	lines := readLines(t, "crawler-user-agents.tsv")
	tokens := map[string]bool{}
	for _, l := range lines {
		pattern, _, _ := strings.Cut(l, "\t")
		if tok, ok := patternToken(pattern); ok {
			tokens[tok] = true
		}
	}
	names := make([]string, 0, len(tokens))
	for tok := range tokens {
		names = append(names, tok)
	}
	sort.Strings(names)
	var file strings.Builder
	file.WriteString("User-agent: *\nDisallow: /star/\n\n")
	for i, tok := range names {
		fmt.Fprintf(&file, "User-agent: %s\nDisallow: /private/\n", tok)
		if i%2 == 0 {
			file.WriteString("Allow: /private/open/\n")
		}
		file.WriteString("\n")
	}
	body := []byte(file.String())
	robots := robotstxt.Parse(body)
	g := guard.New(body)

	var checked, same, other, unnamed int
	for _, l := range lines {
		pattern, ua, _ := strings.Cut(l, "\t")
		tok, ok := patternToken(pattern)
		if !ok || !containsToken(ua, tok) {
			continue // a pattern that is not a plain token, or a header that writes it only in a URL or inside a longer token
		}
		checked++
		want := robots.Agent(tok)
		for _, path := range []string{"/private/x", "/private/open/x", "/star/x", "/public"} {
			req := httptest.NewRequest("GET", "http://site.test"+path, nil)
			req.Header.Set("User-Agent", ua)
			d := g.Decide(req)
			if d.Crawler == "" {
				unnamed++
				t.Errorf("%q (pattern %q) names no crawler to the guard", ua, pattern)
				break
			}
			got := robots.Agent(d.Crawler)
			if !strings.EqualFold(d.Agent, want.Name()) {
				// The header names two crawlers of the file; the first
				// is taken. Its group must still decide.
				other++
				t.Logf("%q: the guard reads %q (group %q); the list's pattern names %q", ua, d.Crawler, d.Agent, tok)
				if d.Allowed != got.Allowed("http://site.test"+path) {
					t.Errorf("%q %s: allowed %v; the group of %q says %v", ua, path, d.Allowed, d.Crawler, !d.Allowed)
				}
				break
			}
			if wantAllowed := want.Allowed("http://site.test" + path); d.Allowed != wantAllowed {
				t.Errorf("%q %s: allowed %v, want %v (group %q)", ua, path, d.Allowed, wantAllowed, want.Name())
			}
			if path == "/public" {
				same++
			}
		}
	}
	t.Logf("%d crawler headers whose pattern is a token they write: %d decided by that token's group, %d by another crawler token they name first, %d unnamed", checked, same, other, unnamed)
	if checked < 1000 {
		t.Errorf("only %d crawler headers checked", checked)
	}
}

// urlPart matches a URL in a header: a crawler's page names no token.
var urlPart = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^ ;)]*`)

// containsToken reports whether ua writes tok as a whole product token,
// outside its URLs.
func containsToken(ua, tok string) bool {
	for _, w := range tokenRun.FindAllString(urlPart.ReplaceAllString(ua, " "), -1) {
		if strings.EqualFold(w, tok) {
			return true
		}
	}
	return false
}
