package robotstxt

import (
	"strings"
	"unsafe"
)

// Rules and paths are matched in wire form, where a byte >= 0x80 is written
// as an escape ("é" is "%C3%A9"): RFC 9309 section 2.2.2 compares octets,
// and Google's matcher escapes both sides the same way. A rule of
// non-ASCII bytes is three times as long in wire form as in the file, so a
// file of them would keep three times its size. Instead, a file whose
// rules allow it keeps them in decoded form, where each escape of a byte
// >= 0x80 is that byte again, and decodes each path the same way before
// matching. Wire form never holds a raw byte >= 0x80, so decoding loses
// nothing, and the decoded form of a rule usually is the rule as written,
// so the file keeps it once.
//
// Matching in decoded form gives the same answer only if no literal piece
// of a pattern can start or end inside an escape of the path: decodable
// tells, and a file with a rule that is not decodable is kept in wire form.

// isHighEscape reports whether s[i:] starts with the wire-form escape of a
// byte >= 0x80: '%', then 8-9 or A-F, then an upper-case hex digit.
func isHighEscape(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && highDigit(s[i+1]) && isUpperHex(s[i+2])
}

// highDigit reports whether c is the first hex digit of an escape of a
// byte >= 0x80 in wire form.
func highDigit(c byte) bool { return '8' <= c && c <= '9' || 'A' <= c && c <= 'F' }

// isUpperHex reports whether c is a digit or an upper-case hex letter, as
// the hex digits of an escape in wire form are.
func isUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

// unhex returns the value of an upper-case hex digit.
func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'A' + 10
}

// hasHighEscape reports whether s, in wire form, holds the escape of a byte
// >= 0x80.
func hasHighEscape(s string) bool {
	for i := strings.IndexByte(s, '%'); i >= 0; {
		if isHighEscape(s, i) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// decodeInPlace decodes b, in wire form, over itself and returns the length
// of its decoded form: the escapes of bytes >= 0x80 become those bytes.
func decodeInPlace(b []byte) int {
	j := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '%' && i+2 < len(b) && highDigit(b[i+1]) && isUpperHex(b[i+2]) {
			c = unhex(b[i+1])<<4 | unhex(b[i+2])
			i += 2
		}
		b[j] = c
		j++
	}
	return j
}

// highBytes counts the bytes >= 0x80 of a decoded pattern: each is three
// bytes in wire form.
func highBytes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			n++
		}
	}
	return n
}

// decodePath returns path, in wire form, in decoded form. It writes to buf,
// or to a new buffer if path is longer; path may be in buf already.
func decodePath(path string, buf *[pathBufSize]byte) string {
	out := buf[:]
	if len(path) > len(buf) {
		out = make([]byte, len(path))
	}
	n := copy(out, path) // copy allows path to be buf
	n = decodeInPlace(out[:n])
	// out is not written again while the result is in use.
	return unsafe.String(unsafe.SliceData(out), n)
}

// decodable reports whether a pattern in wire form (or decoded form, which
// gives the same answer) matches a path exactly when their decoded forms
// match. A match places each literal piece of the pattern (the bytes
// between '*'s, without a final '$') somewhere in the path; in decoded form
// an escape of the path is one byte, so a piece must not start at the
// second or third byte of one, nor end at its first or second. A piece
// other than the first, which the path's own start places, could start
// there only if it starts with an upper-case hex digit; a piece not
// anchored to the path's end could end there only if it ends with '%', or
// with '%' and 8-9 or A-F.
func decodable(pattern string) bool {
	rest, anchored := cutAnchor(pattern)
	for first := true; ; first = false {
		piece, after, more := strings.Cut(rest, "*")
		if piece != "" {
			if !first && isUpperHex(piece[0]) {
				return false
			}
			if more || !anchored {
				n := len(piece)
				if piece[n-1] == '%' || n >= 2 && piece[n-2] == '%' && highDigit(piece[n-1]) {
					return false
				}
			}
		}
		if !more {
			return true
		}
		rest = after
	}
}
