//go:build !purego

package parse

import "golang.org/x/sys/cpu"

// vectorPass tells whether passBlocks runs here: it needs AVX2 (and
// POPCNT, which every CPU with AVX2 has).
var vectorPass = cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT

// passBlocks is written in assembly (passblocks_amd64.s); see
// passBlocksGo for its contract.
//
//go:noescape
func passBlocks(p *byte, n int, letters uint64) (off, terms int, found bool)
