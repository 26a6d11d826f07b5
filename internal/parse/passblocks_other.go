//go:build !amd64 || purego

package parse

import "unsafe"

// passBlocks is passBlocksGo where no assembly is written; it is never
// called, since swar.AVX2 is false.
func passBlocks(p *byte, n int, letters uint64) (off, terms int, found bool) {
	return passBlocksGo(unsafe.String(p, n), letters)
}
