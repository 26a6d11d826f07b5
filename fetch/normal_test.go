package fetch

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
)

// rewriteRules rewrites only the patterns, in place: a file generated at
// random (line ends LF, CR LF or CR, a BOM, comments repeating the
// pattern, keys in any case, other fields, unknown lines) gives the same
// rules as the same file generated with the patterns written rewritten in
// the first place, the slow twin: decoded as RFC 9309 section 2.2.2
// compares them, and decoded as a server reads them.
func TestNormalizedRulesTwin(t *testing.T) {
	for _, rw := range []struct {
		name    string
		rewrite func(string) string
		copy    func(*normalRules) *rewrittenRules
	}{
		{"rfc9309", decodeUnreserved, func(n *normalRules) *rewrittenRules { return n.rfc }},
		{"server", serverPattern, func(n *normalRules) *rewrittenRules { return n.server }},
	} {
		t.Run(rw.name, func(t *testing.T) { testRewriteTwin(t, rw.rewrite, rw.copy) })
	}
}

func testRewriteTwin(t *testing.T, rewrite func(string) string, copyOf func(*normalRules) *rewrittenRules) {
	rng := rand.New(rand.NewPCG(5, 6))
	patterns := []string{"/%7Ejoe", "/%70rivate", "/a%2Fb", "/%41%42*", "/x%2e%2E/$", "/%e3%83%84", "/plain", "/%zz", "/%", "/%7e%7E", "*%2A",
		"/a%21b", "/%24x$", "/a$b", "/%2a*%24$", "/%23x", "/a%20b", "/%5b%5D", "/%3F%3d"}
	ends := []string{"\n", "\r\n", "\r"}
	rewritten := 0
	for i := 0; i < 2000; i++ {
		var file, twin strings.Builder
		if rng.IntN(4) == 0 {
			file.WriteString("\xEF\xBB\xBF")
			twin.WriteString("\xEF\xBB\xBF")
		}
		end := ends[rng.IntN(len(ends))]
		both := func(s string) { file.WriteString(s); twin.WriteString(s) }
		for n := rng.IntN(12); n > 0; n-- {
			switch rng.IntN(6) {
			case 0:
				both(fmt.Sprintf("User-agent: %s%s", []string{"*", "ExampleBot", "other"}[rng.IntN(3)], end))
			case 1:
				both("Crawl-delay: 1" + end)
			case 2:
				both("# a comment /%70" + end)
			default:
				p := patterns[rng.IntN(len(patterns))]
				key := []string{"Disallow", "allow", "DISALLOW", "disallow "}[rng.IntN(4)]
				comment := ""
				if rng.IntN(3) == 0 {
					comment = " # " + p
				}
				file.WriteString(key + ": " + p + comment + end)
				decoded := rewrite(p)
				if strings.EqualFold(decoded, p) {
					decoded = p // only the case of the hex differs, which Google's matcher ignores
				}
				twin.WriteString(key + ": " + decoded + comment + end)
			}
		}
		body := []byte(file.String())
		parsed := robotstxt.Parse(body)
		var normal *rewrittenRules
		if n := normalizedRules(body, parsed); n != nil {
			normal = copyOf(n)
		}
		want := robotstxt.Parse([]byte(twin.String())).Groups()
		if normal == nil {
			if diff := cmp.Diff(parsed.Groups(), want); diff != "" {
				t.Fatalf("normalizedRules(%q) = nil; but its decoded twin differs (-file +twin):\n%s", body, diff)
			}
			continue
		}
		rewritten++
		if diff := cmp.Diff(want, normal.robots.Groups()); diff != "" {
			t.Fatalf("normalizedRules(%q) (-twin +got):\n%s", body, diff)
		}
		for line, p := range normal.written {
			v := normal.asWritten(robotstxt.Verdict{Rule: robotstxt.Rule{Line: line}})
			if v.Rule.Pattern != p || !strings.Contains(strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(body)), "\n")[line-1], p) {
				t.Fatalf("normalizedRules(%q): line %d written %q", body, line, p)
			}
		}
	}
	if rewritten < 300 {
		t.Errorf("only %d of 2000 files had a pattern rewritten", rewritten)
	}
}
