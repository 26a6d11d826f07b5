// Package lint reads a robots.txt file as Google does and tells a site
// owner what Google will actually do with it: a [Diagnostic] for each trap
// that makes the file mean something other than it seems to, and the
// per-line view of Google's reporting library (the one behind Search
// Console's robots.txt report; see
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt
// and https://github.com/google/robotstxt).
//
//	report := lint.Lint(body)
//	for _, d := range report.Diagnostics {
//		fmt.Println(d) // "3: warning: ... [rule-shadowed]"
//	}
//
// It reads a file exactly as robotstxt.Parse does, line by line and
// group by group, so its groups and rules are the matcher's.
//
// The per-line view, Report.Lines, has one [LineReport] per line: its tag
// and its [LineFlags], in 8 bytes, since a file of bare line ends has as
// many lines as bytes.
//
//	for _, l := range report.Lines {
//		if l.Flags&lint.LineMissingColon != 0 {
//			fmt.Println(l.Line, l.Tag) // "3 user-agent"
//		}
//	}
//
// What Lint allocates is proportional to the bytes it reads, within the
// size limit: on inputs built to make it allocate (a line end per byte,
// thousands of groups, tens of thousands of rules), at most about 8 bytes
// per byte read.
//
// License lines are those of RSL 1.0 (Really Simple Licensing, 10
// December 2025, https://rslstandard.org/guide/robots-txt): the absolute
// URL of the site's machine-readable licence terms, global like a sitemap
// line. Lint checks the line, not the licence file, which it does not
// fetch.
//
// The codes, with their usual severity (the registry [Codes] returns):
//
//	looks-like-html               error    the body is an HTML page, not robots.txt; reported alone
//	binary-content                error    the body is binary data (NUL or control bytes), not text; reported alone
//	gzip-content                  error    the body is gzip-compressed; Google reads no rules in it; reported alone
//	utf16-encoding                error    the body is UTF-16; Google reads bytes and finds no rules; reported alone
//	content-past-limit            error    directives past the size limit are ignored (info if only blank or comment lines are)
//	line-too-long                 error    a directive line is cut at 16,663 bytes, changing its value (info for a comment)
//	bom-mid-file                  error    a byte order mark inside the file spoils a key or a value
//	invalid-utf8                  warning  a key or value is not UTF-8; its bytes are matched percent-encoded
//	not-a-directive               warning  a line that is neither blank, a comment, "key: value" nor "key value"
//	missing-colon                 warning  "key value" without a colon: Google accepts it, others may not
//	key-typo                      warning  a misspelt key Google accepts (useragent, disalow, site-map, ...)
//	key-prefix                    warning  a key read only because it begins with a known one (Disallowed:, User-agents:)
//	unknown-key                   warning  a key Google does not know; the line is ignored (info for RSL's License)
//	unused-key                    info     a known key Google ignores (crawl-delay, host, noindex, ...)
//	rule-outside-group            error    an allow or disallow before any user-agent line; ignored
//	path-not-absolute             error    a pattern starting with neither '/' nor '*'; it never matches
//	dollar-in-middle              warning  '$' before the end of a pattern is a literal '$'
//	lowercase-escape              info     a %xx escape with lower-case hex; Google upper-cases it
//	non-ascii-path                info     raw non-ASCII in a pattern, matched as its UTF-8 percent-encoding
//	agent-not-global              error    a user-agent starting with '*' that is not "*"; it names no crawler
//	agent-token-differs           warning  Google reads only the leading letters, '-' and '_' of a user-agent (info for a /version)
//	empty-group-overrides-global  warning  an agent whose only group has no rules escapes the '*' rules
//	groups-joined                 warning  a blank or non-group line between user-agent lines does not end a group
//	groups-merged                 info     several groups name one agent; Google merges their rules
//	same-pattern-allow-disallow   warning  an allow and a disallow with one pattern: the disallow never applies
//	rule-shadowed                 warning  a rule that can never decide: a rule that takes precedence covers it
//	rule-duplicate                warning  a rule that repeats another of the same agent's rules: dropping it changes no verdict
//	rule-redundant                info     a rule without which every path keeps its verdict (another rule decides its paths alike)
//	sitemap-not-absolute          error    a sitemap that is not an absolute http(s) URL (warning when empty)
//	crawl-delay-invalid           warning  a crawl-delay that is not a non-negative number of seconds
//	license-not-absolute          error    an RSL License that is not an absolute http(s) URL (warning when empty)
//	license-in-group              warning  an RSL License line among a group's lines: it is global, for every crawler
//	usage-malformed               error    a Content-Usage or Content-Signal value that is not an RFC 9651 dictionary: all unknown
//	usage-empty                   warning  a Content-Usage or Content-Signal line without a preference
//	usage-unknown-label           info     a preference label the vocabulary does not define; ignored
//	usage-bad-value               warning  a known label whose value is not y/n (yes/no for Content-Signal): unknown
//	usage-repeated-key            warning  a label repeated in one value; only its last value counts
//	usage-path-no-slash           error    a Content-Usage path not starting with '/': the value does not parse
//	signal-path                   error    a Content-Signal value with a path, which it cannot have
//	usage-outside-group           error    a preference before any user-agent line; it applies to no crawler
//	usage-grouping-conflict       warning  a preference between user-agent lines: Google joins the groups, the draft splits them
//	usage-disallowed-path         warning  a Content-Usage path its group disallows; it never applies
//	usage-contradiction           warning  Content-Usage and Content-Signal of one group say opposite things
package lint
