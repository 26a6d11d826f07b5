package engine

import (
	"hash/maphash"
	"math"
	"math/bits"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
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
	// records holds the rules that need a full match, grouped by entry,
	// ascending by position: each with the byteSignature of the bytes it
	// requires (when it is worth keeping) and the window filter that rules
	// it out without matching. See recordLayout.
	records []byte
	layout  recordLayout
	windows *windowTable // the windows the filters name
}

// needAfter is how many rules an entry has from which a wild rule keeps no
// byte signature when its filter's windows hold every byte it would
// require: the signature then only spares the first filterAfter matches
// of a query, and cost 32 bits a rule, more than the rest of its record.
const needAfter = 64

// filterAfter is how many wild rules a search matches before it finds the
// windows of the path and filters the rest: fewer are cheaper to match.
const filterAfter = 16

// byteSignature returns a 32-bit summary of the bytes of s: a pattern can
// match a path only if its signature is covered by the path's.
func byteSignature(s string) uint32 {
	var sig uint32
	for i := 0; i < len(s); i++ {
		sig |= signatureBit(s[i])
	}
	return sig
}

// signatureBit is the bit of c in a byteSignature. Folding the bits above
// the fifth in keeps each letter apart from its other case.
func signatureBit(c byte) uint32 { return 1 << ((c ^ c>>5) & 31) }

// requiredBytes is the signature of the literal bytes a pattern requires.
func requiredBytes(pattern string) uint32 {
	pattern = strings.TrimSuffix(pattern, "$")
	var sig uint32
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '*' {
			sig |= signatureBit(pattern[i])
		}
	}
	return sig
}

// prefixKey packs the first 8 bytes of s, big-endian and padded with
// zeros. When the keys of two strings differ they order the strings as
// strings.Compare does; when they are equal, the strings must be compared.
func prefixKey(s string) uint64 {
	if len(s) >= 8 {
		return swar.Load64BE(s)
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
	switch {
	case len(s) >= 16:
		return [2]uint64{prefixKey(s), prefixKey(s[8:])}
	case len(s) > 8:
		// The bytes after the eighth, loaded with those before them, which
		// are shifted out: one load, not a byte at a time.
		return [2]uint64{prefixKey(s), prefixKey(s[len(s)-8:]) << (8 * (16 - len(s)))}
	}
	return [2]uint64{prefixKey(s), 0}
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

// A patternSet tells which patterns of an entry's rules were seen before.
// It is an open-addressing table of seeded hashes (hash/maphash), so that
// patterns chosen to collide cannot make it slow, holding the positions of
// the rules: the map of strings it replaces, with an allocation and a
// write barrier per pattern, cost half the building of a hostile index.
type patternSet struct {
	seed  maphash.Seed
	slots []patternSlot // a power of two, at least twice the patterns added
}

// A patternSlot is the high bits of a pattern's hash and 1 + the position
// of its rule, or 0 for an empty slot.
type patternSlot struct{ tag, pos uint32 }

// reset empties s for an entry of n rules.
func (s *patternSet) reset(n int) {
	if s.slots == nil {
		s.seed = maphash.MakeSeed()
	}
	size := 1 << bits.Len(uint(2*n-1))
	if cap(s.slots) >= size {
		s.slots = s.slots[:size]
		clear(s.slots)
	} else {
		s.slots = make([]patternSlot, size)
	}
}

// add adds the pattern of rule pos, a span of text, and reports whether a
// rule added before has the same pattern.
func (s *patternSet) add(compiled []compiledRule, text string, pos int32) bool {
	pattern := compiled[pos].pattern(text)
	h := maphash.String(s.seed, pattern)
	mask, tag := uint32(len(s.slots)-1), uint32(h>>32)
	for i := uint32(h) & mask; ; i = (i + 1) & mask {
		slot := &s.slots[i]
		if slot.pos == 0 {
			*slot = patternSlot{tag, uint32(pos) + 1}
			return false
		}
		if slot.tag == tag && compiled[slot.pos-1].pattern(text) == pattern {
			return true
		}
	}
}

// anchoredPiece returns the piece between the last '*' and the final '$'
// of a pattern that has both.
func anchoredPiece(pattern string) string {
	return pattern[strings.LastIndexByte(pattern, '*')+1 : len(pattern)-1]
}

// exactSize returns s, or a copy without its spare capacity when it has
// much.
func exactSize[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/256 {
		return s
	}
	return append(make([]T, 0, len(s)), s...)
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

// commonPrefixLen returns how many bytes a and b share at their start,
// comparing eight at a time.
func commonPrefixLen(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := swar.Load64(a, i) ^ swar.Load64(b, i); x != 0 {
			return i + bits.TrailingZeros64(x)>>3 // little-endian: the first byte is the lowest
		}
	}
	if i < n && n >= 8 {
		x := swar.LoadTail(a[:n], i) ^ swar.LoadTail(b[:n], i)
		if x == 0 {
			return n
		}
		return i + bits.TrailingZeros64(x)>>3
	}
	for ; i < n && a[i] == b[i]; i++ {
	}
	return i
}

// A lazyIndex builds the index of a rule list once it pays for itself, so
// that parsing does not pay for agents that are never asked about, and a
// file asked a few questions does not pay for more than it uses. Until
// then, queries scan the rules. It is safe for concurrent use.
type lazyIndex struct {
	compiled []compiledRule
	text     string                    // the string block of compiled's patterns
	asked    atomic.Int32              // queries scanned so far
	scanned  atomic.Int64              // the bytes their wildcard matches were charged (see scanBytesPerRule)
	lastScan atomic.Int64              // what the last query that scanned every rule was charged
	mu       sync.Mutex                // held while building
	steps    *indexBuild               // the building under way in steps (see stepThenScan), guarded by mu
	built    atomic.Pointer[ruleIndex] // set under mu; read without it by find
}

// Scanning a rule list costs about a nanosecond per rule, with a full match
// only for the few rules whose first bytes agree with the path; building
// the index costs some hundreds of nanoseconds per rule. So the first
// scanQueries queries scan while the full matches of wildcard rules (which
// hostile rules make cost a pass over the path each) have cost less than
// half of what building would. Each match is charged the lengths of the
// path and the pattern, wildStarCost bytes a star (each piece after one
// costs a search: "/*a*a*a...*b$" costs more than its length) and
// wildMatchCost; the scans of every query together may be charged
// scanBytesPerRule bytes a rule. The query that would pass that builds the
// index, and every later one uses it: the scans then cost at most half the
// building (a query whose scan would pass the budget, as the last full
// scan's charge tells, builds without scanning), and a first question with
// a short path on a fresh hostile file (24,000 wildcard rules, a 100-byte
// path) scans them all for a fraction of the building's cost. As renting
// skis until the rent would pay for them, this bounds the total to 1.5
// times the better choice. A wildcard match charged more than
// scanBytesPerRule (a longer path, or a pattern of many stars) builds the
// index at once, as the scan would likely pass the budget. Once a question's
// matches cost pairsAfter, or a single match would cost more than a rule's
// share, the scan first tests each wildcard rule against the path's bytes
// and pairs (pathpairs.go), which rule out hostile rules for a few bytes
// read each, charged wildMatchCost: then only the rules they admit are
// matched and charged in full, and a fresh hostile file's questions scan,
// whatever the path's length, until the budget or scanQueries is spent.
const (
	pairsAfter       = 8 << 10
	scanQueries      = 16
	scanBytesPerRule = 512
	wildMatchCost    = 16
	wildStarCost     = 32
)

// backgroundRules: the index of a set of at least this many rules, which
// takes a millisecond or more to build (BenchmarkIndexBuildHostile: 2-5 ms
// for 24,000 wildcard rules), is built a part per question once the scans'
// budget is spent (stepThenScan): each question does one part, then scans,
// so that none waits for the whole building. No goroutine builds it apart:
// a call returns with no work left running.
const backgroundRules = 4096

// find returns the position of the deciding rule for path, or noRule: by
// scanning the rules while that is cheaper, else through the index.
func (l *lazyIndex) find(path string) int32 {
	idx := l.built.Load()
	if idx == nil {
		if pos, ok := l.scan(path); ok {
			return pos
		}
		if len(l.compiled) >= backgroundRules {
			if pos, ok := l.stepThenScan(path); ok {
				return pos
			}
		}
		idx = l.get()
	}
	return idx.find(l.compiled, l.text, path)
}

// scanWhileBuilding answers a question while the index is built in parts:
// by the index if it is built, else by scanning the rules with no budget,
// ruling wildcard rules out by the path's bytes and pairs (each question
// costs at most a pass over the rules and their string block). ok is
// false when a match would cost more than a rule's share of the budget (a
// long path that the pairs do not rule out): the question then completes
// the index.
func (l *lazyIndex) scanWhileBuilding(path string) (pos int32, ok bool) {
	if idx := l.built.Load(); idx != nil {
		return idx.find(l.compiled, l.text, path), true
	}
	pos, _, build := l.scanAll(path, math.MaxInt64)
	return pos, !build
}

// stepThenScan is how a question on a set of backgroundRules rules or
// more helps build the index: it does one step of the building (see
// indexStepWork), unless another question is doing one, and answers as
// scanWhileBuilding does. The building then costs each of the next few
// questions a bounded part, instead of one of them all of it (3-6 ms for
// a hostile file).
func (l *lazyIndex) stepThenScan(path string) (pos int32, ok bool) {
	if l.mu.TryLock() {
		l.buildPart()
		l.mu.Unlock()
	}
	return l.scanWhileBuilding(path)
}

// buildPart does the next part of a building in parts, with l.mu held,
// and reports whether the index is built.
func (l *lazyIndex) buildPart() (built bool) {
	switch b := l.steps; {
	case l.built.Load() != nil:
		return true
	case b == nil:
		l.steps = newIndexBuild(l.compiled, l.text)
	case !b.done:
		b.step(indexStepWork)
	case !b.numbered:
		b.number()
	default:
		l.built.Store(b.finish())
		l.steps = nil
		return true
	}
	return false
}

// indexStepWork is the work of one step of a stepwise building (see
// ruleBuildWork): about half a millisecond.
const indexStepWork = 256 << 10

// get returns the index, building it if needed, or what is left of it.
func (l *lazyIndex) get() *ruleIndex {
	if idx := l.built.Load(); idx != nil {
		return idx
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if idx := l.built.Load(); idx != nil {
		return idx
	}
	b := l.steps
	if b == nil {
		b = newIndexBuild(l.compiled, l.text)
	}
	idx := b.complete()
	l.built.Store(idx)
	l.steps = nil
	return idx
}

// scan returns the position of the deciding rule for path, found by trying
// the rules in order, or ok false when the index should answer instead.
func (l *lazyIndex) scan(path string) (pos int32, ok bool) {
	if l.asked.Load() >= scanQueries || l.asked.Add(1) > scanQueries {
		return 0, false
	}
	// What this query may charge: what the earlier ones left, read once
	// (queries racing may together pass the bound by what each charges).
	budget := scanBytesPerRule*int64(len(l.compiled)) - l.scanned.Load()
	if budget < l.lastScan.Load() {
		// A query like the last would pass the budget, which its scan
		// would waste: build now.
		l.asked.Store(scanQueries)
		return 0, false
	}
	pos, spent, build := l.scanAll(path, budget)
	if build {
		l.scanned.Add(spent)
		l.asked.Store(scanQueries) // build now: the index filters these
		return 0, false
	}
	if spent > 0 {
		l.scanned.Add(spent)
		if pos == noRule { // every rule was tried
			l.lastScan.Store(spent)
		}
	}
	return pos, true
}

// scanRules tries the rules of l from the one at from, with spent charged
// so far, and returns the position of the first that matches path (or
// noRule) and the charge. It gives up when the charge passes budget, or
// a single match would cost more than a rule's share of it (build is
// then true), or, when pairs is nil, once ruling rules out by the path's
// bytes and pairs would cost less than matching them: from is then the
// rule to go on from, with pairs (else -1). The path's bytes and pairs are
// read in scanWithPairs, whose frame holds their 10 KiB, so that a scan
// that needs none (the real files' scans, a few wildcard rules on a short
// path) does not clear them.
func (l *lazyIndex) scanRules(path string, from int, spent, budget int64, pairs *pathPairs) (pos int32, _ int64, next int, build bool) {
	key := prefixKey(path)
	for i := from; i < len(l.compiled); i++ {
		c := &l.compiled[i]
		if !c.mayMatch(l.text, key) {
			continue
		}
		if c.info&ruleWild != 0 {
			pattern := c.pattern(l.text)
			if pairs != nil && !pairs.admits(pattern) {
				// The rule cannot match (pathpairs.go). admits reads at
				// most the pattern, so a question's scan reads at most the
				// string block: charged as the first bytes of a match.
				spent += wildMatchCost
				continue
			}
			charge := int64(len(path)+len(pattern)+wildStarCost*strings.Count(pattern, "*")) + wildMatchCost
			if pairs == nil && (charge > scanBytesPerRule || spent > pairsAfter) {
				return noRule, spent, i, false
			}
			// A match charged more than a rule's share of the budget (a
			// long path, many stars) builds at once: scanning would likely
			// pass the budget, wasted then.
			if spent += charge; spent > budget || charge > scanBytesPerRule {
				return noRule, spent, -1, true
			}
		}
		if c.matchesFully(l.text, path) {
			return int32(i), spent, -1, false
		}
	}
	return noRule, spent, -1, false
}

// scanAll is scanRules over every rule, going on with the path's bytes
// and pairs (scanWithPairs) from the rule where they start to pay.
func (l *lazyIndex) scanAll(path string, budget int64) (pos int32, spent int64, build bool) {
	pos, spent, from, build := l.scanRules(path, 0, 0, budget, nil)
	if from >= 0 {
		pos, spent, _, build = l.scanWithPairs(path, from, spent, budget)
	}
	return pos, spent, build
}

// scanWithPairs is scanRules from the rule at from on, ruling rules out by
// the bytes and pairs of path.
func (l *lazyIndex) scanWithPairs(path string, from int, spent, budget int64) (int32, int64, int, bool) {
	var pairs pathPairs
	pairs.reset(path)
	return l.scanRules(path, from, spent+int64(len(path)), budget, &pairs)
}
