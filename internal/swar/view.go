package swar

import (
	"encoding/binary"
	"unsafe"
)

// The views below skip a copy or a bounds check where the caller has
// proved them needless; they are the only uses of package unsafe outside
// tests, so that each such proof is made at a call of one of them.

// Offset returns where sub starts in s and true when sub's bytes are a
// span of s's (as the tokenizer's values are of the file), and false
// otherwise.
func Offset(s, sub string) (int, bool) {
	base := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	p := uintptr(unsafe.Pointer(unsafe.StringData(sub)))
	if p < base || p-base > uintptr(len(s)-len(sub)) || len(sub) > len(s) {
		return 0, false
	}
	return int(p - base), true
}

// OffsetWithin returns where sub is in s, without checking that it is
// there, which the caller guarantees: sub is a non-empty substring of s.
func OffsetWithin(s, sub string) int {
	return int(uintptr(unsafe.Pointer(unsafe.StringData(sub))) - uintptr(unsafe.Pointer(unsafe.StringData(s))))
}

// Extend returns s with the n bytes that follow it in memory. The caller
// must have allocated them with s (as padding) and not write to them.
func Extend(s string, n int) string { return unsafe.String(unsafe.StringData(s), len(s)+n) }

// String returns the bytes of b as a string, without copying. The caller
// must not write to b while the string is in use.
func String(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Span returns s[off:off+n] without checking the bounds, which the caller
// guarantees.
func Span(s string, off, n uint32) string {
	if n == 0 {
		return ""
	}
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), off)), n)
}

// Load64BEAt returns the 8 bytes of s at off as Load64BE does, without
// checking the bounds, which the caller guarantees (by padding s).
func Load64BEAt(s string, off uint32) uint64 {
	// Through an array pointer, as Load64At: unsafe.Slice would check
	// that the 8 bytes do not wrap around the address space.
	return binary.BigEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), off))[:])
}

// Int32Bytes returns the bytes of s, in memory order, as a string, without
// copying: for hashing a list of numbers. The caller must not write to s
// while the string is in use.
func Int32Bytes(s []int32) string {
	return unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*4)
}

// Load64At returns s[i:i+8] as Load64 does, without checking the bounds,
// which the caller guarantees (0 <= i <= len(s)-8): for loops that read a
// string a word at a time, where the checks cost more than the word's test.
func Load64At(s string, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))[:])
}
