package engine

import (
	"math/bits"
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// The keys a rule set compares first: a pattern's or a path's first 8
// or 16 bytes packed into integers, and the signature of the bytes a
// pattern requires.

// byteSignature returns a 32-bit summary of the bytes of s: a pattern can
// match a path only if its signature is covered by the path's.
func byteSignature(s string) uint32 {
	var sig uint32
	for i := 0; i < len(s); i++ {
		sig |= signatureOf[s[i]] // a load where signatureBit takes four steps
	}
	return sig
}

// signatureOf holds the signatureBit of every byte.
var signatureOf = func() (t [256]uint32) {
	for c := range t {
		t[c] = signatureBit(byte(c))
	}
	return t
}()

// signatureBit is the bit of c in a byteSignature. Folding the bits above
// the fifth in keeps each letter apart from its other case.
func signatureBit(c byte) uint32 { return 1 << ((c ^ c>>5) & 31) }

// requiredBytes is the signature of the literal bytes a pattern requires.
func requiredBytes(pattern string) uint32 {
	pattern = strings.TrimSuffix(pattern, "$")
	var sig uint32
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '*' {
			sig |= signatureBit(pattern[i])
		}
	}
	return sig
}

// prefixKey packs the first 8 bytes of s, big-endian and padded with
// zeros. When the keys of two strings differ they order the strings as
// strings.Compare does; when they are equal, the strings must be compared.
func prefixKey(s string) uint64 {
	if len(s) >= 8 {
		return swar.Load64BEAt(s, 0) // s has the 8 bytes: inlined, with no check
	}
	return shortPrefixKey(s)
}

// shortPrefixKey is prefixKey for strings shorter than 8 bytes.
func shortPrefixKey(s string) uint64 {
	var k uint64
	for i := 0; i < 8; i++ {
		k <<= 8
		if i < len(s) {
			k |= uint64(s[i])
		}
	}
	return k
}

// keyPair returns the prefixKey of the first 8 bytes of s and of the next
// 8. Compared in turn, the two order strings as strings.Compare does
// wherever they differ: prefix families such as "/product/1", "/product/2"
// share their first 8 bytes.
func keyPair(s string) [2]uint64 {
	switch {
	case len(s) >= 16:
		return [2]uint64{prefixKey(s), prefixKey(s[8:])}
	case len(s) > 8:
		// The bytes after the eighth, loaded with those before them, which
		// are shifted out: one load, not a byte at a time.
		return [2]uint64{prefixKey(s), prefixKey(s[len(s)-8:]) << (8 * (16 - len(s)))}
	}
	return [2]uint64{prefixKey(s), 0}
}

// commonPrefixLen returns how many bytes a and b share at their start,
// comparing eight at a time.
func commonPrefixLen(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := swar.Load64(a, i) ^ swar.Load64(b, i); x != 0 {
			return i + bits.TrailingZeros64(x)>>3 // little-endian: the first byte is the lowest
		}
	}
	if i < n && n >= 8 {
		x := swar.LoadTail(a[:n], i) ^ swar.LoadTail(b[:n], i)
		if x == 0 {
			return n
		}
		return i + bits.TrailingZeros64(x)>>3
	}
	for ; i < n && a[i] == b[i]; i++ {
	}
	return i
}
