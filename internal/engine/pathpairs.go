package engine

// A path that a wildcard pattern matches holds every literal byte of the
// pattern, and every two literal bytes that are adjacent in the pattern
// (within one piece between stars) adjacent in the path, as RFC 9309
// §2.2.3's "*" matches only a run of bytes between the pieces. The
// questions a lazy index answers by scanning its rules (lazyIndex.scan)
// first test each wildcard rule's bytes and pairs against the path's,
// which rules most hostile rules out after a look at their last bytes,
// rather than a match that costs a pass over the path. Scanning then costs
// about the same for a 16 KiB path as for a short one, so the first
// questions about a hostile file need not build the index.

// pathPairs records which bytes and which pairs of adjacent bytes a path
// holds (8 KiB of bits, cleared and filled in one pass over the path), and
// where each byte first and last occurs, which tells that pieces cannot
// occur in the order a pattern wants.
type pathPairs struct {
	n           int // the path's length
	bytes       [256 / 64]uint64
	pairs       [1 << 16 / 64]uint64 // bit a<<8 | b: the path holds "ab"
	first, last [256]int32           // of each byte in bytes; stale for the others
}

// reset makes pp the bytes and pairs of path.
func (pp *pathPairs) reset(path string) {
	pp.n = len(path)
	clear(pp.bytes[:])
	clear(pp.pairs[:])
	prev := uint(0x100)
	for i := 0; i < len(path); i++ {
		c := uint(path[i])
		if pp.bytes[c>>6]&(1<<(c&63)) == 0 {
			pp.bytes[c>>6] |= 1 << (c & 63)
			pp.first[c] = int32(i)
		}
		pp.last[c] = int32(i)
		if prev < 0x100 {
			k := prev<<8 | c
			pp.pairs[k>>6] |= 1 << (k & 63)
		}
		prev = c
	}
}

// has reports whether the path holds byte c.
func (pp *pathPairs) has(c uint) bool { return pp.bytes[c>>6]&(1<<(c&63)) != 0 }

// admits reports whether a path with pp's bytes and pairs may match
// pattern, in wire or compact form: false only when a literal byte below
// 0x80 of the pattern, or a pair of such bytes adjacent within one of its
// pieces, is not in the path, or when its pieces cannot occur in order
// (see inOrder). Bytes >= 0x80 of a compact pattern stand for three bytes
// in wire form, and are not tested but as a '%'. The pattern is read from
// its end, where the rules of a hostile set differ most.
func (pp *pathPairs) admits(pattern string) bool {
	n := len(pattern)
	if n > 0 && pattern[n-1] == '$' {
		n-- // an anchor, not a byte (a '$' elsewhere is a literal byte)
	}
	next := uint(0x100) // the literal byte after i, or 0x100 for none
	for i := n - 1; i >= 0; i-- {
		c := uint(pattern[i])
		if c == '*' || c >= 0x80 {
			next = 0x100
			continue
		}
		if !pp.has(c) {
			return false
		}
		if next < 0x100 {
			if k := c<<8 | next; pp.pairs[k>>6]&(1<<(k&63)) == 0 {
				return false
			}
		}
		next = c
	}
	return pp.inOrder(pattern[:n])
}

// inOrder reports whether the pieces of pattern (without a final '$') may
// occur in the path in order: the first at the start unless the pattern
// starts with '*', each later one at or after where the one before ends at
// the earliest, and where its first byte occurs at or after that, at the
// latest where that byte last occurs; all within the path. Each bound only
// ever falls short of where a match would put the piece, so a pattern
// that matches is never ruled out.
func (pp *pathPairs) inOrder(pattern string) bool {
	pos, anchored := 0, true
	for i := 0; i < len(pattern); {
		if pattern[i] == '*' {
			anchored = false
			i++
			continue
		}
		c := uint(pattern[i])
		if c >= 0x80 {
			c = '%' // its wire form's first byte
		}
		wire := 0 // the piece's length in wire form
		for ; i < len(pattern) && pattern[i] != '*'; i++ {
			wire++
			if pattern[i] >= 0x80 {
				wire += 2
			}
		}
		if !anchored {
			if !pp.has(c) {
				return false
			}
			pos = max(pos, int(pp.first[c]))
			if pos > int(pp.last[c]) {
				return false
			}
		}
		if pos += wire; pos > pp.n {
			return false
		}
		anchored = false
	}
	return true
}
