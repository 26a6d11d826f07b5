package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// "Google's docs" below is Google's robots.txt documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt.

// The index orders prefixes by prefixKey first: unequal keys must order
// strings exactly as strings.Compare does, NUL bytes and short strings
// included.
func TestPrefixKeyOrder(t *testing.T) {
	alphabet := []string{"", "\x00", "/", "a", "b", "\xff"}
	var words []string
	var grow func(prefix string, depth int)
	grow = func(prefix string, depth int) {
		words = append(words, prefix)
		if depth == 0 {
			return
		}
		for _, c := range alphabet[1:] {
			grow(prefix+c, depth-1)
		}
	}
	grow("/abcdef", 3)        // strings around the 8-byte boundary
	grow("/abcdefghijklm", 3) // and around the 16-byte one, for keyPair
	grow("", 2)
	for _, a := range words {
		for _, b := range words {
			want := strings.Compare(a, b)
			if ka, kb := prefixKey(a), prefixKey(b); ka != kb && (ka < kb) != (want < 0) {
				t.Fatalf("prefixKey(%q) = %x, prefixKey(%q) = %x, but strings.Compare = %d", a, ka, b, kb, want)
			}
			if strings.Contains(a, "\x00") || strings.Contains(b, "\x00") {
				continue // keyPair is used only on strings without NUL
			}
			pa, pb := keyPair(a), keyPair(b)
			less := pa[0] < pb[0] || pa[0] == pb[0] && pa[1] < pb[1]
			if pa != pb && less != (want < 0) {
				t.Fatalf("keyPair(%q) = %x, keyPair(%q) = %x, but strings.Compare = %d", a, pa, b, pb, want)
			}
		}
	}
}

// keyPair reads its second key in one load where the string has fewer
// than 16 bytes, and commonPrefixLen compares eight bytes at a time: both
// agree with a byte at a time at every length.
func TestKeyPairAndCommonPrefixByBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for round := 0; round < 20000; round++ {
		s := randomWord(rng, 24, "ab/\xff")
		var second uint64
		for i := 8; i < 16; i++ {
			second <<= 8
			if i < len(s) {
				second |= uint64(s[i])
			}
		}
		if got, want := keyPair(s), [2]uint64{prefixKey(s), second}; got != want {
			t.Fatalf("keyPair(%q) = %x, want %x", s, got, want)
		}
		u := s[:rng.IntN(len(s)+1)] + randomWord(rng, 24, "ab/\xff")
		want := 0
		for want < min(len(s), len(u)) && s[want] == u[want] {
			want++
		}
		if got := commonPrefixLen(s, u); got != want {
			t.Fatalf("commonPrefixLen(%q, %q) = %d, want %d", s, u, got, want)
		}
	}
}

// The rule index picks the same deciding rule as trying every rule in
// order, on random rule sets whose literal prefixes nest deeply (the
// index walks their parent chains). RFC 9309 section 2.2.2; Google's docs, "Order of precedence for rules".
func TestIndexAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for round := 0; round < 300; round++ {
		rs, body := randomIndexedRules(t, rng, 200, func() string { return "/" + randomWord(rng, 12, "ab/ab/*$") })
		for q := 0; q < 200; q++ {
			path := "/" + randomWord(rng, 16, "ab/")
			key := prefixKey(path)
			want := noRule
			for i := range rs.compiled {
				if rs.compiled[i].matches(rs.text, path, key) {
					want = int32(i)
					break
				}
			}
			if got := rs.index.get().find(rs.compiled, rs.text, path); got != want {
				t.Fatalf("round %d, path %q: index decides by rule %d, scan by rule %d\n%s", round, path, got, want, body)
			}
		}
	}
}

// randomWord returns up to max bytes drawn from alphabet.
func randomWord(rng *rand.Rand, max int, alphabet string) string {
	b := make([]byte, rng.IntN(max+1))
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// randomIndexedRules parses a file of one "*" group holding enough rules
// to be indexed, and up to extra more, each an allow (one in three) or a
// disallow of a pattern drawn from pattern. It returns the group's rule
// set and the file.
func randomIndexedRules(t *testing.T, rng *rand.Rand, extra int, pattern func() string) (*RuleSet, string) {
	t.Helper()
	var body strings.Builder
	body.WriteString("user-agent: *\n")
	for n := indexMinRules + rng.IntN(extra); n > 0; n-- {
		kind := "disallow"
		if rng.IntN(3) == 0 {
			kind = "allow"
		}
		body.WriteString(kind + ": " + pattern() + "\n")
	}
	rs, _ := load([]byte(body.String())).Rules("x")
	if rs.index == nil {
		t.Fatalf("a set of %d rules has no index:\n%s", len(rs.compiled), body.String())
	}
	return rs, body.String()
}

// scanDecide is a slow twin of RuleSet.decide, kept on purpose as the
// reference the index tests compare with: every rule in order, each by the
// plain pattern matcher, no index, key or filter.
func scanDecide(compiled []compiledRule, text, path string) *compiledRule {
	var wb wireBuffer
	for i := range compiled {
		if matchPattern(wirePattern(&compiled[i], text, &wb), path) {
			return &compiled[i]
		}
	}
	return nil
}

// A fresh rule set answers its first questions by scanning, then builds
// its index, at a question that depends on the paths asked (at once when
// the wildcard matches of a long path pass the scan's budget): whatever
// the order of the questions, every answer is the slow scan's, before the
// index is built, at the question that builds it, and after.
func TestLazyIndexQuestionOrderAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 37))
	atFirst, later := 0, 0 // rounds whose index was built at the first question, or later
	for round := 0; round < 200; round++ {
		// Wildcard-heavy sets, so that some orders build the index at the
		// first question and others only after scanQueries.
		rs, body := randomIndexedRules(t, rng, 120, func() string { return "/" + randomWord(rng, 10, "ab*a*b$/") })
		paths := make([]string, 24)
		for i := range paths {
			paths[i] = "/" + randomWord(rng, 40, "aab/")
			if rng.IntN(8) == 0 {
				paths[i] += strings.Repeat("ab/", 1000+rng.IntN(3000))
			}
		}
		fresh, _ := load([]byte(body)).Rules("x")
		builtAt := -1
		for q, i := range rng.Perm(len(paths)) {
			want := scanDecide(rs.compiled, rs.text, paths[i])
			if got := fresh.decide(paths[i]); !sameRule(got, want) {
				t.Fatalf("round %d, question %d, path %q: decided by %v, the scan by %v\n%s", round, q, paths[i], got, want, body)
			}
			if builtAt < 0 && fresh.index.ready() {
				builtAt = q
			}
		}
		switch {
		case builtAt < 0:
			t.Fatalf("round %d: %d questions and no index built (scanQueries %d)", round, len(paths), scanQueries)
		case builtAt == 0:
			atFirst++
		default:
			later++
		}
	}
	if atFirst == 0 || later == 0 {
		t.Fatalf("the rounds built their index at the first question %d times, later %d times: both must be tested", atFirst, later)
	}
}

// Goroutines asking the first questions of a fresh rule set at once race
// to scan and to build its index, once: every answer is the slow scan's,
// and all of them end up with the same index. Run with -race.
func TestLazyIndexConcurrentFirstQuestions(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	for round := 0; round < 30; round++ {
		rs, body := randomIndexedRules(t, rng, 200, func() string { return "/" + randomWord(rng, 10, "ab*a*b$/") })
		paths := make([]string, 16)
		want := make([]*compiledRule, len(paths))
		for i := range paths {
			paths[i] = "/" + randomWord(rng, 40, "aab/")
			want[i] = scanDecide(rs.compiled, rs.text, paths[i])
		}
		fresh, _ := load([]byte(body)).Rules("x")
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := range 3 * len(paths) {
					k := (g*5 + i) % len(paths)
					if got := fresh.decide(paths[k]); !sameRule(got, want[k]) {
						errs <- fmt.Sprintf("round %d, path %q: decided by %v, the scan by %v\n%s", round, paths[k], got, want[k], body)
						return
					}
				}
			}(g)
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
		if !fresh.index.ready() {
			t.Fatalf("round %d: %d questions and no index built", round, 8*3*len(paths))
		}
	}
}

// sameRule reports whether a and b, rules of two loads of one file, are
// the same rule (or both nil).
func sameRule(a, b *compiledRule) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}
