//go:build !amd64 || purego

package engine

import "unsafe"

// vectorPlain tells whether plainBlocks runs here: not on this platform.
const vectorPlain = false

// plainBlocks is plainBlocksGo where no vector code is written; it is
// never called, since vectorPlain is false.
func plainBlocks(p *byte, n int) int { return plainBlocksGo(unsafe.String(p, n)) }
