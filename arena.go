package robotstxt

import "strings"

// A stringArena holds copies of the strings a Robots keeps: agents, rule
// patterns, sitemaps and fields. Parse reads the caller's bytes in place and
// copies out only these, packed into a few blocks, rather than copying the
// whole body: comments, keys, spaces and blank lines are never copied, and a
// file costs a handful of allocations instead of one per string.
//
// Each block is a strings.Builder grown once to its full size, so it is
// never moved and the strings cut from it stay valid; Grow does not zero
// the memory, which a make([]byte) block would.
type stringArena struct {
	block strings.Builder
	size  int // bytes of the body
	left  int // bytes of the body not yet read, kept up to date by the caller
	kept  int // bytes kept so far
}

const maxArenaBlock = 64 << 10

// init prepares the arena for the strings of a body of n bytes.
func (a *stringArena) init(n int) {
	a.size, a.left = n, n
}

// keep returns a copy of s that does not share memory with s.
func (a *stringArena) keep(s string) string { return a.keepJoin(s, "") }

// keepLower returns a copy of s with ASCII letters lower-cased.
func (a *stringArena) keepLower(s string) string {
	start := a.open(len(s))
	for i := 0; i < len(s); i++ {
		a.block.WriteByte(lowerASCII(s[i]))
	}
	return a.cut(start)
}

// keepEscaped returns s in wire form (see appendEscaped): s itself when
// that is the same, otherwise a copy in the arena.
func (a *stringArena) keepEscaped(s string) string {
	_, n, changed := wireLen(s)
	if !changed {
		return s
	}
	var scratch [256]byte
	buf := scratch[:0]
	if n > len(scratch) {
		buf = make([]byte, 0, n)
	}
	buf = appendEscaped(buf, s)
	start := a.open(len(buf))
	a.block.Write(buf)
	return a.cut(start)
}

// keepJoin returns a copy of s+t.
func (a *stringArena) keepJoin(s, t string) string {
	start := a.open(len(s) + len(t))
	a.block.WriteString(s)
	a.block.WriteString(t)
	return a.cut(start)
}

// open makes room for a string of n bytes about to be written to the
// current block, and returns where it starts.
func (a *stringArena) open(n int) int {
	a.reserve(n)
	a.kept += n
	return a.block.Len()
}

// cut returns what was written to the current block since start.
func (a *stringArena) cut(start int) string {
	return a.block.String()[start:]
}

// reserve makes room for n more bytes in the current block, starting a new
// block when it is full. A block is never grown in place: that would move
// the strings already cut from it.
func (a *stringArena) reserve(n int) {
	if n > a.block.Cap()-a.block.Len() {
		a.block = strings.Builder{}
		a.block.Grow(min(max(n, a.nextBlock()), max(n, maxArenaBlock)))
	}
}

// nextBlock estimates the room the rest of the body needs: a typical file
// keeps a third to a half of its bytes, and the part read so far tells
// which.
func (a *stringArena) nextBlock() int {
	read := a.size - a.left
	if read < 1024 {
		return a.size/2 + 64
	}
	return int(int64(a.left)*int64(a.kept)/int64(read)) + 128
}
