// Package swar holds word-at-a-time tests on eight bytes of a string (SIMD
// within a register), shared by the URL scan of the matcher and the
// wire-form measure of package pattern.
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
func HasZeroByte(w uint64) uint64 { return (w - LowBits) &^ w & HighBits }

// HasLess is non-zero if some byte of w is below n, which must be at most
// 0x80: it sets the high bit of each such byte, and may also set it in
// bytes above one, so the lowest byte it flags is always the first byte
// below n. Bytes >= 0x80 are never flagged.
func HasLess(w uint64, n byte) uint64 { return (w - Repeat(n)) &^ w & HighBits }
