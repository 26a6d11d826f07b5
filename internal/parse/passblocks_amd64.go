//go:build !purego

package parse

// passBlocks is written in assembly (passblocks_amd64.s), run where
// swar.AVX2; see passBlocksGo for its contract.
//
//go:noescape
func passBlocks(p *byte, n int, letters uint64) (off, terms int, found bool)
