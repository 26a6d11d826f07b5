package engine

import (
	"math/bits"
	"unsafe"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// The simple values of disallow lines, checked 32 bytes at a time where
// the CPU can (plainBlocks, AVX2 assembly in plainblocks_amd64.s), else
// eight at a time, with plainBlocksGo as their slow twin.

// plainPrefix returns how many of the first bytes of s are plain pattern
// bytes (see plainPatternByte): a byte below 0x21 or above 0x7E, or one of
// "*$%#", ends them. It reads 32 bytes at a time where the CPU can
// (plainBlocks, AVX2), then eight at a time.
func plainPrefix(s string) int {
	i := 0
	if swar.AVX2 && len(s) >= 32 {
		// Whole blocks of 32 bytes first, then words from where they end.
		if i = plainBlocks(unsafe.StringData(s), len(s)); i < len(s) && !plainPatternByte[s[i]] {
			return i
		}
	}
	for ; i+8 <= len(s); i += 8 {
		w := swar.Load64(s, i)
		// Each test is exact in every byte (no carry crosses a byte:
		// m's bytes are at most 0x7F, each sum's at most 0xDE): the
		// flags of bytes >= 0x80, below 0x21, 0x7F, "#$%" and '*'.
		m := w &^ swar.HighBits
		stop := (w | ^(m + 0x5F*swar.LowBits) | (m + 0x01*swar.LowBits) |
			(m+0x5D*swar.LowBits)&^(m+0x5A*swar.LowBits) | (m+0x56*swar.LowBits)&^(m+0x55*swar.LowBits)) & swar.HighBits
		if stop != 0 {
			return i + bits.TrailingZeros64(stop)/8
		}
	}
	for i < len(s) && plainPatternByte[s[i]] {
		i++
	}
	return i
}

// plainBlocksGo is what plainBlocks computes, written plainly: the index
// of the first byte of s that is not a plain pattern byte, within whole
// blocks of 32 bytes, or the bytes of the whole blocks when all are. It is
// the slow twin the tests compare plainBlocks with.
func plainBlocksGo(s string) int {
	whole := len(s) &^ 31
	for i := 0; i < whole; i++ {
		if !plainPatternByte[s[i]] {
			return i
		}
	}
	return whole
}
