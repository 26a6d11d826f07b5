package engine

import (
	"hash/maphash"
	"math/bits"
	"strings"
)

// The sets an index building keeps while it reads an entry's rules.

// A patternSet tells which patterns of an entry's rules were seen before.
// It is an open-addressing table of seeded hashes (hash/maphash), so that
// patterns chosen to collide cannot make it slow, holding the positions of
// the rules: the map of strings it replaces, with an allocation and a
// write barrier per pattern, cost half the building of a hostile index.
type patternSet struct {
	seed  maphash.Seed
	slots []patternSlot // a power of two, at least twice the patterns added
}

// A patternSlot is the high bits of a pattern's hash and 1 + the position
// of its rule, or 0 for an empty slot.
type patternSlot struct{ tag, pos uint32 }

// reset empties s for an entry of n rules.
func (s *patternSet) reset(n int) {
	if s.slots == nil {
		s.seed = maphash.MakeSeed()
	}
	size := 1 << bits.Len(uint(2*n-1))
	if cap(s.slots) >= size {
		s.slots = s.slots[:size]
		clear(s.slots)
	} else {
		s.slots = make([]patternSlot, size)
	}
}

// add adds the pattern of rule pos, a span of text, and reports whether a
// rule added before has the same pattern.
func (s *patternSet) add(compiled []compiledRule, text string, pos int32) bool {
	pattern := compiled[pos].pattern(text)
	h := maphash.String(s.seed, pattern)
	mask, tag := uint32(len(s.slots)-1), uint32(h>>32)
	for i := uint32(h) & mask; ; i = (i + 1) & mask {
		slot := &s.slots[i]
		if slot.pos == 0 {
			*slot = patternSlot{tag, uint32(pos) + 1}
			return false
		}
		if slot.tag == tag && compiled[slot.pos-1].pattern(text) == pattern {
			return true
		}
	}
}

// anchoredPiece returns the piece between the last '*' and the final '$'
// of a pattern that has both.
func anchoredPiece(pattern string) string {
	return pattern[strings.LastIndexByte(pattern, '*')+1 : len(pattern)-1]
}

// exactSize returns s, or a copy without its spare capacity when it has
// much.
func exactSize[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/256 {
		return s
	}
	return append(make([]T, 0, len(s)), s...)
}
