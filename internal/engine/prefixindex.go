package engine

import (
	"slices"
	"strings"
)

// A prefixIndex is the index of a rule set of fewer than stepwiseRules
// rules, or of up to prefixIndexMaxRules nearly all plain, made for the plain patterns real files' sets hold most: 4 bytes
// a distinct plain pattern, where a ruleIndex takes 40 a distinct literal
// prefix (BenchmarkRetainedStates). A plain pattern matches every path it
// is a prefix of, so the plain patterns that start a path are a chain of
// prefixes, and the longest of them decides among them: the deciding
// order ranks a longer plain pattern first. The other rules (wildcards,
// non-ASCII bytes) are tried in deciding order until one matches or the
// plain answer is better, while they are at most prefixIndexOthers with
// at most prefixIndexStars stars; more get a ruleIndex of their own
// (wild), whose entries are then their few distinct literal prefixes. Its positions fit 16 bits.
type prefixIndex struct {
	// entries holds one entry per distinct plain pattern, sorted by
	// pattern as strings.Compare orders them.
	entries []prefixSlot
	// others are the rules that are not plain, in deciding order, when
	// they are tried in turn; else wild indexes them.
	others []otherRule
	wild   *wildIndex
}

// An otherRule is a rule of a prefixIndex that is not plain: its
// position, the first bytes of its literal prefix as mayMatch compares
// them (key, the bytes past head cleared), and the requiredBytes of its
// pattern (a path lacking a byte the pattern requires is not matched
// against it). The key is kept here, not read from the string block
// through the rule, so that the rules a question tries in turn, most of
// them ruled out by these two tests, are read from one array: 16 bytes a
// rule, not 8, for the at most prefixIndexOthers rules of a set tried so.
type otherRule struct {
	key  uint64
	need uint32
	pos  uint16
	head uint8 // as compiledRule.head's low four bits
}

// mayMatch is compiledRule.mayMatch for the rule o holds.
func (o *otherRule) mayMatch(pathKey uint64) bool {
	return (o.key^pathKey)&headMasks[o.head&15] == 0
}

// A wildIndex is the ruleIndex of the rules of a prefixIndex that are not
// plain, when they are too many to try in turn: rules holds them in
// deciding order, and pos their positions in the whole set.
type wildIndex struct {
	idx   *ruleIndex
	rules []compiledRule
	pos   []uint16
}

// A prefixSlot is one distinct plain pattern.
type prefixSlot struct {
	// rule is the position of the best rule whose pattern it is, which
	// is read from the rule set's string block through it.
	rule uint16
	// parent is the entry of the longest other pattern that is a prefix
	// of this one, or noSlot.
	parent uint16
}

const noSlot = 1<<16 - 1

// prefixIndexable reports whether compiled, a rule set in deciding order,
// takes a prefixIndex: fewer than stepwiseRules rules, or up to
// prefixIndexMaxRules of which at most prefixIndexOthers are not plain.
// Another set's ruleIndex is built in parts (see plan.go).
func prefixIndexable(compiled []compiledRule) bool {
	if len(compiled) < stepwiseRules {
		return true
	}
	if len(compiled) > prefixIndexMaxRules {
		return false
	}
	others := 0
	for i := range compiled {
		if !compiled[i].plain() {
			if others++; others > prefixIndexOthers {
				return false
			}
		}
	}
	return true
}

// plain reports whether the rule's pattern is a plain prefix of ASCII
// bytes in wire form: it matches exactly the paths that start with it.
func (c *compiledRule) plain() bool { return c.info&(ruleWild|ruleCompact) == 0 }

// newPrefixIndex indexes compiled, a rule set in deciding order whose
// patterns are spans of text, which prefixIndexable accepts.
func newPrefixIndex(compiled []compiledRule, text string) *prefixIndex {
	idx := &prefixIndex{}
	others, stars := 0, 0
	for i := range compiled {
		if c := &compiled[i]; !c.plain() {
			others++
			if c.info&ruleWild != 0 {
				stars += strings.Count(c.pattern(text), "*")
			}
		}
	}
	tryInTurn := others <= prefixIndexOthers && stars <= prefixIndexStars
	var otherPos []uint16
	if others > 0 {
		otherPos = make([]uint16, 0, others)
	}
	plain := make([]uint16, 0, len(compiled)-others)
	for i := range compiled {
		if compiled[i].plain() {
			plain = append(plain, uint16(i))
		} else {
			otherPos = append(otherPos, uint16(i))
		}
	}
	sortByPattern(plain, compiled, text)
	entries := make([]prefixSlot, 0, len(plain))
	var stack []uint16 // the entries whose patterns start the current one, longest last
	last := ""
	for k, pos := range plain {
		p := compiled[pos].pattern(text)
		if k > 0 && p == last {
			continue // a worse rule of the same pattern never decides
		}
		last = p
		for len(stack) > 0 && !hasPrefix(p, compiled[entries[stack[len(stack)-1]].rule].pattern(text)) {
			stack = stack[:len(stack)-1]
		}
		slot := prefixSlot{rule: pos, parent: noSlot}
		if len(stack) > 0 {
			slot.parent = stack[len(stack)-1]
		}
		stack = append(stack, uint16(len(entries)))
		entries = append(entries, slot)
	}
	// Kept as long as its rule set: exactly sized when equal patterns
	// left some of it unused.
	idx.entries = entries
	if len(entries) < cap(entries) {
		idx.entries = slices.Clone(entries)
	}
	switch {
	case others > 0 && tryInTurn:
		idx.others = make([]otherRule, others)
		wb := getWireBuffer()
		for i, pos := range otherPos {
			c := &compiled[pos]
			idx.others[i] = otherRule{
				key:  loadKey(text, c.off) & headMasks[c.head&15],
				need: requiredBytes(wirePattern(c, text, wb)),
				pos:  pos,
				head: c.head & 15,
			}
		}
		wb.release()
	case !tryInTurn:
		w := &wildIndex{rules: make([]compiledRule, others), pos: otherPos}
		for i, pos := range otherPos {
			w.rules[i] = compiled[pos]
		}
		w.idx = newRuleIndex(w.rules, text)
		idx.wild = w
	}
	return idx
}

// sortByPattern sorts plain, positions of plain rules of compiled, by
// pattern as strings.Compare orders them, then by position: the first of
// equal patterns is the best. Each pattern's first 16 bytes, packed
// (keyPair), order most pairs without reading the patterns: comparing
// the strings themselves took 9 % of parse + 100 checks
// (BenchmarkParseCheckTwoAgents, pprof). The positions are sorted, not
// the keys, which would move 24 bytes where a position moves 2.
func sortByPattern(plain []uint16, compiled []compiledRule, text string) {
	keys := make([][2]uint64, len(compiled))
	for _, pos := range plain {
		keys[pos] = keyPair(compiled[pos].pattern(text))
	}
	slices.SortFunc(plain, func(a, b uint16) int {
		ka, kb := &keys[a], &keys[b]
		switch {
		case ka[0] != kb[0]:
			return cmpUint64(ka[0], kb[0])
		case ka[1] != kb[1]:
			return cmpUint64(ka[1], kb[1])
		}
		if c := strings.Compare(compiled[a].pattern(text), compiled[b].pattern(text)); c != 0 {
			return c
		}
		return int(a) - int(b)
	})
}

// cmpUint64 compares a and b, which differ.
func cmpUint64(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

func hasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

// find returns the position of the deciding rule for path, or noRule;
// the rules' patterns are spans of text.
func (idx *prefixIndex) find(compiled []compiledRule, text, path string) int32 {
	best := noRule
	pk := prefixKey(path)
	entries := idx.entries
	// The last entry whose pattern sorts before path or is path: every
	// pattern that starts path is on its chain (see
	// ruleIndex.longestPrefixOf).
	lo, hi := 0, len(entries)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		c := &compiled[entries[mid].rule]
		// The string block's padding makes 8 bytes readable; the bytes
		// past the pattern are cleared (a plain rule's head is min(n, 8)),
		// so the keys order as the strings do when they differ.
		ck := loadKey(text, c.off) & headMasks[c.head&15]
		if ck < pk || ck == pk && c.pattern(text) <= path {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if e := lo - 1; e >= 0 {
		n := commonPrefixLen(compiled[entries[e].rule].pattern(text), path)
		for e != noSlot && int(compiled[entries[e].rule].n) > n {
			e = int(entries[e].parent)
		}
		if e != noSlot {
			best = int32(entries[e].rule) // the longest: no parent's rule does better
		}
	}
	if w := idx.wild; w != nil {
		if int32(w.pos[0]) >= best {
			return best
		}
		if i := w.idx.find(w.rules, text, path); i != noRule && int32(w.pos[i]) < best {
			best = int32(w.pos[i])
		}
		return best
	}
	var have uint32 // the path's byteSignature, once a rule's first bytes agree
	// A local, not read from idx again after each call.
	others := idx.others
	for i := range others {
		o := &others[i]
		pos := o.pos
		if int32(pos) >= best {
			break
		}
		if !o.mayMatch(pk) {
			continue
		}
		if have == 0 {
			have = byteSignature(path) | 1<<31 // never 0 again
		}
		if o.need&^have == 0 && compiled[pos].matchesFully(text, path) {
			return int32(pos)
		}
	}
	return best
}
