//go:build !amd64 || purego

package engine

import "unsafe"

// plainBlocks is plainBlocksGo where no assembly is written; it is never
// called, since swar.AVX2 is false.
func plainBlocks(p *byte, n int) int { return plainBlocksGo(unsafe.String(p, n)) }
