package engine

import (
	"math/bits"
	"slices"
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
	// when the test does not use it, or alwaysMatch (and last too) when
	// the pattern has no piece (its prefix decides, and matching it is
	// cheap).
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

// A windowTable numbers the distinct windows 0, 1, .... While windows are
// added, it is an open-addressing table. Once complete (see compact), it
// keeps only the windows' hashes, sorted, a window's number being the
// index of its hash: the hash is a bijection of the packed window, so it
// stands for the window, and buckets, a range of hashes each, tell where
// to look without empty slots.
type windowTable struct {
	// While windows are added: the slots, each a packed window (0 for an
	// empty slot) and its number, side by side so that a probe reads one
	// cache line.
	slots []windowSlot
	shift uint // 32 - log2(len(slots))
	// Once complete: the sorted hashes, then a sentinel 0xFFFFFFFF that
	// ends every scan, and where each bucket of hashes starts in them
	// (see bucketOf), the last element being the number of windows.
	hashes  []uint32
	buckets []uint32
	crowded bool  // some bucket holds more than crowdedBucket hashes
	count   int   // windows in the table
	lengths uint8 // bit n-1 set when some window is n bytes long
	starts  [4]uint64
	pool    sync.Pool // of *occurrences sized for this table
}

// A windowSlot is a slot of a table while windows are added.
type windowSlot struct {
	key uint32
	id  int32
}

// packWindow packs s (1 to maxWindow bytes) little-endian.
func packWindow(s string) uint32 {
	var k uint32
	for i := len(s) - 1; i >= 0; i-- {
		k = k<<8 | uint32(s[i])
	}
	return k
}

// windowHash is a bijection of packed windows (an odd multiplier), whose
// high bits are well mixed.
func windowHash(k uint32) uint32 { return k * 0x9E3779B1 }

func (t *windowTable) slot(k uint32) uint32 { return windowHash(k) >> t.shift }

// newWindowTable returns an empty table.
func newWindowTable() *windowTable { return newWindowTableFor(0) }

// newWindowTableFor returns an empty table sized for the windows of n
// rules (most rules of a large set share their windows), so that it need
// not grow while they are added.
func newWindowTableFor(n int) *windowTable {
	size := max(16, 1<<bits.Len(uint(n+n/2))) // n windows keep a quarter empty
	return &windowTable{slots: make([]windowSlot, size), shift: uint(32 - bits.TrailingZeros(uint(size)))}
}

// add returns the number of window s, adding it if needed; the table must
// not be complete. It grows to keep a quarter of it empty, so that probes
// stay short.
func (t *windowTable) add(s string) int32 {
	k := packWindow(s)
	if i := t.lookup(k); t.slots[i].key == k {
		return t.slots[i].id
	}
	if 4*(t.count+1) > 3*len(t.slots) {
		t.grow()
	}
	i := t.lookup(k)
	t.slots[i] = windowSlot{k, int32(t.count)}
	t.count++
	t.lengths |= 1 << (len(s) - 1)
	t.starts[s[0]>>6] |= 1 << (s[0] & 63)
	return t.slots[i].id
}

// compact completes the table: it numbers the windows by the order of
// their hashes, which is all it keeps, and returns the new number of each
// window by its old one. No window can be added after. The hashes are
// put in order by a counting pass over the buckets (bucketOf keeps their
// order), then each bucket is sorted: a few hashes each, unless chosen to
// collide.
func (t *windowTable) compact() []int32 {
	t.buckets = make([]uint32, max(t.count/bucketLoad, 1)+1)
	for _, slot := range t.slots {
		if slot.key != 0 {
			t.buckets[t.bucketOf(windowHash(slot.key))+1]++
		}
	}
	for b := 1; b < len(t.buckets); b++ {
		t.crowded = t.crowded || t.buckets[b] > crowdedBucket
		t.buckets[b] += t.buckets[b-1]
	}
	byHash := make([]uint64, t.count) // hash, then old number
	next := slices.Clone(t.buckets[:len(t.buckets)-1])
	for _, slot := range t.slots {
		if slot.key != 0 {
			h := windowHash(slot.key)
			b := t.bucketOf(h)
			byHash[next[b]] = uint64(h)<<32 | uint64(slot.id)
			next[b]++
		}
	}
	for b := 0; b+1 < len(t.buckets); b++ {
		bucket := byHash[t.buckets[b]:t.buckets[b+1]]
		if len(bucket) > crowdedBucket {
			slices.Sort(bucket)
			continue
		}
		for i := 1; i < len(bucket); i++ { // insertion sort
			for j := i; j > 0 && bucket[j] < bucket[j-1]; j-- {
				bucket[j], bucket[j-1] = bucket[j-1], bucket[j]
			}
		}
	}
	renumber := make([]int32, t.count)
	t.hashes = make([]uint32, t.count+1)
	t.hashes[t.count] = 1<<32 - 1
	for i, e := range byHash {
		renumber[uint32(e)] = int32(i)
		t.hashes[i] = uint32(e >> 32)
	}
	t.slots = nil
	return renumber
}

// bucketOf returns the bucket of hash h in a complete table: buckets
// split the range of hashes evenly, so they keep the hashes' order.
func (t *windowTable) bucketOf(h uint32) uint32 {
	return uint32(uint64(h) * uint64(len(t.buckets)-1) >> 32)
}

// number returns the number of the window packed as k in a complete
// table, or -1.
func (t *windowTable) number(k uint32) int32 {
	h := windowHash(k)
	b := t.bucketOf(h)
	if t.crowded {
		return t.search(h, t.buckets[b], t.buckets[b+1])
	}
	i := t.buckets[b]
	for t.hashes[i] < h { // sorted: the hashes after h's bucket, or the sentinel, end the scan
		i++
	}
	if t.hashes[i] == h && int(i) < t.count {
		return int32(i)
	}
	return -1
}

// search is number by bisection of hashes[lo:hi], for tables with large
// buckets, which windows chosen to collide would make.
func (t *windowTable) search(h, lo, hi uint32) int32 {
	if i, ok := slices.BinarySearch(t.hashes[lo:hi], h); ok {
		return int32(lo) + int32(i)
	}
	return -1
}

// lookup returns the slot of k, or the empty slot where it belongs, while
// windows are added.
func (t *windowTable) lookup(k uint32) uint32 {
	mask := uint32(len(t.slots) - 1)
	i := t.slot(k)
	for t.slots[i].key != k && t.slots[i].key != 0 {
		i = (i + 1) & mask
	}
	return i
}

func (t *windowTable) grow() {
	old := t.slots
	t.slots = make([]windowSlot, 2*len(old))
	t.shift--
	for _, slot := range old {
		if slot.key != 0 {
			t.slots[t.lookup(slot.key)] = slot
		}
	}
}

// newWindowFilter returns the filter of a wildcard pattern whose literal
// prefix is n bytes long, adding its windows to t, and the byteSignature of
// the bytes a path holds when the filter passes: those of its windows, and
// of an anchored last piece. It reads the pattern once: each piece's
// window is added when the next piece shows that it is not an anchored
// last one, and a piece becomes a candidate middle piece once a later one
// is found.
func newWindowFilter(t *windowTable, pattern string, n int) (windowFilter, uint32) {
	rest, anchored := cutAnchor(pattern[n:])
	var q1, qk string // the first and the last piece so far
	var qkID int32    // the window number of qk, once added
	count, total := 0, 0
	f := windowFilter{first: noWindow, last: noWindow, mid: noWindow}
	longest, midOff, midWindow := 0, 0, ""
	for rest != "" {
		p := rest
		if i := strings.IndexByte(rest, '*'); i >= 0 {
			p, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if p == "" {
			continue
		}
		if count > 0 {
			// qk is not the last piece: its window is needed.
			qkID = t.add(qk[:min(len(qk), maxWindow)])
			if count == 1 {
				f.first = qkID
			} else if len(qk) > longest { // a piece between q1 and the last
				longest, f.mid, midOff, midWindow = len(qk), qkID, total-len(qk), qk[:min(len(qk), maxWindow)]
			}
		} else {
			q1 = p
		}
		qk = p
		count++
		total += len(p)
	}
	if count == 0 {
		return windowFilter{first: alwaysMatch, last: alwaysMatch, mid: noWindow}, 0
	}
	span := total - len(qk)
	var covered uint32
	switch {
	case !anchored:
		qkID = t.add(qk[:min(len(qk), maxWindow)]) // every piece's first window, for verify
		if count == 1 {
			f.first = qkID
		}
		covered |= byteSignature(q1[:min(len(q1), maxWindow)])
	case count > 1:
		covered |= byteSignature(q1[:min(len(q1), maxWindow)])
		covered |= byteSignature(qk) // checked as a suffix
	default:
		covered |= byteSignature(qk) // checked as a suffix
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
	}
	covered |= byteSignature(midWindow)
	f.span = uint16(span)
	if f.mid != noWindow {
		f.midOff = uint16(midOff)
	}
	return f, covered
}

// occurrences records, for one path, where each window of a table first
// and last starts. Only the windows found need a place: a bit per window
// tells which, and places holds the places of the windows found, by rank
// (the order of their numbers), which the bits and a count per 64 windows
// tell without probing. While the path is read, the places are kept in a
// small map sized by the path, ranked once it is read; or, for a small
// table or once many windows are found, places holds one place for every
// window, by number (as many bytes as the map would then take). A place is
// read only when the bit of its window is set, so nothing but the bits
// needs clearing for the next path.
type occurrences struct {
	words  []presence
	places []place
	// While the path is read and dense is false: entries lists the windows
	// found, in the order found, and slots maps a window number, hashed, to
	// 1 + its index in entries (0 for an empty slot), in open addressing;
	// len(slots) is a power of two, at least twice len(entries).
	entries []occurrence
	slots   []int32
	shift   uint // 32 - log2(len(slots))
	// dense is true once places has one place per window, by number.
	dense   bool
	windows int // in the table
}

// A presence holds the bits of 64 windows, bit id%64 of words[id/64] set
// when window id occurs, and, once the path is read, how many bits are set
// in the words before.
type presence struct {
	bits uint64
	rank int32
}

// A place is where a window first and last starts.
type place struct{ first, last int32 }

// An occurrence is the place of window id, and the slot that maps id to
// it.
type occurrence struct {
	id    int32
	place place
	slot  uint32
}

// has reports whether window id occurs in the path.
func (occ *occurrences) has(id int32) bool { return occ.words[id>>6].bits&(1<<(id&63)) != 0 }

// placeOf returns where window id, which occurs, first and last starts,
// once the path is read.
func (occ *occurrences) placeOf(id int32) place {
	if occ.dense {
		return occ.places[id]
	}
	w := occ.words[id>>6]
	return occ.places[w.rank+int32(bits.OnesCount64(w.bits&(1<<(id&63)-1)))]
}

// first returns where window id first starts; it must occur.
func (occ *occurrences) first(id int32) int32 { return occ.placeOf(id).first }

// last returns where window id last starts; it must occur.
func (occ *occurrences) last(id int32) int32 { return occ.placeOf(id).last }

// at returns the occurrence of window id, which occurs, while the path is
// read and the form is not dense.
func (occ *occurrences) at(id int32) *occurrence {
	mask := uint32(len(occ.slots) - 1)
	for s := (uint32(id) * 0x9E3779B1) >> occ.shift; ; s = (s + 1) & mask {
		if e := &occ.entries[occ.slots[s]-1]; e.id == id {
			return e
		}
	}
}

// record notes, while the path is read, that window id starts at i, after
// every earlier start.
func (occ *occurrences) record(id, i int32) {
	w := &occ.words[id>>6]
	if bit := uint64(1) << (id & 63); w.bits&bit == 0 {
		w.bits |= bit
		if occ.dense {
			occ.places[id] = place{i, i}
		} else {
			occ.insert(id, i)
		}
		return
	}
	if occ.dense {
		occ.places[id].last = i
	} else {
		occ.at(id).place.last = i
	}
}

// insert adds window id, first found at i, to the map, growing it, or
// turning to the dense form once more than an eighth of the table's
// windows are found: the map (up to 48 bytes a window found, with entries
// grown by append and slots at least half empty) then costs about as much
// as the dense places, 8 bytes a window of the table.
func (occ *occurrences) insert(id, i int32) {
	if 2*(len(occ.entries)+1) > len(occ.slots) {
		if 8*(len(occ.entries)+1) > occ.windows {
			occ.makeDense()
			occ.places[id] = place{i, i}
			return
		}
		occ.growSlots()
	}
	occ.entries = append(occ.entries, occurrence{id: id, place: place{i, i}})
	occ.put(len(occ.entries) - 1)
}

// put puts entries[j] in its slot.
func (occ *occurrences) put(j int) {
	mask := uint32(len(occ.slots) - 1)
	s := (uint32(occ.entries[j].id) * 0x9E3779B1) >> occ.shift
	for occ.slots[s] != 0 {
		s = (s + 1) & mask
	}
	occ.slots[s], occ.entries[j].slot = int32(j+1), s
}

func (occ *occurrences) growSlots() {
	occ.slots = make([]int32, 2*len(occ.slots))
	occ.shift--
	for j := range occ.entries {
		occ.put(j)
	}
}

// makeDense moves the windows found to places indexed by window number,
// for this path and every later one, and drops the map.
func (occ *occurrences) makeDense() {
	occ.places = make([]place, occ.windows)
	for _, e := range occ.entries {
		occ.places[e.id] = e.place
	}
	occ.entries, occ.slots, occ.dense = nil, nil, true
}

// rank counts the bits before each word and moves the place of every
// window found to its rank, once the path is read, unless the places are
// dense: they are then read by window number.
func (occ *occurrences) rank() {
	if occ.dense {
		return
	}
	n := int32(0)
	for b := range occ.words {
		w := &occ.words[b]
		w.rank = n
		n += int32(bits.OnesCount64(w.bits))
	}
	if cap(occ.places) < len(occ.entries) {
		occ.places = make([]place, len(occ.entries), 2*len(occ.entries))
	}
	occ.places = occ.places[:len(occ.entries)]
	for _, e := range occ.entries {
		w := occ.words[e.id>>6]
		occ.places[w.rank+int32(bits.OnesCount64(w.bits&(1<<(e.id&63)-1)))] = e.place
	}
}

// find records the windows of t that occur in path. occ goes back with
// t.put.
func (t *windowTable) find(path string) *occurrences {
	occ, _ := t.pool.Get().(*occurrences)
	if occ == nil {
		const slots = 16
		occ = &occurrences{words: make([]presence, (t.count+63)/64), windows: t.count,
			slots: make([]int32, slots), shift: uint(32 - bits.TrailingZeros(uint(slots)))}
		if t.count <= denseWindows {
			occ.makeDense()
		}
	}
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
			if t.slots != nil { // not complete: tests ask such tables
				if id := t.idOfKey(k); id >= 0 {
					occ.record(id, int32(i))
				}
				continue
			}
			// t.number, inlined: most probes miss.
			h := windowHash(k)
			b := t.bucketOf(h)
			if t.crowded {
				if id := t.search(h, t.buckets[b], t.buckets[b+1]); id >= 0 {
					occ.record(id, int32(i))
				}
				continue
			}
			j := t.buckets[b]
			for t.hashes[j] < h {
				j++
			}
			if t.hashes[j] == h && int(j) < t.count {
				occ.record(int32(j), int32(i))
			}
		}
	}
	occ.rank()
	return occ
}

// put resets occ, which find returned, for the next path, and keeps it.
func (t *windowTable) put(occ *occurrences) {
	if occ.dense {
		for b := range occ.words {
			occ.words[b].bits = 0
		}
	} else {
		for _, e := range occ.entries {
			occ.words[e.id>>6].bits = 0 // the other windows of the word are in entries too
			occ.slots[e.slot] = 0
		}
		occ.entries = occ.entries[:0]
	}
	t.pool.Put(occ)
}

// startBound checks the first window (unless noWindow) and the middle one
// (unless noWindow) of a filter whose literal prefix is n bytes long, and
// returns how early the last window (or, anchored, the last piece) can
// start, less the filter's span; ok false means the rule cannot match.
func (occ *occurrences) startBound(first, mid, midOff, n int32) (start int32, ok bool) {
	start = n // the earliest start of q1
	if first != noWindow {
		if !occ.has(first) || occ.last(first) < n {
			return 0, false
		}
		start = max(start, occ.first(first))
	}
	if mid != noWindow {
		if !occ.has(mid) || occ.last(mid) < start+midOff {
			return 0, false
		}
		// qk starts after the middle piece, which starts no earlier than
		// its first occurrence.
		start = max(start, occ.first(mid)-midOff)
	}
	return start, true
}

// mayMatch reports whether a rule whose filter has these fields, and whose
// literal prefix of n bytes starts path, may match path. False means it
// cannot.
func mayMatch(first, last, mid, span, midOff int32, occ *occurrences, pattern, path string, n int) bool {
	if first == alwaysMatch {
		return true
	}
	start, ok := occ.startBound(first, mid, midOff, int32(n))
	if !ok {
		return false
	}
	if last == noWindow { // anchored: qk ends the path
		qk := pattern[strings.LastIndexByte(pattern, '*')+1 : len(pattern)-1]
		end := len(path) - len(qk)
		return end >= 0 && path[end:] == qk && int32(end) >= start+span
	}
	return occ.has(last) && occ.last(last) >= start+span
}

// id returns the number of window s, or -1 if it is not in t.
func (t *windowTable) id(s string) int32 {
	k := packWindow(s)
	if t.slots == nil {
		return t.number(k)
	}
	return t.idOfKey(k)
}

// idOfKey returns the number of the window packed as k, or -1.
func (t *windowTable) idOfKey(k uint32) int32 {
	if t.slots == nil {
		return t.number(k)
	}
	if i := t.lookup(k); t.slots[i].key == k {
		return t.slots[i].id
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
			if !occ.has(id) || occ.last(id) < int32(pos) {
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
