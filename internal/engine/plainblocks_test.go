package engine

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// plainBlocks, the assembly where it is written, gives plainBlocksGo's
// answer on random strings of every length up to a few blocks, of bytes
// drawn from the plain ones and every other value.
func TestPlainBlocksMatchesGo(t *testing.T) {
	if !swar.AVX2 {
		t.Skip("plainBlocks is not written for this CPU: plainPrefix reads eight bytes at a time")
	}
	rng := rand.New(rand.NewPCG(31, 32))
	buf := make([]byte, 128)
	for i := 0; i < 50000; i++ {
		n := rng.IntN(len(buf))
		for j := 0; j < n; j++ {
			if rng.IntN(40) == 0 {
				buf[j] = byte(rng.IntN(256)) // most often a byte that is not plain
			} else {
				buf[j] = byte(0x21 + rng.IntN(0x7E-0x21+1)) // "#$%*" among them
			}
		}
		s := string(buf[:n])
		if n == 0 {
			continue
		}
		if got, want := plainBlocks(unsafe.StringData(s), len(s)), plainBlocksGo(s); got != want {
			t.Fatalf("plainBlocks(%q) = %d, want %d", s, got, want)
		}
	}
}
