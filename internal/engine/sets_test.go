package engine

import (
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// CompileRules decides as the "*" group of a file holding the same rules
// does, verdict and line, on generated rules (escapes, index.htm allows,
// wildcards; sometimes enough to be indexed) and URLs.
func TestCompileRulesAsFile(t *testing.T) {
	reference.EachChooser(61, 3000, 256, func(_ int, c *reference.Chooser) {
		var body strings.Builder
		body.WriteString("user-agent: *\n")
		n := c.Pick(8)
		if c.Pick(4) == 0 {
			n = 16 + c.Pick(40)
		}
		for i := 0; i < n; i++ {
			body.WriteString(c.From([]string{"allow: ", "disallow: "}) + reference.GenPattern(c) + "\n")
		}
		// The rules as the linter has them: read by the grouper.
		var rules []parse.Rule
		gr := parse.NewGrouper(body.String())
		var l parse.Grouped
		for gr.Next(&l) {
			if l.Role == parse.RoleRule {
				rules = append(rules, parse.Rule{Line: int32(l.Num), Allow: l.Kind == parse.KeyAllow, Value: l.Value})
			}
		}
		rs := CompileRules(rules)
		file := load([]byte(body.String()))
		file.Compile()
		for range 8 {
			url := reference.GenURL(c)
			if got, want := rs.Verdict(url), file.Explain("x", url); got != want {
				t.Fatalf("CompileRules(%+v).Verdict(%q) = %+v; the file says %+v", rules, url, got, want)
			}
		}
	})
}
