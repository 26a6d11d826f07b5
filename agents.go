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
		if len(s) >= 8 {
			w = lowerWord(swar.Load64(s, len(s)-8)) // the last 8 bytes, read again in part
		} else {
			for j := len(s) - 1; j >= 0; j-- {
				w = w<<8 | uint64(lowerASCII(s[j]))
			}
		}
		h = (h ^ w) * m
		h ^= h >> 29
	}
	return h
}

// equalFold reports whether a lower-case token equals s lower-cased (ASCII
// letters only).
func equalFold(token, s string) bool {
	if len(token) != len(s) {
		return false
	}
	i := 0
	for ; i+8 <= len(s); i += 8 { // agent names are often longer than eight bytes
		if swar.Load64(token, i) != lowerWord(swar.Load64(s, i)) {
			return false
		}
	}
	for ; i < len(s); i++ {
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
