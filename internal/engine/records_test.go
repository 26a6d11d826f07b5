package engine

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The tests of the bit-packed records of the index's wildcard rules
// (records.go).

// Rules stored as records (see recordLayout) read back as they were
// written: the step, the signature when there is one, and the filter in
// its kind, for patterns of any number of pieces, anchored or not, with
// pieces longer than a window, and with fields of every width.
func TestRecordStoredForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	kinds := map[uint32]int{}
	for round := 0; round < 50; round++ {
		table := newWindowTable()
		type rule struct {
			step, need uint32
			hasNeed    bool
			filter     windowFilter
			piece      uint16
		}
		var rules []rule
		var maxStep uint32
		var maxSpan, maxMidOff, maxPiece uint16
		for range 1 + rng.IntN(300) {
			pattern := "/" + randomWord(rng, 3, "ab") + "*" + randomWord(rng, 20, "abcdefab**$")
			if round%2 == 1 {
				pattern += "*" + strings.Repeat("x", rng.IntN(3000)) + "*" + randomWord(rng, 6, "abcdef")
			}
			prefix, _ := literalPrefix(pattern)
			f, _ := newWindowFilter(table, pattern, len(prefix))
			r := rule{step: 1 + rng.Uint32N([]uint32{1, 5, 1 << 28}[round%3]), need: rng.Uint32(), hasNeed: rng.IntN(2) == 0, filter: f}
			if filterKind(f) == filterAnchoredPiece {
				r.piece = uint16(len(anchoredPiece(pattern)))
			}
			rules = append(rules, r)
			maxStep, maxSpan, maxMidOff, maxPiece = max(maxStep, r.step), max(maxSpan, f.span), max(maxMidOff, f.midOff), max(maxPiece, r.piece)
		}
		layout := newRecordLayout(maxStep, table.count, maxSpan, maxMidOff, maxPiece)
		var w recordWriter
		w.put(5, 3) // records need not start at a byte
		for _, r := range rules {
			layout.putRecord(&w, r.step, r.need, r.hasNeed, filterKind(r.filter), r.filter, r.piece)
		}
		records := w.finish()
		p := uint64(3)
		for _, r := range rules {
			head := readBits(records, p, layout.headBits)
			p += uint64(layout.headBits)
			kind := head >> 1 & 3
			kinds[kind]++
			if head>>3 != r.step || head&1 == 1 != r.hasNeed || kind != filterKind(r.filter) {
				t.Fatalf("record %+v read back with step %d, need %v, kind %d", r, head>>3, head&1 == 1, kind)
			}
			if r.hasNeed {
				if got := readBits(records, p, 32); got != r.need {
					t.Fatalf("record %+v: signature read back as %x", r, got)
				}
				p += 32
			}
			if kind == filterAnchoredPiece {
				if got := readBits(records, p, layout.pieceBits); got != uint32(r.piece) {
					t.Fatalf("record %+v: anchored piece of %d bytes read back as %d", r, r.piece, got)
				}
			}
			got := layout.readFilter(records, p, kind)
			p += uint64(layout.filterBits[kind])
			if got != r.filter {
				t.Fatalf("filter %+v stored as kind %d reads back as %+v", r.filter, kind, got)
			}
		}
		if p != w.n {
			t.Fatalf("records read to bit %d, written to %d", p, w.n)
		}
	}
	if len(kinds) != 4 {
		t.Errorf("kinds stored: %v; want all four", kinds)
	}
}

// A recordWriter's fields read back with readBits and readBits64 at every
// width and bit offset, and finish pads the records so that 8 bytes can be
// loaded from any of their bytes.
func TestRecordBitsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 53))
	for round := 0; round < 200; round++ {
		var w recordWriter
		type field struct {
			at    uint64
			v     uint32
			width uint8
		}
		var fields []field
		for range rng.IntN(100) {
			width := uint8(1 + rng.IntN(32))
			v := rng.Uint32() & (1<<width - 1)
			fields = append(fields, field{w.n, v, width})
			w.put(v|^(1<<width-1)*uint32(rng.IntN(2)), width) // bits above the width are ignored
			if rng.IntN(8) == 0 {
				if at := w.align(); uint64(at)*8 != w.n {
					t.Fatalf("align returned byte %d at bit %d", at, w.n)
				}
			}
		}
		records := w.finish()
		if want := (w.n+7)/8 + 8; uint64(len(records)) != want {
			t.Fatalf("finish kept %d bytes for %d bits, want %d", len(records), w.n, want)
		}
		for _, f := range fields {
			if got := readBits(records, f.at, f.width); got != f.v {
				t.Fatalf("round %d: %d bits at %d read back as %#x, want %#x", round, f.width, f.at, got, f.v)
			}
			if got := uint32(readBits64(records, f.at)) & (1<<f.width - 1); got != f.v {
				t.Fatalf("round %d: readBits64 at %d reads %#x, want %#x", round, f.at, got, f.v)
			}
		}
	}
}

// A layout's record lengths are the sums of its fields' widths, and its
// flags say truly whether a head and window numbers, or a whole filter,
// fit the 57 bits one readBits64 reads.
func TestRecordLayoutWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 59))
	for range 1000 {
		l := newRecordLayout(rng.Uint32N(1<<rng.IntN(31)), rng.IntN(1<<rng.IntN(20)),
			uint16(rng.IntN(1<<16)), uint16(rng.IntN(1<<16)), uint16(rng.IntN(1<<16)))
		for low := range 8 {
			kind := low >> 1
			want := l.headBits + l.filterBits[kind]
			if low&1 != 0 {
				want += 32
			}
			if l.recordBits[low] != want {
				t.Fatalf("%+v: record of head bits %03b is %d bits, want %d", l, low, l.recordBits[low], want)
			}
		}
		if l.narrowIDs != (int(l.headBits)+3*int(l.idBits) <= 57) || l.filterInFields != (int(l.headBits)+int(l.filterBits[filterFull]) <= 57) {
			t.Fatalf("%+v: narrowIDs %v, filterInFields %v", l, l.narrowIDs, l.filterInFields)
		}
	}
}

// filterKind returns the smallest kind that holds a filter: the filter
// read back from its kind is the filter, and from any smaller kind it is
// not; on the filters newWindowFilter makes.
func TestFilterKindSmallest(t *testing.T) {
	l := newRecordLayout(1, 8, 1<<15, 1<<15, 1<<15)
	filters := []windowFilter{
		{first: alwaysMatch, last: alwaysMatch, mid: noWindow}, // no piece
		{first: noWindow, last: noWindow, mid: noWindow},       // one anchored piece
	}
	ids := []int32{noWindow, 0, 1, 7}
	for _, first := range ids[1:] {
		for _, last := range ids {
			for _, mid := range ids {
				for _, sizes := range [][2]uint16{{0, 0}, {3, 0}, {0, 2}, {5, 4}} {
					f := windowFilter{first: first, last: last, mid: mid, span: sizes[0], midOff: sizes[1]}
					if mid == noWindow {
						f.midOff = 0
					}
					filters = append(filters, f)
				}
			}
		}
	}
	for _, f := range filters {
		kind := filterKind(f)
		for k := uint32(filterAnchoredPiece); k <= kind; k++ {
			var w recordWriter
			l.putRecord(&w, 1, 0, false, k, f, 0)
			got := l.readFilter(w.finish(), uint64(l.headBits), k)
			if k == kind && got != f {
				t.Fatalf("filter %+v of kind %d reads back as %+v", f, kind, got)
			}
			if k < kind && got == f {
				t.Fatalf("filter %+v is of kind %d, but kind %d holds it", f, kind, k)
			}
		}
	}
}
