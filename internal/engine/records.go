package engine

import (
	"encoding/binary"
	"math/bits"
)

// The index keeps each wildcard rule as a record of bit fields, as narrow
// as the index's largest values need: a hostile file's rules are mostly
// window numbers, and these need 15 bits, not 32. A record is
//
//	need (1 bit): whether a byteSignature follows
//	kind (2 bits): the filter's kind (see filterKind)
//	step (stepBits): the rule's position less that of the entry's
//	    previous rule (the first: less entry.firstWild - 1), never 0
//	signature (32 bits), if need
//	filter, by kind: the length of the anchored piece (pieceBits), or 1
//	    to 3 window numbers plus 2 (idBits each; 0 is alwaysMatch, 1
//	    noWindow), then span and midOff (spanBits, midOffBits)
//
// An entry's records start at a byte, which the entry locates in 32 bits:
// that bounds the stream to 4 GB, which a file of fewer bytes cannot fill.
// A head of zeros (a zero step) ends them.
type recordLayout struct {
	headBits   uint8 // need, kind and step
	stepBits   uint8
	idBits     uint8
	spanBits   uint8
	midOffBits uint8
	pieceBits  uint8
	filterBits [4]uint8 // the filter's bits by kind
	// recordBits is the length of a record by the low 3 bits of its
	// head: need and kind.
	recordBits [8]uint8
	// The masks of the fields, and whether a record's head and window
	// numbers fit the 57 bits one load of readBits64 reads.
	stepMask, idMask, spanMask, midOffMask, pieceMask uint32
	narrowIDs                                         bool
	// filterInFields is whether a whole filter also fits them.
	filterInFields bool
}

// Filter kinds: most patterns have one piece ("/*x", "/*x$") or two
// ("/*a*x"), and their filters say less.
const (
	filterAnchoredPiece = iota // one piece, anchored: no window
	filterOnePiece             // one piece, or none: first
	filterNoMid                // first, last, span
	filterFull                 // first, last, mid, span and midOff
)

// filterKind returns the smallest kind that holds f.
func filterKind(f windowFilter) uint32 {
	switch {
	case f.first == alwaysMatch:
		return filterOnePiece
	case f.mid == noWindow && f.span == 0 && f.first == noWindow && f.last == noWindow:
		return filterAnchoredPiece
	case f.mid == noWindow && f.span == 0 && f.first == f.last:
		return filterOnePiece
	case f.mid == noWindow && f.midOff == 0:
		return filterNoMid
	}
	return filterFull
}

// newRecordLayout returns the layout for records whose largest values are
// these, with windows numbered below windows.
func newRecordLayout(maxStep uint32, windows int, maxSpan, maxMidOff, maxPiece uint16) recordLayout {
	l := recordLayout{
		stepBits:   uint8(bits.Len32(maxStep)),
		idBits:     uint8(bits.Len32(uint32(windows) + 1)),
		spanBits:   uint8(bits.Len16(maxSpan)),
		midOffBits: uint8(bits.Len16(maxMidOff)),
		pieceBits:  uint8(bits.Len16(maxPiece)),
	}
	l.headBits = 3 + l.stepBits
	l.stepMask, l.idMask = 1<<l.stepBits-1, 1<<l.idBits-1
	l.spanMask, l.midOffMask, l.pieceMask = 1<<l.spanBits-1, 1<<l.midOffBits-1, 1<<l.pieceBits-1
	l.narrowIDs = l.headBits+3*l.idBits <= 57
	l.filterBits = [4]uint8{l.pieceBits, l.idBits, 2*l.idBits + l.spanBits, 3*l.idBits + l.spanBits + l.midOffBits}
	l.filterInFields = l.headBits+l.filterBits[filterFull] <= 57
	for low := range l.recordBits {
		l.recordBits[low] = l.headBits + 32*uint8(low&1) + l.filterBits[low>>1]
	}
	return l
}

// A recordWriter appends bit fields, low bits first. Its buffer is
// zeroed bytes, sized once by newRecordWriter when the size is known (a
// hostile index writes 30,000 records), or grown as fields are put.
type recordWriter struct {
	buf []byte
	n   uint64 // bits written
}

// newRecordWriter returns a writer of size bytes of fields, with the
// padding finish adds: finish then returns its buffer as it is.
func newRecordWriter(size int) recordWriter {
	return recordWriter{buf: make([]byte, size+8)}
}

// put appends the low width (at most 32) bits of v.
func (w *recordWriter) put(v uint32, width uint8) {
	i := w.n >> 3
	if uint64(len(w.buf)) < i+8 {
		w.grow(i + 8)
	}
	word := binary.LittleEndian.Uint64(w.buf[i:]) | uint64(v&(1<<width-1))<<(w.n&7)
	binary.LittleEndian.PutUint64(w.buf[i:], word)
	w.n += uint64(width)
}

// grow makes the buffer at least n bytes long.
func (w *recordWriter) grow(n uint64) {
	w.buf = append(w.buf, make([]byte, n-uint64(len(w.buf)))...)
}

// align moves to the next byte, and returns its offset.
func (w *recordWriter) align() uint32 {
	w.n = (w.n + 7) &^ 7
	return uint32(w.n >> 3)
}

// finish returns the records, padded so that readBits can load 8 bytes
// from any of them: the buffer itself when newRecordWriter sized it so,
// else a copy of what it uses.
func (w *recordWriter) finish() []byte {
	n := (w.n+7)>>3 + 8
	if uint64(len(w.buf)) < n {
		w.grow(n)
	}
	if uint64(len(w.buf)) == n && cap(w.buf) == len(w.buf) {
		return w.buf
	}
	return append([]byte(nil), w.buf[:n]...)
}

// putRecord appends the record of a rule; piece is the length of the
// anchored piece of a filter of kind filterAnchoredPiece.
func (l *recordLayout) putRecord(w *recordWriter, step uint32, need uint32, hasNeed bool, kind uint32, f windowFilter, piece uint16) {
	head := kind<<1 | step<<3
	if hasNeed {
		head |= 1
	}
	w.put(head, l.headBits)
	if hasNeed {
		w.put(need, 32)
	}
	if kind == filterAnchoredPiece {
		w.put(uint32(piece), l.pieceBits)
		return
	}
	w.put(uint32(f.first+2), l.idBits)
	if kind == filterOnePiece {
		return
	}
	w.put(uint32(f.last+2), l.idBits)
	if kind == filterFull {
		w.put(uint32(f.mid+2), l.idBits)
	}
	w.put(uint32(f.span), l.spanBits)
	if kind == filterFull {
		w.put(uint32(f.midOff), l.midOffBits)
	}
}

// readBits returns the width (at most 32) bits of b at bit p.
func readBits(b []byte, p uint64, width uint8) uint32 {
	return uint32(readBits64(b, p) & (1<<width - 1))
}

// readBits64 returns the 57 bits (at least) of b from bit p.
func readBits64(b []byte, p uint64) uint64 {
	i := p >> 3
	return binary.LittleEndian.Uint64(b[i:i+8:i+8]) >> (p & 7)
}

// readFilter returns the filter of the given kind whose fields start at
// bit p of b.
func (l *recordLayout) readFilter(b []byte, p uint64, kind uint32) windowFilter {
	f := windowFilter{first: noWindow, last: noWindow, mid: noWindow}
	if kind == filterAnchoredPiece {
		return f
	}
	id := uint64(l.idBits)
	f.first = int32(readBits(b, p, l.idBits)) - 2
	if kind == filterOnePiece {
		f.last = f.first
		return f
	}
	f.last = int32(readBits(b, p+id, l.idBits)) - 2
	p += 2 * id
	if kind == filterFull {
		f.mid = int32(readBits(b, p, l.idBits)) - 2
		p += id
	}
	f.span = uint16(readBits(b, p, l.spanBits))
	if kind == filterFull {
		f.midOff = uint16(readBits(b, p+uint64(l.spanBits), l.midOffBits))
	}
	return f
}
