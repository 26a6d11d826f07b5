// Package pattern holds the rule-pattern primitives the lint package
// needs: the wire form of a pattern and Google's pattern match. The
// matcher in the root package has its own tuned copies (pattern.go,
// index.go), which should call these once that code settles.
package pattern

import "strings"

const upperHex = "0123456789ABCDEF"

// Escape returns s in wire form: every byte >= 0x80 becomes %XX, and the
// hex digits of every %xx escape are upper-cased. Nothing is decoded and no
// ASCII byte is escaped. This is Google's MaybeEscapePattern.
func Escape(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && IsHex(s[i+1]) && IsHex(s[i+2]):
			if b == nil && !IsLowerHex(s[i+1]) && !IsLowerHex(s[i+2]) {
				i += 2
				continue
			}
			if b == nil {
				b = append(make([]byte, 0, len(s)+16), s[:i]...)
			}
			b = append(b, '%', upper(s[i+1]), upper(s[i+2]))
			i += 2
		case c >= 0x80:
			if b == nil {
				b = append(make([]byte, 0, len(s)+16), s[:i]...)
			}
			b = append(b, '%', upperHex[c>>4], upperHex[c&0xF])
		default:
			if b != nil {
				b = append(b, c)
			}
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// IsHex reports whether c is a hexadecimal digit.
func IsHex(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }

// IsLowerHex reports whether c is a lower-case hexadecimal letter.
func IsLowerHex(c byte) bool { return strings.IndexByte("abcdef", c) >= 0 }

// upper upper-cases a hex digit.
func upper(c byte) byte {
	if IsLowerHex(c) {
		return c - 'a' + 'A'
	}
	return c
}

// LiteralPrefix returns the bytes of pattern before its first '*' or a
// final '$': every path the pattern matches starts with them.
func LiteralPrefix(pattern string) string {
	if i := strings.IndexByte(pattern, '*'); i >= 0 {
		return pattern[:i]
	}
	return strings.TrimSuffix(pattern, "$")
}

// Match reports whether pattern matches path as Google's
// RobotsMatchStrategy::Matches decides it: anchored at the start of the
// path; '*' matches any run of bytes; a final '$' anchors the end; every
// other byte matches itself. Each literal piece is found at its leftmost
// place after the previous one, which decides the same as Google's set of
// reachable positions.
func Match(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	head, rest, wild := strings.Cut(pattern, "*")
	if !strings.HasPrefix(path, head) {
		return false
	}
	path = path[len(head):]
	if !wild {
		return !anchored || path == ""
	}
	for {
		piece, more, ok := strings.Cut(rest, "*")
		if !ok {
			if anchored {
				return strings.HasSuffix(path, piece)
			}
			return strings.Contains(path, piece)
		}
		i := strings.Index(path, piece)
		if i < 0 {
			return false
		}
		path, rest = path[i+len(piece):], more
	}
}
