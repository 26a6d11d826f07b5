package diff_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/diff"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

var pairs = flag.Int("diff.pairs", 10000, "random pairs of files TestAgainstBruteForce compares (CI: 100000)")

// The brute force. For every crawler class of a pair of small random files
// (each product token either file names, and an agent neither names), the
// test enumerates every path of length at most k over the bytes of the
// files' patterns, '/' and one byte no pattern holds ('x'), and asks both
// files with Parse(...).Allowed. The diff must report a change for the
// crawler exactly when the enumeration finds a path whose verdict differs,
// must decide every class, and each of its witnesses must differ.
//
// Why k suffices. Let w be any path whose verdict differs, and let p and q
// be the rules that decide for w in the old and new file (either may be
// none). Under Google's matcher (RFC 9309 section 2.2.2, the longest match
// in octets decides, allow winning ties) a pattern p0*p1*...*pn[$] matches
// w when its literal pieces occur in w in order, p0 at the start and, with
// '$', pn at the end. Mark the bytes of one such occurrence of p's and of
// q's pieces, and w's first byte. Replace every maximal run of unmarked
// bytes by one 'x', giving w'. Then:
//   - p and q still match w': their pieces lie in marked runs, kept in
//     order, with the first byte and (when w ends with a piece of an
//     anchored pattern) the last byte kept in place.
//   - every pattern that matches w' matches w: no piece holds 'x', so each
//     piece's occurrence in w' lies in one marked run, which is a substring
//     of w, in the same order; a piece at the start or, with '$', at the
//     end of w' is at the start or end of w (a trailing unmarked run of w
//     leaves a trailing 'x').
//   - so in each file the best match of the deciding rule's kind is still
//     the deciding rule, and the best of the other kind is no longer than
//     before: both verdicts are unchanged, and w' is a differing path.
//   - w' is in wire form when w is: an escape "%HH" of w' cannot straddle
//     an 'x', which is not a hex digit.
//
// w' has at most lit(p)+lit(q)+1 marked bytes (lit: the literal bytes of
// a pattern) and one 'x' after each run, at most pieces(p)+pieces(q)+1
// runs; when p or q starts with a literal byte its first piece holds the
// first byte, and when both do those runs are one. The bound computed by
// bound below is the largest such length over every pair of patterns of
// the two files, which is therefore at least the length of some differing
// path whenever one exists. Raw paths that are not in wire form need no
// enumeration: the matcher brings them to wire form, of the same length.
//
// Pairs whose enumeration would exceed maxPaths paths are drawn again
// (counted in the log), so that it stays small.
const maxPaths = 4000

func TestAgainstBruteForce(t *testing.T) {
	// The automaton decides, or the pairwise check where its budget runs
	// out (as in use); each is also checked alone.
	for _, mode := range []string{"", "automaton", "pairwise"} {
		t.Run("mode="+mode, func(t *testing.T) {
			diff.SetPaths(mode)
			defer diff.SetPaths("")
			n := *pairs
			if mode != "" {
				n /= 2
			}
			if testing.Short() {
				n = min(n, 500)
			}
			againstBruteForce(t, n)
		})
	}
}

func againstBruteForce(t *testing.T, n int) {
	rng := rand.New(rand.NewPCG(34, uint64(n)))
	redrawn, changed, done := 0, 0, 0
	for done < n {
		old := randomFile(rng)
		new := randomFile(rng)
		if rng.IntN(2) == 0 {
			new = edit(rng, old) // near misses: a rewrite may change nothing
		}
		k, alphabet := bound(old, new)
		if paths(k, len(alphabet)) > maxPaths {
			redrawn++
			continue
		}
		done++
		if checkPair(t, old, new, k, alphabet) {
			changed++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d pairs (%d with a change for some crawler); %d redrawn for more than %d paths", n, changed, redrawn, maxPaths)
}

// paths returns how many paths "/" + s, len(s) < k, an alphabet of a
// bytes has.
func paths(k, a int) int {
	n, p := 0, 1
	for i := 0; i < k; i++ {
		n += p
		if p *= a; n > 1<<30 {
			break
		}
	}
	return n
}

// checkPair compares one pair with the brute force and reports whether
// some crawler's verdicts change.
func checkPair(t *testing.T, old, new string, k int, alphabet string) bool {
	t.Helper()
	report := diff.Compare([]byte(old), []byte(new))
	ro, rn := robotstxt.Parse([]byte(old)), robotstxt.Parse([]byte(new))
	any := false
	for _, c := range report.Crawlers {
		agent := c.Agent
		if agent == diff.Others {
			agent = "zzbot" // named by no file of the generator
		}
		if !c.Decided {
			t.Fatalf("%s not decided\nold:\n%s\nnew:\n%s", c.Agent, old, new)
		}
		found := firstDifference(ro, rn, agent, k, alphabet)
		if (found != "") != c.Changed() {
			t.Fatalf("%s: brute force found %q, diff reports %d changes\nold:\n%s\nnew:\n%s", c.Agent, found, len(c.Changes), old, new)
		}
		for _, ch := range c.Changes {
			url := "https://example.com" + ch.Path
			if ro.Allowed(agent, url) == rn.Allowed(agent, url) || ro.Allowed(agent, url) != ch.Old.Allowed {
				t.Fatalf("%s: witness %q does not differ\nold:\n%s\nnew:\n%s", c.Agent, ch.Path, old, new)
			}
		}
		any = any || c.Changed()
	}
	// Every crawler class is listed: each token named, and the others.
	var tokens []string
	for _, f := range []string{old, new} {
		for _, g := range robotstxt.Parse([]byte(f)).Groups() {
			for _, a := range g.Agents {
				if tok := parse.AgentToken(a); tok != "" && !parse.IsGlobalAgent(a) && !slices.Contains(tokens, tok) {
					tokens = append(tokens, tok)
				}
			}
		}
	}
	if len(report.Crawlers) != len(tokens)+1 {
		t.Fatalf("%d crawler classes, want %d (%v and the others)\nold:\n%s\nnew:\n%s", len(report.Crawlers), len(tokens)+1, tokens, old, new)
	}
	return any
}

// firstDifference enumerates the paths "/" + s, len(s) < k, over alphabet
// and returns the first whose verdict differs, or "".
func firstDifference(old, new *robotstxt.Robots, agent string, k int, alphabet string) string {
	a, b := old.Agent(agent), new.Agent(agent)
	buf := make([]byte, 0, k)
	var walk func() string
	walk = func() string {
		url := "https://example.com/" + string(buf)
		if a.Allowed(url) != b.Allowed(url) {
			return "/" + string(buf)
		}
		if len(buf)+1 >= k {
			return ""
		}
		for i := 0; i < len(alphabet); i++ {
			buf = append(buf, alphabet[i])
			if s := walk(); s != "" {
				return s
			}
			buf = buf[:len(buf)-1]
		}
		return ""
	}
	return walk()
}

// bound returns k for a pair (see the comment above TestAgainstBruteForce)
// and the alphabet: the bytes of the patterns in wire form, '/' and 'x'.
func bound(old, new string) (k int, alphabet string) {
	set := map[byte]bool{'/': true, 'x': true}
	var pats [2][]string
	for f, data := range []string{old, new} {
		pats[f] = []string{""} // no rule
		for _, g := range robotstxt.Parse([]byte(data)).Groups() {
			for _, r := range g.Rules {
				w := pattern.Escape(r.Pattern)
				pats[f] = append(pats[f], w)
				if dir, ok := parse.IndexDirectory(w); ok && r.Allow {
					pats[f] = append(pats[f], dir+"$")
				}
				for i := 0; i < len(w); i++ {
					if w[i] != '*' && !(w[i] == '$' && i == len(w)-1) {
						set[w[i]] = true
					}
				}
			}
		}
	}
	for _, p := range pats[0] {
		for _, q := range pats[1] {
			k = max(k, witnessBound(p, q))
		}
	}
	var b strings.Builder
	for c := 0; c < 256; c++ {
		if set[byte(c)] {
			b.WriteByte(byte(c))
		}
	}
	return k, b.String()
}

// witnessBound is the length bound for deciding patterns p and q.
func witnessBound(p, q string) int {
	lit := func(s string) (n, pieces int, first bool) {
		s = strings.TrimSuffix(s, "$")
		for _, piece := range strings.Split(s, "*") {
			if piece != "" {
				n += len(piece)
				pieces++
			}
		}
		return n, pieces, s != "" && s[0] != '*'
	}
	lp, pp, fp := lit(p)
	lq, pq, fq := lit(q)
	marked, runs := lp+lq+1, pp+pq+1
	switch {
	case fp && fq:
		marked, runs = marked-2, runs-2
	case fp || fq:
		marked, runs = marked-1, runs-1
	}
	return max(1, marked+runs)
}

// randomFile returns a small random robots.txt file: a few groups of
// agents (named, "*", merged and empty groups, a rule before any group),
// with patterns over "/ab" with '*', '$' and %-escapes.
func randomFile(rng *rand.Rand) string {
	var b strings.Builder
	agents := []string{"*", "abot", "Abot", "bbot", "abot/2.1", "* x", "cbot"}
	if rng.IntN(8) == 0 {
		fmt.Fprintf(&b, "Disallow: %s\n", randomPattern(rng))
	}
	for g := rng.IntN(4); g > 0; g-- {
		for a := 1 + rng.IntN(2); a > 0; a-- {
			fmt.Fprintf(&b, "User-agent: %s\n", agents[rng.IntN(len(agents))])
		}
		for r := rng.IntN(4); r > 0; r-- {
			kind := "Disallow"
			if rng.IntN(2) == 0 {
				kind = "Allow"
			}
			fmt.Fprintf(&b, "%s: %s\n", kind, randomPattern(rng))
		}
		if rng.IntN(3) == 0 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func randomPattern(rng *rand.Rand) string {
	if rng.IntN(12) == 0 {
		return ""
	}
	pieces := []string{"a", "b", "/", "*", "a", "b", "*", "a", "b", "/", "%61", "%4a", "$"}
	var b strings.Builder
	switch rng.IntN(5) {
	case 0:
		b.WriteString("*")
	case 1:
		// a pattern not starting with '/' or '*' matches nothing
		if rng.IntN(4) == 0 {
			break
		}
		b.WriteString("/")
	default:
		b.WriteString("/")
	}
	for n := rng.IntN(3); n > 0; n-- {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	if rng.IntN(3) == 0 {
		b.WriteString("$")
	}
	return b.String()
}

// edit returns data with one small edit: two lines swapped, a line
// dropped, doubled or added, or a '$' or '*' appended to a line.
func edit(rng *rand.Rand, data string) string {
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	i, j := rng.IntN(len(lines)), rng.IntN(len(lines))
	switch rng.IntN(6) {
	case 0:
		lines[i], lines[j] = lines[j], lines[i]
	case 1:
		lines = slices.Delete(lines, i, i+1)
	case 2:
		lines = slices.Insert(lines, i, lines[j])
	case 3:
		lines = slices.Insert(lines, i, "Allow: "+randomPattern(rng))
	case 4:
		lines[i] += "$"
	case 5:
		lines[i] += "*"
	}
	return strings.Join(lines, "\n") + "\n"
}
