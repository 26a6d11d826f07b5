package lint

import (
	"fmt"
	"testing"
)

// A hashIndex finds every element added, and no other, as it grows from
// empty and once reset with room for all; it stays at most three-quarters
// full.
func TestHashIndex(t *testing.T) {
	var words []string
	for i := range 1000 {
		words = append(words, fmt.Sprint(i*7919))
	}
	var h hashIndex
	hashOf := func(i int32) uint64 { return h.hash(words[i]) }
	check := func(added int) {
		t.Helper()
		for i, w := range words {
			want := int32(i)
			if i >= added {
				want = -1
			}
			if got := h.find(h.hash(w), func(j int32) bool { return words[j] == w }); got != want {
				t.Fatalf("%d added: find(%q) = %d, want %d", added, w, got, want)
			}
		}
		if h.n*4 > len(h.slots)*3 {
			t.Fatalf("%d elements in %d slots", h.n, len(h.slots))
		}
	}
	check(0)
	for i, w := range words {
		h.add(h.hash(w), int32(i), hashOf)
		if i%97 == 0 {
			check(i + 1)
		}
	}
	check(len(words))
	for _, n := range []int{0, 1, 3, 500} {
		h.reset(n)
		for i, w := range words[:n] {
			h.add(h.hash(w), int32(i), nil) // no growth: nil is never called
		}
		check(n)
	}
}
