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

// foldHash hashes s so that the names equalFold finds equal hash alike:
// each byte is read with its case bit set (see foldBits), which maps an
// ASCII letter's two cases together. A name of up to 16 bytes, as most
// agents are, is hashed by one 128-bit multiply of its first and last 8
// bytes (which overlap), with no loop.
func foldHash(s string) uint64 {
	if n := len(s); n >= 8 && n <= 16 {
		// Most names; the loads unchecked (both within s).
		return foldMix(swar.Load64At(s, 0), swar.Load64At(s, n-8), n)
	}
	return otherFoldHash(s)
}

// foldMix is foldHash's multiply of a name's n bytes, packed in a and b.
func foldMix(a, b uint64, n int) uint64 {
	// Each key has a byte without the case bit, so that neither factor
	// is ever 0, whatever the name.
	hi, lo := bits.Mul64((a|foldBits)^hashKey0, (b|foldBits)^hashKey1^uint64(n))
	return hi ^ lo
}

// otherFoldHash is foldHash for names of fewer than 8 bytes or more than
// 16.
func otherFoldHash(s string) uint64 {
	n := len(s)
	var a, b uint64
	switch {
	case n > 16:
		return longFoldHash(s)
	case n >= 4:
		a = swar.Load32(s, 0) | swar.Load32(s, n-4)<<32 // swar.LoadShort, inlined
	default:
		for j := n - 1; j >= 0; j-- {
			a = a<<8 | uint64(s[j])
		}
	}
	return foldMix(a, b, n)
}

// longFoldHash is foldHash for names of more than 16 bytes.
func longFoldHash(s string) uint64 {
	h := uint64(len(s)) ^ hashKey0
	i := 0
	for ; i+8 < len(s); i += 8 {
		hi, lo := bits.Mul64(h^(swar.Load64(s, i)|foldBits), hashKey1)
		h = hi ^ lo
	}
	// The last 8 bytes, read again in part.
	hi, lo := bits.Mul64(h^(swar.Load64(s, len(s)-8)|foldBits)^hashKey0, hashKey1)
	return hi ^ lo
}

// The keys foldHash mixes names with: odd, and each with a byte whose case
// bit is clear.
const (
	hashKey0 = 0xa0761d6478bd642f
	hashKey1 = 0xe7037ed1a0b428db
)

// foldBits holds the bit that tells an ASCII letter's two cases apart,
// in each byte.
const foldBits = 0x2020202020202020

// equalFold reports whether token, a lower-cased product token (bytes
// a-z, '-' and '_', as parse.AgentToken makes them), equals s lower-cased
// (ASCII letters only): eight bytes at a time, each of s's letter bytes
// read with its case bit set (see foldEqual).
func equalFold(token, s string) bool {
	if len(token) != len(s) {
		return false
	}
	n := len(s)
	switch {
	case n >= 8:
		for i := 0; i+8 <= n; i += 8 { // agent names are often longer than eight bytes
			if !foldEqual(swar.Load64(token, i), swar.Load64(s, i)) {
				return false
			}
		}
		// The last 8 bytes, read again in part.
		return n%8 == 0 || foldEqual(swar.Load64(token, n-8), swar.Load64(s, n-8))
	case n >= 4:
		// swar.LoadShort of each, inlined.
		return foldEqual(swar.Load32(token, 0)|swar.Load32(token, n-4)<<32, swar.Load32(s, 0)|swar.Load32(s, n-4)<<32)
	}
	for i := 0; i < n; i++ {
		if token[i] != parse.LowerASCII(s[i]) {
			return false
		}
	}
	return true
}

// foldEqual reports whether the bytes of w equal those of t, bytes of a
// lower-cased product token, lower-cased: where t holds a letter (its bits
// 0x40 and 0x20 both set, which '-' and '_' never have) w's case bit is
// set before the bytes are compared, elsewhere they must be equal.
func foldEqual(t, w uint64) bool { return w|t&(t>>1)&foldBits == t }

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

// An agentToken leads from a product token to its rule set.
type agentToken struct {
	name string // lower-cased product token: bytes a-z, '-' and '_' (see equalFold)
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

// lookup is Rules on a compiled f. The token the agent names is found
// here, not in a function of its own: one call less a question.
func (f *File) lookup(agent string) (rs *RuleSet, specific bool) {
	if f.isDisallowAll() {
		return &blanketDisallow, false
	}
	if slots := f.slots; len(slots) != 0 {
		var h uint64 // foldHash(agent), its common case inlined
		if n := len(agent); n >= 8 && n <= 16 {
			h = foldMix(swar.Load64At(agent, 0), swar.Load64At(agent, n-8), n)
		} else {
			h = otherFoldHash(agent)
		}
		tokenMask := f.tokenMask
		tag, mask := uint32(h>>32)&^tokenMask, uint64(len(slots)-1)
		for i := h & mask; slots[i] != 0; i = (i + 1) & mask {
			if s := slots[i]; s&^tokenMask == tag {
				if t := &f.tokens[s&tokenMask-1]; equalFold(t.name, agent) {
					return &f.sets[t.set], true
				}
			}
		}
	}
	if f.globalSet > 0 {
		return &f.sets[f.globalSet-1], false
	}
	return &noRules, false
}
