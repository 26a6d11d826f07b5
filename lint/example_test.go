package lint_test

import (
	"fmt"

	"github.com/seed50c7eacc/robotstxt/lint"
)

func ExampleLint() {
	body := []byte(`Disallow: /tmp/
User-agent: *
Disallow: /private
Allow: /private*

User-agent: MJ12bot
Disallow: /
`)
	report := lint.Lint(body)
	for _, d := range report.Diagnostics {
		fmt.Println(d)
	}
	fmt.Println(report.Lines[4].Tag, report.Lines[4].Flags, report.ValidDirectives, report.LastLine)
	// Output:
	// 1: error: disallow: /tmp/ comes before any user-agent line, so it belongs to no group; Google ignores it [rule-outside-group]
	// 3: warning: disallow: /private never decides: allow: /private* on line 4 matches every path it matches and has a longer pattern [rule-shadowed]
	// 6: warning: Google reads user-agent "MJ12bot" as "MJ" (only letters, '-' and '_' count), so the group applies to crawlers named "MJ" [agent-token-differs]
	// unknown empty 6 8
}

// A file larger than the limit: the linter reads what Googlebot reads, and
// says where it stops.
func ExampleLintWith() {
	body := []byte("User-agent: *\nDisallow: /a/\nDisallow: /b/\n")
	report := lint.LintWith(body, lint.Options{MaxSize: 28}) // the first two lines
	for _, d := range report.Diagnostics {
		fmt.Println(d)
	}
	fmt.Println(report.HasErrors(), report.ValidDirectives)
	// Output:
	// 3: error: the file is 42 bytes; Googlebot reads only the first 28: line 3 and what follows are ignored (1 directive) [content-past-limit]
	// true 2
}

// The registry of codes, as a tool would list them for its users.
func ExampleCodes() {
	for _, c := range lint.Codes()[:3] {
		fmt.Printf("%s (%s): %s\n", c.Code, c.Severity, c.Doc)
	}
	// Output:
	// looks-like-html (error): the body is an HTML page, not robots.txt; reported alone
	// binary-content (error): the body is binary data (NUL or control bytes), not text; reported alone
	// gzip-content (error): the body is gzip-compressed; Google reads no rules in it; reported alone
}
