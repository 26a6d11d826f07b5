package robotstxt

import (
	"math/bits"
	"strings"
	"sync"
)

// Wildcard rules whose literal prefix is short ("/*xyz", "/*z*a") cannot be
// told apart by the prefix index: every path starts with "/". Matching each
// of them against the whole path would cost rules x path, which a hostile
// file can make seconds per query. Instead, one pass over the path finds
// where short windows of the rules' literal pieces occur, and a few integer
// comparisons per rule rule out almost all of them; only the rest are
// matched. The pass costs a hash probe per path byte and window length
// (one to four), whatever the number of rules.

// maxWindow is the longest window of a piece, so that a window fits a
// uint32. Rule patterns hold no NUL byte, so a window packed with zero
// padding also records its length.
const maxWindow = 4

// A windowFilter is the test that rules out one wildcard rule. The rule's
// pattern is a literal prefix, then pieces q1..qk separated by '*', perhaps
// with a final '$'. A match places q1 after the prefix, each piece after the
// one before, and, with '$', qk at the end of the path.
type windowFilter struct {
	// first is the window number of the first bytes of q1, or noWindow
	// when the test does not use it, or alwaysMatch when the pattern has
	// no piece (its prefix decides, and matching it is cheap).
	first int32
	// last is the window number of the last bytes of qk when the pattern is
	// not anchored by '$', or noWindow when it is (then qk must end the
	// path, which is checked directly).
	last int32
	// mid is the window number of the first bytes of the longest piece
	// between q1 and qk, or noWindow. That piece starts at least midOff
	// bytes after q1 starts, and qk (or its last window) at least
	// span-midOff bytes after it starts.
	mid int32
	// span is how many bytes, at least, separate the earliest start of
	// q1 from the latest start of the last window (or, anchored, the
	// start of qk): len(q1..qk-1) plus the offset of the window in qk.
	// Both fit 16 bits, as a pattern does (see maxPatternLen).
	span, midOff uint16
}

const (
	noWindow    = -1
	alwaysMatch = -2
)

// A windowTable numbers the distinct windows 0, 1, ..., in open
// addressing.
type windowTable struct {
	keys []uint32 // 0 for an empty slot
	// ids is the number of the window in each slot while windows are
	// added. Once the table is complete, compact drops it: a window's
	// number is then the rank of its slot among the full ones, which
	// occupied and ranks tell (see slotID).
	ids      []int32
	occupied []uint64 // bit s set when slot s is full
	ranks    []uint32 // full slots before each 64 slots of occupied
	shift    uint     // 32 - log2(len(keys))
	count    int      // windows in keys
	lengths  uint8    // bit n-1 set when some window is n bytes long
	starts   [4]uint64
	pool     sync.Pool // of *occurrences sized for this table
}

// packWindow packs s (1 to maxWindow bytes) little-endian.
func packWindow(s string) uint32 {
	var k uint32
	for i := len(s) - 1; i >= 0; i-- {
		k = k<<8 | uint32(s[i])
	}
	return k
}

func (t *windowTable) slot(k uint32) uint32 { return (k * 0x9E3779B1) >> t.shift }

// newWindowTable returns an empty table.
func newWindowTable() *windowTable {
	const size = 16
	return &windowTable{keys: make([]uint32, size), ids: make([]int32, size), shift: uint(32 - bits.TrailingZeros(uint(size)))}
}

// add returns the number of window s, adding it if needed. The table
// grows to keep a quarter of it empty, so that probes stay short.
func (t *windowTable) add(s string) int32 {
	k := packWindow(s)
	if i := t.lookup(k); t.keys[i] == k {
		return t.slotID(i)
	}
	if 4*(t.count+1) > 3*len(t.keys) {
		t.grow()
	}
	i := t.lookup(k)
	t.keys[i], t.ids[i] = k, int32(t.count)
	t.count++
	t.lengths |= 1 << (len(s) - 1)
	t.starts[s[0]>>6] |= 1 << (s[0] & 63)
	return t.ids[i]
}

// slotID returns the number of the window in slot s.
func (t *windowTable) slotID(s uint32) int32 {
	if t.ids != nil {
		return t.ids[s]
	}
	w := s / 64
	return int32(t.ranks[w]) + int32(bits.OnesCount64(t.occupied[w]&(1<<(s%64)-1)))
}

// compact renumbers the windows by the rank of their slots, which the
// table can compute, and drops ids, which cost as much as the keys. It
// returns the new number of each window by its old one. No window can be
// added after.
func (t *windowTable) compact() []int32 {
	renumber := make([]int32, t.count)
	t.occupied = make([]uint64, (len(t.keys)+63)/64)
	t.ranks = make([]uint32, len(t.occupied))
	n := uint32(0)
	for w := range t.occupied {
		t.ranks[w] = n
		for b := 0; b < 64 && 64*w+b < len(t.keys); b++ {
			if s := 64*w + b; t.keys[s] != 0 {
				t.occupied[w] |= 1 << b
				renumber[t.ids[s]] = int32(n)
				n++
			}
		}
	}
	t.ids = nil
	return renumber
}

// lookup returns the slot of k, or the empty slot where it belongs.
func (t *windowTable) lookup(k uint32) uint32 {
	mask := uint32(len(t.keys) - 1)
	i := t.slot(k)
	for t.keys[i] != k && t.keys[i] != 0 {
		i = (i + 1) & mask
	}
	return i
}

func (t *windowTable) grow() {
	keys, ids := t.keys, t.ids
	t.keys, t.ids = make([]uint32, 2*len(keys)), make([]int32, 2*len(keys))
	t.shift--
	for s, k := range keys {
		if k != 0 {
			i := t.lookup(k)
			t.keys[i], t.ids[i] = k, ids[s]
		}
	}
}

// newWindowFilter returns the filter of a wildcard pattern whose literal
// prefix is n bytes long, adding its windows to t, and the byteSignature of
// the bytes a path holds when the filter passes: those of its windows, and
// of an anchored last piece.
func newWindowFilter(t *windowTable, pattern string, n int) (windowFilter, uint32) {
	rest, anchored := cutAnchor(pattern[n:])
	var q1, qk string
	count, total := 0, 0
	for rest != "" {
		p, after, _ := strings.Cut(rest, "*")
		if p != "" {
			if count == 0 {
				q1 = p
			}
			qk = p
			count++
			total += len(p)
		}
		rest = after
	}
	if count == 0 {
		return windowFilter{first: alwaysMatch}, 0
	}
	span := total - len(qk)
	f := windowFilter{first: noWindow, last: noWindow}
	var covered uint32
	if !anchored || count > 1 {
		f.first = t.add(q1[:min(len(q1), maxWindow)])
		covered |= byteSignature(q1[:min(len(q1), maxWindow)])
	} else {
		covered |= byteSignature(qk) // checked as a suffix
	}
	// The first window of every piece, for verify; an anchored last piece
	// is checked as a suffix instead.
	f.mid = noWindow
	longest, off, midOff, midWindow := 0, 0, 0, ""
	for i, rest := 0, strings.TrimSuffix(pattern[n:], "$"); rest != ""; {
		p, after, _ := strings.Cut(rest, "*")
		rest = after
		if p == "" {
			continue
		}
		if i++; i == count && anchored {
			break
		}
		id := t.add(p[:min(len(p), maxWindow)])
		if i > 1 && i < count && len(p) > longest {
			longest, f.mid, midOff, midWindow = len(p), id, off, p[:min(len(p), maxWindow)]
		}
		off += len(p)
	}
	if !anchored {
		if count == 1 {
			f.last = f.first // the same window: it must occur after the prefix
		} else {
			w := qk[max(len(qk)-maxWindow, 0):]
			f.last = t.add(w)
			covered |= byteSignature(w)
			span += len(qk) - len(w)
		}
	} else if count > 1 {
		covered |= byteSignature(qk) // checked as a suffix
	}
	covered |= byteSignature(midWindow)
	f.span = uint16(span)
	if f.mid != noWindow {
		f.midOff = uint16(midOff)
	}
	return f, covered
}

// A filter is stored in 0, 1, 3 or 4 words, by its kind, in the
// index's stream of wildcard rules: most patterns have one piece ("/*x",
// "/*x$") or two ("/*a*x"), and their filters say less.
const (
	filterAnchoredPiece = iota // one piece, anchored: no window (0 words)
	filterOnePiece             // one piece, or none: first (1 word)
	filterNoMid                // first, last, span (3 words)
	filterFull                 // first, last, mid, span and midOff (4 words)
)

// filterWords returns how many words a filter of the given kind takes:
// 0, 1, 3 or 4.
func filterWords(kind uint32) uint32 { return kind + kind>>1 }

// appendFilter appends f to words in the smallest form that holds it, and
// returns its kind.
func appendFilter(words []uint32, f windowFilter) ([]uint32, uint32) {
	switch {
	case f.first == alwaysMatch:
		return append(words, uint32(f.first)), filterOnePiece
	case f.mid == noWindow && f.span == 0 && f.first == noWindow && f.last == noWindow:
		return words, filterAnchoredPiece
	case f.mid == noWindow && f.span == 0 && f.first == f.last:
		return append(words, uint32(f.first)), filterOnePiece
	case f.mid == noWindow && f.midOff == 0:
		return append(words, uint32(f.first), uint32(f.last), uint32(f.span)), filterNoMid
	}
	return append(words, uint32(f.first), uint32(f.last), uint32(f.mid), uint32(f.span)|uint32(f.midOff)<<16), filterFull
}

// renumberFilter rewrites the window numbers of the filter of the given
// kind stored at words[0:], by renumber (see windowTable.compact).
func renumberFilter(words []uint32, kind uint32, renumber []int32) {
	ids := words[:kind] // first, last, mid, as many as the kind has; not the span
	for i, w := range ids {
		if id := int32(w); id >= 0 {
			ids[i] = uint32(renumber[id])
		}
	}
}

// occurrences records, for one path, where each window of a table first
// and last starts.
type occurrences struct {
	// firstPlus[id] is 1 + where window id first starts, or 0 when it does
	// not occur; last[id] is where it last starts, valid only if it occurs.
	firstPlus, last []int32
	// touched lists the windows found, so that put can reset them, unless
	// there were more than it holds: then put clears every window.
	touched []int32
	full    bool
}

// has reports whether window id occurs in the path.
func (occ *occurrences) has(id int32) bool { return occ.firstPlus[id] != 0 }

// first returns where window id first starts; it must occur.
func (occ *occurrences) first(id int32) int32 { return occ.firstPlus[id] - 1 }

// find records the windows of t that occur in path. occ goes back with
// t.put.
func (t *windowTable) find(path string) *occurrences {
	occ, _ := t.pool.Get().(*occurrences)
	if occ == nil {
		n := t.count
		// Resetting up to n/8 windows one by one costs less than clearing
		// all n; the list costs half a byte a window.
		occ = &occurrences{firstPlus: make([]int32, n), last: make([]int32, n), touched: make([]int32, 0, max(n/8, 16))}
	}
	mask := uint32(len(t.keys) - 1)
	for i := 0; i < len(path); i++ {
		c := path[i]
		if t.starts[c>>6]&(1<<(c&63)) == 0 {
			continue
		}
		var w uint32
		if i+maxWindow <= len(path) {
			w = uint32(path[i]) | uint32(path[i+1])<<8 | uint32(path[i+2])<<16 | uint32(path[i+3])<<24
		} else {
			w = packWindow(path[i:])
		}
		for n := 1; n <= maxWindow; n++ {
			if t.lengths&(1<<(n-1)) == 0 {
				continue
			}
			if i+n > len(path) {
				break
			}
			k := w & (1<<(8*n) - 1)
			if k>>(8*(n-1)) == 0 {
				break // a NUL: no window holds one
			}
			for s := t.slot(k); ; s = (s + 1) & mask {
				if t.keys[s] == k {
					id := t.slotID(s)
					if occ.firstPlus[id] == 0 {
						occ.firstPlus[id] = int32(i) + 1
						if len(occ.touched) < cap(occ.touched) {
							occ.touched = append(occ.touched, id)
						} else {
							occ.full = true
						}
					}
					occ.last[id] = int32(i)
					break
				}
				if t.keys[s] == 0 {
					break
				}
			}
		}
	}
	return occ
}

// put resets occ, which find returned, for the next path, and keeps it.
func (t *windowTable) put(occ *occurrences) {
	if occ.full {
		clear(occ.firstPlus)
	} else {
		for _, id := range occ.touched {
			occ.firstPlus[id] = 0
		}
	}
	occ.touched, occ.full = occ.touched[:0], false
	t.pool.Put(occ)
}

// startBound checks the first window (unless noWindow) and the middle one
// (unless noWindow) of a filter whose literal prefix is n bytes long, and
// returns how early the last window (or, anchored, the last piece) can
// start, less the filter's span; ok false means the rule cannot match.
func (occ *occurrences) startBound(first, mid, midOff, n int32) (start int32, ok bool) {
	start = n // the earliest start of q1
	if first != noWindow {
		if !occ.has(first) || occ.last[first] < n {
			return 0, false
		}
		start = max(start, occ.first(first))
	}
	if mid != noWindow {
		if !occ.has(mid) || occ.last[mid] < start+midOff {
			return 0, false
		}
		// qk starts after the middle piece, which starts no earlier than
		// its first occurrence.
		start = max(start, occ.first(mid)-midOff)
	}
	return start, true
}

// mayMatchStored reports whether a rule whose filter, of the given kind,
// appendFilter wrote at words[0:], and whose literal prefix of n bytes
// starts path, may match path. False means it cannot. It reads the words
// into registers: a windowFilter built from them field by field and read
// back whole would stall on the stores.
func mayMatchStored(words []uint32, kind uint32, occ *occurrences, pattern, path string, n int) bool {
	first, last, mid, spanOff := int32(noWindow), int32(noWindow), int32(noWindow), uint32(0)
	switch kind {
	case filterOnePiece:
		first = int32(words[0])
		last = first
	case filterNoMid:
		first, last, spanOff = int32(words[0]), int32(words[1]), words[2]
	case filterFull:
		first, last, mid, spanOff = int32(words[0]), int32(words[1]), int32(words[2]), words[3]
	}
	if first == alwaysMatch {
		return true
	}
	span, midOff := int32(spanOff&0xFFFF), int32(spanOff>>16)
	start, ok := occ.startBound(first, mid, midOff, int32(n))
	if !ok {
		return false
	}
	if last == noWindow { // anchored: qk ends the path
		qk := pattern[strings.LastIndexByte(pattern, '*')+1 : len(pattern)-1]
		end := len(path) - len(qk)
		return end >= 0 && path[end:] == qk && int32(end) >= start+span
	}
	return occ.has(last) && occ.last[last] >= start+span
}

// id returns the number of window s, or -1 if it is not in t.
func (t *windowTable) id(s string) int32 {
	k := packWindow(s)
	if i := t.lookup(k); t.keys[i] == k {
		return t.slotID(i)
	}
	return -1
}

// verify reports whether pattern, whose literal prefix of n bytes starts
// path, matches path, as matchPattern does: each piece at its leftmost
// place after the one before. Where the window of a piece is the whole
// piece, occ tells where it is without searching: not at all after pos,
// or first at a known place.
func (t *windowTable) verify(occ *occurrences, pattern, path string, n int) bool {
	rest, anchored := cutAnchor(pattern[n:])
	pos := n
	for rest != "" {
		p, after, _ := strings.Cut(rest, "*")
		rest = after
		if p == "" {
			continue
		}
		if after == "" && anchored {
			end := len(path) - len(p)
			return end >= pos && path[end:] == p
		}
		if id := t.id(p[:min(len(p), maxWindow)]); id >= 0 {
			if !occ.has(id) || occ.last[id] < int32(pos) {
				return false // the piece does not start at or after pos
			}
			if len(p) <= maxWindow {
				if after == "" {
					return true // it occurs after pos: nothing else to match
				}
				if first := int(occ.first(id)); first >= pos {
					pos = first + len(p)
					continue
				}
			}
		}
		i := strings.Index(path[pos:], p)
		if i < 0 {
			return false
		}
		pos += i + len(p)
	}
	// Every piece is matched; with '$', the last one ended the path (or
	// there was none).
	return !anchored || pos == len(path)
}

// cutAnchor returns s without a final '$', and whether it had one that
// anchors a piece at the end of the path: "*$" anchors nothing.
func cutAnchor(s string) (rest string, anchored bool) {
	rest, anchored = strings.CutSuffix(s, "$")
	return rest, anchored && !strings.HasSuffix(rest, "*")
}
