//go:build !purego

package engine

// plainBlocks is written in assembly (plainblocks_amd64.s), run where
// swar.AVX2; see plainBlocksGo for its contract.
//
//go:noescape
func plainBlocks(p *byte, n int) int
