package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// GOOGLE-BEHAVIOR 2: groups, merging, the "*" group and rules outside
// groups. SPEC 4.1-4.5.
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
				{"FooBot", "http://foo.bar/foo/bar/", false, 4}, // SPEC 4.2: the first rule is in no group
				{"BarBot", "http://foo.bar/foo/bar/", false, 7},
				{"BazBot", "http://foo.bar/foo/bar/", false, 16},
			},
		},
		{
			// robots_test ID_LineSyntax_Groups_OtherRules. SPEC 4.3.
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
			name:   "blank lines do not end a group (SPEC 4.5)",
			robots: "User-agent: a\n\nUser-agent: b\n\nDisallow: /\n",
			queries: []query{
				{"a", "/x", false, 5},
				{"b", "/x", false, 5},
			},
		},
		{
			name:   "groups of one agent far apart merge, longest match wins (SPEC 4.4)",
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
			name:   "a last group with no rules allows everything (SPEC 4.1)",
			robots: "User-agent: foo\n",
			queries: []query{
				{"foo", "/x", true, 0},
			},
		},
		{
			name:   "rules before any user-agent are ignored (SPEC 4.2)",
			robots: "Disallow: /\nAllow: /x\n",
			queries: []query{
				{"foo", "/x", true, 0},
				{"foo", "/y", true, 0},
			},
		},
		{
			// robots_test ID_GlobalGroups_Secondary and global-rules.textproto.
			name:   "no matching group and no * allows (SPEC 5.5)",
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

// GOOGLE-BEHAVIOR 4.3 and 4.5: priority is the escaped pattern's length,
// '*' and '$' included; allow wins ties; the first line wins among equals.
// SPEC 6.6.
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

// GOOGLE-BEHAVIOR 4.4: allowing .../index.htm* also allows the directory.
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
	v := Parse([]byte("user-agent: *\nallow: /d/index.html\ndisallow: /\n")).Explain("a", "/d/")
	if want := (Rule{Allow: true, Pattern: "/d/index.html", Line: 2}); v.Rule != want {
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
		{"huge value is capped", "User-agent: *\nCrawl-delay: 99999999999999999999\n", "a", MaxCrawlDelay, true},
		{"issue 13's value is capped", "User-agent: *\nCrawl-delay: 99999999999999\n", "a", MaxCrawlDelay, true},
		{"just under the cap", "User-agent: *\nCrawl-delay: 86399\n", "a", 86399 * time.Second, true},
	}
	for _, tt := range tests {
		got, ok := Parse([]byte(tt.robots)).Agent(tt.agent).CrawlDelay()
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
		{"huge period is capped", "User-agent: *\nRequest-rate: 1/99999999999999999999d\n", "a", MaxCrawlDelay, true},
		{"huge count saturates", "User-agent: *\nRequest-rate: 99999999999999999999/1\n", "a", time.Second / (1<<32 - 1), true},
		{"specific group wins", "User-agent: *\nRequest-rate: 1/10\nDisallow:\nUser-agent: a\nRequest-rate: 1/3\n", "a", 3 * time.Second, true},
		{"specific group without one hides global", "User-agent: *\nRequest-rate: 1/10\nDisallow:\nUser-agent: a\nDisallow: /x\n", "a", 0, false},
		{"merged groups: first in file order", "User-agent: a\nRequest-rate: 1/1\nUser-agent: b\nDisallow: /\nUser-agent: a\nRequest-rate: 1/2\n", "a", time.Second, true},
		{"other agent's rate", "User-agent: b\nRequest-rate: 1/7\n", "a", 0, false},
	}
	for _, tt := range tests {
		got, ok := Parse([]byte(tt.robots)).Agent(tt.agent).RequestRate()
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: RequestRate() = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// Rules whose wire form differs from the value written (RFC 9309 section
// 2.2.2: non-ASCII bytes are percent-encoded for matching) still report
// the value as written, for the rule itself and for the directory rule
// Google derives from an index.htm allow.
func TestAsWrittenOfEscapedRules(t *testing.T) {
	r := Parse([]byte("User-agent: *\nAllow: /é/index.html\nDisallow: /%e9\nDisallow: /\xff*x\n"))
	tests := []struct {
		url  string
		want Rule
	}{
		{"http://h/é/index.html", Rule{Allow: true, Pattern: "/é/index.html", Line: 2}},
		{"http://h/é/", Rule{Allow: true, Pattern: "/é/index.html", Line: 2}},
		{"http://h/%E9x", Rule{Pattern: "/%e9", Line: 3}},
		{"http://h/%FFax", Rule{Pattern: "/\xff*x", Line: 4}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, r.Explain("x", tt.url).Rule); diff != "" {
			t.Errorf("Explain(%q).Rule (-want +got):\n%s", tt.url, diff)
		}
	}
	want := []Rule{{Allow: true, Pattern: "/é/index.html", Line: 2}, {Pattern: "/%e9", Line: 3}, {Pattern: "/\xff*x", Line: 4}}
	if diff := cmp.Diff(want, r.Groups()[0].Rules); diff != "" {
		t.Errorf("Groups()[0].Rules (-want +got):\n%s", diff)
	}
}

// The rule set of an agent named in several groups is in compareRules
// order, as a comparison sort of all the groups' rules puts it; the merge
// relies on each group being sorted already (sortRules).
func TestMergedRuleSetOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	// Patterns in decoded form rank by their length in wire form: "/é" is
	// as long as "/%C3%A9" (RFC 9309 section 2.2.2) and longer than "/abc".
	patterns := []string{"", "/", "/a", "/ab", "/a*", "/b$", "/abc", "/*", "/x/y", "/é", "/%C3%A9", "/%c3x", "/abcdef"}
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for g := rng.IntN(6) + 2; g > 0; g-- {
			b.WriteString("user-agent: bot\n")
			for n := rng.IntN(40); n > 0; n-- {
				kind := "allow"
				if rng.IntN(2) == 0 {
					kind = "disallow"
				}
				fmt.Fprintf(&b, "%s: %s\n", kind, patterns[rng.IntN(len(patterns))])
			}
		}
		r := Parse([]byte(b.String()))
		rs, _ := r.rulesFor("bot")
		want := slices.Clone(rs.compiled)
		slices.SortFunc(want, func(a, b compiledRule) int { return compareRules(a, b, rs.text) })
		if !slices.Equal(rs.compiled, want) {
			t.Fatalf("merged rules of %q are not in compareRules order", b.String())
		}
	}
}

// sortRules orders rules given in file order as compareRules does, by
// each of its paths: the insertion sort of small groups, the counting
// sort (its counts on the stack or not), and the comparison sort for long
// patterns.
func TestSortRulesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	for round := 0; round < 2000; round++ {
		n := rng.IntN(60)
		maxLen := 1 + rng.IntN(12)
		switch rng.IntN(8) {
		case 0:
			maxLen = maxPatternLen
		case 1:
			maxLen = 300 // counts past the stack buffer
		}
		// Patterns in decoded form rank by their length in wire form:
		// each byte >= 0x80 of the text counts three.
		text := make([]byte, maxLen+1)
		for i := range text {
			text[i] = byte(rng.IntN(256))
		}
		src := make([]compiledRule, n)
		for i := range src {
			n := rng.IntN(maxLen + 1)
			src[i] = compiledRule{n: uint16(n), off: uint32(rng.IntN(len(text) - n + 1)), line: int32(i + 1)}
			if rng.IntN(2) == 0 {
				src[i].info |= ruleAllow
			}
			if maxLen < maxPatternLen/3 && rng.IntN(2) == 0 {
				src[i].info |= ruleCompact
			}
		}
		want := slices.Clone(src)
		slices.SortFunc(want, func(a, b compiledRule) int { return compareRules(a, b, string(text)) })
		got := make([]compiledRule, n)
		sortRules(got, src, string(text))
		if !slices.Equal(got, want) {
			t.Fatalf("sortRules(%v) = %v, want %v", src, got, want)
		}
	}
}

// The pattern as written is found again from the compact form (the value
// kept before its wire form, measured backwards; a derived rule through
// the allow it comes from) for any mix of escapes, non-ASCII bytes and
// index.htm allows, in large groups as in small ones: checked on random
// files against the values written.
func TestAsWrittenRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 37))
	pieces := []string{"/", "a", "%", "e", "9", "F", "\xc3", "\xa9", "\xff", "*", "$", "%e9", "%C3", "index.html", "index.htm"}
	for round := 0; round < 300; round++ {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		var want []Rule
		for n := 1 + rng.IntN(40); n > 0; n-- {
			value := "/"
			for k := rng.IntN(6); k > 0; k-- {
				value += pieces[rng.IntN(len(pieces))]
			}
			rule := Rule{Allow: rng.IntN(2) == 0, Pattern: value, Line: len(want) + 2}
			want = append(want, rule)
			body.WriteString(rule.String() + "\n")
		}
		r := Parse([]byte(body.String()))
		if diff := cmp.Diff(want, r.Groups()[0].Rules); diff != "" {
			t.Fatalf("round %d: Groups()[0].Rules (-want +got):\n%s\nfile:\n%s", round, diff, body.String())
		}
		rs, _ := r.rulesFor("x")
		for i := range rs.compiled {
			got := rs.compiled[i].asWritten(rs.text, rs.compiled)
			if w := want[got.Line-2]; got != w {
				t.Fatalf("round %d: rule %d (%q) as written is %+v, want %+v\nfile:\n%s", round, i, rs.compiled[i].pattern(rs.text), got, w, body.String())
			}
		}
	}
}

// The compact form's sizes, which BENCHMARKS.md accounts for.
func TestCompiledSizes(t *testing.T) {
	if got := unsafe.Sizeof(compiledRule{}); got != 12 {
		t.Errorf("compiledRule is %d bytes, want 12", got)
	}
	if got := unsafe.Sizeof(windowFilter{}); got != 16 {
		t.Errorf("windowFilter is %d bytes, want 16", got)
	}
	if got := unsafe.Sizeof(prefixEntry{}); got != 24 {
		t.Errorf("prefixEntry is %d bytes, want 24", got)
	}
}

// The longest value the tokenizer keeps, all bytes >= 0x80, fits
// compiledRule's 16-bit length once escaped, and matches as written.
func TestLongestEscapedPattern(t *testing.T) {
	value := "/" + strings.Repeat("\xff", 20000) // cut by the tokenizer
	r := Parse([]byte("User-agent: *\nDisallow: " + value + "\n"))
	rules := r.Groups()[0].Rules
	if len(rules) != 1 || !strings.HasPrefix(value, rules[0].Pattern) || len(rules[0].Pattern) < 16000 {
		t.Fatalf("rules %d, pattern of %d bytes", len(rules), len(rules[0].Pattern))
	}
	kept := rules[0].Pattern
	if 3*len(kept) > maxPatternLen {
		t.Fatalf("a value of %d bytes is %d once escaped, more than %d", len(kept), 3*len(kept), maxPatternLen)
	}
	if r.Allowed("x", "http://h"+kept) {
		t.Errorf("the path of the longest pattern is allowed")
	}
	if !r.Allowed("x", "http://h"+kept[:len(kept)-1]) {
		t.Errorf("a path one byte shorter than the longest pattern is disallowed")
	}
	if got := r.Explain("x", "http://h"+kept+"x").Rule.Pattern; got != kept {
		t.Errorf("Explain reports a pattern of %d bytes, want %d", len(got), len(kept))
	}
}

// mayMatch, which reads a rule's first bytes from the padded string block,
// says exactly whether the path starts with the first bytes (up to 8) of
// the rule's literal prefix in wire form, on random rules and paths: a
// slow twin by string comparison. For a rule in compact form, whose bytes
// differ from its wire form from its first byte >= 0x80, only the bytes
// before that count.
func TestMayMatchAgainstPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(59, 61))
	for round := 0; round < 200; round++ {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for n := 1 + rng.IntN(20); n > 0; n-- {
			body.WriteString("Disallow: /" + randomWord(rng, 12, "ab/*$\xe9") + "\n")
		}
		rs, _ := Parse([]byte(body.String())).rulesFor("x")
		for q := 0; q < 50; q++ {
			path := "/" + randomWord(rng, 12, "ab/%E9")
			key := prefixKey(path)
			for i := range rs.compiled {
				c := &rs.compiled[i]
				literal, _ := literalPrefix(c.pattern(rs.text))
				n := 8
				if c.info&ruleCompact != 0 {
					for i := 0; i < len(literal); i++ {
						if literal[i] >= 0x80 {
							n = min(n, i)
							break
						}
					}
					literal = string(appendWire(nil, literal))
				}
				head := literal[:min(len(literal), n)]
				if want := strings.HasPrefix(path, head); c.mayMatch(rs.text, key) != want {
					t.Fatalf("rule %q, path %q: mayMatch %v, want %v", c.pattern(rs.text), path, !want, want)
				}
			}
		}
	}
}
