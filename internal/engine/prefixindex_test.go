package engine

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The prefixIndex decides as the slow scan does (scanDecide: every rule in
// deciding order, by the plain pattern matcher), on random sets of plain
// patterns that nest, repeat and differ in case, with a few wildcard and
// non-ASCII rules among them: up to prefixIndexOthers, which it tries in
// turn, and more, which it indexes with a ruleIndex of their own. RFC 9309 section
// 2.2.2 (the longest match decides); Google's docs, "Order of precedence
// for rules" (allow wins a tie).
func TestPrefixIndexAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	plainWord := func() string {
		if rng.IntN(4) == 0 {
			// Patterns that share their first 16 bytes, or differ from
			// each other only by zero bytes where a packed key pads with
			// zeros, which sortByPattern must order by comparing them.
			return "/0123456789abcd" + randomWord(rng, 6, "ab\x00")
		}
		return "/" + randomWord(rng, 10, "abA/.?=")
	}
	for round := 0; round < 400; round++ {
		others := rng.IntN(prefixIndexOthers + 1)
		if round%2 == 1 {
			others = prefixIndexOthers + 1 + rng.IntN(3*prefixIndexOthers)
		}
		var body strings.Builder
		body.WriteString("user-agent: *\n")
		n := indexMinRules + rng.IntN(120)
		for i := 0; i < n; i++ {
			kind := "disallow"
			if rng.IntN(3) == 0 {
				kind = "allow"
			}
			p := plainWord()
			if i < others {
				switch rng.IntN(3) {
				case 0:
					p = "/" + randomWord(rng, 8, "ab*$/")
				case 1:
					p += "*" + randomWord(rng, 3, "ab")
				default:
					p += "é" // non-ASCII: compact form
				}
			}
			if rng.IntN(8) == 0 {
				p = "" // an empty disallow names a line, allows
			}
			body.WriteString(kind + ": " + p + "\n")
		}
		rs, _ := load([]byte(body.String())).Rules("x")
		if len(rs.compiled) < indexMinRules || !prefixIndexable(rs.compiled) {
			t.Fatalf("round %d: %d rules, prefixIndexable %v", round, len(rs.compiled), prefixIndexable(rs.compiled))
		}
		idx := newPrefixIndex(rs.compiled, rs.text)
		if len(idx.others) > prefixIndexOthers || idx.wild != nil && len(idx.wild.pos) <= prefixIndexOthers && len(idx.others) > 0 {
			t.Fatalf("round %d: %d rules not plain tried in turn, a ruleIndex of their own: %v", round, len(idx.others), idx.wild != nil)
		}
		for q := 0; q < 200; q++ {
			path := plainWord() + randomWord(rng, 6, "abA/é")
			path = string(appendWire(nil, path))
			want := noRule
			if c := scanDecide(rs.compiled, rs.text, path); c != nil {
				for i := range rs.compiled {
					if &rs.compiled[i] == c {
						want = int32(i)
					}
				}
			}
			if got := idx.find(rs.compiled, rs.text, path); got != want {
				t.Fatalf("round %d, path %q: the prefix index decides by rule %d, the scan by rule %d\n%s", round, path, got, want, body.String())
			}
		}
	}
}

// A set of fewer than stepwiseRules rules takes a prefixIndex, which tries
// up to prefixIndexOthers rules that are not plain in turn and indexes
// more with a ruleIndex of their own; so does a set of up to
// prefixIndexMaxRules rules nearly all plain. A lazy index of such a set
// builds it, and no ruleIndex for the whole set. Another set takes the
// ruleIndex, built in parts.
func TestPrefixIndexChosen(t *testing.T) {
	var body strings.Builder
	body.WriteString("user-agent: *\n")
	for i := 0; i < 40; i++ {
		body.WriteString("disallow: /p" + strings.Repeat("a", i) + "\n")
	}
	plainOnly := body.String()
	for i := 0; i <= prefixIndexOthers; i++ {
		body.WriteString("disallow: /*x" + strings.Repeat("b", i) + "$\n")
	}
	tests := []struct {
		name      string
		body      string
		indexable bool
		wild      bool
	}{
		{"plain", plainOnly, true, false},
		{"many wildcards", body.String(), true, true},
		{"many plain rules", "user-agent: *\n" + strings.Repeat("disallow: /p\n", stepwiseRules), true, false},
		{"too many plain rules", "user-agent: *\n" + strings.Repeat("disallow: /p\n", prefixIndexMaxRules+1), false, false},
		{"many rules, many wildcards", "user-agent: *\n" + strings.Repeat("disallow: /*a\n", stepwiseRules), false, false},
	}
	for _, tt := range tests {
		f := load([]byte(tt.body))
		rs, _ := f.Rules("x")
		if got := prefixIndexable(rs.compiled); got != tt.indexable {
			t.Errorf("%s: prefixIndexable = %v, want %v", tt.name, got, tt.indexable)
		}
		if !tt.indexable {
			continue
		}
		for q := 0; q < 2*scanQueries; q++ {
			if rs.Allowed("/paaa") {
				t.Fatalf("%s: /paaa allowed", tt.name)
			}
		}
		small := rs.index.small.Load()
		if small == nil || rs.index.built.Load() != nil || (small.wild != nil) != tt.wild {
			t.Errorf("%s: small index %v, ruleIndex %v", tt.name, small != nil, rs.index.built.Load() != nil)
		}
	}
}
