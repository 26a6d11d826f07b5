package lint

import (
	"hash/maphash"
	"math/bits"
)

// A hashIndex finds an element of a list that the caller keeps, by the
// element's hash: an open-addressed table of 4-byte slots, each 1 + the
// index of an element or 0 when empty, at most three-quarters full. It
// costs 5 to 11 bytes an element, where a map with string keys costs
// about 48; the caller compares the elements.
type hashIndex struct {
	slots []int32
	n     int // elements added
	seed  maphash.Seed
}

// reset empties h and makes room for n elements without growing.
func (h *hashIndex) reset(n int) {
	if h.seed == (maphash.Seed{}) {
		h.seed = maphash.MakeSeed()
	}
	size := 1 << bits.Len(uint(n*4/3)) // more than n*4/3: at most 3/4 full
	if cap(h.slots) < size {
		h.slots = make([]int32, size)
	} else {
		h.slots = h.slots[:size]
		clear(h.slots)
	}
	h.n = 0
}

// hash returns the hash of s, for find and add.
func (h *hashIndex) hash(s string) uint64 {
	if h.seed == (maphash.Seed{}) {
		h.seed = maphash.MakeSeed()
	}
	return maphash.String(h.seed, s)
}

// find returns the index of an element of hash x for which is reports
// true, or -1.
func (h *hashIndex) find(x uint64, is func(i int32) bool) int32 {
	if len(h.slots) == 0 {
		return -1
	}
	mask := len(h.slots) - 1
	for s := int(x) & mask; ; s = (s + 1) & mask {
		v := h.slots[s]
		if v == 0 {
			return -1
		}
		if is(v - 1) {
			return v - 1
		}
	}
}

// add adds element i, of hash x. If h is full, it doubles, and hashOf
// gives the hashes of the elements already added; it may be nil when
// reset made room for every element.
func (h *hashIndex) add(x uint64, i int32, hashOf func(i int32) uint64) {
	if (h.n+1)*4 > len(h.slots)*3 {
		old := h.slots
		h.slots = make([]int32, max(2*len(old), 16))
		for _, v := range old {
			if v != 0 {
				h.put(hashOf(v-1), v-1)
			}
		}
	}
	h.put(x, i)
	h.n++
}

func (h *hashIndex) put(x uint64, i int32) {
	mask := len(h.slots) - 1
	s := int(x) & mask
	for h.slots[s] != 0 {
		s = (s + 1) & mask
	}
	h.slots[s] = i + 1
}
