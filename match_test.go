package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// A query is one question asked of a robots.txt file, with Google's answer:
// the verdict and the line matching_line() reports (0 for none).
type query struct {
	agent, url string
	allowed    bool
	line       int
}

type queryTest struct {
	name    string
	robots  string
	queries []query
}

func runQueryTests(t *testing.T, tests []queryTest) {
	t.Helper()
	oracle := os.Getenv(oracleEnv)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if oracle != "" {
				// The expectations themselves must be Google's answers.
				var qs []oracleQuery
				for _, q := range tt.queries {
					qs = append(qs, oracleQuery{q.agent, q.url})
				}
				for i, got := range askOracle(t, oracle, []byte(tt.robots), qs) {
					if want := tt.queries[i]; got != want {
						t.Errorf("expectation %+v differs from Google's library: %+v", want, got)
					}
				}
			}
			r := Parse([]byte(tt.robots))
			for _, q := range tt.queries {
				v := r.Explain(q.agent, q.url)
				got := query{q.agent, q.url, v.Allowed, v.Rule.Line}
				if diff := cmp.Diff(q, got, cmp.AllowUnexported(query{})); diff != "" {
					t.Errorf("Explain(%q, %q) (-want +got):\n%s\nrobots.txt:\n%s", q.agent, q.url, diff, tt.robots)
				}
				if a := r.Allowed(q.agent, q.url); a != v.Allowed {
					t.Errorf("Allowed(%q, %q) = %v but Explain says %v", q.agent, q.url, a, v.Allowed)
				}
				if a := r.Agent(q.agent).Allowed(q.url); a != v.Allowed {
					t.Errorf("Agent(%q).Allowed(%q) = %v but Explain says %v", q.agent, q.url, a, v.Allowed)
				}
			}
		})
	}
}

// GOOGLE-BEHAVIOR 2 (global detection) and 3: agent tokens and the caller's
// agent compared as given. SPEC 5.1-5.4.
func TestAgentMatching(t *testing.T) {
	runQueryTests(t, []queryTest{
		{
			// robots_test GoogleOnly_AcceptUserAgentUpToFirstSpace and
			// user-agent-name.textproto.
			name:   "the file's value is cut at the first non-token byte",
			robots: "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n",
			queries: []query{
				{"Foo", "http://foo.bar/x/y", true, 4},
				{"foo", "http://foo.bar/x/y", true, 4},
				{"Foo Bar", "http://foo.bar/x/y", false, 2},
				{"Bar", "http://foo.bar/x/y", false, 2},
			},
		},
		{
			// robots_test ID_UserAgentValueCaseInsensitive.
			name:   "case-insensitive both ways",
			robots: "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\nUser-Agent: foo bar\nAllow: /y/\nUser-Agent: FoO bAr\nAllow: /z/\n",
			queries: []query{
				{"Foo", "/x/y", true, 2},
				{"fOO", "/y/y", true, 5},
				{"FOO", "/z/y", true, 7},
				{"foo", "/a", false, 3},
			},
		},
		{
			name: "product tokens",
			robots: "User-agent: Googlebot/2.1\nDisallow: /a\n" +
				"User-agent: AB42bot\nDisallow: /b\n" +
				"User-agent: foofoobot*\nDisallow: /c\n" +
				"User-agent: Googlebot-Image\nDisallow: /d\n",
			queries: []query{
				{"Googlebot", "/a", false, 2},
				{"Googlebot/2.1", "/a", true, 0},
				{"AB", "/b", false, 4},
				{"AB42bot", "/b", true, 0},
				{"foofoobot", "/c", false, 6},
				{"foofoobot*", "/c", true, 0},
				{"Googlebot-Image", "/d", false, 8},
				{"Googlebot-Image", "/a", true, 0}, // SPEC 5.3: no fallback to googlebot
				{"Googlebot", "/d", true, 0},
			},
		},
		{
			name: "global agent: * alone or followed by white space",
			robots: "User-agent: * foo\nDisallow: /a\n" +
				"User-agent: *\tbar\nDisallow: /b\n" +
				"User-agent: *\vx\nDisallow: /c\n",
			queries: []query{
				{"anything", "/a", false, 2},
				{"anything", "/b", false, 4},
				{"anything", "/c", false, 6},
				{"foo", "/a", false, 2}, // "* foo" is global, not foo
			},
		},
		{
			name: "* glued to other bytes is an empty token, not global",
			robots: "User-agent: *foo\nDisallow: /a\n" +
				"User-agent: **\nDisallow: /b\n" +
				"User-agent: */x\nDisallow: /c\n" +
				"User-agent: *\xA0\nDisallow: /d\n",
			queries: []query{
				{"anything", "/a", true, 0},
				{"anything", "/d", true, 0},
				{"foo", "/a", true, 0},
				{"", "/a", false, 2},
				{"", "/b", false, 4},
				{"", "/c", false, 6},
				{"", "/d", false, 8},
			},
		},
		{
			// robots_test GoogleOnly_SystemTest.
			name:   "an empty caller agent matches only empty tokens",
			robots: "user-agent: FooBot\ndisallow: /\n",
			queries: []query{
				{"", "", true, 0},
				{"FooBot", "", false, 2},
				{"FooBot", "http://foo.bar/", false, 2},
			},
		},
		{
			name:   "empty user-agent value and digits make empty tokens",
			robots: "User-agent:\nDisallow: /a\nUser-agent: 123bot\nDisallow: /b\nUser-agent: *\nDisallow: /c\n",
			queries: []query{
				{"", "/a", false, 2},
				{"", "/b", false, 4},
				{"", "/c", true, 0}, // the empty agent is specific here
				{"x", "/c", false, 6},
				{"x", "/a", true, 0},
			},
		},
		{
			name:   "caller * never matches specifically",
			robots: "User-agent: *\nDisallow: /a\nUser-agent: x\nDisallow: /b\n",
			queries: []query{
				{"*", "/a", false, 2},
				{"*", "/b", true, 0},
			},
		},
		{
			name:   "no Unicode folding of agents",
			robots: "User-agent: kbot\nDisallow: /\nUser-agent: sbot\nDisallow: /\n",
			queries: []query{
				{"\u212Abot", "/x", true, 0}, // KELVIN SIGN
				{"\u017Fbot", "/x", true, 0}, // LATIN SMALL LETTER LONG S
				{"KBOT", "/x", false, 2},
			},
		},
		{
			name:   "non-ASCII user-agent value is an empty token",
			robots: "User-agent: éBot\nDisallow: /\n",
			queries: []query{
				{"éBot", "/x", true, 0},
				{"Bot", "/x", true, 0},
				{"", "/x", false, 2},
			},
		},
		{
			name:   "full equality, not prefix",
			robots: "User-agent: Googlebot-News\nDisallow: /a\nUser-agent: Googlebot\nDisallow: /b\n",
			queries: []query{
				{"Googlebot", "/a", true, 0},
				{"Googlebot-News", "/b", true, 0},
				{"Googlebot-Newsy", "/a", true, 0},
			},
		},
		{
			name:   "long caller agents",
			robots: "User-agent: " + strings.Repeat("ab", 50) + "\nDisallow: /\n",
			queries: []query{
				{strings.Repeat("AB", 50), "/x", false, 2},
				{strings.Repeat("AB", 51), "/x", true, 0},
				{strings.Repeat("A\xff", 50), "/x", true, 0},
			},
		},
	})
}

// GOOGLE-BEHAVIOR 4.1: the URL's path, params and query, found without
// parsing.
func TestFindPath(t *testing.T) {
	tests := []struct{ url, want string }{
		{"", "/"},
		{"http://www.example.com", "/"},
		{"http://www.example.com/", "/"},
		{"http://www.example.com/a", "/a"},
		{"http://www.example.com/a/", "/a/"},
		{"http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"},
		{"http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"example.com", "/"},
		{"example.com/", "/"},
		{"example.com/a", "/a"},
		{"example.com/a/", "/a/"},
		{"example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"example.com?a", "/?a"},
		{"example.com/a;b#c", "/a;b"},
		{"a", "/"},
		{"a/", "/"},
		{"/a", "/a"},
		{"a/b", "/b"},
		{"example.com/a?b", "/a?b"},
		{"//a/b/c", "/b/c"},
		{"http://a.com;p", "/;p"},
		{"http://a.com#f", "/"},
		{"a#b/c", "/"},
		{"http:/a.com/b", "/a.com/b"},
		{"http://a.com:80/x", "/x"},
		{"a.com:80/x", "/x"},
		{"x://y://z/w", "//z/w"},
		{"///x", "/x"},
		{"mailto:x@y.com", "/"},
		{"HTTP://A.COM/P", "/P"},
		{"http://a.com/%aa", "/%aa"},
		{"http://a.com/a b", "/a b"},
		{"http://a.com?x#y", "/?x"},
		{"http://a.com/p#x?y", "/p"},
		{"//", "/"},
		{"?", "/?"},
	}
	for _, tt := range tests {
		path, _, rewrite := findPath(tt.url)
		if path[0] != '/' {
			if !rewrite {
				t.Errorf("findPath(%q) = %q, lacking its '/', but asks for no rewrite", tt.url, path)
			}
			path = "/" + path
		}
		if path != tt.want {
			t.Errorf("findPath(%q) finds %q, want %q", tt.url, path, tt.want)
		}
	}
}

// SPEC 9.2: URLs are matched in wire form. GOOGLE-BEHAVIOR 8.1: nothing is
// decoded.
func TestWireForm(t *testing.T) {
	runQueryTests(t, []queryTest{
		{
			// robots_test ID_Encoding.
			name:   "raw query with ://",
			robots: "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n",
			queries: []query{
				{"FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true, 3},
			},
		},
		{
			name:   "3-byte UTF-8 in the rule",
			robots: "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n",
			queries: []query{
				{"FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, 3},
				{"FooBot", "http://foo.bar/foo/bar/%e3%83%84", true, 3},
				{"FooBot", "http://foo.bar/foo/bar/ツ", true, 3}, // SPEC 9.4
			},
		},
		{
			name:   "percent-encoded rule",
			robots: "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n",
			queries: []query{
				{"FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, 3},
				{"FooBot", "http://foo.bar/foo/bar/ツ", true, 3},
			},
		},
		{
			name:   "no decoding of unreserved characters",
			robots: "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n",
			queries: []query{
				{"FooBot", "http://foo.bar/foo/bar/baz", false, 2},
				{"FooBot", "http://foo.bar/foo/bar/%62%61%7A", true, 3},
			},
		},
		{
			name:   "lower-case escapes in URL and rule meet upper-cased",
			robots: "User-agent: *\nDisallow: /caf%c3%a9\n",
			queries: []query{
				{"a", "/caf%C3%A9", false, 2},
				{"a", "/caf%c3%a9", false, 2},
				{"a", "/café", false, 2},
				{"a", "/cafe", true, 0},
			},
		},
		{
			name:   "~ and %7E differ",
			robots: "User-agent: *\nDisallow: /~x\n",
			queries: []query{
				{"a", "/%7Ex", true, 0},
				{"a", "/~x", false, 2},
			},
		},
		{
			name:   "a NUL ends the URL's path",
			robots: "User-agent: *\nDisallow: /a$\n",
			queries: []query{
				{"a", "/a\x00b", false, 2},
				{"a", "/ab", true, 0},
			},
		},
		{
			name:   "query-only URLs gain a slash",
			robots: "User-agent: *\nDisallow: /?é\n",
			queries: []query{
				{"a", "http://x?é", false, 2},
				{"a", "http://x;é", true, 0},
			},
		},
		{
			name:   "long non-ASCII URL past the stack buffer",
			robots: "User-agent: *\nDisallow: /" + strings.Repeat("é", 2000) + "$\n",
			queries: []query{
				{"a", "/" + strings.Repeat("é", 2000), false, 2},
				{"a", "/" + strings.Repeat("é", 1999), true, 0},
			},
		},
	})
}

// GOOGLE-BEHAVIOR 1.4: a rule longer than the line cap is cut, and the cut
// pattern is what matches.
func TestLongRuleIsCut(t *testing.T) {
	long := "/x/" + strings.Repeat("a", parse.MaxLineBytes) // longer than a line can hold
	kept := ("Disallow: " + long)[:parse.MaxLineBytes]
	keptPattern := strings.TrimPrefix(kept, "Disallow: ")
	runQueryTests(t, []queryTest{{
		name:   "a disallow longer than 16,663 bytes",
		robots: "User-agent: FooBot\nDisallow: " + long + "\nAllow: /x/b\n",
		queries: []query{
			{"FooBot", "http://foo.bar/" + keptPattern[1:] + "zzz", false, 2}, // the cut rule matches what the full one would not
			{"FooBot", "http://foo.bar/" + long[1:], false, 2},
			{"FooBot", "http://foo.bar/x/b", true, 3},
			{"FooBot", "http://foo.bar/x/" + strings.Repeat("a", 100), true, 0},
		},
	}})
}

// GOOGLE-BEHAVIOR 4.5: no implicit allow for /robots.txt (RFC deviation 3).
func TestRobotsTxtNotSpecial(t *testing.T) {
	if Parse([]byte("User-agent: *\nDisallow: /\n")).Allowed("x", "http://x/robots.txt") {
		t.Error("/robots.txt allowed under Disallow: /")
	}
}

// The matcher's view of a URL (found by findPath, cut at a NUL, brought to
// wire form by rewritePath, as decideURL and wirePath do) equals the
// reference model's on random URLs made of the bytes that matter, at every
// length and alignment the eight-byte scans meet, and findPath announces
// its length. SPEC 9.2; GOOGLE-BEHAVIOR 1.5, 4.1.
func TestWirePathAgainstReference(t *testing.T) {
	const alphabet = "/?;#:%aF2\x00\x80\xff."
	rng := rand.New(rand.NewPCG(3, 7))
	var buf [pathBufSize]byte
	for n := 0; n < 200000; n++ {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		// Scheme forms the matcher has a fast path for, and near misses.
		prefixes := []string{"", "", "https://example.com", "http://a", "https:/", "http:/", "HTTPS://x", "//h"}
		b = append([]byte(prefixes[rng.IntN(len(prefixes))]), b...)
		url := string(b)
		want := refPath(url)
		if i := strings.IndexByte(want, 0); i >= 0 {
			want = want[:i]
		}
		want = refEscape([]byte(want))
		got := wirePath(url, &buf)
		if _, n, _ := findPath(url); got != want || n != len(want) {
			t.Fatalf("wirePath(%q) = %q (findPath announces %d bytes), want %q", url, got, n, want)
		}
	}
}

// equalFold, eight bytes at a time, says what comparing byte by byte with
// the agent lower-cased (ASCII letters only) says, on strings of the bytes
// around the letters and beyond ASCII; names it finds equal hash alike.
func TestEqualFoldAgainstBytes(t *testing.T) {
	alphabet := []byte("@AZ[`az{-_09\x7f\x80\xc1\xdaGgOo")
	naive := func(token, s string) bool {
		lower := []byte(s)
		for i, c := range lower {
			lower[i] = lowerASCII(c)
		}
		return token == string(lower)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	word := func() string {
		b := make([]byte, rng.IntN(20))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 20000 {
		s := word()
		lowered := []byte(s)
		for i, c := range lowered {
			lowered[i] = lowerASCII(c)
		}
		token := string(lowered) // often equal
		if rng.IntN(2) == 0 {
			token = word()
		}
		if rng.IntN(3) == 0 && len(token) > 0 {
			token = token[:rng.IntN(len(token))]
		}
		if got, want := equalFold(token, s), naive(token, s); got != want {
			t.Fatalf("equalFold(%q, %q) = %v, want %v", token, s, got, want)
		}
		if equalFold(token, s) && foldHash(token) != foldHash(s) {
			t.Fatalf("foldHash(%q) != foldHash(%q)", token, s)
		}
	}
}

// A file's product tokens are found by any agent name equal to one but
// for ASCII case, and by no other name, as a scan of them finds them: on
// files naming many agents, with names sharing long prefixes.
func TestFindTokenAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	stems := []string{"bot", "googlebot", "googlebot-image", "a", "ab", "abcdefgh", "abcdefghi", "x_y-z"}
	name := func() string {
		s := stems[rng.IntN(len(stems))]
		if rng.IntN(2) == 0 {
			s += strconv.Itoa(rng.IntN(50))
		}
		return s
	}
	for range 300 {
		var body strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			fmt.Fprintf(&body, "user-agent: %s\ndisallow: /%d\n", name(), n)
		}
		r := Parse([]byte(body.String()))
		r.ready()
		for range 50 {
			agent := []byte(name())
			for i := range agent {
				if c := agent[i]; rng.IntN(3) == 0 && 'a' <= c && c <= 'z' {
					agent[i] = c - 'a' + 'A'
				}
			}
			var want *agentToken
			for i := range r.tokens {
				if strings.EqualFold(r.tokens[i].name, string(agent)) {
					want = &r.tokens[i]
				}
			}
			if got := r.findToken(string(agent)); got != want {
				t.Fatalf("findToken(%q) = %v, want %v, in\n%s", agent, got, want, body.String())
			}
		}
	}
}
