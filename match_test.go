package robotstxt_test

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/engine"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// "Google's docs" below is Google's robots.txt documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt.

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
	oracle := os.Getenv(reference.OracleEnv)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if oracle != "" {
				// The expectations themselves must be Google's answers.
				var qs []reference.Query
				for _, q := range tt.queries {
					qs = append(qs, reference.Query{Agent: q.agent, URL: q.url})
				}
				for i, a := range reference.AskOracle(t, oracle, []byte(tt.robots), qs) {
					if want, got := tt.queries[i], (query{a.Agent, a.URL, a.Allowed, a.Line}); got != want {
						t.Errorf("expectation %+v differs from Google's library: %+v", want, got)
					}
				}
			}
			r := robotstxt.Parse([]byte(tt.robots))
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

// Agent tokens (robots.cc ExtractUserAgent), the "*" group (RobotsMatcher::
// HandleUserAgent) and the caller's agent compared as given. RFC 9309
// section 2.2.1; Google's docs, "Order of precedence for user agents".
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
				{"Googlebot-Image", "/a", true, 0}, // no fallback to googlebot: Google's docs, "Order of precedence for user agents"
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

// URLs are matched in wire form (the package documentation); robots.cc never
// decodes an escape, so nothing is
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
				{"FooBot", "http://foo.bar/foo/bar/ツ", true, 3}, // the raw URL in wire form: see contractExceptions
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

// robots.cc kMaxLineLen: a rule longer than the line cap is cut, and the cut
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

// robots.cc RobotsMatcher::disallow: no implicit allow for /robots.txt, which
// RFC 9309 section 2.2.2 asks for.
func TestRobotsTxtNotSpecial(t *testing.T) {
	if robotstxt.Parse([]byte("User-agent: *\nDisallow: /\n")).Allowed("x", "http://x/robots.txt") {
		t.Error("/robots.txt allowed under Disallow: /")
	}
}

// The engine caps the delays it reads at the API's MaxCrawlDelay.
func TestEngineMaxDelay(t *testing.T) {
	if engine.MaxDelay != robotstxt.MaxCrawlDelay {
		t.Errorf("engine.MaxDelay = %v, MaxCrawlDelay = %v", engine.MaxDelay, robotstxt.MaxCrawlDelay)
	}
}
