package engine

import (
	"math/bits"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// Every query names an agent, and Google compares it with the product
// token of each user-agent line, ignoring ASCII case. A file's tokens are
// found through a small hash table of their lower-cased forms: a hash of
// the agent and, most often, one probe, where a binary search took a
// comparison and a mispredicted branch per step.

// File.slots holds, in open addressing, 1 + the index of each token in
// File.tokens in the low bits (those of File.tokenMask), and the high
// bits of the token's foldHash above them, which skip the other tokens
// without reading them; 0 is an empty slot.

// foldHash hashes s lower-cased (ASCII letters only), so that the names
// equalFold finds equal hash alike.
func foldHash(s string) uint64 {
	const m = 0x9E3779B97F4A7C15
	h := uint64(len(s)) * m
	i := 0
	for ; i+8 <= len(s); i += 8 {
		h = (h ^ swar.Lower(swar.Load64(s, i))) * m
		h ^= h >> 29
	}
	if i < len(s) {
		var w uint64
		switch {
		case len(s) >= 8:
			w = swar.Load64(s, len(s)-8) // the last 8 bytes, read again in part
		case len(s) >= 4:
			w = swar.LoadShort(s)
		default:
			for j := len(s) - 1; j >= 0; j-- {
				w = w<<8 | uint64(s[j])
			}
		}
		h = (h ^ swar.Lower(w)) * m
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
	n := len(s)
	switch {
	case n >= 8:
		for i := 0; i+8 <= n; i += 8 { // agent names are often longer than eight bytes
			if swar.Load64(token, i) != swar.Lower(swar.Load64(s, i)) {
				return false
			}
		}
		// The last 8 bytes, read again in part.
		return n%8 == 0 || swar.Load64(token, n-8) == swar.Lower(swar.Load64(s, n-8))
	case n >= 4:
		return swar.LoadShort(token) == swar.Lower(swar.LoadShort(s))
	}
	for i := 0; i < n; i++ {
		if token[i] != parse.LowerASCII(s[i]) {
			return false
		}
	}
	return true
}

// indexTokens builds r.slots for r.tokens, which are distinct: at most half
// the slots are full, so that probes stay short.
func (f *File) indexTokens() {
	if len(f.tokens) == 0 {
		return
	}
	f.slots = make([]uint32, 1<<bits.Len(uint(2*len(f.tokens)-1)))
	f.tokenMask = 1<<bits.Len(uint(len(f.tokens))) - 1
	mask := uint64(len(f.slots) - 1)
	for t := range f.tokens {
		h := foldHash(f.tokens[t].name)
		i := h & mask
		for f.slots[i] != 0 {
			i = (i + 1) & mask
		}
		f.slots[i] = uint32(h>>32)&^f.tokenMask | uint32(t+1)
	}
}

// findToken returns the token of the file that agent names, or nil.
func (f *File) findToken(agent string) *agentToken {
	if len(f.slots) == 0 {
		return nil
	}
	h := foldHash(agent)
	tag, mask := uint32(h>>32)&^f.tokenMask, uint64(len(f.slots)-1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := f.slots[i]
		if s == 0 {
			return nil
		}
		if s&^f.tokenMask == tag {
			if t := &f.tokens[s&f.tokenMask-1]; equalFold(t.name, agent) {
				return t
			}
		}
	}
}

// An agentToken leads from a product token to its rule set.
type agentToken struct {
	name string // lower-cased
	set  int32  // index in File.sets
}

// Rules returns the rules that decide for agent, and whether some group
// names the agent. Before f is compiled, they are the agent's rules
// compiled alone (see scoped.go); once that is done, or f compiled, Rules
// does not allocate.
//
// Google compares the agent, as given, with the product token of each
// user-agent line, ignoring ASCII case. Only a group naming the agent (even
// one with no rules) keeps the "*" groups from applying.
func (f *File) Rules(agent string) (rs *RuleSet, specific bool) {
	if !f.isBuilt() {
		if rs, specific, ok := f.scopedRules(agent); ok {
			return rs, specific
		}
		f.Compile()
	}
	return f.lookup(agent)
}

// Resolve returns the rules for a crawler that answers to several product
// tokens, most specific first (see robotstxt.Robots.Agent): the first name
// that some group names decides which groups apply, and they are never
// mixed; when none is named, the "*" groups apply. name is that first
// named name, or names[0] when none is named ("" for no names).
func (f *File) Resolve(names []string) (name string, rs *RuleSet, specific bool) {
	for _, n := range names {
		if rs, specific := f.Rules(n); specific {
			return n, rs, true
		}
	}
	// No product token contains '*', so this finds the "*" groups (or a
	// blanket answer).
	rs, _ = f.Rules("*")
	if len(names) > 0 {
		name = names[0]
	}
	return name, rs, false
}

// lookup is Rules on a compiled f.
func (f *File) lookup(agent string) (rs *RuleSet, specific bool) {
	if f.isDisallowAll() {
		return &blanketDisallow, false
	}
	if t := f.findToken(agent); t != nil {
		return &f.sets[t.set], true
	}
	if f.globalSet > 0 {
		return &f.sets[f.globalSet-1], false
	}
	return &noRules, false
}
