package robotstxt

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// indexMinRules is the size from which a rule set gets an index; smaller
// sets are scanned, which is as fast.
const indexMinRules = 16

// A ruleIndex finds the deciding rule of a large rule set without trying
// every rule. Each rule has a literal prefix, the bytes before its first
// '*' (or before a final '$'): a rule can match a path only if its literal
// prefix is a prefix of the path. The index keeps the distinct literal
// prefixes sorted, each with the rules that have it.
//
// The rule set is ordered so that the best rule has the smallest position,
// so the answer is the smallest position among the rules that match.
type ruleIndex struct {
	entries []prefixEntry // sorted by prefix, distinct
	keys    [][2]uint64   // keyPair of each entry's prefix: most probes of a search compare these alone
	wild    []int32       // positions of rules that need a full match, grouped by entry, ascending
	need    []uint64      // for each wild rule, byteSignature of the bytes it requires
}

// byteSignature returns a 64-bit summary of the bytes of s: a pattern can
// match a path only if its signature is covered by the path's.
func byteSignature(s string) uint64 {
	var sig uint64
	for i := 0; i < len(s); i++ {
		sig |= 1 << (s[i] & 63)
	}
	return sig
}

// requiredBytes is the signature of the literal bytes a pattern requires.
func requiredBytes(pattern string) uint64 {
	pattern = strings.TrimSuffix(pattern, "$")
	var sig uint64
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '*' {
			sig |= 1 << (pattern[i] & 63)
		}
	}
	return sig
}

// prefixKey packs the first 8 bytes of s, big-endian and padded with
// zeros. When the keys of two strings differ they order the strings as
// strings.Compare does; when they are equal, the strings must be compared.
func prefixKey(s string) uint64 {
	if len(s) >= 8 {
		// The compiler turns this into one load and a byte swap.
		return uint64(s[7]) | uint64(s[6])<<8 | uint64(s[5])<<16 | uint64(s[4])<<24 |
			uint64(s[3])<<32 | uint64(s[2])<<40 | uint64(s[1])<<48 | uint64(s[0])<<56
	}
	return shortPrefixKey(s)
}

// shortPrefixKey is prefixKey for strings shorter than 8 bytes.
func shortPrefixKey(s string) uint64 {
	var k uint64
	for i := 0; i < 8; i++ {
		k <<= 8
		if i < len(s) {
			k |= uint64(s[i])
		}
	}
	return k
}

// keyPair returns the prefixKey of the first 8 bytes of s and of the next
// 8. Compared in turn, the two order strings as strings.Compare does
// wherever they differ: prefix families such as "/product/1", "/product/2"
// share their first 8 bytes.
func keyPair(s string) [2]uint64 {
	if len(s) > 8 {
		return [2]uint64{prefixKey(s), prefixKey(s[8:])}
	}
	return [2]uint64{prefixKey(s), 0}
}

// A prefixEntry is one distinct literal prefix.
type prefixEntry struct {
	prefix string
	// literal is the position of the best rule whose whole pattern is
	// prefix (it matches every path starting with prefix), or noRule.
	literal int32
	// wildLo and wildHi delimit the entry's other rules in ruleIndex.wild.
	wildLo, wildHi int32
	// parent is the entry of the longest other prefix that is a prefix of
	// this one, or -1.
	parent int32
	// chainMin is the smallest position among the rules of this entry and
	// of its parents: no rule reached through this entry can do better.
	chainMin int32
}

const noRule = int32(1<<31 - 1)

// literalPrefix returns the bytes of pattern before its first '*', and
// whether the pattern is only that, so that it matches every path that
// starts with it.
func literalPrefix(pattern string) (prefix string, whole bool) {
	if i := strings.IndexByte(pattern, '*'); i >= 0 {
		return pattern[:i], false
	}
	if strings.HasSuffix(pattern, "$") {
		return pattern[:len(pattern)-1], false
	}
	return pattern, true
}

// newRuleIndex indexes compiled, a rule set in deciding order.
func newRuleIndex(compiled []compiledRule) *ruleIndex {
	type item struct {
		prefix string
		pos    int32
		whole  bool
	}
	items := make([]item, len(compiled))
	for i := range compiled {
		p, whole := literalPrefix(compiled[i].pattern)
		items[i] = item{p, int32(i), whole}
	}
	slices.SortFunc(items, func(a, b item) int {
		if c := strings.Compare(a.prefix, b.prefix); c != 0 {
			return c
		}
		return int(a.pos - b.pos)
	})
	idx := &ruleIndex{}
	var stack []int32 // entries that are prefixes of the current one
	for i := 0; i < len(items); {
		e := prefixEntry{prefix: items[i].prefix, literal: noRule, wildLo: int32(len(idx.wild)), parent: -1}
		j := i
		for ; j < len(items) && items[j].prefix == e.prefix; j++ {
			if items[j].whole {
				e.literal = min(e.literal, items[j].pos)
			} else {
				idx.wild = append(idx.wild, items[j].pos)
				idx.need = append(idx.need, requiredBytes(compiled[items[j].pos].pattern))
			}
		}
		e.wildHi = int32(len(idx.wild))
		e.chainMin = e.literal
		if e.wildHi > e.wildLo {
			e.chainMin = min(e.chainMin, idx.wild[e.wildLo])
		}
		for len(stack) > 0 && !strings.HasPrefix(e.prefix, idx.entries[stack[len(stack)-1]].prefix) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			e.parent = stack[len(stack)-1]
			e.chainMin = min(e.chainMin, idx.entries[e.parent].chainMin)
		}
		idx.entries = append(idx.entries, e)
		idx.keys = append(idx.keys, keyPair(e.prefix))
		stack = append(stack, int32(len(idx.entries)-1))
		i = j
	}
	return idx
}

// find returns the position of the deciding rule for path, or noRule.
func (idx *ruleIndex) find(compiled []compiledRule, path string) int32 {
	e := idx.longestPrefixOf(path)
	best := noRule
	var have uint64 // the path's byteSignature, computed when first useful
	for e >= 0 {
		entry := &idx.entries[e]
		if entry.chainMin >= best {
			break
		}
		best = min(best, entry.literal)
		if entry.wildHi-entry.wildLo > 4 && have == 0 {
			have = byteSignature(path)
		}
		for w := entry.wildLo; w < entry.wildHi; w++ {
			pos := idx.wild[w]
			if pos >= best {
				break
			}
			if have != 0 && idx.need[w]&^have != 0 {
				continue // the path lacks a byte the pattern requires
			}
			// The entry's prefix, this rule's literal prefix, starts path.
			if compiled[pos].matchesFully(path) {
				best = pos
				break
			}
		}
		e = entry.parent
	}
	return best
}

// longestPrefixOf returns the entry with the longest prefix that is a
// prefix of path, or -1.
func (idx *ruleIndex) longestPrefixOf(path string) int32 {
	// Find the last entry <= path.
	pk := keyPair(path)
	lo, hi := 0, len(idx.entries) // find the first entry > path
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if k := &idx.keys[mid]; k[0] < pk[0] || k[0] == pk[0] && (k[1] < pk[1] || k[1] == pk[1] && idx.entries[mid].prefix <= path) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	e := int32(lo - 1)
	if e < 0 {
		return -1
	}
	// Every entry that is a prefix of path sorts between itself and path,
	// so it is also a prefix of entry e, within the n bytes e and path
	// share: it is on e's parent chain, whose prefixes get shorter.
	n := commonPrefixLen(idx.entries[e].prefix, path)
	for e >= 0 && len(idx.entries[e].prefix) > n {
		e = idx.entries[e].parent
	}
	return e
}

func commonPrefixLen(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// A lazyIndex builds the index of a rule list when it is first needed, so
// that parsing does not pay for agents that are never asked about. It is
// safe for concurrent use.
type lazyIndex struct {
	compiled []compiledRule
	built    atomic.Pointer[ruleIndex]
	mu       sync.Mutex
}

func (l *lazyIndex) get() *ruleIndex {
	if idx := l.built.Load(); idx != nil {
		return idx
	}
	return l.build()
}

func (l *lazyIndex) build() *ruleIndex {
	l.mu.Lock()
	defer l.mu.Unlock()
	if idx := l.built.Load(); idx != nil {
		return idx
	}
	idx := newRuleIndex(l.compiled)
	l.built.Store(idx)
	return idx
}
