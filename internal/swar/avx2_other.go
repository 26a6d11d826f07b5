//go:build !amd64 || purego

package swar

// AVX2 tells whether the module's loops of AVX2 assembly run here: not
// on this platform, or with -tags purego; their Go twins run.
const AVX2 = false
