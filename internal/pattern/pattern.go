// Package pattern is the one implementation of robots.txt rule patterns,
// used by the matcher of the root package and by package lint: the wire
// form that rule values and URLs are compared in, and Google's pattern
// match (RFC 9309 section 2.2.3 for '*' and '$').
package pattern

import (
	"math/bits"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

const upperHex = "0123456789ABCDEF"

// WireLen measures s up to its first NUL or '#', if any: end is where that
// part ends, n its length in wire form (see AppendEscaped), and changed
// whether the wire form differs from it. A '#' starts a URL's fragment, and
// Google hands paths on as C strings, so a NUL ends them; rule values hold
// neither.
func WireLen(s string) (end, n int, changed bool) {
	for i := 0; ; i++ {
		if i = nextToCheck(s, i); i == len(s) {
			return len(s), n + len(s), changed
		}
		switch c := s[i]; {
		case c == 0 || c == '#':
			return i, n + i, changed
		case c == '%':
			// Escapes come in runs in the paths of other scripts
			// ("%E0%B8%82..."): a run is read here, not an escape a
			// call of nextToCheck (a third of a Thai site's scoped pass).
			j := i
			for j+2 < len(s) && s[j] == '%' && IsHex(s[j+1]) && IsHex(s[j+2]) {
				if IsLowerHex(s[j+1]) || IsLowerHex(s[j+2]) {
					changed = true
				}
				j += 3
			}
			if j > i {
				i = j - 1 // the loop goes on from the byte after the run
			}
		case c >= 0x80:
			n += 2
			changed = true
		}
	}
}

// nextToCheck returns the index of the first byte of s at or after i that
// WireLen must look at, or len(s). It looks eight bytes at a time for a
// byte below '&' (NUL, '#' and '%' are, and few others in a URL) or >=
// 0x80.
func nextToCheck(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := toCheck(swar.Load64(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if i == len(s) {
		return i
	}
	if len(s) >= 8 {
		// The zero bytes above the tail are flagged, past the end.
		return min(len(s), i+bits.TrailingZeros64(toCheck(swar.LoadTail(s, i)))>>3)
	}
	for ; i < len(s) && s[i] >= '&' && s[i] < 0x80; i++ {
	}
	return i
}

// toCheck flags the bytes of w below '&' or >= 0x80; the lowest flag is
// the first such byte.
func toCheck(w uint64) uint64 { return swar.HasLess(w, '%'+1) | w&swar.HighBits }

// AppendEscaped appends s in wire form to dst: every byte >= 0x80 becomes
// %XX, and the hex digits of every %xx escape are upper-cased. Nothing is
// decoded and no ASCII byte is escaped. This is Google's MaybeEscapePattern,
// applied to rule values and (by this library) to the URLs asked about.
func AppendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && IsHex(s[i+1]) && IsHex(s[i+2]):
			dst = append(dst, '%', upperASCII(s[i+1]), upperASCII(s[i+2]))
			i += 2
		case c >= 0x80:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&0xF])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// Escape returns s in wire form (see AppendEscaped), without allocating
// when s already is.
func Escape(s string) string {
	n, changed := 0, false
	for rest := s; ; { // WireLen stops at a NUL or '#', which rule values lack
		end, m, c := WireLen(rest)
		n, changed = n+m, changed || c
		if end == len(rest) {
			break
		}
		n++
		rest = rest[end+1:]
	}
	if !changed {
		return s
	}
	return string(AppendEscaped(make([]byte, 0, n), s))
}

// IsHex reports whether c is a hexadecimal digit.
func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// IsUpperHex reports whether c is a digit or an upper-case hex letter, as
// the hex digits of an escape in wire form are.
func IsUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

// Unhex returns the value of an upper-case hex digit.
func Unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'A' + 10
}

// UpperHex returns the upper-case hex digit of the low four bits of c.
func UpperHex(c byte) byte { return upperHex[c&15] }

// IsLowerHex reports whether c is a lower-case hexadecimal letter.
func IsLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
