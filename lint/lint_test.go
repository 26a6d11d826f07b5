package lint

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
	"sort"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// reportSample has the structure of the sample in Google's reporting test
// (reporting_robots_test.cc, LinesNumbersAreCountedCorrectly), with text of
// our own: the same tags and flags on the same lines. reporting_robots.cc RobotsParsingReporter.
const reportSample = "User-Agent: alpha\n" + // 1
	"Allow: /docs/public\n" + // 2
	"User-Agent beta # colon missing\n" + // 3
	"just some words here\n" + // 4
	"# a comment line\n" + // 5
	"\n" + // 6
	"unicorn: /horn\n" + // 7
	"noarchive: /old\n" + // 8
	"Disallow: /\n" + // 9
	"Oops #trailing comment\n" + // 10
	"useragent: gamma\n" + // 11
	"disallaw: /tmp\n" + // 12
	"site-map: https://example.com/a.xml #c\n" + // 13
	"sitemap: https://example.com/b.xml\n" + // 14
	"NoArchive: /Old\n" // 15, and an empty line 16 after the final LF

// The per-line view matches Google's RobotsParsingReporter on the sample:
// tags, typo and missing-colon flags, comments, the last empty line, and
// the counts (valid 8, last line 16). Each value was checked against
// Google's reporting code and its test (reporting_robots.cc
// RobotsParsingReporter; robots.cc RobotsTxtParser::Parse, GetKeyAndValueFrom
// and GetKeyType).
func TestLintLineReport(t *testing.T) {
	rep := Lint([]byte(reportSample))
	want := []LineReport{
		{Line: 1, Tag: TagUserAgent, Flags: LineDirective},
		{Line: 2, Tag: TagAllow, Flags: LineDirective},
		{Line: 3, Tag: TagUserAgent, Flags: LineDirective | LineHasComment | LineMissingColon},
		{Line: 4, Tag: TagUnknown},
		{Line: 5, Tag: TagUnknown, Flags: LineHasComment | LineComment},
		{Line: 6, Tag: TagUnknown, Flags: LineEmpty},
		{Line: 7, Tag: TagUnknown, Flags: LineDirective},
		{Line: 8, Tag: TagUnused, Flags: LineDirective},
		{Line: 9, Tag: TagDisallow, Flags: LineDirective},
		{Line: 10, Tag: TagUnknown, Flags: LineHasComment},
		{Line: 11, Tag: TagUserAgent, Flags: LineDirective | LineTypo},
		{Line: 12, Tag: TagDisallow, Flags: LineDirective | LineTypo},
		{Line: 13, Tag: TagSitemap, Flags: LineDirective | LineTypo | LineHasComment},
		{Line: 14, Tag: TagSitemap, Flags: LineDirective},
		{Line: 15, Tag: TagUnused, Flags: LineDirective},
		{Line: 16, Tag: TagUnknown, Flags: LineEmpty},
	}
	if diff := cmp.Diff(want, rep.Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if rep.ValidDirectives != 8 || rep.UnusedDirectives != 3 || rep.LastLine != 16 {
		t.Errorf("valid %d, unused %d, last line %d; want 8, 3, 16", rep.ValidDirectives, rep.UnusedDirectives, rep.LastLine)
	}

	// DOS and old Mac line ends: 4 directives, 7 lines (robots.cc RobotsTxtParser::Parse, line ends).
	for _, eol := range []string{"\r\n", "\r"} {
		body := strings.Join([]string{"User-Agent: foo", "Allow: /some/path", "User-Agent: bar", "", "", "Disallow: /", ""}, eol)
		rep := Lint([]byte(body))
		if rep.ValidDirectives != 4 || rep.LastLine != 7 || len(rep.Lines) != 7 {
			t.Errorf("%q: valid %d, last line %d, %d lines; want 4, 7, 7", eol, rep.ValidDirectives, rep.LastLine, len(rep.Lines))
		}
	}
}

// A line longer than 16,663 bytes is cut and flagged; its neighbours are
// not (Google's LinesTooLongReportedCorrectly; robots.cc kMaxLineLen).
func TestLintLineReportTooLong(t *testing.T) {
	long := "/x/" + strings.Repeat("a", 2084*8)
	rep := Lint([]byte("user-agent: foo\ndisallow: " + long + "\nallow: /\n"))
	want := []LineReport{
		{Line: 1, Tag: TagUserAgent, Flags: LineDirective},
		{Line: 2, Tag: TagDisallow, Flags: LineDirective | LineTooLong},
		{Line: 3, Tag: TagAllow, Flags: LineDirective},
		{Line: 4, Tag: TagUnknown, Flags: LineEmpty},
	}
	if diff := cmp.Diff(want, rep.Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if rep.ValidDirectives != 3 || rep.LastLine != 4 {
		t.Errorf("valid %d, last line %d; want 3, 4", rep.ValidDirectives, rep.LastLine)
	}
}

// Every key Google's reporter tags unused, compared in full after ASCII
// lower-casing (reporting_robots.cc RobotsParsingReporter), and keys that are not.
func TestLintUnusedTags(t *testing.T) {
	tests := []struct {
		line string
		want Tag
	}{
		{"clean-param: a", TagUnused},
		{"Content-Signal: search=yes", TagUnused},
		{"content-usage: x", TagUnused},
		{"Crawl-Delay: 1", TagUnused},
		{"crawl-delay 10", TagUnused}, // no colon, still a directive
		{"DOMAIN: x", TagUnused},
		{"host: example.com", TagUnused},
		{"noarchive: /", TagUnused},
		{"nofollow: /", TagUnused},
		{"noindex: /", TagUnused},
		{"request-rate: 1/5", TagUnused},
		{"revisit-after: 1 day", TagUnused},
		{"visit-time: 0600-0845", TagUnused},
		{"crawldelay: 1", TagUnknown},      // not in the list
		{"crawl-delays: 1", TagUnknown},    // compared in full, not by prefix
		{"noindexes: /", TagUnknown},       // likewise
		{"sitemaps: x", TagSitemap},        // sitemap keys are prefixes
		{"allowance: /", TagAllow},         // so are allow ...
		{"user-agentfoo: x", TagUserAgent}, // ... and user-agent
	}
	for _, tt := range tests {
		rep := Lint([]byte(tt.line))
		if got := rep.Lines[0].Tag; got != tt.want {
			t.Errorf("%q: tag %v, want %v", tt.line, got, tt.want)
		}
		valid, unused := 0, 1
		if tt.want != TagUnused && tt.want != TagUnknown {
			valid, unused = 1, 0
		}
		if rep.ValidDirectives != valid || rep.UnusedDirectives != unused {
			t.Errorf("%q: valid %d unused %d, want %d %d", tt.line, rep.ValidDirectives, rep.UnusedDirectives, valid, unused)
		}
	}
}

// Severities, short for the tables.
const (
	E = SeverityError
	W = SeverityWarning
	I = SeverityInfo
)

func d(line int, sev Severity, code Code, msg string) Diagnostic {
	return Diagnostic{Line: line, Severity: sev, Code: code, Message: msg}
}

// Each trap the linter finds, in a file that has it, with the message.
func TestLintDiagnostics(t *testing.T) {
	long := strings.Repeat("a", parse.MaxLineBytes)
	tests := []struct {
		name string
		body string
		want []Diagnostic
	}{
		{
			// robots.cc RobotsMatcher::HandleUserAgent: rules before the first user-agent line are
			// ignored.
			name: "rule before any user-agent line",
			body: "Disallow: /private/\nDisallow:\nUser-agent: *\nDisallow: /tmp/\n",
			want: []Diagnostic{
				d(1, E, "rule-outside-group", "disallow: /private/ comes before any user-agent line, so it belongs to no group; Google ignores it"),
			},
		},
		{
			// robots.cc RobotsMatchStrategy::Matches: a pattern that starts with neither '/'
			// nor '*' never matches, since every path starts with '/'.
			name: "path not starting with / or *",
			body: "User-agent: *\nDisallow: private/\nDisallow: https://example.com/admin/\nAllow: *.css\nDisallow: $\n",
			want: []Diagnostic{
				d(2, E, "path-not-absolute", "disallow: private/ never matches: a path must start with '/' (or '*')"),
				d(3, E, "path-not-absolute", "disallow: https://example.com/admin/ never matches: rules match the URL's path, so write the path (starting with '/') instead of a full URL"),
				d(5, E, "path-not-absolute", "disallow: $ never matches: a path must start with '/' (or '*')"),
			},
		},
		{
			// robots.cc GetKeyType and its typos: typo keys, and keys read by prefix.
			name: "keys accepted as typos or by prefix",
			body: "Useragent: *\nDisallowed: /a/\nDissallow: /b/\nUser agent: x\nDisallow: /c/\n",
			want: []Diagnostic{
				d(1, W, "key-typo", `"Useragent" is a misspelling of user-agent that Google accepts; other crawlers may not`),
				d(2, W, "key-prefix", `key "Disallowed" is read as disallow only because it begins with "Disallow"; other crawlers may ignore it`),
				d(3, W, "key-typo", `"Dissallow" is a misspelling of disallow that Google accepts; other crawlers may not`),
				d(4, W, "key-typo", `"User agent" is a misspelling of user-agent that Google accepts; other crawlers may not`),
			},
		},
		{
			// robots.cc GetKeyAndValueFrom: the first colon splits, so a missing
			// colon before a URL puts the key inside "http:".
			name: "key read by prefix hides a missing colon",
			body: "Sitemap http://example.com/sitemap.xml\n",
			want: []Diagnostic{
				d(1, W, "key-prefix", `key "Sitemap http" is read as sitemap only because it begins with "Sitemap"; other crawlers may ignore it`),
				d(1, E, "sitemap-not-absolute", `sitemap "//example.com/sitemap.xml" is not an absolute http(s) URL (like https://example.com/sitemap.xml); Google ignores it`),
			},
		},
		{
			// robots.cc GetKeyAndValueFrom: white space instead of a colon is
			// accepted only between exactly two words.
			name: "missing colon",
			body: "User-agent *\nDisallow /a/\nDisallow /a/ /b/\n",
			want: []Diagnostic{
				d(1, W, "missing-colon", `no colon after "User-agent"; Google accepts white space instead, other crawlers may not`),
				d(2, W, "missing-colon", `no colon after "Disallow"; Google accepts white space instead, other crawlers may not`),
				d(3, W, "not-a-directive", `line is not a directive (no "key: value"); Google ignores it`),
			},
		},
		{
			// robots.cc kMaxLineLen: 16,663 bytes of a line are kept; a
			// disallow cut there blocks more than it says.
			name: "line cut at 16,663 bytes",
			body: "User-agent: *\nDisallow: /" + long + "\n# " + long + "\n",
			want: []Diagnostic{
				d(2, E, "line-too-long", `line is longer than 16663 bytes; Google reads only the first 16663, so the value becomes "/`+long[:59]+`"...`),
				d(3, I, "line-too-long", "line is longer than 16663 bytes; Google drops the rest of it"),
			},
		},
		{
			// robots.cc ExtractUserAgent: the product token is the leading run of
			// letters, '-' and '_'; "*" must stand alone (or before white
			// space) to be global. RFC 9309 section 2.2.1.
			name: "user-agent values read differently",
			body: "User-agent: MJ12bot\nUser-agent: Googlebot/2.1\nUser-agent: *foo\nUser-agent: Foo Bar\nUser-agent: 008\nUser-agent: * bar\nUser-agent:\nDisallow: /x\n",
			want: []Diagnostic{
				d(1, W, "agent-token-differs", `Google reads user-agent "MJ12bot" as "MJ" (only letters, '-' and '_' count), so the group applies to crawlers named "MJ"`),
				d(2, I, "agent-token-differs", `Google reads user-agent "Googlebot/2.1" as "Googlebot": the /version is ignored`),
				d(3, E, "agent-not-global", `user-agent "*foo" is not the global group (only "*" alone is); Google reads it as an empty name that no crawler has`),
				d(4, W, "agent-token-differs", `Google reads user-agent "Foo Bar" as "Foo" (only letters, '-' and '_' count), so the group applies to crawlers named "Foo"`),
				d(5, W, "agent-token-differs", `Google reads user-agent "008" as an empty name that no crawler has: a name must start with a letter, '-' or '_'`),
				d(6, W, "agent-token-differs", `Google reads user-agent "* bar" as "*", the global group`),
				d(7, W, "agent-token-differs", "user-agent line with no name names no crawler"),
			},
		},
		{
			// robots.cc RobotsMatcher::HandleUserAgent: a group naming the agent, even without
			// rules, keeps the "*" group from applying.
			name: "group without rules overrides *",
			body: "User-agent: *\nDisallow: /private/\n\nUser-agent: Bingbot\nUser-agent: Yandex\nCrawl-delay: 5\n",
			want: []Diagnostic{
				d(4, W, "empty-group-overrides-global", `the group for "bingbot", "yandex" has no rules, so Google lets those crawlers fetch everything: the "*" rules (from line 2) no longer apply to them`),
				d(6, I, "unused-key", `Google ignores "crawl-delay"; other crawlers may use it`),
			},
		},
		{
			// An empty group is harmless when no "*" rule would apply.
			name: "group without rules, no * rules",
			body: "User-agent: *\nDisallow:\n\nUser-agent: Bingbot\n",
			want: nil,
		},
		{
			// google/robotstxt#51, robots.cc RobotsMatcher::HandleUserAgent: only a user-agent
			// line after a rule starts a group; sitemap, unknown and blank lines
			// leave groups alone.
			name: "non-group line between user-agent lines",
			body: "User-agent: a\nCrawl-delay: 10\nUser-agent: b\nDisallow: /\n",
			want: []Diagnostic{
				d(2, I, "unused-key", `Google ignores "crawl-delay"; other crawlers may use it`),
				d(2, W, "groups-joined", `a "Crawl-delay" line between user-agent lines 1 and 3 does not end a group: the agents of both get the rules that follow`),
			},
		},
		{
			name: "blank line between user-agent lines",
			body: "User-agent: a\n\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /\n\nUser-agent: *\n\nUser-agent: *\nDisallow: /x\n",
			want: []Diagnostic{
				d(3, W, "groups-joined", "a sitemap line between user-agent lines 1 and 4 does not end a group: the agents of both get the rules that follow"),
			},
		},
		{
			// robots.cc RobotsMatcher::HandleUserAgent: groups naming one agent are merged. RFC 9309 section 2.2.1: matching groups combine.
			name: "groups for one agent spread over the file",
			body: "User-agent: Googlebot\nDisallow: /a/\n\nUser-agent: *\nDisallow: /b/\n\nUser-agent: googlebot\nDisallow: /c/\n\nUser-agent: *\nDisallow: /d/\n",
			want: []Diagnostic{
				d(7, I, "groups-merged", `another group for "googlebot" starts at line 1; Google merges the rules of all of them`),
				d(10, I, "groups-merged", `another group for "*" starts at line 4; Google merges the rules of all of them`),
			},
		},
		{
			// robots.cc LongestMatchRobotsMatchStrategy: allow wins ties.
			name: "allow and disallow with the same pattern",
			body: "User-agent: *\nDisallow: /shop/\nAllow: /caf%C3%A9\nAllow: /shop/\nDisallow: /café\n",
			want: []Diagnostic{
				d(2, W, "same-pattern-allow-disallow", "disallow: /shop/ never applies: allow: /shop/ on line 4 has the same pattern, and allow wins ties"),
				d(5, I, "non-ascii-path", `non-ASCII path: Google matches it as "/caf%C3%A9", the percent-encoded UTF-8 that crawlers send`),
				d(5, W, "same-pattern-allow-disallow", `disallow: /café never applies: allow: /caf%C3%A9 on line 3 has the same pattern, and allow wins ties`),
			},
		},
		{
			// robots.cc RobotsMatchStrategy::Matches and
			// LongestMatchRobotsMatchStrategy: a trailing '*' matches the same
			// paths with a longer pattern; "/*p" matches every path that
			// starts with "/p".
			name: "rules that never decide",
			body: "User-agent: *\nDisallow: /fish\nAllow: /fish*\nDisallow: /x$\nAllow: /x*\nAllow: /p\nDisallow: /*p\nDisallow: /q/\nAllow: /q\nAllow: /account*\nDisallow: */account\n",
			want: []Diagnostic{
				d(2, W, "rule-shadowed", "disallow: /fish never decides: allow: /fish* on line 3 matches every path it matches and has a longer pattern"),
				d(4, W, "rule-shadowed", "disallow: /x$ never decides: allow: /x* on line 5 matches every path it matches and has a pattern as long, and allow wins ties"),
				d(6, W, "rule-shadowed", "allow: /p never decides: disallow: /*p on line 7 matches every path it matches and has a longer pattern"),
				// Missed before: no disallow that "allow: /q" could
				// override matches any of its paths ("/*p" is longer).
				d(9, I, "rule-redundant", `allow: /q changes no verdict: every path it matches has the same verdict without it (no other rule matches "/q")`),
			},
		},
		{
			// RFC 9309 section 2.2.2: the most specific (longest) match
			// decides, so a rule inside a shorter rule of its own kind,
			// with no rule of the other kind between their lengths,
			// changes no verdict; a repeated rule changes none either.
			// Google matches patterns percent-encoded, so "/café" repeats
			// "/caf%C3%A9".
			name: "repeated and subsumed rules",
			body: "User-agent: *\nDisallow: /private/\nDisallow: /private/reports/\nDisallow: /caf%C3%A9\nDisallow: /café\nDisallow: /private/\n",
			want: []Diagnostic{
				d(3, I, "rule-redundant", `disallow: /private/reports/ changes no verdict: every path it matches has the same verdict without it (disallow: /private/ on line 2 decides "/private/reports/")`),
				d(5, I, "non-ascii-path", `non-ASCII path: Google matches it as "/caf%C3%A9", the percent-encoded UTF-8 that crawlers send`),
				d(5, W, "rule-duplicate", "disallow: /café changes no verdict: it repeats disallow: /caf%C3%A9 on line 4"),
				d(6, W, "rule-duplicate", "disallow: /private/ changes no verdict: it repeats disallow: /private/ on line 2"),
			},
		},
		{
			// RFC 9309 section 2.2.2: an allow between the two lengths
			// makes both disallows matter: "/private/pub/secret" is
			// disallowed only by the longest rule, "/private/x" only by
			// the shortest.
			name: "a rule of the other kind between two lengths keeps both",
			body: "User-agent: *\nDisallow: /private/\nAllow: /private/pub\nDisallow: /private/pub/secret\n",
			want: nil,
		},
		{
			// Google's robots.txt documentation: at equal length the least
			// restrictive rule (allow) wins. "allow: /x$" decides "/x"
			// over "disallow: /x*" only through that tie, and the
			// disallow decides "/xy": both matter.
			name: "allow wins a tie, and both rules matter",
			body: "User-agent: *\nAllow: /x$\nDisallow: /x*\n",
			want: nil,
		},
		{
			// An allow of every path says the default out loud (the
			// aipref attachment draft's own example has one): not
			// reported, though dropping it changes nothing.
			name: "allow of every path is an idiom",
			body: "User-agent: *\nAllow: /\nDisallow: /admin\nDisallow:\n",
			want: nil,
		},
		{
			// Dead for one agent only: "b" has no "/x" rule but line 3,
			// "a" also has the longer "/x/y" disallow inside it.
			name: "subsumed for one agent only",
			body: "User-agent: a\nUser-agent: b\nDisallow: /x/y\n\nUser-agent: a\nDisallow: /x\n",
			want: []Diagnostic{
				d(3, I, "rule-redundant", `disallow: /x/y changes no verdict for "a": every path it matches has the same verdict without it (disallow: /x on line 6 decides "/x/y")`),
				d(5, I, "groups-merged", `another group for "a" starts at line 1; Google merges the rules of all of them`),
			},
		},
		{
			// Shadowing is judged per agent: here only for "a".
			name: "rule shadowed for one agent only",
			body: "User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: a\nAllow: /x*\n",
			want: []Diagnostic{
				d(3, W, "rule-shadowed", `disallow: /x never decides for "a": allow: /x* on line 6 matches every path it matches and has a longer pattern`),
				d(5, I, "groups-merged", `another group for "a" starts at line 1; Google merges the rules of all of them`),
			},
		},
		{
			// robots.cc RobotsMatcher::HandleAllow, index.htm: the allow rewritten for index.htm
			// matches the directory too, so it never decides only if both
			// forms are covered. Here its directory form "/d/$" decides
			// "/d/", but nothing disallows "/d/": the rule changes no
			// verdict (the cover check alone missed it).
			name: "index.html allow whose directory form changes nothing",
			body: "User-agent: *\nAllow: /d/index.html\nDisallow: /d/index.html*\n",
			want: []Diagnostic{
				d(2, I, "rule-redundant", `allow: /d/index.html changes no verdict: every path it matches has the same verdict without it (disallow: /d/index.html* on line 3 decides "/d/index.html")`),
			},
		},
		{
			// The same, where a disallow of "/d/" as long as the directory
			// form makes that form decide (allow wins a tie): live.
			name: "index.html allow kept alive by its directory form",
			body: "User-agent: *\nAllow: /d/index.html\nDisallow: /d/index.html*\nDisallow: /d/$\n",
			want: []Diagnostic{
				d(4, W, "rule-shadowed", "disallow: /d/$ never decides: allow: /d/index.html on line 2 matches every path it matches and has a pattern as long, and allow wins ties"),
			},
		},
		{
			// robots.cc RobotsMatchStrategy::Matches and MaybeEscapePattern: '$' is special only at the end;
			// escapes are upper-cased; non-ASCII is percent-encoded.
			name: "pattern details",
			body: "User-agent: *\nDisallow: /a$b\nDisallow: /%e3%81%82\nDisallow: /café\nDisallow: /caf\xe9\n",
			want: []Diagnostic{
				d(2, W, "dollar-in-middle", "'$' is special only at the end of a pattern; in disallow: /a$b it matches a literal '$'"),
				d(3, I, "lowercase-escape", `Google upper-cases "%e3" to "%E3"; a URL with the lower-case escape does not match`),
				d(4, I, "non-ascii-path", `non-ASCII path: Google matches it as "/caf%C3%A9", the percent-encoded UTF-8 that crawlers send`),
				d(5, W, "invalid-utf8", "line is not valid UTF-8 (is the file in another encoding?); Google matches its bytes as they are, percent-encoded, which UTF-8 URLs do not match"),
			},
		},
		{
			// RFC 9309 section 2.2.4: sitemaps are absolute URLs; crawl-delay
			// is ignored by Google, and used by others as seconds.
			name: "sitemap and crawl-delay values",
			body: "Sitemap: /sitemap.xml\nSitemap: https://example.com/sitemap.xml\nSitemap:\nUser-agent: *\nCrawl-delay: soon\nCrawl-delay: 2.5\n",
			want: []Diagnostic{
				d(1, E, "sitemap-not-absolute", `sitemap "/sitemap.xml" is not an absolute http(s) URL (like https://example.com/sitemap.xml); Google ignores it`),
				d(3, W, "sitemap-not-absolute", "sitemap line without a URL"),
				d(5, I, "unused-key", `Google ignores "crawl-delay"; other crawlers may use it`),
				d(5, W, "crawl-delay-invalid", `crawl-delay "soon" is not a number of seconds`),
				d(6, I, "unused-key", `Google ignores "crawl-delay"; other crawlers may use it`),
			},
		},
		{
			// Google's documentation ("File format") ignores invalid lines: an HTML page is not robots.txt; one error says so.
			name: "HTML page",
			body: "\n<!DOCTYPE html>\n<html><head><title>Not found</title></head>\n<body>User-agent: *</body></html>\n",
			want: []Diagnostic{
				d(2, E, "looks-like-html", "the file looks like an HTML page, not robots.txt (an error page served with status 200?); Google finds no rules in it"),
			},
		},
		{
			name: "UTF-16",
			body: "\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00",
			want: []Diagnostic{
				d(1, E, "utf16-encoding", "the file is UTF-16 (it starts with a UTF-16 byte order mark); Google reads robots.txt as UTF-8 bytes and finds no rules in it"),
			},
		},
		{
			// robots.cc RobotsTxtParser::Parse, the BOM: only a leading byte order mark is
			// skipped; one inside the file is part of the line.
			name: "byte order mark in the middle",
			body: "\xEF\xBB\xBFUser-agent: *\nDisallow: /a\n\xEF\xBB\xBFUser-agent: b\nDisallow: /b\nDisallow: \xEF\xBB\xBF/c\n",
			want: []Diagnostic{
				d(3, E, "bom-mid-file", `a byte order mark (EF BB BF) inside the file is part of the key "\ufeffUser-agent", which Google does not recognise; the line is ignored`),
				d(5, E, "bom-mid-file", `a byte order mark (EF BB BF) inside the file is part of this line's value "\ufeff/c"`),
				d(5, E, "path-not-absolute", `disallow: \ufeff/c never matches: a path must start with '/' (or '*')`),
			},
		},
		{
			name: "unknown and unused keys",
			body: "User-agent: *\nDis-allow: /x\nHost: example.com\nFrobnicate: 1\n",
			want: []Diagnostic{
				d(2, W, "unknown-key", `unknown key "Dis-allow" (disallow?); Google ignores the line`),
				d(3, I, "unused-key", `Google ignores "host"; other crawlers may use it`),
				d(4, W, "unknown-key", `unknown key "Frobnicate"; Google ignores the line`),
			},
		},
		{
			name: "a clean file",
			body: "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: Googlebot\nDisallow: /drafts/\n\nSitemap: https://example.com/sitemap.xml\n",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Lint([]byte(tt.body)).Diagnostics
			if diff := cmp.Diff(tt.want, got, cmpEmpty); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

var cmpEmpty = cmp.FilterValues(func(a, b []Diagnostic) bool { return len(a) == 0 && len(b) == 0 }, cmp.Ignore())

// Googlebot reads 500 KiB (RFC 9309 section 2.5 lets a crawler set a
// limit of at least 500 KiB; Google's documentation names 500 KiB). The
// report describes what Googlebot reads; what lies past the limit is only
// counted, in the content-past-limit diagnostic.
func TestLintPastLimit(t *testing.T) {
	head := "User-agent: *\nDisallow: /a\n"
	pad := "#" + strings.Repeat("x", 1000) + "\n"
	var b strings.Builder
	b.WriteString(head)
	pads := 0
	for b.Len()+len(pad) < robotstxt.DefaultMaxSize-40 {
		b.WriteString(pad)
		pads++
	}
	b.WriteString("#" + strings.Repeat("x", robotstxt.DefaultMaxSize-20-b.Len()-2) + "\n")
	// The cut falls inside this disallow line; the allow after it would
	// shadow "Disallow: /a" if Googlebot read it.
	b.WriteString("Disallow: /" + strings.Repeat("b", 40) + "\nAllow: /a*\n")
	data := []byte(b.String())
	cutLine := 4 + pads
	rep := Lint(data)
	want := []Diagnostic{
		d(cutLine, E, "content-past-limit", fmt.Sprintf("the file is %d bytes; Googlebot reads only the first 512000: line %d is cut there and what follows it is ignored (1 directive)", len(data), cutLine)),
	}
	if diff := cmp.Diff(want, rep.Diagnostics); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if rep.LastLine != cutLine || len(rep.Lines) != cutLine || rep.ValidDirectives != 3 {
		t.Errorf("last line %d, %d lines, %d valid; want %d, %d, 3", rep.LastLine, len(rep.Lines), rep.ValidDirectives, cutLine, cutLine)
	}
	// Without the limit, the allow shadows the first disallow.
	rep = LintWith(data, Options{MaxSize: -1})
	want = []Diagnostic{
		d(2, W, "rule-shadowed", fmt.Sprintf("disallow: /a never decides: allow: /a* on line %d matches every path it matches and has a longer pattern", cutLine+1)),
	}
	if diff := cmp.Diff(want, rep.Diagnostics); diff != "" {
		t.Errorf("no limit: diagnostics (-want +got):\n%s", diff)
	}
	// Only comments past the limit: worth knowing, not an error.
	rep = LintWith([]byte(head+pad+pad), Options{MaxSize: len(head) + 10})
	want = []Diagnostic{
		d(3, I, "content-past-limit", fmt.Sprintf("the file is %d bytes; Googlebot reads only the first %d: line 3 is cut there and what follows it is ignored (0 directives)", len(head)+2*len(pad), len(head)+10)),
	}
	if diff := cmp.Diff(want, rep.Diagnostics); diff != "" {
		t.Errorf("comments past the limit: diagnostics (-want +got):\n%s", diff)
	}
	// A cut at a line start.
	rep = LintWith([]byte(head+"Disallow: /c\n"), Options{MaxSize: len(head)})
	want = []Diagnostic{
		d(3, E, "content-past-limit", fmt.Sprintf("the file is %d bytes; Googlebot reads only the first %d: line 3 and what follows are ignored (1 directive)", len(head)+13, len(head))),
	}
	if diff := cmp.Diff(want, rep.Diagnostics); diff != "" {
		t.Errorf("cut at a line start: diagnostics (-want +got):\n%s", diff)
	}
}

// Lints every corpus file: no panic, the same report twice, lines as the
// tokenizer numbers them. Logs the counts
// of diagnostics by code.
func TestLintCorpus(t *testing.T) {
	names, files := corpus.Load(t, 0)
	start := time.Now()
	counts := map[Code]int{}
	for i, f := range files {
		rep := Lint(f)
		for _, d := range rep.Diagnostics {
			counts[d.Code]++
		}
		if len(rep.Lines) != rep.LastLine {
			t.Errorf("%s: %d lines, last line %d", names[i], len(rep.Lines), rep.LastLine)
		}
		if !sort.SliceIsSorted(rep.Diagnostics, func(a, b int) bool { return rep.Diagnostics[a].Line < rep.Diagnostics[b].Line }) {
			t.Errorf("%s: diagnostics out of order", names[i])
		}
		a, _ := json.Marshal(rep)
		b, _ := json.Marshal(Lint(f))
		if string(a) != string(b) {
			t.Errorf("%s: two runs differ", names[i])
		}
	}
	elapsed := time.Since(start)
	var codes []Code
	for c := range counts {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		if counts[codes[i]] != counts[codes[j]] {
			return counts[codes[i]] > counts[codes[j]]
		}
		return codes[i] < codes[j]
	})
	var b strings.Builder
	for _, c := range codes {
		fmt.Fprintf(&b, "%7d %s\n", counts[c], c)
	}
	t.Logf("linted %d files twice in %v; diagnostics by code:\n%s", len(files), elapsed, b.String())
}

func FuzzLint(f *testing.F) {
	for _, s := range []string{reportSample, "User-agent: *\nDisallow: /search\nAllow: /search/about\nDisallow: /*.pdf$\n\nUser-agent: Googlebot\nAllow: /*/index.html\n", "", "\xEF\xBB", "User-agent: *\nAllow: /index.html\nDisallow: /*$\n", "<html>", "\xFF\xFE"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rep := LintWith(data, Options{MaxSize: 64})
		if n := lineCount(data[:min(len(data), 64)]); len(rep.Lines) != n {
			t.Errorf("%d lines, tokenizer has %d", len(rep.Lines), n)
		}
	})
}

// lineCount returns how many lines the tokenizer emits for data.
func lineCount(data []byte) int {
	tok := parse.NewTokenizer(string(data))
	var l parse.Line
	n := 0
	for tok.Next(&l) {
		n++
	}
	return n
}

// A gzip-compressed or binary body is not robots.txt: one error, alone, as
// for HTML (issue 15: lint printed 80,000 lines for such files).
func TestLintBinaryBodies(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("User-agent: *\nDisallow: /private\n"))
	w.Close()
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0, 1, 2, 0xFF}, 500)...)
	tests := []struct {
		name string
		body []byte
		code Code
	}{
		{"gzip", gz.Bytes(), CodeGzip},
		{"png", png, CodeBinary},
		{"NUL bytes", []byte("User-agent: *\x00\x00\x00Disallow: /\n"), CodeBinary},
		{"control bytes", bytes.Repeat([]byte("ab\x01\x02\x03\n"), 100), CodeBinary},
	}
	for _, tt := range tests {
		rep := Lint(tt.body)
		if len(rep.Diagnostics) != 1 || rep.Diagnostics[0].Code != tt.code || rep.Diagnostics[0].Severity != SeverityError || rep.Diagnostics[0].Line != 1 {
			t.Errorf("%s: diagnostics %v; want one %s error on line 1", tt.name, rep.Diagnostics, tt.code)
		}
	}
	// Text with a tab, a form feed and a stray control byte is still text.
	if rep := Lint([]byte("User-agent: *\t\nDisallow: /a\f\x01\n")); len(rep.Diagnostics) > 0 && (rep.Diagnostics[0].Code == CodeBinary) {
		t.Errorf("text read as binary: %v", rep.Diagnostics)
	}
}

// A message repeated on many lines is stored once, with few messages and
// with more than the first sizes of the index of messages hold; distinct
// messages stay distinct and in place.
func TestLintInternsMessages(t *testing.T) {
	for _, keys := range []int{2, internScan + 5, 50} {
		var body strings.Builder
		body.WriteString("user-agent: *\n")
		for range 3 {
			for k := range keys {
				fmt.Fprintf(&body, "key%d: v\n", k)
			}
		}
		rep := Lint([]byte(body.String()))
		if len(rep.Diagnostics) != 3*keys {
			t.Fatalf("%d keys: %d diagnostics, want %d", keys, len(rep.Diagnostics), 3*keys)
		}
		for i, d := range rep.Diagnostics {
			want := fmt.Sprintf("unknown key %q; Google ignores the line", fmt.Sprintf("key%d", i%keys))
			if d.Message != want {
				t.Fatalf("%d keys: diagnostic %d is %q, want %q", keys, i, d.Message, want)
			}
			if first := rep.Diagnostics[i%keys]; unsafe.StringData(d.Message) != unsafe.StringData(first.Message) {
				t.Errorf("%d keys: diagnostic %d has its own copy of its message", keys, i)
			}
		}
	}
}
