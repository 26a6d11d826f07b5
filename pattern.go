package robotstxt

import (
	"math/bits"
	"strings"
)

const upperHex = "0123456789ABCDEF"

// wireLen measures s up to its first NUL or '#', if any: end is where that
// part ends, n its length in wire form (see appendEscaped), and changed
// whether the wire form differs from it. A '#' starts a URL's fragment, and
// Google hands paths on as C strings, so a NUL ends them; rule values hold
// neither.
func wireLen(s string) (end, n int, changed bool) {
	i := 0
	for i+8 <= len(s) { // skip eight ordinary bytes at a time
		w := load64(s, i)
		m := w&highBits | hasZeroByte(w) | hasZeroByte(w^repeat('#')) | hasZeroByte(w^repeat('%'))
		if m != 0 {
			i += bits.TrailingZeros64(m) >> 3 // the first byte to look at
			break
		}
		i += 8
	}
	for ; i < len(s); i++ {
		if !wireClass[s[i]] {
			continue
		}
		switch c := s[i]; {
		case c == 0 || c == '#':
			return i, n + i, changed
		case c == '%':
			if i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
				if isLowerHex(s[i+1]) || isLowerHex(s[i+2]) {
					changed = true
				}
				i += 2
			}
		default: // >= 0x80
			n += 2
			changed = true
		}
	}
	return len(s), n + len(s), changed
}

// Word-at-a-time tests on eight bytes of a string (SWAR).
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// load64 returns s[i:i+8] as a little-endian word; the compiler makes it
// one load.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// repeat returns a word of eight bytes c.
func repeat(c byte) uint64 { return lowBits * uint64(c) }

// hasZeroByte is non-zero if some byte of w is zero: it sets the high bit
// of each zero byte, and may also set it in bytes above a zero byte, so the
// lowest byte it flags is always the first zero byte.
func hasZeroByte(w uint64) uint64 { return (w - lowBits) &^ w & highBits }

// wireClass marks the bytes wireLen must look at.
var wireClass = func() (t [256]bool) {
	t[0], t['#'], t['%'] = true, true, true
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return t
}()

// appendEscaped appends s in wire form to dst: every byte >= 0x80 becomes
// %XX, and the hex digits of every %xx escape are upper-cased. Nothing is
// decoded and no ASCII byte is escaped. This is Google's MaybeEscapePattern,
// applied to rule values and (by this library) to the URLs asked about.
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
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

// escapePattern returns s in wire form, without allocating when s already
// is.
func escapePattern(s string) string {
	_, n, changed := wireLen(s)
	if !changed {
		return s
	}
	return string(appendEscaped(make([]byte, 0, n), s))
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// matchPattern reports whether pattern matches path the way Google's
// RobotsMatchStrategy::Matches decides it: the pattern is anchored at the
// start of the path and need not reach its end; '*' matches any run of
// bytes; a '$' that is the pattern's last byte anchors it at the end of the
// path; every other byte, '$' included, matches itself.
//
// Google tracks the set of reachable path positions, costing
// O(len(pattern)*len(path)). Matching each literal piece between '*'s at its
// leftmost place gives the same answer: a later piece can only gain from an
// earlier piece ending as soon as possible. Each search starts where the
// previous piece ended, so the cost is that of a few substring searches.
func matchPattern(pattern, path string) bool {
	anchored := len(pattern) > 0 && pattern[len(pattern)-1] == '$'
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		if anchored {
			return path == pattern
		}
		return strings.HasPrefix(path, pattern)
	}
	if !strings.HasPrefix(path, pattern[:star]) {
		return false
	}
	path = path[star:]
	pattern = pattern[star+1:]
	for {
		star = strings.IndexByte(pattern, '*')
		if star < 0 {
			if anchored {
				return strings.HasSuffix(path, pattern)
			}
			return strings.Contains(path, pattern)
		}
		piece := pattern[:star]
		pattern = pattern[star+1:]
		if piece == "" {
			continue
		}
		i := strings.Index(path, piece)
		if i < 0 {
			return false
		}
		path = path[i+len(piece):]
	}
}
