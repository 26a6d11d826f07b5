package engine

import "github.com/seed50c7eacc/robotstxt/internal/swar"

// A path that a wildcard pattern matches holds every literal byte of the
// pattern, and every two literal bytes that are adjacent in the pattern
// (within one piece between stars) adjacent in the path, as RFC 9309
// §2.2.3's "*" matches only a run of bytes between the pieces. The
// questions a lazy index answers by scanning its rules (lazyIndex.scan),
// and the streams over a large file (stream.go), first test each wildcard
// rule's bytes and pairs against the path's, which rules most hostile
// rules out after a look at their last bytes, rather than a match that
// costs a pass over the path. Scanning then costs about the same for a
// 16 KiB path as for a short one, so the first questions about a hostile
// file need not build the index.

// pathPairs records which bytes and which pairs of adjacent bytes a path
// holds (8 KiB of bits, cleared and filled in one pass over the path), and
// where each byte first and last occurs, which tells that pieces cannot
// occur in the order a pattern wants.
type pathPairs struct {
	n int // the path's length
	// pairs has bit a<<8 | b set when the path holds "ab", and for every
	// pair of which a or b is a '*' or a byte >= 0x80, which are never
	// two literal bytes of a piece in wire form: lacksLastPair then need
	// not test its bytes.
	pairs [1 << 16 / 64]uint64
	// first and last are where each byte first and last occurs: n and -1
	// for a byte the path lacks, so that every test of a place fails.
	first, last [256]int32
}

// reset makes pp the bytes and pairs of path.
func (pp *pathPairs) reset(path string) {
	pp.n = len(path)
	clear(pp.pairs[:])
	for a := range 0x80 {
		pp.pairs[a<<2|2], pp.pairs[a<<2|3] = ^uint64(0), ^uint64(0) // b >= 0x80
		k := a<<8 | '*'
		pp.pairs[k>>6] |= 1 << (k & 63)
	}
	for k := 0x80 << 2; k < len(pp.pairs); k++ {
		pp.pairs[k] = ^uint64(0) // a >= 0x80
	}
	for k := '*' << 2; k < '*'<<2+4; k++ {
		pp.pairs[k] = ^uint64(0)
	}
	for c := range pp.first {
		pp.first[c], pp.last[c] = int32(len(path)), -1
	}
	prev := uint(0x100)
	for i := 0; i < len(path); i++ {
		c := uint(path[i])
		if pp.last[c] < 0 {
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

// lacksLastPair reports whether the pattern's last two literal bytes
// that are adjacent in one piece, found among its last five bytes (before
// a final '$', and before a last piece of one byte) of a pattern of five
// bytes or more, are bytes below 0x80
// that the path does not hold as a pair: then the pattern cannot match,
// and admits is false. It is admits' cheapest test, inlined where
// thousands of patterns are tried (the rules of a hostile file mostly
// differ in their last bytes: "/*xyz", "/*xyz$", "/*a*xyz*z").
func (pp *pathPairs) lacksLastPair(pattern string) bool {
	n := len(pattern)
	if n < 5 {
		return false // admits tests it
	}
	if pattern[n-1] == '$' {
		n--
	}
	if pattern[n-2] == '*' {
		n -= 2 // a last piece of one byte
	}
	// A pair with a '*' or a byte >= 0x80 is always set (see reset).
	k := uint(pattern[n-2])<<8 | uint(pattern[n-1])
	return pp.pairs[k>>6]&(1<<(k&63)) == 0
}

// lacksLastPairTail is lacksLastPair for a pattern of n bytes that ends
// where tail does: the eight bytes up to the pattern's end, its last
// byte in tail's top byte (swar.Load64At at the end minus 8), which may
// hold bytes before the pattern. It reads only the pattern's bytes, at
// places known from its end: tests of constant shifts, where the
// string's are of bytes at variable places, each bounds-checked.
func (pp *pathPairs) lacksLastPairTail(tail uint64, n int) bool {
	if n < 5 {
		return false // admits tests it
	}
	if byte(tail>>56) == '$' {
		tail <<= 8
	}
	if byte(tail>>48) == '*' {
		tail <<= 16 // a last piece of one byte
	}
	k := uint(byte(tail>>48))<<8 | uint(byte(tail>>56))
	return pp.pairs[k>>6]&(1<<(k&63)) == 0
}

// lacksLastOrderTail is lacksLastOrder for a pattern of n bytes that ends
// where tail does (see lacksLastPairTail).
func (pp *pathPairs) lacksLastOrderTail(tail uint64, n int) bool {
	if byte(tail>>56) == '$' {
		tail <<= 8
		n--
	}
	if n < 4 {
		return false
	}
	var b byte
	c, l := byte(tail>>56), 1 // the last piece's last byte, its length
	if byte(tail>>48) == '*' {
		b = byte(tail >> 40)
	} else if byte(tail>>40) == '*' {
		b, l = byte(tail>>32), 2
	} else {
		return false
	}
	if b == '*' || b >= 0x80 || c == '*' || c >= 0x80 {
		return false
	}
	if l == 1 && n >= 5 && byte(tail>>32) == '*' {
		if x := byte(tail >> 24); x != '*' && x < 0x80 && pp.first[x] >= pp.last[b] {
			return true
		}
	}
	return int(pp.first[b]) > int(pp.last[c])-l
}

// lacksLastOrder reports whether the pattern's last piece, of one or two
// bytes before a final '$', ending in a byte c below 0x80, cannot come
// after the byte b below 0x80 that ends the piece before it: in a match
// b occurs before the last piece starts, at most at last[c] minus the
// piece's length, so a first b beyond that rules the pattern out, as
// admits' pass from the end would after reading both pieces. It is
// tested inline after lacksLastPair, where the pieces of hostile rules
// are all in the path but in the wrong order ("/*nz*am", "/*g*h"), and
// for a last piece of one byte y after a piece of one byte, whether the
// byte x before that cannot come before y; the rules it leaves are read
// by admits.
func (pp *pathPairs) lacksLastOrder(pattern string) bool {
	n := len(pattern)
	if n > 0 && pattern[n-1] == '$' {
		n--
	}
	if n < 4 {
		return false
	}
	var b byte
	c, l := pattern[n-1], 1 // the last piece's last byte, its length
	if pattern[n-2] == '*' {
		b = pattern[n-3]
	} else if pattern[n-3] == '*' {
		b, l = pattern[n-4], 2
	} else {
		return false
	}
	if b == '*' || b >= 0x80 || c == '*' || c >= 0x80 {
		return false
	}
	if l == 1 && n >= 5 && pattern[n-4] == '*' {
		// A chain of pieces of one byte ("/*x*y*z"): x comes before y,
		// at most at last[y]-1.
		if x := pattern[n-5]; x != '*' && x < 0x80 && pp.first[x] >= pp.last[b] {
			return true
		}
	}
	// A byte >= 0x80 in the piece is three in wire form: the bound is
	// then only weaker.
	return int(pp.first[b]) > int(pp.last[c])-l
}

// admits reports whether a path with pp's bytes and pairs may match
// pattern, in wire or compact form: false only when a literal byte below
// 0x80 of the pattern, or a pair of such bytes adjacent within one of its
// pieces, is not in the path, or when its pieces cannot occur in order.
// Bytes >= 0x80 of a compact pattern stand for three bytes in wire form,
// and are not tested but as the escape's last byte. The pattern is read
// once from its end, where the rules of a hostile set differ most,
// testing its bytes, pairs and the pieces' places together: the last
// piece ends at the path's end if the pattern ends with '$', else at the
// latest where its last byte last occurs; each piece before ends at the
// latest where the next one starts, or where its own last byte last
// occurs if that is earlier, and its last byte must occur before that
// end; every piece starts within the path. Each bound only ever falls
// beyond where a match would end the piece, so a pattern that matches is
// never ruled out. A pattern that passes is read once more, from its
// start (inOrder).
func (pp *pathPairs) admits(pattern string) bool {
	i := len(pattern) - 1
	anchored := i >= 0 && pattern[i] == '$'
	if anchored {
		i--
	}
	body := pattern[:i+1] // without a final '$', for inOrder
	limit := int32(pp.n)  // the latest end of the piece read next
	for i >= 0 {
		c := uint(pattern[i])
		if c == '*' {
			anchored = false
			i--
			continue
		}
		// The piece's last byte in wire form: an escape's second digit.
		wire := int32(1)
		if c >= 0x80 {
			c, wire = uint(upperHexDigits[c&0xF]), 3
		}
		end := limit
		if anchored {
			if limit == 0 || pp.last[c] != limit-1 {
				return false
			}
			anchored = false
		} else {
			if pp.first[c] >= limit {
				return false // absent, or only after the limit
			}
			end = min(limit, pp.last[c]+1)
		}
		// The piece's other bytes, from its end: each with the one after.
		next := c
		if wire == 3 {
			next = 0x100
		}
		for i--; i >= 0; i-- {
			b := uint(pattern[i])
			if b == '*' {
				break
			}
			if b >= 0x80 {
				// A run of them (a non-ASCII word), eight at a time.
				wire += 3
				for i >= 8 && swar.Load64At(pattern, i-8)&swar.HighBits == swar.HighBits {
					wire += 24
					i -= 8
				}
				next = 0x100
				continue
			}
			wire++
			if next < 0x100 {
				if k := b<<8 | next; pp.pairs[k>>6]&(1<<(k&63)) == 0 {
					return false
				}
			} else if pp.last[b] < 0 {
				return false
			}
			next = b
		}
		if limit = end - wire; limit < 0 {
			return false
		}
	}
	return pp.inOrder(body)
}

// upperHexDigits are the digits of an escape in wire form.
const upperHexDigits = "0123456789ABCDEF"

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
			// A byte the path lacks has first n and last -1.
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
