package robotstxt_test

import (
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt"
)

// "Google's docs" below is Google's robots.txt documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt.

// Groups, merging, the "*" group and rules outside groups, as robots.cc
// RobotsMatcher::HandleUserAgent forms them; RFC 9309 section 2.2.1.
func TestGroups(t *testing.T) {
	runQueryTests(t, []queryTest{
		{
			// robots_test ID_LineSyntax_Groups and groups.textproto.
			name: "groups end at a user-agent line after a rule and merge per agent",
			robots: "allow: /foo/bar/\n" +
				"\n" +
				"user-agent: FooBot\n" +
				"disallow: /\n" +
				"allow: /x/\n" +
				"user-agent: BarBot\n" +
				"disallow: /\n" +
				"allow: /y/\n" +
				"\n" +
				"\n" +
				"allow: /w/\n" +
				"user-agent: BazBot\n" +
				"\n" +
				"user-agent: FooBot\n" +
				"allow: /z/\n" +
				"disallow: /\n",
			queries: []query{
				{"FooBot", "http://foo.bar/x/b", true, 5},
				{"FooBot", "http://foo.bar/z/d", true, 15},
				{"FooBot", "http://foo.bar/y/c", false, 4},
				{"BarBot", "http://foo.bar/y/c", true, 8},
				{"BarBot", "http://foo.bar/w/a", true, 11},
				{"BarBot", "http://foo.bar/z/d", false, 7},
				{"BazBot", "http://foo.bar/z/d", true, 15},
				{"FooBot", "http://foo.bar/foo/bar/", false, 4}, // robots.cc: the first rule is in no group
				{"BarBot", "http://foo.bar/foo/bar/", false, 7},
				{"BazBot", "http://foo.bar/foo/bar/", false, 16},
			},
		},
		{
			// robots_test ID_LineSyntax_Groups_OtherRules. robots.cc: sitemap and unknown lines leave groups alone.
			name:   "sitemap lines do not end a group",
			robots: "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
			queries: []query{
				{"FooBot", "http://foo.bar/", false, 4},
				{"BarBot", "http://foo.bar/", false, 4},
			},
		},
		{
			name:   "unknown lines do not end a group",
			robots: "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
			queries: []query{
				{"FooBot", "http://foo.bar/", false, 4},
				{"BarBot", "http://foo.bar/", false, 4},
			},
		},
		{
			name:   "invalid lines and comments do not end a group",
			robots: "User-agent: a\nno colon here at all\n# comment\n\nUser-agent: b\nDisallow: /\n",
			queries: []query{
				{"a", "/x", false, 6},
				{"b", "/x", false, 6},
			},
		},
		{
			name:   "an empty disallow ends the user-agent run",
			robots: "User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /\n",
			queries: []query{
				{"a", "/x", true, 2}, // the empty rule names its line
				{"b", "/x", false, 4},
			},
		},
		{
			name:   "blank lines do not end a group (robots.cc: blank lines are no separators)",
			robots: "User-agent: a\n\nUser-agent: b\n\nDisallow: /\n",
			queries: []query{
				{"a", "/x", false, 5},
				{"b", "/x", false, 5},
			},
		},
		{
			name:   "groups of one agent far apart merge, longest match wins (RFC 9309 section 2.2.1: matching groups combine)",
			robots: "User-agent: googlebot-news\nDisallow: /a\nUser-agent: *\nDisallow: /\nUser-agent: googlebot-news\nAllow: /ab\n",
			queries: []query{
				{"googlebot-news", "/abc", true, 6},
				{"googlebot-news", "/ac", false, 2},
				{"googlebot-news", "/z", true, 0},
				{"other", "/z", false, 4},
			},
		},
		{
			name:   "several * groups merge",
			robots: "User-agent: *\nDisallow: /a\nUser-agent: x\nDisallow: /\nUser-agent: *\nDisallow: /b\n",
			queries: []query{
				{"y", "/a", false, 2},
				{"y", "/b", false, 6},
				{"y", "/c", true, 0},
			},
		},
		{
			name:   "a group naming * and the agent counts as the agent's only",
			robots: "User-agent: *\nUser-agent: foo\nDisallow: /x\nUser-agent: *\nDisallow: /y\n",
			queries: []query{
				{"foo", "/x", false, 3},
				{"foo", "/y", true, 0},
				{"bar", "/x", false, 3},
				{"bar", "/y", false, 5},
			},
		},
		{
			name:   "a specific group with no rules still overrides *",
			robots: "User-agent: *\nDisallow: /\nUser-agent: foo\n",
			queries: []query{
				{"foo", "/x", true, 0},
				{"bar", "/x", false, 2},
			},
		},
		{
			name:   "a specific group with only non-matching rules overrides *",
			robots: "User-agent: *\nDisallow: /\nUser-agent: foo\nDisallow: /private\n",
			queries: []query{
				{"foo", "/x", true, 0},
				{"foo", "/private/x", false, 4},
			},
		},
		{
			name:   "a specific group with only an empty disallow overrides *",
			robots: "User-agent: *\nDisallow: /\nUser-agent: foo\nDisallow:\n",
			queries: []query{
				{"foo", "/x", true, 4},
				{"bar", "/x", false, 2},
			},
		},
		{
			name:   "a last group with no rules allows everything (RFC 9309 section 2.2.1)",
			robots: "User-agent: foo\n",
			queries: []query{
				{"foo", "/x", true, 0},
			},
		},
		{
			name:   "rules before any user-agent are ignored (robots.cc: rules before the first user-agent line are in no group)",
			robots: "Disallow: /\nAllow: /x\n",
			queries: []query{
				{"foo", "/x", true, 0},
				{"foo", "/y", true, 0},
			},
		},
		{
			// robots_test ID_GlobalGroups_Secondary and global-rules.textproto.
			name:   "no matching group and no * allows (RFC 9309 section 2.2.1)",
			robots: "User-agent: FooBot\nDisallow: /\n",
			queries: []query{
				{"BarBot", "http://foo.bar/x/y", true, 0},
				{"FooBot", "http://foo.bar/x/y", false, 2},
			},
		},
		{
			name:   "empty file allows",
			robots: "",
			queries: []query{
				{"FooBot", "http://foo.bar/x/y", true, 0},
				{"", "", true, 0},
			},
		},
	})
}

// robots.cc LongestMatchRobotsMatchStrategy and RobotsMatcher::disallow: priority is the escaped pattern's length,
// '*' and '$' included; allow wins ties; the first line wins among equals.
// RFC 9309 section 2.2.2; Google's docs, "Order of precedence for rules".
func TestPriority(t *testing.T) {
	runQueryTests(t, []queryTest{
		{
			// robots_test ID_LongestMatch.
			name:   "longest match and ties",
			robots: "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n",
			queries: []query{
				{"FooBot", "http://foo.bar/x/page.html", true, 3},
			},
		},
		{
			name:   "allow / vs disallow /",
			robots: "user-agent: FooBot\nallow: /\ndisallow: /\n",
			queries: []query{
				{"FooBot", "http://foo.bar/", true, 2},
			},
		},
		{
			name:   "empty allow and empty disallow",
			robots: "user-agent: FooBot\ndisallow: \nallow: \n",
			queries: []query{
				{"FooBot", "http://foo.bar/x", true, 3},
			},
		},
		{
			name:   "/x vs /x/",
			robots: "user-agent: FooBot\ndisallow: /x\nallow: /x/\n",
			queries: []query{
				{"FooBot", "http://foo.bar/x", false, 2},
				{"FooBot", "http://foo.bar/x/", true, 3},
				{"FooBot", "http://foo.bar/x/y", true, 3},
				{"FooBot", "http://foo.bar/xy", false, 2},
			},
		},
		{
			name:   "wildcards count toward length",
			robots: "user-agent: FooBot\ndisallow: /fish\nallow: /fish*\ndisallow: /y$\nallow: /y\ndisallow: /z*\nallow: /z\n",
			queries: []query{
				{"FooBot", "/fish", true, 3},
				{"FooBot", "/y", false, 4},
				{"FooBot", "/z", false, 6},
			},
		},
		{
			name:   "ties go to allow even when the patterns differ",
			robots: "user-agent: FooBot\ndisallow: /ba\nallow: /*a\n",
			queries: []query{
				{"FooBot", "/ba", true, 3},
			},
		},
		{
			name:   "the first line wins among equal priorities",
			robots: "user-agent: FooBot\ndisallow: /a*\ndisallow: /ab\nallow: /q*\nallow: /qr\n",
			queries: []query{
				{"FooBot", "/abc", false, 2},
				{"FooBot", "/qrs", true, 4},
			},
		},
		{
			name:   "the first line wins across merged groups",
			robots: "user-agent: FooBot\ndisallow: /ab\nuser-agent: x\ndisallow: /\nuser-agent: FooBot\ndisallow: /a*\n",
			queries: []query{
				{"FooBot", "/abc", false, 2},
			},
		},
		{
			name:   "escaped length counts: one raw non-ASCII byte is three",
			robots: "user-agent: FooBot\nallow: /\xC3\xA4\ndisallow: /%C3%A4x\ndisallow: /%C3\n",
			queries: []query{
				{"FooBot", "/%C3%A4", true, 2},   // 7 beats 4
				{"FooBot", "/%C3%A4x", false, 3}, // 8 beats 7
				{"FooBot", "/\xC3\xA4", true, 2}, // the URL in wire form
			},
		},
		{
			name:   "the specific group ignores the global one",
			robots: "user-agent: *\nallow: /x/page\nuser-agent: FooBot\ndisallow: /x\n",
			queries: []query{
				{"FooBot", "/x/page", false, 4},
				{"Other", "/x/page", true, 2},
			},
		},
		{
			name:   "an empty pattern's priority 0 never disallows but names its line",
			robots: "user-agent: *\ndisallow:\n",
			queries: []query{
				{"x", "/a", true, 2},
			},
		},
		{
			name:   "empty disallow loses to a matching allow",
			robots: "user-agent: *\ndisallow:\nallow: /a\n",
			queries: []query{
				{"x", "/a", true, 3},
				{"x", "/b", true, 2},
			},
		},
		{
			name:   "empty allow vs empty disallow: the allow's line",
			robots: "user-agent: *\nallow:\ndisallow:\n",
			queries: []query{
				{"x", "/b", true, 2},
			},
		},
	})
}

// robots.cc RobotsMatcher::HandleAllow, index.htm: allowing .../index.htm* also allows the directory.
func TestIndexHTML(t *testing.T) {
	runQueryTests(t, []queryTest{
		{
			// robots_test GoogleOnly_IndexHTMLisDirectory, index-page.textproto.
			name:   "index.html allows the directory",
			robots: "user-agent: *\nallow: /allowed-slash/index.html\ndisallow: /\n",
			queries: []query{
				{"foobot", "http://foo.com/allowed-slash/", true, 2},
				{"foobot", "http://foo.com/allowed-slash/index.htm", false, 3},
				{"foobot", "http://foo.com/allowed-slash/index.html", true, 2},
				{"foobot", "http://foo.com/anyother-url", false, 3},
				{"foobot", "http://foo.com/allowed-slash/x", false, 3},
			},
		},
		{
			name:   "the derived pattern ties with an equal disallow",
			robots: "user-agent: *\nallow: /d/index.html\ndisallow: /d/$\nuser-agent: b\nallow: /d/index.html\ndisallow: /d/*\n",
			queries: []query{
				{"a", "/d/", true, 2},
				{"b", "/d/", true, 5},
			},
		},
		{
			name:   "wildcard directory",
			robots: "user-agent: *\nallow: /*/index.html\ndisallow: /\n",
			queries: []query{
				{"a", "/x/y/", true, 2},
				{"a", "/x/y", false, 3},
			},
		},
		{
			name:   "index.htmx and query forms also trigger it",
			robots: "user-agent: *\nallow: /p/index.htmx\nallow: /q/index.html?x\ndisallow: /\n",
			queries: []query{
				{"a", "/p/", true, 2},
				{"a", "/q/", true, 3},
			},
		},
		{
			name:   "no rewrite when the last slash is in the query",
			robots: "user-agent: *\nallow: /x/index.html?a=/b\ndisallow: /\n",
			queries: []query{
				{"a", "/x/", false, 3},
			},
		},
		{
			name:   "the derived /$ does not match /?",
			robots: "user-agent: *\nallow: /index.html\ndisallow: /\n",
			queries: []query{
				{"a", "http://x/?", false, 3},
				{"a", "http://x/", true, 2},
			},
		},
		{
			name:   "case-sensitive and only for allow",
			robots: "user-agent: *\nallow: /a/Index.html\ndisallow: /b/index.html\n",
			queries: []query{
				{"a", "/a/", true, 0},
				{"a", "/b/", true, 0},
			},
		},
		{
			name:   "Explain reports the rule as written",
			robots: "user-agent: *\nallow: /d/index.html\ndisallow: /\n",
			queries: []query{
				{"a", "/d/", true, 2},
			},
		},
	})
	v := robotstxt.Parse([]byte("user-agent: *\nallow: /d/index.html\ndisallow: /\n")).Explain("a", "/d/")
	if want := (robotstxt.Rule{Allow: true, Pattern: "/d/index.html", Line: 2}); v.Rule != want {
		t.Errorf("Explain rule = %+v, want %+v", v.Rule, want)
	}
}

func TestCrawlDelay(t *testing.T) {
	tests := []struct {
		name   string
		robots string
		agent  string
		want   time.Duration
		ok     bool
	}{
		{"absent", "User-agent: *\nDisallow: /\n", "a", 0, false},
		{"global", "User-agent: *\nCrawl-delay: 10\n", "a", 10 * time.Second, true},
		{"fraction", "User-agent: *\nCrawl-delay: 0.5\n", "a", 500 * time.Millisecond, true},
		{"zero is not absent", "User-agent: *\nCrawl-delay: 0\n", "a", 0, true},
		{"case-insensitive key", "User-agent: *\nCRAWL-DELAY: 2\n", "a", 2 * time.Second, true},
		{"specific group wins", "User-agent: *\nCrawl-delay: 10\nDisallow:\nUser-agent: a\nCrawl-delay: 3\n", "a", 3 * time.Second, true},
		{"specific group without delay hides global", "User-agent: *\nCrawl-delay: 10\nDisallow:\nUser-agent: a\nDisallow: /x\n", "a", 0, false},
		// Only a rule ends a run of user-agent lines, so "*" and "a" are
		// one group here, as they are for rules (google/robotstxt#51).
		{"a crawl-delay does not end the user-agent run", "User-agent: *\nCrawl-delay: 10\nUser-agent: a\nCrawl-delay: 3\n", "a", 10 * time.Second, true},
		{"invalid values ignored", "User-agent: *\nCrawl-delay: soon\nCrawl-delay: -1\nCrawl-delay: 1e3\nCrawl-delay: 4\n", "a", 4 * time.Second, true},
		{"first valid wins", "User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /\nUser-agent: a\nCrawl-delay: 2\n", "a", time.Second, true},
		{"in a user-agent run belongs to the whole group", "User-agent: a\nCrawl-delay: 7\nUser-agent: b\nDisallow: /\n", "b", 7 * time.Second, true},
		{"before any group is ignored", "Crawl-delay: 7\nUser-agent: *\nDisallow: /\n", "a", 0, false},
		{"other agent's delay", "User-agent: b\nCrawl-delay: 7\n", "a", 0, false},
		// A hostile value must neither overflow nor stall a crawler.
		{"huge value is capped", "User-agent: *\nCrawl-delay: 99999999999999999999\n", "a", robotstxt.MaxCrawlDelay, true},
		{"issue 13's value is capped", "User-agent: *\nCrawl-delay: 99999999999999\n", "a", robotstxt.MaxCrawlDelay, true},
		{"just under the cap", "User-agent: *\nCrawl-delay: 86399\n", "a", 86399 * time.Second, true},
	}
	for _, tt := range tests {
		got, ok := robotstxt.Parse([]byte(tt.robots)).Agent(tt.agent).CrawlDelay()
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: CrawlDelay() = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// Request-rate is not in RFC 9309; it comes from the 1996 extended standard
// proposal (Sean Conner, "An Extended Standard for Robot Exclusion") and is
// read by some crawlers as "n/T": n requests per T seconds, with an
// optional unit and time window.
func TestRequestRate(t *testing.T) {
	tests := []struct {
		name   string
		robots string
		agent  string
		want   time.Duration
		ok     bool
	}{
		{"absent", "User-agent: *\nDisallow: /\n", "a", 0, false},
		{"seconds", "User-agent: *\nRequest-rate: 1/5\n", "a", 5 * time.Second, true},
		{"seconds suffix", "User-agent: *\nRequest-rate: 2/10s\n", "a", 5 * time.Second, true},
		{"minutes", "User-agent: *\nRequest-rate: 10/1m\n", "a", 6 * time.Second, true},
		{"hours, upper case", "User-agent: *\nREQUEST-RATE: 1/1H\n", "a", time.Hour, true},
		{"days", "User-agent: *\nRequest-rate: 2/1d\n", "a", 12 * time.Hour, true},
		{"time window ignored", "User-agent: *\nRequest-rate: 1/10m 0600-0845\n", "a", 10 * time.Minute, true},
		{"fast", "User-agent: *\nRequest-rate: 1000/1\n", "a", time.Millisecond, true},
		{"invalid values ignored", "User-agent: *\nRequest-rate: 0/5\nRequest-rate: 1/0\nRequest-rate: 1\nRequest-rate: x/5\nRequest-rate: 1/5y\nRequest-rate: -1/5\nRequest-rate: /5\nRequest-rate: 3/9\n", "a", 3 * time.Second, true},
		{"huge period is capped", "User-agent: *\nRequest-rate: 1/99999999999999999999d\n", "a", robotstxt.MaxCrawlDelay, true},
		{"huge count saturates", "User-agent: *\nRequest-rate: 99999999999999999999/1\n", "a", time.Second / (1<<32 - 1), true},
		{"specific group wins", "User-agent: *\nRequest-rate: 1/10\nDisallow:\nUser-agent: a\nRequest-rate: 1/3\n", "a", 3 * time.Second, true},
		{"specific group without one hides global", "User-agent: *\nRequest-rate: 1/10\nDisallow:\nUser-agent: a\nDisallow: /x\n", "a", 0, false},
		{"merged groups: first in file order", "User-agent: a\nRequest-rate: 1/1\nUser-agent: b\nDisallow: /\nUser-agent: a\nRequest-rate: 1/2\n", "a", time.Second, true},
		{"other agent's rate", "User-agent: b\nRequest-rate: 1/7\n", "a", 0, false},
	}
	for _, tt := range tests {
		got, ok := robotstxt.Parse([]byte(tt.robots)).Agent(tt.agent).RequestRate()
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: RequestRate() = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
