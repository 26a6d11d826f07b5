package engine

import (
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/reference"
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
