package engine

import (
	"math/bits"
	"strings"
	"sync"

	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// Rules are matched in wire form, where a byte >= 0x80 is written as an
// escape ("é" is "%C3%A9"): RFC 9309 section 2.2.2 compares octets, and
// Google's matcher escapes rules and paths the same way. A rule of
// non-ASCII bytes is three times as long in wire form as in the file, so
// a file of them would keep three times its size. Such a rule is kept in
// compact form instead: its wire form with each escape of a byte >= 0x80
// written as that byte again. Wire form never holds a raw byte >= 0x80, so
// nothing is lost, and the compact form of a rule is usually the rule as
// written, kept once. The matcher expands a compact pattern to wire form
// where it needs the bytes (see matchCompact and wireBuffer), and compares
// a compact literal prefix with a path directly (see compareWire).

// highDigit reports whether c is the first hex digit of the escape of a
// byte >= 0x80 in wire form.
func highDigit(c byte) bool { return '8' <= c && c <= '9' || 'A' <= c && c <= 'F' }

// highEscapes counts the escapes of bytes >= 0x80 in s, in wire form.
func highEscapes(s string) int {
	n := 0
	for i := strings.IndexByte(s, '%'); i >= 0 && i+2 < len(s); {
		if highDigit(s[i+1]) && pattern.IsUpperHex(s[i+2]) {
			n++
			i += 2
		}
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return n
}

// compactInPlace brings b, in wire form, to compact form over itself and
// returns its new length.
func compactInPlace(b []byte) int {
	j := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '%' && i+2 < len(b) && highDigit(b[i+1]) && pattern.IsUpperHex(b[i+2]) {
			c = pattern.Unhex(b[i+1])<<4 | pattern.Unhex(b[i+2])
			i += 2
		}
		b[j] = c
		j++
	}
	return j
}

// highBytes counts the bytes >= 0x80 of s: each is three bytes in wire
// form.
func highBytes(s string) int {
	n, i := 0, 0
	for ; i+8 <= len(s); i += 8 {
		n += bits.OnesCount64(swar.Load64(s, i) & swar.HighBits)
	}
	for ; i < len(s); i++ {
		if s[i] >= 0x80 {
			n++
		}
	}
	return n
}

// compactWireLen returns the length in wire form of the compact pattern
// s.
func compactWireLen(s string) int { return len(s) + 2*highBytes(s) }

// firstHigh returns the index of the first byte >= 0x80 of s, or len(s),
// reading eight bytes at a time.
func firstHigh(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if w := swar.Load64(s, i) & swar.HighBits; w != 0 {
			return i + bits.TrailingZeros64(w)>>3 // little-endian: the first byte is the lowest
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= 0x80 {
			return i
		}
	}
	return len(s)
}

// appendWire appends the wire form of the compact pattern s to dst.
func appendWire(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			dst = append(dst, '%', pattern.UpperHex(c>>4), pattern.UpperHex(c))
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// wireByte returns byte i of the wire form of a byte c of a compact
// pattern, where i is 0 for an ASCII byte and 0 to 2 for another.
func wireByte(c byte, i int) byte {
	switch {
	case c < 0x80:
		return c
	case i == 0:
		return '%'
	case i == 1:
		return pattern.UpperHex(c >> 4)
	}
	return pattern.UpperHex(c)
}

// compareWire compares the first n bytes of the wire form of the compact
// pattern s with path, as strings.Compare would; n never ends inside an
// escape.
func compareWire(s string, n int, path string) int {
	k, b := wireMismatch(s, n, path)
	switch {
	case k == n: // all n bytes start path
		if n < len(path) {
			return -1
		}
		return 0
	case k == len(path) || b > path[k]:
		return 1
	}
	return -1
}

// commonWirePrefix returns how many of the first n bytes of the wire form
// of the compact pattern s start path.
func commonWirePrefix(s string, n int, path string) int {
	k, _ := wireMismatch(s, n, path)
	return k
}

// wireMismatch returns how many of the first n bytes of the wire form of
// the compact pattern s start path, and, when that is fewer than n, the
// byte of the wire form that differs (or that path lacks).
func wireMismatch(s string, n int, path string) (k int, b byte) {
	for i := 0; k < n; i++ {
		c, w := s[i], 1
		if c >= 0x80 {
			w = 3
		}
		for j := 0; j < w; j, k = j+1, k+1 {
			if b = wireByte(c, j); k == len(path) || b != path[k] {
				return k, b
			}
		}
	}
	return k, 0
}

// hasWirePrefix reports whether path starts with the wire form of the
// compact pattern s, which has no wildcard.
func hasWirePrefix(s, path string) bool {
	n := compactWireLen(s)
	return len(path) >= n && commonWirePrefix(s, n, path) == n
}

// smallWire is the longest wire form matchCompact expands on the stack.
const smallWire = 256

// matchCompact reports whether the compact pattern s, with wildcards,
// matches path.
func matchCompact(s, path string) bool {
	if compactWireLen(s) <= smallWire {
		var buf [smallWire]byte
		w := appendWire(buf[:0], s)
		return matchPattern(swar.String(w), path)
	}
	wb := getWireBuffer()
	ok := matchPattern(wb.expand(s), path)
	wb.release()
	return ok
}

// A wireBuffer holds the wire form of one compact pattern at a time, for
// the matcher to read. The buffers are pooled, so that matching allocates
// nothing once warm.
type wireBuffer struct{ b []byte }

var wireBuffers = sync.Pool{New: func() any { return new(wireBuffer) }}

func getWireBuffer() *wireBuffer { return wireBuffers.Get().(*wireBuffer) }

// maxPooledWire bounds the buffers kept in the pool.
const maxPooledWire = 64 << 10

// expand returns the wire form of the compact pattern s, valid until the
// next expand or release.
func (wb *wireBuffer) expand(s string) string {
	wb.b = appendWire(wb.b[:0], s)
	return swar.String(wb.b)
}

func (wb *wireBuffer) release() {
	if cap(wb.b) <= maxPooledWire {
		wireBuffers.Put(wb)
	}
}
