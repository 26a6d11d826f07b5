package robotstxt

import "unsafe"

// A stringArena holds copies of the strings a Robots keeps: agents, rule
// patterns, sitemaps and fields. Parse reads the caller's bytes in place and
// copies out only these, packed into a few blocks, rather than copying the
// whole body: comments, keys, spaces and blank lines are never copied, and a
// file costs a handful of allocations instead of one per string.
//
// A block's bytes are never written once a string refers to them: keep only
// appends past the end of the current block, and starts a new block when it
// is full. The garbage collector keeps a block alive while any string in it
// is.
type stringArena struct {
	block []byte
	next  int // capacity of the next block
}

const maxArenaBlock = 64 << 10

// newStringArena returns an arena for the strings of a body of n bytes.
// They are usually well under half of it.
func newStringArena(n int) stringArena {
	return stringArena{next: min(max(n/2, 256), maxArenaBlock)}
}

// keep returns a copy of s that does not share memory with s.
func (a *stringArena) keep(s string) string {
	if s == "" {
		return ""
	}
	if len(s) > cap(a.block)-len(a.block) {
		a.block = make([]byte, 0, max(len(s), a.next))
		a.next = min(2*a.next, maxArenaBlock)
	}
	start := len(a.block)
	a.block = append(a.block, s...)
	return unsafe.String(&a.block[start], len(s))
}
