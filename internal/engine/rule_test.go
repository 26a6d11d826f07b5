package engine

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// Rules whose wire form differs from the value written (RFC 9309 section
// 2.2.2: non-ASCII bytes are percent-encoded for matching) still report
// the value as written, for the rule itself and for the directory rule
// Google derives from an index.htm allow.
func TestAsWrittenOfEscapedRules(t *testing.T) {
	r := load([]byte("User-agent: *\nAllow: /é/index.html\nDisallow: /%e9\nDisallow: /\xff*x\n"))
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
		r := load([]byte(b.String()))
		rs, _ := r.Rules("bot")
		if !slices.IsSortedFunc(rs.compiled, func(a, b compiledRule) int { return compareRules(a, b, rs.text) }) {
			t.Fatalf("merged rules of %q are not in compareRules order", b.String())
		}
		// Rules that tie are in file order.
		for i := 1; i < len(rs.compiled); i++ {
			x, y := rs.compiled[i-1], rs.compiled[i]
			if compareRules(x, y, rs.text) == 0 && x.info&ruleDerived == 0 && y.info&ruleDerived == 0 {
				if lx, ly := x.asWritten(rs.text, rs.compiled, rs.counted).Line, y.asWritten(rs.text, rs.compiled, rs.counted).Line; lx >= ly {
					t.Fatalf("merged rules of %q: line %d before line %d, which tie", b.String(), lx, ly)
				}
			}
		}
	}
}

// sortRules orders rules given in file order as compareRules does, by
// each of its paths: the insertion sort of small groups, the counting
// sort (its counts on the stack or not, with rules in compact form or
// none), and the comparison sort for long patterns.
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
		// Half the rounds have no rule in compact form, which sortRules
		// ranks in a loop of its own.
		compact := rng.IntN(2) == 0
		src := make([]compiledRule, n)
		for i := range src {
			n := rng.IntN(maxLen + 1)
			src[i] = compiledRule{n: uint16(n), off: uint32(rng.IntN(len(text) - n + 1))}
			if rng.IntN(2) == 0 {
				src[i].info |= ruleAllow
			}
			if compact && maxLen < maxPatternLen/3 && rng.IntN(2) == 0 {
				src[i].info |= ruleCompact
			}
		}
		// src is in file order: rules that tie keep it.
		want := slices.Clone(src)
		slices.SortStableFunc(want, func(a, b compiledRule) int { return compareRules(a, b, string(text)) })
		got := make([]compiledRule, n)
		sortRules(got, src, string(text))
		if !slices.Equal(got, want) {
			t.Fatalf("sortRules(%v) = %v, want %v", src, got, want)
		}
		// Rules in order already (as a hostile file's run of rules of one
		// length and kind is) stay as they are.
		again := make([]compiledRule, n)
		if sortRules(again, want, string(text)); !slices.Equal(again, want) {
			t.Fatalf("sortRules of sorted rules %v = %v", want, again)
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
			body.WriteString(map[bool]string{true: "allow: ", false: "disallow: "}[rule.Allow] + rule.Pattern + "\n")
		}
		r := load([]byte(body.String()))
		if diff := cmp.Diff(want, r.Groups()[0].Rules); diff != "" {
			t.Fatalf("round %d: Groups()[0].Rules (-want +got):\n%s\nfile:\n%s", round, diff, body.String())
		}
		rs, _ := r.Rules("x")
		for i := range rs.compiled {
			got := rs.compiled[i].asWritten(rs.text, rs.compiled, rs.counted)
			if w := want[got.Line-2]; got != w {
				t.Fatalf("round %d: rule %d (%q) as written is %+v, want %+v\nfile:\n%s", round, i, rs.compiled[i].pattern(rs.text), got, w, body.String())
			}
		}
	}
}

// The compact form's sizes, which BENCHMARKS.md accounts for.
func TestCompiledSizes(t *testing.T) {
	if got := unsafe.Sizeof(compiledRule{}); got != 8 {
		t.Errorf("compiledRule is %d bytes, want 8", got)
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
	r := load([]byte("User-agent: *\nDisallow: " + value + "\n"))
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
		rs, _ := load([]byte(body.String())).Rules("x")
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
			// nextMayMatch, bestWithin's loop over the rules mayMatch
			// rules out, compares words in memory order: it stops where
			// mayMatch first admits a rule, from every start.
			masks := memoryOrderMasks
			for from := 0; from <= len(rs.compiled); from++ {
				want := from
				for want < len(rs.compiled) && !rs.compiled[want].mayMatch(rs.text, key) {
					want++
				}
				if got := nextMayMatch(rs.compiled, rs.text, bits.ReverseBytes64(key), &masks, from); got != want {
					t.Fatalf("path %q, from rule %d: nextMayMatch = %d, want %d", path, from, got, want)
				}
			}
		}
	}
}

// A compiled file's groups hold their rules in compareRules order, each
// rule once, whether the file wrote them in that order already (compiled
// straight into place, see builder.rulesInOrder) or not (sorted from the
// scratch): random files of several groups, half of them written in order.
func TestCompiledGroupsInDecidingOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 70))
	inOrder := 0
	for round := range 500 {
		type line struct {
			allow   bool
			pattern string
		}
		var body strings.Builder
		// Escapes and bytes >= 0x80 in a quarter of the files: their
		// written length is not their rank's.
		alphabet := "ab*$/"
		if round%4 == 3 {
			alphabet = "ab*$%é"
		}
		for range 1 + rng.IntN(3) {
			var g []line
			for range rng.IntN(40) {
				g = append(g, line{rng.IntN(3) == 0, "/" + randomWord(rng, 12, alphabet)})
			}
			if round%2 == 0 {
				slices.SortStableFunc(g, func(a, b line) int {
					if len(a.pattern) != len(b.pattern) {
						return len(b.pattern) - len(a.pattern)
					}
					if a.allow != b.allow {
						if a.allow {
							return -1
						}
						return 1
					}
					return 0
				})
			}
			body.WriteString("user-agent: bot\n")
			for _, l := range g {
				kind := "disallow"
				if l.allow {
					kind = "allow"
				}
				body.WriteString(kind + ": " + l.pattern + "\n")
			}
		}
		f := load([]byte(body.String()))
		b := builders.Get().(*builder)
		b.read(body.String(), false)
		if b.rulesInOrder() {
			inOrder++
		}
		b.reset()
		builders.Put(b)
		f.compile()
		for i, g := range f.groups {
			if !slices.IsSortedFunc(g.rules, func(a, b compiledRule) int { return compareRules(a, b, f.text) }) {
				t.Fatalf("round %d, group %d: rules out of order:\n%s", round, i, body.String())
			}
			seen := map[int]int{}
			for _, r := range g.rules {
				if r.info&ruleDerived == 0 {
					seen[r.asWritten(f.text, g.rules, false).Line]++
				}
			}
			for line, n := range seen {
				if n != 1 {
					t.Fatalf("round %d, group %d: the rule of line %d %d times:\n%s", round, i, line, n, body.String())
				}
			}
		}
	}
	if inOrder < 50 {
		t.Fatalf("%d of 500 files were compiled straight into place: too few to test", inOrder)
	}
}

// lineAt numbers the line that holds a byte as the tokenizer numbers its
// lines (Google's: LF, CR and CR LF each end one), which a scoped set's
// Explain relies on for the rules it keeps as spans of the file: checked
// against the tokenizer, the slow twin, at the key and value of every
// line of random files of mixed line ends, blank and comment lines, NUL
// bytes, byte order marks and lines past the length cap.
func TestLineAtAgainstTokenizer(t *testing.T) {
	long := strings.Repeat("x", parse.MaxLineBytes+10)
	pieces := []string{"\n", "\r", "\r\n", "\n\r", " ", "\t", "#c", "\x00", "\xef\xbb\xbf", "disallow:", "allow: /a",
		"user-agent: x", "disallow: /b*c$", ": ", "x", long, "sitemap: s"}
	reference.EachChooser(41, 5000, 64, func(_ int, c *reference.Chooser) {
		var b strings.Builder
		for n := c.Pick(40); n > 0; n-- {
			b.WriteString(c.From(pieces))
		}
		body := b.String()
		tok := parse.NewTokenizer(body)
		tok.ReadSpans()
		var l parse.Line
		for tok.Next(&l) {
			for _, sp := range []parse.Span{l.KeyAt, l.ValueAt} {
				if sp.N == 0 {
					continue
				}
				if got := lineAt(body, sp.Off); got != l.Num {
					t.Fatalf("lineAt(%q, %d) = %d; the tokenizer: line %d", body, sp.Off, got, l.Num)
				}
			}
		}
	})
}

// matchesEveryPath, which lets a set's first rule decide without the path
// being looked for, holds exactly for the patterns that match every path
// a URL can have (each starts with '/'): checked against Google's matching
// (matchPattern) on every pattern of up to five bytes over an alphabet of
// the bytes that matter, against every such path of up to six bytes.
func TestMatchesEveryPathAgainstMatching(t *testing.T) {
	const alphabet = "/*$a"
	var words func(n int) []string
	words = func(n int) []string {
		if n == 0 {
			return []string{""}
		}
		var out []string
		for _, w := range words(n - 1) {
			out = append(out, w)
			if len(w) == n-1 {
				for _, c := range alphabet {
					out = append(out, w+string(c))
				}
			}
		}
		return out
	}
	var paths []string
	for _, w := range words(5) {
		paths = append(paths, "/"+w)
	}
	for _, p := range words(5) {
		text := p + strings.Repeat("\x00", textPadding)
		c := newCompiledRule(p, 0, 0)
		want := true
		for _, path := range paths {
			if !matchPattern(p, path) {
				want = false
				break
			}
		}
		got := c.matchesEveryPath(text)
		if got && !want {
			t.Errorf("matchesEveryPath(%q) = true, but some path does not match", p)
		}
		// Every pattern of the family it recognizes, up to its length
		// (others, such as "*/", may match every path unrecognized).
		if family := strings.Trim(strings.TrimSuffix(strings.TrimPrefix(p, "/"), "$"), "*") == "" && len(p) <= maxEveryPathLen; want && family && !got {
			t.Errorf("matchesEveryPath(%q) = false, but every path matches", p)
		}
	}
}

// A wildcard rule's required classes (the bytes '?', '=', '.' and '_' it
// needs) rule out only paths it cannot match, and a small set's decide,
// which skips such rules, finds the rule the slow scan finds: random sets
// of fewer than indexMinRules rules and paths over those bytes, whose
// answers are compared with the plain matcher's on every rule.
func TestDecideByClassesAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(83, 89))
	skipped := 0
	for round := 0; round < 400; round++ {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for n := 1 + rng.IntN(indexMinRules-1); n > 0; n-- {
			kind := "Disallow"
			if rng.IntN(3) == 0 {
				kind = "Allow"
			}
			body.WriteString(kind + ": /" + randomWord(rng, 10, "a/?=._**$") + "\n")
		}
		rs, _ := load([]byte(body.String())).Rules("x")
		if rs.index != nil {
			t.Fatalf("a set of %d rules has an index", len(rs.compiled))
		}
		for q := 0; q < 60; q++ {
			path := "/" + randomWord(rng, 14, "a/?=._")
			for i := range rs.compiled {
				c := &rs.compiled[i]
				need := c.needsClasses()
				if c.info&ruleWild == 0 && need != 0 {
					t.Fatalf("rule %q is not a wildcard rule but needs classes %b", c.pattern(rs.text), need)
				}
				if need&^pathClasses(path) == 0 {
					continue
				}
				skipped++
				if reference.Match(c.pattern(rs.text), path) {
					t.Fatalf("rule %q matches %q, whose classes %b lack some of its %b", c.pattern(rs.text), path, pathClasses(path), need)
				}
			}
			if got, want := rs.decide(path), scanDecide(rs.compiled, rs.text, path); !sameRule(got, want) {
				t.Fatalf("path %q: decided by %v, the scan by %v\n%s", path, got, want, body.String())
			}
		}
	}
	if skipped == 0 {
		t.Fatal("no rule was ruled out by its classes: the test tests nothing")
	}
}

// The scoped pass compiles a plain disallow value (plainRule) and a
// simple one whose first byte past the plain ones is a star (starRule)
// without reading it again: each is the rule newCompiledRule makes of
// it, on random values of the bytes that decide a rule's head and kind.
func TestPlainAndStarRulesAgainstCompiled(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	const alphabet = "/ab.?=*$_-"
	for i := 0; i < 20000; i++ {
		b := make([]byte, rng.IntN(24))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		value := string(b)
		off := uint32(rng.IntN(1000))
		want := newCompiledRule(value, off, 0)
		k := plainPrefix(value)
		switch {
		case k == len(value):
			if got := plainRule(off, len(value)); got != want {
				t.Fatalf("plainRule(%q) = %+v; newCompiledRule: %+v", value, got, want)
			}
		case value[k] == '*':
			if got := starRule(off, len(value), k); got != want {
				t.Fatalf("starRule(%q, star %d) = %+v; newCompiledRule: %+v", value, k, got, want)
			}
		}
	}
}
