package engine

import (
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// Pieces of wire-form patterns and paths around escapes: hex digits, '%',
// escapes of bytes below and above 0x80, wildcards.
var wirePieces = []string{"/", "%", "%C3", "%A9", "%FF", "%80", "%7F", "%41", "%2F", "F", "8", "A", "0", "a", "C3", "*", "$", "%8", "%F", "x", "\x7f"}

// The compact form is the wire form with each escape of a byte >= 0x80
// written as that byte, and back; compareWire, commonWirePrefix and
// hasWirePrefix read the wire form of a compact pattern as the plain
// string functions read the expanded form.
func TestCompactForm(t *testing.T) {
	reference.EachChooser(7, 30000, 40, func(_ int, c *reference.Chooser) {
		var b strings.Builder
		for n := c.Pick(10); n > 0; n-- {
			b.WriteString(c.From(wirePieces))
		}
		wire := b.String()
		buf := []byte(wire)
		compact := string(buf[:compactInPlace(buf)])
		if got := string(appendWire(nil, compact)); got != wire {
			t.Fatalf("wire form of the compact form of %q = %q", wire, got)
		}
		if got, want := highEscapes(wire), (len(wire)-len(compact))/2; got != want || highBytes(compact) != want {
			t.Fatalf("%q: highEscapes = %d, highBytes of its compact form %d, want %d", wire, got, highBytes(compact), want)
		}
		for cut := range len(compact) + 1 { // every length, for the word-at-a-time loops' tails
			high, first := 0, len(compact[cut:])
			for i, c := range []byte(compact[cut:]) {
				if c >= 0x80 {
					high++
					first = min(first, i)
				}
			}
			hasHigh := firstHigh(compact[cut:]) < len(compact[cut:])
			if highBytes(compact[cut:]) != high || hasHigh != (high > 0) || firstHigh(compact[cut:]) != first {
				t.Fatalf("%q: highBytes = %d, has a high byte %v, firstHigh = %d; %d bytes >= 0x80, the first at %d",
					compact[cut:], highBytes(compact[cut:]), hasHigh, firstHigh(compact[cut:]), high, first)
			}
		}
		b.Reset()
		for n := c.Pick(10); n > 0; n-- {
			b.WriteString(c.From(wirePieces))
		}
		path := b.String()
		if c.Pick(2) == 0 {
			path = wire[:c.Pick(len(wire)+1)] + path // share a prefix
		}
		// A prefix of the pattern, cut between bytes of the compact form.
		cut := c.Pick(len(compact) + 1)
		n := len(appendWire(nil, compact[:cut]))
		if got, want := compareWire(compact, n, path), strings.Compare(wire[:n], path); got != want {
			t.Fatalf("compareWire(%q, %d, %q) = %d, want %d", compact, n, path, got, want)
		}
		if got, want := commonWirePrefix(compact, n, path), commonPrefixLen(wire[:n], path); got != want {
			t.Fatalf("commonWirePrefix(%q, %d, %q) = %d, want %d", compact, n, path, got, want)
		}
		if got, want := hasWirePrefix(compact, path), strings.HasPrefix(path, wire); got != want {
			t.Fatalf("hasWirePrefix(%q, %q) = %v, want %v", compact, path, got, want)
		}
		if got, want := matchCompact(compact, path), matchPattern(wire, path); got != want {
			t.Fatalf("matchCompact(%q, %q) = %v, want %v", compact, path, got, want)
		}
	})
}

// addRule keeps a value whose escaping changes only bytes >= 0x80 (it holds
// no '%') as written, in compact form, without writing its wire form: the
// result must be what writing the wire form and compacting it gives
// (Google's MaybeEscapePattern, then compact.go), bytes and rule alike.
func TestAddRuleCompactShortcut(t *testing.T) {
	pieces := []string{"/", "a", "é", "\xff", "\x80", "%", "%c3", "%C3%A9", "%41", "*", "$", "index.htm", "%2", "\xc3"}
	reference.EachChooser(13, 20000, 64, func(_ int, c *reference.Chooser) {
		var v strings.Builder
		for n := c.Pick(8); n > 0; n-- {
			v.WriteString(c.From(pieces))
		}
		value, allow := v.String(), c.Pick(2) == 0
		var got builder
		got.addRule(allow, value, 7, true)
		// The slow twin: the line, then the wire form written after the
		// value, then compacted, as addRule does for a value holding a '%'.
		var want builder
		want.text = append(want.text, 7, 0, 0, 0)
		info := uint8(0)
		if allow {
			info = ruleAllow
		}
		pattern := want.keep(value)
		if escapes(value) {
			off := len(want.text)
			want.text = appendEscaped(want.text, value)
			pattern, info = want.compact(pattern, span{uint32(off), uint32(len(want.text) - off)}, info|ruleRawBefore)
		}
		want.rules = append(want.rules, ruleDraft{pattern: pattern, line: 7, info: info})
		if got.rules[0] != want.rules[0] || string(got.text[:pattern.off+pattern.n]) != string(want.text) {
			t.Fatalf("addRule(%q): rule %+v, text %q; want %+v, %q", value, got.rules[0], got.text, want.rules[0], want.text)
		}
	})
}
