package lint_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/pathwalk"
	"github.com/seed50c7eacc/robotstxt/lint"
)

var deadFiles = flag.Int("lint.files", 4000, "random files TestDeadRulesAgainstBruteForce lints")

// deadCodes are the codes that say a rule changes no verdict.
var deadCodes = map[lint.Code]bool{
	lint.CodeRuleShadowed:  true,
	lint.CodeSamePattern:   true,
	lint.CodeRuleDuplicate: true,
	lint.CodeRuleRedundant: true,
}

// The brute force. For small random files (a few groups of agents, merged
// groups, rules over "/ab" with '*', '$' and %-escapes, repeated and
// subsumed rules; index.html allows are left to the table tests, their
// bytes would make the enumeration long), every rule lint reports as changing no verdict is
// dropped from the file, and every path of length at most k over the
// patterns' bytes, '/' and one byte no pattern holds is asked of both
// files, for every agent the finding is about: no verdict may differ.
// When the file has one group, the converse holds too: every rule lint
// does not report changes some path's verdict when dropped, but for the
// idioms lint leaves alone (an empty rule, an allow of every path, a
// pattern that matches nothing, every rule of a group that disallows
// nothing), the first of rules that repeat, and the earlier of two rules
// that decide in each other's place (the later one's message names it).
//
// k is enough by the argument of package diff's TestAgainstBruteForce:
// dropping a rule compares two rule lists, and a path whose verdict
// differs can be shortened to one of at most pathwalk.MarksBound(p, q)
// bytes, p and q the deciding rules of the two lists, keeping both verdicts.
func TestDeadRulesAgainstBruteForce(t *testing.T) {
	n := *deadFiles
	if testing.Short() {
		n = min(n, 300)
	}
	if raceEnabled {
		n = max(1, n/4)
	}
	rng := rand.New(rand.NewPCG(9309, uint64(n)))
	reported, missedChecked := 0, 0
	for done := 0; done < n; {
		file, oneGroup := randomLintFile(rng)
		k, alphabet := pathBound(file)
		if pathwalk.Count(k, len(alphabet)) > 6000 {
			continue
		}
		done++
		lines := strings.Split(strings.TrimSuffix(file, "\n"), "\n")
		dead := map[int]bool{}
		named := map[int]bool{} // lines a dead rule's message names
		for _, d := range lint.Lint([]byte(file)).Diagnostics {
			if !deadCodes[d.Code] {
				continue
			}
			dead[d.Line] = true
			for _, m := range onLine.FindAllStringSubmatch(d.Message, -1) {
				n, _ := strconv.Atoi(m[1])
				named[n] = true
			}
			reported++
			dropped := dropLine(lines, d.Line)
			agents := findingAgents(d.Message, file)
			for _, a := range agents {
				if p := firstDiff(file, dropped, a, k, alphabet); p != "" {
					t.Fatalf("line %d reported (%s), but dropping it changes %q for %s\nfile:\n%s", d.Line, d, p, a, file)
				}
			}
		}
		if !oneGroup || !someDisallow(lines) {
			continue // lint says nothing of rules when nothing is disallowed
		}
		for i, line := range lines {
			num := i + 1
			kind, value, ok := ruleLine(line)
			if !ok || dead[num] || idiom(kind, value) || repeatedLater(lines, i) {
				continue
			}
			missedChecked++
			if firstDiff(file, dropLine(lines, num), "zzbot", k, alphabet) == "" && !named[num] {
				t.Fatalf("line %d (%q) changes no verdict when dropped, but lint does not report it\nfile:\n%s", num, line, file)
			}
		}
	}
	t.Logf("%d files, %d dead rules reported and checked, %d unreported rules of one-group files checked live", n, reported, missedChecked)
}

// someDisallow reports whether some line disallows some path.
func someDisallow(lines []string) bool {
	for _, l := range lines {
		if allow, v, ok := ruleLine(l); ok && !allow && v != "" && (v[0] == '/' || v[0] == '*') {
			return true
		}
	}
	return false
}

// ruleLine returns the kind and value of an allow or disallow line.
func ruleLine(line string) (allow bool, value string, ok bool) {
	k, v, found := strings.Cut(line, ":")
	if !found {
		return false, "", false
	}
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "allow":
		return true, strings.TrimSpace(v), true
	case "disallow":
		return false, strings.TrimSpace(v), true
	}
	return false, "", false
}

// idiom reports the rules lint leaves alone whether or not they change a
// verdict.
func idiom(allow bool, value string) bool {
	w := pattern.Escape(value)
	all := w == "" || w == "/" || w == "*" || w == "/*"
	return w == "" || allow && all || w[0] != '/' && w[0] != '*'
}

// repeatedLater reports whether a later line is the same rule in wire form.
func repeatedLater(lines []string, i int) bool {
	a, v, _ := ruleLine(lines[i])
	for _, l := range lines[i+1:] {
		if b, w, ok := ruleLine(l); ok && a == b && pattern.Escape(v) == pattern.Escape(w) {
			return true
		}
	}
	return false
}

// dropLine drops the rule of line num: it becomes a rule that matches no
// path (a pattern starting with neither '/' nor '*'), so that the groups
// stay as they are (a group without rules would join the next one's
// user-agent lines).
func dropLine(lines []string, num int) string {
	out := slices.Clone(lines)
	out[num-1] = "Disallow: never-matches"
	return strings.Join(out, "\n") + "\n"
}

var (
	quoted = regexp.MustCompile(`"([^"]*)"`)
	onLine = regexp.MustCompile(`on line (\d+)`)
)

// findingAgents returns the agents a finding is about: those its message
// names after " for ", else every agent the file names and one it does
// not.
func findingAgents(msg, file string) []string {
	if i := strings.Index(msg, " for \""); i >= 0 {
		seg := msg[i:]
		seg = seg[:strings.Index(seg, ": ")]
		var out []string
		for _, m := range quoted.FindAllStringSubmatch(seg, -1) {
			if m[1] == "*" {
				m[1] = "zzbot"
			}
			out = append(out, m[1])
		}
		return out
	}
	out := []string{"zzbot"}
	for _, g := range robotstxt.Parse([]byte(file)).Groups() {
		for _, a := range g.Agents {
			if tok := parse.AgentToken(a); tok != "" && !parse.IsGlobalAgent(a) && !slices.Contains(out, tok) {
				out = append(out, tok)
			}
		}
	}
	return out
}

// firstDiff returns the first path "/" + s, len(s) < k, over alphabet
// whose verdict for agent differs between the two files, or "".
func firstDiff(old, new, agent string, k int, alphabet string) string {
	a := robotstxt.Parse([]byte(old)).Agent(agent)
	b := robotstxt.Parse([]byte(new)).Agent(agent)
	return pathwalk.First(k, alphabet, func(path string) bool {
		return a.Allowed("https://example.com"+path) != b.Allowed("https://example.com"+path)
	})
}

// pathBound returns k and the alphabet for a file: the largest witness
// bound over pairs of its patterns (and no rule), and the patterns' bytes
// with '/' and 'x'.
func pathBound(file string) (int, string) {
	pats := pathwalk.Patterns(file)
	return pathwalk.PairBound(pats, pats), pathwalk.Alphabet(pats)
}

// randomLintFile returns a small random file and whether it has one group
// for "*" alone. Rules repeat and subsume each other often.
func randomLintFile(rng *rand.Rand) (string, bool) {
	var b strings.Builder
	var pats []string
	rule := func() {
		kind := "Disallow"
		if rng.IntN(2) == 0 {
			kind = "Allow"
		}
		var p string
		switch {
		case len(pats) > 0 && rng.IntN(4) == 0:
			p = pats[rng.IntN(len(pats))] // repeated, perhaps as the other kind
		case len(pats) > 0 && rng.IntN(4) == 0:
			p = pats[rng.IntN(len(pats))] + []string{"a", "*", "/", "$", "b"}[rng.IntN(5)]
		default:
			p = randomLintPattern(rng)
		}
		pats = append(pats, p)
		fmt.Fprintf(&b, "%s: %s\n", kind, p)
	}
	if rng.IntN(2) == 0 {
		b.WriteString("User-agent: *\n")
		for r := 1 + rng.IntN(5); r > 0; r-- {
			rule()
		}
		return b.String(), true
	}
	agents := []string{"*", "abot", "bbot"}
	for g := 1 + rng.IntN(3); g > 0; g-- {
		for a := 1 + rng.IntN(2); a > 0; a-- {
			fmt.Fprintf(&b, "User-agent: %s\n", agents[rng.IntN(len(agents))])
		}
		for r := 1 + rng.IntN(4); r > 0; r-- {
			rule()
		}
	}
	return b.String(), false
}

func randomLintPattern(rng *rand.Rand) string {
	if rng.IntN(16) == 0 {
		return ""
	}
	pieces := []string{"a", "b", "/", "*", "a", "b", "*", "%61", "$"}
	var b strings.Builder
	if rng.IntN(6) == 0 {
		b.WriteString("*")
	} else {
		b.WriteString("/")
	}
	for n := rng.IntN(3); n > 0; n-- {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	if rng.IntN(4) == 0 {
		b.WriteString("$")
	}
	return b.String()
}
