package swar

import (
	"math/bits"
	"strings"
	"testing"
)

// HasZeroByte's lowest flag is the first zero byte, whatever follows it
// (a zero byte may make the borrow flag the bytes above it).
func TestHasZeroByteFindsFirst(t *testing.T) {
	bytes := []byte{0, 1, 0x7F, 0x80, 0xFF, 'a'}
	var word [8]byte
	var fill func(i int)
	fill = func(i int) {
		if i == len(word) {
			s := string(word[:])
			m := HasZeroByte(Load64(s, 0))
			first := strings.IndexByte(s, 0)
			if first < 0 {
				if m != 0 {
					t.Fatalf("%q: no zero byte, HasZeroByte = %#x", s, m)
				}
				return
			}
			if got := bits.TrailingZeros64(m) >> 3; got != first {
				t.Fatalf("%q: HasZeroByte flags byte %d first, want %d", s, got, first)
			}
			return
		}
		for _, c := range bytes {
			word[i] = c
			fill(i + 1)
		}
	}
	fill(0)
}

// HasLess's lowest flag is the first byte below n, for every n up to 0x80
// and every word of the bytes around the bounds.
func TestHasLessFindsFirst(t *testing.T) {
	for _, n := range []byte{1, 0x26, 0x41, 0x7F, 0x80} {
		bytes := []byte{0, n - 1, n, 0x7F, 0xFF}
		var word [8]byte
		var fill func(i int)
		fill = func(i int) {
			if i == len(word) {
				s := string(word[:])
				m := HasLess(Load64(s, 0), n)
				first := -1
				for j := range word {
					if word[j] < n {
						first = j
						break
					}
				}
				if first < 0 {
					if m != 0 {
						t.Fatalf("%q: no byte below %#x, HasLess = %#x", s, n, m)
					}
					return
				}
				if got := bits.TrailingZeros64(m) >> 3; got != first {
					t.Fatalf("%q: HasLess(%#x) flags byte %d first, want %d", s, n, got, first)
				}
				return
			}
			for _, c := range bytes {
				word[i] = c
				fill(i + 1)
			}
		}
		fill(0)
	}
}

func TestLoad64LittleEndian(t *testing.T) {
	if got, want := Load64("xabcdefgh", 1), uint64(0x6867666564636261); got != want {
		t.Errorf("Load64 = %#x, want %#x", got, want)
	}
	if got, want := Repeat('/'), uint64(0x2F2F2F2F2F2F2F2F); got != want {
		t.Errorf("Repeat('/') = %#x, want %#x", got, want)
	}
}

// LoadTail gives the bytes from i on, as Load64 would with zero padding,
// for every tail of strings of 8 to 15 bytes.
func TestLoadTail(t *testing.T) {
	const s = "0123456789abcde"
	for n := 8; n <= len(s); n++ {
		for i := n - 7; i < n; i++ {
			var padded [8]byte
			copy(padded[:], s[i:n])
			if got, want := LoadTail(s[:n], i), Load64(string(padded[:]), 0); got != want {
				t.Errorf("LoadTail(%q, %d) = %#x, want %#x", s[:n], i, got, want)
			}
		}
	}
}

// Load64At reads the word Load64 reads at every offset of a string.
func TestLoad64AtMatchesLoad64(t *testing.T) {
	s := "\x00\x01\x7F\x80\xFFabcdefghijklmnop\r\n#:%"
	for i := 0; i+8 <= len(s); i++ {
		if got, want := Load64At(s, i), Load64(s, i); got != want {
			t.Errorf("Load64At(s, %d) = %#x, want %#x", i, got, want)
		}
	}
}

// TestOffset checks that Offset finds a span of a string, at every start
// and length, and rejects a string elsewhere in memory, one that runs past
// the end, and one wholly before or after.
func TestOffset(t *testing.T) {
	whole := strings.Repeat("0123456789", 4)
	s := whole[5:25]
	for i := 0; i <= len(s); i++ {
		for j := i; j <= len(s); j++ {
			if got, ok := Offset(s, s[i:j]); j > i && (!ok || got != i) {
				t.Errorf("Offset(s, s[%d:%d]) = %d, %v; want %d, true", i, j, got, ok, i)
			}
		}
	}
	for _, sub := range []string{strings.Clone(s[2:6]), whole[:5], whole[25:], whole[3:8], whole[20:30], whole} {
		if off, ok := Offset(s, sub); ok {
			t.Errorf("Offset(s, %q) = %d, true; want false: not a span of s", sub, off)
		}
	}
}
