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
	fmt.Println(report.Lines[4].Tag, report.Lines[4].Empty, report.ValidDirectives, report.LastLine)
	// Output:
	// 1: error: disallow: /tmp/ comes before any user-agent line, so it belongs to no group; Google ignores it [rule-outside-group]
	// 3: warning: disallow: /private never decides: allow: /private* on line 4 matches every path it matches and has a longer pattern [rule-shadowed]
	// 6: warning: Google reads user-agent "MJ12bot" as "MJ" (only letters, '-' and '_' count), so the group applies to crawlers named "MJ" [agent-token-differs]
	// unknown true 6 8
}
