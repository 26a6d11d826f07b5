//go:build !amd64 || purego

package parse

import "unsafe"

// vectorPass tells whether passBlocks runs here: not on this platform.
const vectorPass = false

// passBlocks is passBlocksGo where no vector code is written; it is never
// called, since vectorPass is false.
func passBlocks(p *byte, n int, letters uint64) (off, terms int, found bool) {
	return passBlocksGo(unsafe.String(p, n), letters)
}
