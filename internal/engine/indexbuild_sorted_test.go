package engine

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// itemsSorted and samePrefix, which the index building reads tens of
// thousands of hostile items with, agree with their slow twins, sortItems'
// comparison through slices.IsSortedFunc and comparePrefixes, on random
// items: prefixes of up to 12 bytes of a small alphabet (so that keys,
// lengths and the bytes past the eighth tie often), sorted or not, with
// positions that tie or not.
func TestItemsSortedAndSamePrefix(t *testing.T) {
	sorted, unsorted, same := 0, 0, 0
	reference.EachChooser(31, 20000, 64, func(_ int, c *reference.Chooser) {
		var text strings.Builder
		b := &indexBuild{}
		for n := 1 + c.Pick(8); n > 0; n-- {
			var p strings.Builder
			if c.Pick(2) == 0 {
				for k := c.Pick(13); k > 0; k-- {
					p.WriteString(c.From([]string{"a", "b", "/"}))
				}
			} else {
				// One byte differs, if any, among a run of one byte: keys
				// and lengths tie past the eighth byte.
				p.WriteString(strings.Repeat("a", c.Pick(13)))
				if p.Len() > 0 && c.Pick(2) == 0 {
					s := []byte(p.String())
					s[c.Pick(len(s))] = 'b'
					p.Reset()
					p.Write(s)
				}
			}
			off := text.Len()
			text.WriteString(p.String())
			b.items = append(b.items, indexItem{key: prefixKey(p.String()), off: uint32(off), n: uint32(p.Len()), pos: int32(c.Pick(4))})
		}
		b.text = text.String() + strings.Repeat("\x00", textPadding)
		byPrefix := func(x, y indexItem) int {
			if c := b.comparePrefixes(&x, &y); c != 0 {
				return c
			}
			return cmp.Compare(x.pos, y.pos)
		}
		if c.Pick(2) == 0 {
			slices.SortFunc(b.items, byPrefix)
		}
		want := slices.IsSortedFunc(b.items, byPrefix)
		if got := b.itemsSorted(); got != want {
			t.Fatalf("itemsSorted() = %v for %+v in %q, want %v", got, b.items, b.text, want)
		}
		if want {
			sorted++
		} else {
			unsorted++
		}
		for i := range b.items {
			for j := range b.items {
				x, y := &b.items[i], &b.items[j]
				want := b.comparePrefixes(x, y) == 0
				if got := b.samePrefix(x, y); got != want {
					t.Fatalf("samePrefix(%+v, %+v) in %q = %v, want %v", *x, *y, b.text, got, want)
				}
				if want && i != j {
					same++
				}
			}
		}
	})
	if sorted < 1000 || unsorted < 1000 || same < 1000 {
		t.Fatalf("%d sorted, %d not, %d pairs of one prefix: too few to test", sorted, unsorted, same)
	}
}
