package engine

import (
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// admits never rules out a pattern that matches the path (RFC 9309
// §2.2.3: the literal bytes of each piece occur in the path, in a run,
// the pieces in order), and rules out exactly the patterns a slow twin of
// its definition does: some literal byte below 0x80, or pair of such
// bytes adjacent within a piece, that the path lacks, or pieces whose
// last bytes, placed from the end, or whose first bytes, placed from the
// start, cannot come in order. Patterns are in wire form and, with bytes
// >= 0x80, in compact form.
func TestPathPairsAdmits(t *testing.T) {
	// Runs of bytes >= 0x80 longer than eight, which admits passes over a
	// word at a time.
	pieces := []string{"a", "b", "ab", "ba", "/", "*", "*", "$", "%", "%2F", "%C3%A9", "é", "\xff", "bcd", "xyz", ".", "ééééé", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7"}
	ruledOut, byOrder, backOnly, forwardOnly, matched, byLastOrder := 0, 0, 0, 0, 0, 0
	reference.EachChooser(17, 40000, 64, func(_ int, c *reference.Chooser) {
		var b strings.Builder
		for n := 1 + c.Pick(6); n > 0; n-- {
			b.WriteString(c.From(pieces))
		}
		compact := b.String()
		wire := string(appendWire(nil, compact))
		b.Reset()
		for n := c.Pick(12); n > 0; n-- {
			b.WriteString(c.From(pieces[:5]))
			if c.Pick(3) == 0 {
				b.WriteString(c.From([]string{"xy", "z", "%C3%A9", "%2F", "cd", "$", "%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9", "%FF%FE%FD%FC%FB%FA%F9%F8%F7"}))
			}
		}
		path := b.String()
		var pp pathPairs
		pp.reset(path)
		for _, p := range []string{wire, compact} {
			got := pp.admits(p)
			if matchCompact(p, path) { // matchCompact reads a wire pattern as matchPattern does
				matched++
				if !got {
					t.Fatalf("admits(%q) on path %q = false, but the pattern matches", p, path)
				}
			}
			if pp.lacksLastPair(p) && got {
				t.Fatalf("lacksLastPair(%q) on path %q, but admits", p, path)
			}
			if pp.lacksLastOrder(p) {
				byLastOrder++
				if got || lastOrderTwin(p, path) {
					t.Fatalf("lacksLastOrder(%q) on path %q, but admits (%v) or the twin does", p, path, got)
				}
			}
			if want := admitsTwin(p, path); got != want {
				t.Fatalf("admits(%q) on path %q = %v, the twin says %v", p, path, got, want)
			}
			if !got {
				ruledOut++
				if pairsTwin(p, path) {
					byOrder++
					back, forward := backTwin(p, path), orderTwin(strings.TrimSuffix(p, "$"), path)
					if !back && forward {
						backOnly++
					}
					if back && !forward {
						forwardOnly++
					}
				}
			}
		}
	})
	if ruledOut == 0 || byOrder == 0 || backOnly == 0 || forwardOnly == 0 || byLastOrder == 0 || matched < 1000 {
		t.Fatalf("%d patterns matched, %d ruled out, %d by their order alone (%d from the end only, %d from the start only): too few to test",
			matched, ruledOut, byOrder, backOnly, forwardOnly)
	}
	t.Logf("%d patterns matched, %d ruled out, %d by their order alone (%d from the end only, %d from the start only), %d by lacksLastOrder",
		matched, ruledOut, byOrder, backOnly, forwardOnly, byLastOrder)
}

// lastOrderTwin reports whether some place in path holds the last piece
// of pattern (its bytes after the last '*', before a final '$'; at the
// path's end with the '$') with the byte before that '*' somewhere
// before it, and, when the pattern ends in pieces of one byte "x*y*z",
// some x before some y: what lacksLastOrder rules out when it is false,
// read with
// the strings package (a byte >= 0x80 of a compact pattern stands for its
// three wire bytes).
func lastOrderTwin(pattern, path string) bool {
	wire := string(appendWire(nil, pattern))
	anchored := strings.HasSuffix(wire, "$")
	wire = strings.TrimSuffix(wire, "$")
	star := strings.LastIndexByte(wire, '*')
	if star < 1 {
		return true
	}
	piece, before := wire[star+1:], wire[star-1]
	if len(piece) == 1 && star >= 3 && wire[star-2] == '*' {
		// A chain of pieces of one byte, "x*y*z": some x comes before
		// some y.
		x, y := wire[star-3], wire[star-1]
		if i := strings.IndexByte(path, x); x != '*' && (i < 0 || strings.IndexByte(path[i+1:], y) < 0) {
			return false
		}
	}
	for at := 0; at+len(piece) <= len(path); at++ {
		if path[at:at+len(piece)] != piece || anchored && at+len(piece) != len(path) {
			continue
		}
		if before == '*' || strings.IndexByte(path[:at], before) >= 0 {
			return true
		}
	}
	return false
}

// admitsTwin is admits by its definition, with the strings package.
func admitsTwin(pattern, path string) bool {
	return pairsTwin(pattern, path) && backTwin(pattern, path) && orderTwin(strings.TrimSuffix(pattern, "$"), path)
}

// pairsTwin: every literal byte below 0x80, and pair of them within a
// piece, is in the path.
func pairsTwin(pattern, path string) bool {
	pattern = strings.TrimSuffix(pattern, "$")
	for _, piece := range strings.Split(pattern, "*") {
		for i := 0; i < len(piece); i++ {
			if piece[i] >= 0x80 {
				continue
			}
			if !strings.Contains(path, piece[i:i+1]) {
				return false
			}
			if i+1 < len(piece) && piece[i+1] < 0x80 && !strings.Contains(path, piece[i:i+2]) {
				return false
			}
		}
	}
	return true
}

// orderTwin: the pieces fit in the path in order, each after a star at or
// after where the one before ends and where its first byte first occurs,
// no later than where that byte last occurs.
func orderTwin(pattern, path string) bool {
	pos := 0
	for k, piece := range strings.Split(pattern, "*") {
		if piece == "" {
			continue
		}
		wire := string(appendWire(nil, piece))
		if k > 0 {
			first, last := strings.IndexByte(path, wire[0]), strings.LastIndexByte(path, wire[0])
			if first < 0 || max(pos, first) > last {
				return false
			}
			pos = max(pos, first)
		}
		if pos += len(wire); pos > len(path) {
			return false
		}
	}
	return true
}

// backTwin: the pieces fit in the path in order, placed from the last:
// the last ends at the path's end after a final '$' (its last byte the
// path's), else each ends at the latest where the next one starts, or
// where its last byte (in wire form) last occurs if that is earlier, that
// byte occurring before the end; each starts within the path.
func backTwin(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	pieces := strings.Split(strings.TrimSuffix(pattern, "$"), "*")
	limit := len(path)
	for k := len(pieces) - 1; k >= 0; k-- {
		piece := pieces[k]
		if piece == "" {
			anchored = false
			continue
		}
		wire := string(appendWire(nil, piece))
		c := wire[len(wire)-1]
		end := limit
		if anchored {
			if limit == 0 || path[limit-1] != c || strings.LastIndexByte(path, c) != limit-1 {
				return false
			}
			anchored = false
		} else {
			if first := strings.IndexByte(path, c); first < 0 || first >= limit {
				return false
			}
			end = min(limit, strings.LastIndexByte(path, c)+1)
		}
		if limit = end - len(wire); limit < 0 {
			return false
		}
	}
	return true
}

// FuzzPathPairs: admits never rules out a pattern that matches the path.
func FuzzPathPairs(f *testing.F) {
	f.Add("/*bcd", "/a/b/c/d")
	f.Add("/*hp*lp$", "/lplp/hphp")
	f.Add("/*\xff*a", "/%FFa")
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if len(pattern) > 256 || len(path) > 1024 {
			return
		}
		var pp pathPairs
		pp.reset(path)
		if matchCompact(pattern, path) && !pp.admits(pattern) {
			t.Fatalf("admits(%q) on path %q = false, but the pattern matches", pattern, path)
		}
	})
}

// lacksLastOrder rules out no pattern that matches, nor one that admits
// or the twin admits, on patterns that end in pieces of one or two bytes
// after stars ("/*x*y*z", "/*ab*c$", the hostile chains and wrong-order
// families), over paths of the same few bytes, where the order of their
// last pieces decides.
func TestLacksLastOrderChains(t *testing.T) {
	letters := []string{"a", "b", "c", "d"}
	ruledOut, matched := 0, 0
	reference.EachChooser(41, 40000, 64, func(_ int, c *reference.Chooser) {
		var b strings.Builder
		b.WriteString("/")
		for n := 1 + c.Pick(4); n > 0; n-- {
			b.WriteString("*")
			for k := 1 + c.Pick(2); k > 0; k-- {
				b.WriteString(c.From(letters))
			}
		}
		if c.Pick(4) == 0 {
			b.WriteString("$")
		}
		p := b.String()
		b.Reset()
		b.WriteString("/")
		for n := c.Pick(8); n > 0; n-- {
			b.WriteString(c.From(letters))
		}
		path := b.String()
		var pp pathPairs
		pp.reset(path)
		if matchPattern(p, path) {
			matched++
		}
		if !pp.lacksLastOrder(p) {
			return
		}
		ruledOut++
		if matchPattern(p, path) || pp.admits(p) || lastOrderTwin(p, path) {
			t.Fatalf("lacksLastOrder(%q) on path %q, but it matches, admits or the twin admits", p, path)
		}
	})
	if ruledOut < 1000 || matched < 1000 {
		t.Fatalf("%d ruled out, %d matched: too few to test", ruledOut, matched)
	}
}

// lacksLastPairTail and lacksLastOrderTail, which disallowRun tests a
// value with from the eight bytes that end it, agree with lacksLastPair
// and lacksLastOrder on random patterns of every length, after random
// bytes (the line's "disallow: ", or the end of the last value), wire or
// compact.
func TestLacksLastTailTwins(t *testing.T) {
	pieces := []string{"a", "b", "c", "*", "*", "$", "/", "\xff", "é", "ab", "%2F"}
	pairRuled, orderRuled := 0, 0
	reference.EachChooser(47, 40000, 64, func(_ int, c *reference.Chooser) {
		var b strings.Builder
		for n := c.Pick(8); n > 0; n-- {
			b.WriteString(c.From(pieces))
		}
		p := b.String()
		before := strings.Repeat(c.From([]string{"w: ", "$*", "ab"}), 4)
		body := before + p
		tail := swar.Load64(body, len(body)-8)
		b.Reset()
		b.WriteString("/")
		for n := c.Pick(8); n > 0; n-- {
			b.WriteString(c.From([]string{"a", "b", "c", "$"}))
		}
		path := b.String()
		var pp pathPairs
		pp.reset(path)
		if got, want := pp.lacksLastPairTail(tail, len(p)), pp.lacksLastPair(p); got != want {
			t.Fatalf("lacksLastPairTail of %q after %q on path %q = %v, lacksLastPair says %v", p, before, path, got, want)
		} else if got {
			pairRuled++
		}
		if got, want := pp.lacksLastOrderTail(tail, len(p)), pp.lacksLastOrder(p); got != want {
			t.Fatalf("lacksLastOrderTail of %q after %q on path %q = %v, lacksLastOrder says %v", p, before, path, got, want)
		} else if got {
			orderRuled++
		}
	})
	if pairRuled < 1000 || orderRuled < 1000 {
		t.Fatalf("%d ruled out by the last pair, %d by the last order: too few to test", pairRuled, orderRuled)
	}
}
