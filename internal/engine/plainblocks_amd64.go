//go:build !purego

package engine

import "golang.org/x/sys/cpu"

// vectorPlain tells whether plainBlocks runs here: it needs AVX2.
var vectorPlain = cpu.X86.HasAVX2

// plainBlocks is written in assembly (plainblocks_amd64.s); see
// plainBlocksGo for its contract.
//
//go:noescape
func plainBlocks(p *byte, n int) int
