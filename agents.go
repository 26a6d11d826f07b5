package robotstxt

import (
	"math/bits"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// Every query names an agent, and Google compares it with the product
// token of each user-agent line, ignoring ASCII case. A file's tokens are
// found through a small hash table of their lower-cased forms: a hash of
// the agent and, most often, one probe, where a binary search took a
// comparison and a mispredicted branch per step.

// Robots.slots holds, in open addressing, 1 + the index of each token in
// Robots.tokens in the low bits (those of Robots.tokenMask), and the high
// bits of the token's foldHash above them, which skip the other tokens
// without reading them; 0 is an empty slot.

// foldHash hashes s lower-cased (ASCII letters only), so that the names
// equalFold finds equal hash alike.
func foldHash(s string) uint64 {
	const m = 0x9E3779B97F4A7C15
	h := uint64(len(s)) * m
	i := 0
	for ; i+8 <= len(s); i += 8 {
		h = (h ^ lowerWord(swar.Load64(s, i))) * m
		h ^= h >> 29
	}
	if i < len(s) {
		var w uint64
		switch {
		case len(s) >= 8:
			w = swar.Load64(s, len(s)-8) // the last 8 bytes, read again in part
		case len(s) >= 4:
			w = shortWord(s)
		default:
			for j := len(s) - 1; j >= 0; j-- {
				w = w<<8 | uint64(s[j])
			}
		}
		h = (h ^ lowerWord(w)) * m
		h ^= h >> 29
	}
	return h
}

// shortWord packs s, of 4 to 7 bytes, into a word: its first four bytes
// and its last four, which overlap. Strings of one length differ exactly
// where their words do.
func shortWord(s string) uint64 { return load32(s, 0) | load32(s, len(s)-4)<<32 }

// load32 returns s[i:i+4] as a little-endian number; the compiler makes it
// one load.
func load32(s string, i int) uint64 {
	s = s[i : i+4]
	return uint64(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}

// equalFold reports whether a lower-case token equals s lower-cased (ASCII
// letters only).
func equalFold(token, s string) bool {
	if len(token) != len(s) {
		return false
	}
	n := len(s)
	switch {
	case n >= 8:
		for i := 0; i+8 <= n; i += 8 { // agent names are often longer than eight bytes
			if swar.Load64(token, i) != lowerWord(swar.Load64(s, i)) {
				return false
			}
		}
		// The last 8 bytes, read again in part.
		return n%8 == 0 || swar.Load64(token, n-8) == lowerWord(swar.Load64(s, n-8))
	case n >= 4:
		return shortWord(token) == lowerWord(shortWord(s))
	}
	for i := 0; i < n; i++ {
		if token[i] != lowerASCII(s[i]) {
			return false
		}
	}
	return true
}

// indexTokens builds r.slots for r.tokens, which are distinct: at most half
// the slots are full, so that probes stay short.
func (r *Robots) indexTokens() {
	if len(r.tokens) == 0 {
		return
	}
	r.slots = make([]uint32, 1<<bits.Len(uint(2*len(r.tokens)-1)))
	r.tokenMask = 1<<bits.Len(uint(len(r.tokens))) - 1
	mask := uint64(len(r.slots) - 1)
	for t := range r.tokens {
		h := foldHash(r.tokens[t].name)
		i := h & mask
		for r.slots[i] != 0 {
			i = (i + 1) & mask
		}
		r.slots[i] = uint32(h>>32)&^r.tokenMask | uint32(t+1)
	}
}

// findToken returns the token of the file that agent names, or nil.
func (r *Robots) findToken(agent string) *agentToken {
	if len(r.slots) == 0 {
		return nil
	}
	h := foldHash(agent)
	tag, mask := uint32(h>>32)&^r.tokenMask, uint64(len(r.slots)-1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := r.slots[i]
		if s == 0 {
			return nil
		}
		if s&^r.tokenMask == tag {
			if t := &r.tokens[s&r.tokenMask-1]; equalFold(t.name, agent) {
				return t
			}
		}
	}
}
