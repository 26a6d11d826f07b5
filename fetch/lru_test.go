package fetch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The shared LRU core keeps the most recently used values within both
// bounds, and always keeps the newest value, even alone over the byte bound.
func TestBoundedLRU(t *testing.T) {
	type step struct {
		key  string
		size int
		get  bool // get the key instead of setting it
	}
	tests := []struct {
		name                 string
		maxEntries, maxBytes int
		steps                []step
		want                 []string // keys held, most recently used first
		wantBytes            int
	}{
		{"entry bound", 2, 0, []step{{"a", 1, false}, {"b", 1, false}, {"c", 1, false}}, []string{"c", "b"}, 2},
		{"get marks used", 2, 0, []step{{"a", 1, false}, {"b", 1, false}, {"a", 0, true}, {"c", 1, false}}, []string{"c", "a"}, 2},
		{"byte bound", 0, 10, []step{{"a", 4, false}, {"b", 4, false}, {"c", 4, false}}, []string{"c", "b"}, 8},
		{"resize in place", 0, 10, []step{{"a", 4, false}, {"b", 4, false}, {"a", 7, false}}, []string{"a"}, 7},
		{"newest kept over the bound", 0, 10, []step{{"a", 4, false}, {"b", 40, false}}, []string{"b"}, 40},
		{"no bounds", 0, 0, []step{{"a", 4, false}, {"b", 40, false}}, []string{"b", "a"}, 44},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newBoundedLRU[int](tt.maxEntries, tt.maxBytes)
			for i, s := range tt.steps {
				if s.get {
					l.get(s.key)
				} else {
					l.set(s.key, i, s.size)
				}
			}
			var got []string
			for el := l.order.Front(); el != nil; el = el.Next() {
				got = append(got, el.Value.(*lruSlot[int]).key)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("keys held (-want +got):\n%s", diff)
			}
			if l.bytes != tt.wantBytes || l.len() != len(l.items) {
				t.Errorf("bytes %d, len %d, map %d; want bytes %d and len = map", l.bytes, l.len(), len(l.items), tt.wantBytes)
			}
			if l.get("missing") != nil {
				t.Error("get of a missing key returned a slot")
			}
		})
	}
}
