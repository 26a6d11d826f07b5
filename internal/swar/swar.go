// Package swar holds the word-at-a-time loads and tests on eight bytes of a
// string (SIMD within a register) that the tokenizer, the matcher's engine
// and the wire-form measure of package pattern share, and, in view.go, the
// module's only unchecked views of memory.
package swar

// LowBits and HighBits are the lowest and the highest bit of each byte of a
// word.
const (
	LowBits  = 0x0101010101010101
	HighBits = 0x8080808080808080
)

// Load64 returns s[i:i+8] as a little-endian word; the compiler makes it
// one load.
func Load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// LoadTail returns s[i:], fewer than eight bytes of a string of at least
// eight, as a little-endian word with zero bytes above: one load of the
// last eight bytes, those before i shifted out.
func LoadTail(s string, i int) uint64 {
	return Load64(s, len(s)-8) >> (8 * uint(8-(len(s)-i)))
}

// Repeat returns a word of eight bytes c.
func Repeat(c byte) uint64 { return LowBits * uint64(c) }

// HasZeroByte is non-zero if some byte of w is zero: it sets the high bit
// of each zero byte, and may also set it in bytes above a zero byte, so the
// lowest byte it flags is always the first zero byte.
func HasZeroByte(w uint64) uint64 { return ZeroFlags(w) & HighBits }

// ZeroFlags is HasZeroByte before its mask: its high bits are
// HasZeroByte's, and its other bits are noise. A test that ORs several
// flags masks them once, with HighBits, at the end.
func ZeroFlags(w uint64) uint64 { return (w - LowBits) &^ w }

// HasLess is non-zero if some byte of w is below n, which must be at most
// 0x80: it sets the high bit of each such byte, and may also set it in
// bytes above one, so the lowest byte it flags is always the first byte
// below n. Bytes >= 0x80 are never flagged.
func HasLess(w uint64, n byte) uint64 { return LessFlags(w, Repeat(n)) & HighBits }

// LessFlags is HasLess before its mask, as ZeroFlags is HasZeroByte's,
// for the bound n given as a repeated word (Repeat(n)).
func LessFlags(w, repeated uint64) uint64 { return (w - repeated) &^ w }

// Load32 returns s[i:i+4] as a little-endian number; the compiler makes it
// one load.
func Load32(s string, i int) uint64 {
	s = s[i : i+4]
	return uint64(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}

// LoadShort packs s, of 4 to 7 bytes, into a word: its first four bytes
// and its last four, which overlap. Strings of one length differ exactly
// where their words do.
func LoadShort(s string) uint64 { return Load32(s, 0) | Load32(s, len(s)-4)<<32 }

// Load64BE returns the first 8 bytes of s, which must have as many, as a
// big-endian word: compared as numbers, two such words order their bytes
// as strings.Compare does. The compiler makes it one load and a byte swap.
func Load64BE(s string) uint64 {
	s = s[:8]
	return uint64(s[7]) | uint64(s[6])<<8 | uint64(s[5])<<16 | uint64(s[4])<<24 |
		uint64(s[3])<<32 | uint64(s[2])<<40 | uint64(s[1])<<48 | uint64(s[0])<<56
}

// Lower lower-cases the ASCII letters among the eight bytes of w, as
// parse.LowerASCII does each byte.
func Lower(w uint64) uint64 {
	low7 := w &^ HighBits
	atLeastA := low7 + Repeat(0x80-'A')         // high bit set where the byte is >= 'A'
	aboveZ := low7 + Repeat(0x80-'Z'-1)         // high bit set where the byte is > 'Z'
	upper := atLeastA &^ aboveZ &^ w & HighBits // and below 0x80
	return w | upper>>2                         // 0x80>>2 is 0x20, the case bit
}
