package engine

import (
	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

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
	// records holds the rules that need a full match, grouped by entry,
	// ascending by position: each with the byteSignature of the bytes it
	// requires (when it is worth keeping) and the window filter that rules
	// it out without matching. See recordLayout.
	records []byte
	layout  recordLayout
	windows *windowTable // the windows the filters name
}

// A prefixEntry is one distinct literal prefix.
type prefixEntry struct {
	// recordLo is the byte where the records of the entry's wild rules
	// start in ruleIndex.records; they end where the next entry's start.
	recordLo uint32
	// n is the length of the prefix, which starts the pattern of each of
	// the entry's rules (see ruleIndex.prefix): a string header would
	// double the entry's size.
	n uint32
	// literal is the position of the best rule whose whole pattern is
	// prefix (it matches every path starting with prefix), or noRule.
	literal int32
	// firstWild is the position of the first of the entry's other rules,
	// or noRule.
	firstWild int32
	// parent is the entry of the longest other prefix that is a prefix of
	// this one, or -1.
	parent int32
	// chainMin is the smallest position among the rules of this entry and
	// of its parents: no rule reached through this entry can do better.
	chainMin int32
}

const noRule = int32(1<<31 - 1)

// prefixRule returns one of the rules of entry e, whose pattern starts
// with the entry's prefix.
func (idx *ruleIndex) prefixRule(e int32, compiled []compiledRule) *compiledRule {
	entry := &idx.entries[e]
	rule := entry.literal
	if rule == noRule {
		rule = entry.firstWild
	}
	return &compiled[rule]
}

// prefixAtMost reports whether the prefix of entry e sorts before path or
// is path; the rules' patterns are spans of text.
func (idx *ruleIndex) prefixAtMost(e int32, compiled []compiledRule, text, path string) bool {
	c, n := idx.prefixRule(e, compiled), idx.entries[e].n
	if c.info&ruleCompact != 0 {
		return compareWire(spanOf(text, c.off, uint32(c.n)), int(n), path) <= 0
	}
	return spanOf(text, c.off, n) <= path // strings.Compare would let path escape
}

// commonPrefix returns how many bytes of the prefix of entry e start path.
func (idx *ruleIndex) commonPrefix(e int32, compiled []compiledRule, text, path string) int {
	c, n := idx.prefixRule(e, compiled), idx.entries[e].n
	if c.info&ruleCompact != 0 {
		return commonWirePrefix(spanOf(text, c.off, uint32(c.n)), int(n), path)
	}
	return commonPrefixLen(spanOf(text, c.off, n), path)
}

// A lazyWire gives the matcher the pattern of a rule in wire form,
// expanding a compact one (into a pooled buffer, taken when first needed)
// only when the filters cannot tell without its bytes.
type lazyWire struct {
	wb   *wireBuffer
	rule *compiledRule // whose wire form wb holds
}

// of returns the pattern of c, a span of text, in wire form, valid until
// the next call for another rule.
func (l *lazyWire) of(c *compiledRule, text string) string {
	if c.info&ruleCompact == 0 {
		return c.pattern(text)
	}
	if l.wb == nil {
		l.wb = getWireBuffer()
	}
	if l.rule != c {
		l.wb.expand(c.pattern(text))
		l.rule = c
	}
	return swar.String(l.wb.b)
}

func (l *lazyWire) release() {
	if l.wb != nil {
		l.wb.release()
	}
}

// wirePattern returns the pattern of c, a span of text, in wire form,
// expanding a compact one into wb.
func wirePattern(c *compiledRule, text string, wb *wireBuffer) string {
	if c.info&ruleCompact != 0 {
		return wb.expand(c.pattern(text))
	}
	return c.pattern(text)
}

// recordBytes returns how many bytes the records of the wild rules take,
// once idx.layout is set: each entry's, then the zero step that ends
// them, padded to a byte.
func (idx *ruleIndex) recordBytes(wild []wildRule, starts []int) int {
	var n uint64
	for e := range idx.entries {
		if starts[e] == starts[e+1] {
			continue
		}
		for _, r := range wild[starts[e]:starts[e+1]] {
			low := filterKind(r.filter) << 1
			if r.hasNeed {
				low |= 1
			}
			n += uint64(idx.layout.recordBits[low])
		}
		n = (n + uint64(idx.layout.headBits) + 7) &^ 7
	}
	return int(n >> 3)
}

// find returns the position of the deciding rule for path, or noRule;
// the rules' patterns are spans of text.
func (idx *ruleIndex) find(compiled []compiledRule, text, path string) int32 {
	e := idx.longestPrefixOf(compiled, text, path)
	best := noRule
	var occ *occurrences // where the windows occur in path, once found
	var have uint32      // the path's byteSignature, computed when first useful
	var wire lazyWire    // the patterns in wire form
	matched := 0
	records, layout := idx.records, &idx.layout
	// Shifts by a count masked to 63 need no test for counts of 64 or more.
	headBits, idBits := uint64(layout.headBits), uint64(layout.idBits)
	idMask, stepMask, narrowIDs := layout.idMask, layout.stepMask, layout.narrowIDs
	recordBits := layout.recordBits
	for e >= 0 {
		entry := &idx.entries[e]
		if entry.chainMin >= best {
			break
		}
		best = min(best, entry.literal)
		if entry.firstWild == noRule {
			e = entry.parent
			continue
		}
		p := 8 * uint64(entry.recordLo) // bits
		if have == 0 && idx.entryBits(e) > 4*(headBits+32) {
			have = byteSignature(path) // more than 4 records with a signature, or large ones
		}
		pos, n := entry.firstWild-1, int32(entry.n)
		for {
			v := readBits64(records, p)
			step := int32(uint32(v>>3) & stepMask)
			if step == 0 {
				break // the end of the entry's records
			}
			if pos += step; pos >= best {
				break
			}
			next := p + uint64(recordBits[v&7])
			if v&1 != 0 {
				need := uint32(v >> (headBits & 63))
				if headBits > 25 {
					need = uint32(readBits64(records, p+headBits))
				}
				if have != 0 && need&^have != 0 {
					p = next
					continue // the path lacks a byte the pattern requires
				}
			}
			at := p + headBits + 32*(v&1) // the filter's fields
			p = next
			c := &compiled[pos]
			// The entry's prefix, this rule's literal prefix, starts path.
			if occ == nil {
				if matched < filterAfter {
					// The first few rules are matched: no filter is read.
					matched++
					if matchPattern(wire.of(c, text), path) {
						best = pos
						break
					}
					continue
				}
				occ = idx.windows.find(path)
			}
			fields := v >> (headBits & 63) // from at, 57 bits less the head's, without a signature
			if v&1 != 0 || !narrowIDs {
				fields = readBits64(records, at)
			}
			kind := uint32(v>>1) & 3
			// The filters of unanchored patterns, most of a hostile file's,
			// are checked here, as mayMatch does. Whether the windows occur
			// is told by a bit each; where they occur costs a rank (see
			// occurrences.placeOf), so it is asked last. The pattern is read
			// only for the rules that pass.
			switch kind {
			case filterAnchoredPiece: // the piece after the last '*' must end the path
				pattern := wire.of(c, text)
				piece := pattern[len(pattern)-1-int(uint32(fields)&layout.pieceMask) : len(pattern)-1]
				if end := len(path) - len(piece); end < int(n) || path[end:] != piece {
					continue
				}
			case filterOnePiece:
				if id := int32(uint32(fields)&idMask) - 2; id >= 0 && (!occ.has(id) || occ.placeOf(id).last < n) {
					continue
				}
			default: // filterNoMid, filterFull
				first, last, mid := int32(noWindow), int32(noWindow), int32(noWindow)
				if narrowIDs { // in fields
					first, last = int32(uint32(fields)&idMask)-2, int32(uint32(fields>>(idBits&63))&idMask)-2
					if kind == filterFull {
						mid = int32(uint32(fields>>(2*idBits&63))&idMask) - 2
					}
				} else {
					f := layout.readFilter(records, at, kind)
					first, last, mid = f.first, f.last, f.mid
				}
				if first >= 0 && last >= 0 && (!occ.has(first) || !occ.has(last) || mid >= 0 && !occ.has(mid)) {
					continue
				}
				ids := 2 * idBits // then span and midOff, 32 bits at most
				if kind == filterFull {
					ids += idBits
				}
				lengths := fields >> (ids & 63)
				if !layout.filterInFields {
					lengths = readBits64(records, at+ids)
				}
				span, midOff := int32(uint32(lengths)&layout.spanMask), int32(0)
				if kind == filterFull {
					midOff = int32(uint32(lengths>>(layout.spanBits&63)) & layout.midOffMask)
				}
				if first < 0 || last < 0 {
					if !mayMatch(first, last, mid, span, midOff, occ, wire.of(c, text), path, int(n)) {
						continue
					}
					break
				}
				p := occ.placeOf(first)
				if p.last < n {
					continue
				}
				start := max(n, p.first)
				if mid >= 0 {
					if p = occ.placeOf(mid); p.last < start+midOff {
						continue
					}
					start = max(start, p.first-midOff)
				}
				if occ.placeOf(last).last < start+span {
					continue
				}
			}
			if idx.windows.verify(occ, wire.of(c, text), path, int(n)) {
				best = pos
				break
			}
		}
		e = entry.parent
	}
	if occ != nil {
		idx.windows.put(occ)
	}
	wire.release()
	return best
}

// entryBits returns how many bits entry e's records take, with the zero
// step that ends them and the padding to a byte.
func (idx *ruleIndex) entryBits(e int32) uint64 {
	end := uint32(len(idx.records) - 8) // the padding
	if int(e)+1 < len(idx.entries) {
		end = idx.entries[e+1].recordLo
	}
	return 8 * uint64(end-idx.entries[e].recordLo)
}

// longestPrefixOf returns the entry with the longest prefix that is a
// prefix of path, or -1. The entries' prefixes are spans of text.
func (idx *ruleIndex) longestPrefixOf(compiled []compiledRule, text, path string) int32 {
	// Find the last entry <= path.
	pk := keyPair(path)
	lo, hi := 0, len(idx.entries) // find the first entry > path
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if k := &idx.keys[mid]; k[0] < pk[0] || k[0] == pk[0] && (k[1] < pk[1] || k[1] == pk[1] && idx.prefixAtMost(int32(mid), compiled, text, path)) {
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
	n := uint32(idx.commonPrefix(e, compiled, text, path))
	for e >= 0 && idx.entries[e].n > n {
		e = idx.entries[e].parent
	}
	return e
}
