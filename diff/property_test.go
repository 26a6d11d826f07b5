package diff_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/diff"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/pathwalk"
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
// first byte, and when both do those runs are one (pathwalk.MarksBound,
// shared with package lint's test). The bound computed by bound below is
// the largest such length over every pair of patterns of the two files
// (pathwalk.PairBound), which is therefore at least the length of some differing
// path whenever one exists. Raw paths that are not in wire form need no
// enumeration: the matcher brings them to wire form, of the same length.
//
// Pairs whose enumeration would exceed maxPaths paths are drawn again
// (counted in the log), so that it stays small.
const maxPaths = 4000

// maxUsagePaths bounds the enumeration of AI usage preferences, whose
// bound counts more patterns (see usageBound).
const maxUsagePaths = 8000

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
			if raceEnabled {
				// A quarter under the race detector; the plain run (CI:
				// 100,000 pairs) compares them all.
				n = max(1, n/4)
			}
			// AI usage does not depend on how verdicts are decided: it
			// is checked in the first mode.
			againstBruteForce(t, n, mode == "")
		})
	}
}

func againstBruteForce(t *testing.T, n int, usage bool) {
	rng := rand.New(rand.NewPCG(34, uint64(n)))
	redrawn, changed, usageChanged, done := 0, 0, 0, 0
	for done < n {
		old := randomFile(rng)
		new := randomFile(rng)
		if rng.IntN(2) == 0 {
			new = edit(rng, old) // near misses: a rewrite may change nothing
		}
		k, alphabet := bound(old, new)
		ku := 0 // no usage enumeration
		if usage && (hasUsage(old) || hasUsage(new)) {
			ku = usageBound(old, new)
		}
		if pathwalk.Count(k, len(alphabet)) > maxPaths || pathwalk.Count(ku, len(alphabet)) > maxUsagePaths {
			redrawn++
			continue
		}
		done++
		verdicts, usage := checkPair(t, old, new, k, ku, alphabet)
		if verdicts {
			changed++
		}
		if usage {
			usageChanged++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d pairs (%d with a verdict change for some crawler, %d with an AI usage change); %d redrawn for more than %d paths (%d for usage)",
		n, changed, usageChanged, redrawn, maxPaths, maxUsagePaths)
	if usage && n >= 1000 && usageChanged < n/20 {
		t.Errorf("only %d of %d pairs change AI usage preferences: the test checks little", usageChanged, n)
	}
}

// checkPair compares one pair with the brute force and reports whether
// some crawler's verdicts, and some crawler's AI usage preferences, change.
func checkPair(t *testing.T, old, new string, k, ku int, alphabet string) (bool, bool) {
	t.Helper()
	report := diff.Compare([]byte(old), []byte(new))
	ro, rn := robotstxt.Parse([]byte(old)), robotstxt.Parse([]byte(new))
	any, anyUsage := false, false
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
		checkUsage(t, c, ro, rn, agent, ku, alphabet, old, new)
		anyUsage = anyUsage || len(c.Usage) > 0
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
	return any, anyUsage
}

// checkUsage checks one crawler's AI usage changes against the brute
// force: decided, some change exactly when the enumeration finds a path
// that both files let it fetch whose preferences differ, and every
// witness such a path, with the preferences Robots.Usage gives.
func checkUsage(t *testing.T, c diff.Crawler, ro, rn *robotstxt.Robots, agent string, ku int, alphabet, old, new string) {
	t.Helper()
	if !c.UsageDecided {
		t.Fatalf("%s: AI usage not decided\nold:\n%s\nnew:\n%s", c.Agent, old, new)
	}
	if ku == 0 {
		// Not enumerated: either neither file has a Content-Usage or
		// Content-Signal line, so every path has no preference in both,
		// or this mode does not check usage.
		if len(c.Usage) > 0 && !hasUsage(old) && !hasUsage(new) {
			t.Fatalf("%s: AI usage changes reported without any usage line\nold:\n%s\nnew:\n%s", c.Agent, old, new)
		}
		return
	}
	found := firstUsageDifference(ro, rn, agent, ku, alphabet)
	if (found != "") != (len(c.Usage) > 0) {
		t.Fatalf("%s: brute force found AI usage change at %q, diff reports %d\nold:\n%s\nnew:\n%s", c.Agent, found, len(c.Usage), old, new)
	}
	for _, u := range c.Usage {
		url := "https://example.com" + u.Path
		o, n := ro.Usage(agent, url), rn.Usage(agent, url)
		if !o.Fetchable || !n.Fetchable || usageKey(o) == usageKey(n) || !reflect.DeepEqual(o, u.Old) || !reflect.DeepEqual(n, u.New) {
			t.Fatalf("%s: usage witness %q is not genuine: %+v → %+v, reported %+v → %+v\nold:\n%s\nnew:\n%s", c.Agent, u.Path, o, n, u.Old, u.New, old, new)
		}
	}
}

// firstDifference returns the first path "/" + s, len(s) < k, over
// alphabet whose verdict differs, or "".
func firstDifference(old, new *robotstxt.Robots, agent string, k int, alphabet string) string {
	a, b := old.Agent(agent), new.Agent(agent)
	return pathwalk.First(k, alphabet, func(path string) bool {
		return a.Allowed("https://example.com"+path) != b.Allowed("https://example.com"+path)
	})
}

// bound returns k for a pair (see the comment above TestAgainstBruteForce)
// and the alphabet: the bytes of the patterns in wire form (Content-Usage
// paths included), '/' and 'x'.
func bound(old, new string) (k int, alphabet string) {
	pats := [2][]string{pathwalk.Patterns(old), pathwalk.Patterns(new)}
	return pathwalk.PairBound(pats[0], pats[1]), pathwalk.Alphabet(pats[0], pats[1], usageWires(old), usageWires(new))
}

// usageWires returns the path patterns, in wire form, of the Content-Usage
// lines of a file's groups: a value starting with '/' has a path up to the
// first space (draft-ietf-aipref-attach-05 section 3.2), and a line
// without one counts as "/", as package robotstxt reads it.
func usageWires(data string) []string {
	var out []string
	for _, g := range robotstxt.Parse([]byte(data)).Groups() {
		for _, f := range g.Fields {
			if !strings.EqualFold(f.Key, "content-usage") {
				continue
			}
			path := "/"
			if v := strings.TrimSpace(f.Value); strings.HasPrefix(v, "/") {
				path, _, _ = strings.Cut(v, " ")
			}
			out = append(out, pattern.Escape(path))
		}
	}
	return out
}

// usageBound returns k for the AI usage preferences of a pair. A path's
// preferences (Robots.Usage) come from its verdict and from the
// Content-Usage lines of the longest matching pattern, all of them
// combined (draft-ietf-aipref-attach-05 section 3.1, vocab-08 section
// 5.1), and the group's Content-Signal lines, which apply to every path.
// Let w be a path both files let the crawler fetch whose preferences
// differ: p and q decide its verdicts, and S and T are the Content-Usage
// lines of the longest pattern matching w in each file (possibly none).
// Mark one occurrence of the pieces of p, q and every pattern of S and T,
// and w's first byte, and replace each other run by one 'x', giving w'
// (as in the argument above TestAgainstBruteForce). Every pattern that
// matches w' matches w, and p, q, S and T still match: so both verdicts
// are the same, and the longest Content-Usage patterns matching w' are
// those of S and T, with the same lines; the preferences of w' are those
// of w. S holds lines of one length, so k is the largest bound over p, q,
// and every Content-Usage pattern of one length in each file (or none).
func usageBound(old, new string) int {
	verdict := [2][]string{pathwalk.Patterns(old), pathwalk.Patterns(new)}
	var byLen [2]map[int][]string
	for f, data := range []string{old, new} {
		byLen[f] = map[int][]string{-1: nil}
		for _, w := range usageWires(data) {
			byLen[f][len(w)] = append(byLen[f][len(w)], w)
		}
	}
	k := 0
	for _, p := range verdict[0] {
		for _, q := range verdict[1] {
			for _, s := range byLen[0] {
				for _, t := range byLen[1] {
					k = max(k, pathwalk.MarksBound(append(append([]string{p, q}, s...), t...)...))
				}
			}
		}
	}
	return k
}

// hasUsage reports whether a file has a Content-Usage or Content-Signal
// line.
func hasUsage(data string) bool {
	l := strings.ToLower(data)
	return strings.Contains(l, "content-usage") || strings.Contains(l, "content-signal")
}

// usageKey is what the diff compares of a path's preferences: each
// category's answer and the other labels as a set, of Content-Usage and
// Content-Signal lines, where the crawler may fetch.
func usageKey(u robotstxt.Usage) prefsKey {
	labels := func(ls []robotstxt.Label) string {
		if len(ls) == 0 {
			return ""
		}
		var out []string
		for _, l := range ls {
			out = append(out, l.Key+"="+l.Value)
		}
		slices.Sort(out)
		return strings.Join(slices.Compact(out), ";")
	}
	return prefsKey{u.Fetchable, [6]robotstxt.Preference{u.TrainAI.Preference, u.AIUse.Preference, u.Search.Preference,
		u.Signal.AITrain.Preference, u.Signal.AIInput.Preference, u.Signal.Search.Preference}, labels(u.Labels), labels(u.Signal.Labels)}
}

// prefsKey is a usageKey.
type prefsKey struct {
	fetchable            bool
	prefs                [6]robotstxt.Preference
	labels, signalLabels string
}

// firstUsageDifference returns the first path "/" + s, len(s) < k, over
// alphabet that both files let the agent fetch and whose preferences
// differ, or "".
func firstUsageDifference(old, new *robotstxt.Robots, agent string, k int, alphabet string) string {
	a, b := old.Agent(agent), new.Agent(agent)
	return pathwalk.First(k, alphabet, func(path string) bool {
		o, n := a.Usage("https://example.com"+path), b.Usage("https://example.com"+path)
		return o.Fetchable && n.Fetchable && usageKey(o) != usageKey(n)
	})
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
		writeUsage(rng, &b)
		if rng.IntN(3) == 0 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Content-Usage paths and preferences over the same bytes (the attach
// draft, draft-ietf-aipref-attach-05 section 3.2: "Content-Usage: [path SP]
// preference"; vocabulary draft-ietf-aipref-vocab-08 section 6), short so
// that the enumeration bound stays small; a preference that fails to parse
// and labels the vocabulary does not define are among them. Content-Signal
// values follow Cloudflare's Content Signals Policy.
var (
	usagePaths  = []string{"", "/", "/a", "/b", "/a*", "*b", "/a$", "/%61", "/ab", "/*a"}
	usagePrefs  = []string{"train-ai=n", "train-ai=y", "train-ai=y, search=n", "ai-use=n", "x=1", "train-ai=n, x", "", "train-ai=("}
	signalPrefs = []string{"ai-train=no", "search=yes, ai-train=no", "ai-input=no", "y=2"}
)

// writeUsage adds, sometimes, a Content-Usage or Content-Signal line to
// the group being written.
func writeUsage(rng *rand.Rand, b *strings.Builder) {
	for n := rng.IntN(3); n > 0; n-- {
		if rng.IntN(5) == 0 {
			fmt.Fprintf(b, "Content-Signal: %s\n", signalPrefs[rng.IntN(len(signalPrefs))])
			continue
		}
		path := usagePaths[rng.IntN(len(usagePaths))]
		if path != "" {
			path += " "
		}
		fmt.Fprintf(b, "Content-Usage: %s%s\n", path, usagePrefs[rng.IntN(len(usagePrefs))])
	}
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
