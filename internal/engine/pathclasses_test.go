package engine

import (
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// pathClassesTwin is pathClasses by its definition, a byte at a time.
func pathClassesTwin(s string) uint8 {
	var m uint8
	for i := 0; i < len(s); i++ {
		m |= classOf[s[i]]
	}
	return m
}

// patternClasses, which reads eight bytes at a time, and pathClasses
// agree with their slow twin on random strings of every length up to 40 and every alignment,
// of the class bytes, bytes next to them and bytes >= 0x80.
func TestPathClassesTwin(t *testing.T) {
	bytesOf := []byte{'?', '=', '.', '_', '>', '<', '/', '-', '^', 'a', '*', '$', 0, 0x80, 0xBF, 0xFF, '?' + 0x80, '_' ^ 1}
	seen := [16]int{}
	reference.EachChooser(37, 20000, 64, func(_ int, c *reference.Chooser) {
		b := make([]byte, c.Pick(41))
		for i := range b {
			b[i] = 'a'
			if c.Pick(4) == 0 {
				b[i] = bytesOf[c.Pick(len(bytesOf))]
			}
		}
		s := string(b)
		want := pathClassesTwin(s)
		if got := patternClasses(s); got != want {
			t.Fatalf("patternClasses(%q) = %04b, want %04b", s, got, want)
		}
		if got := pathClasses(s); got != want {
			t.Fatalf("pathClasses(%q) = %04b, want %04b", s, got, want)
		}
		seen[want]++
	})
	for m, n := range seen {
		if n == 0 {
			t.Fatalf("no string of classes %04b: too few to test", m)
		}
	}
}
