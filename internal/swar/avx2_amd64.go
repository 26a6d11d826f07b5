//go:build !purego

package swar

import "golang.org/x/sys/cpu"

// AVX2 tells whether the module's loops of AVX2 assembly run here (the
// tokenizer's pass over lines, the check of simple rule values): on amd64
// with AVX2 (and POPCNT, which every CPU with AVX2 has), unless built
// with -tags purego. Elsewhere their Go twins run.
var AVX2 = cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT
