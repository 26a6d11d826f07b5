package engine

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unsafe"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// A wildRule is what an indexBuild knows of a wild rule before it writes
// the rule's record.
type wildRule struct {
	pos     int32
	need    uint32
	hasNeed bool
	filter  windowFilter
	piece   uint16 // the anchored piece's length
}

// An indexItem is a rule's literal prefix, as the build sorts them. It
// holds no pointer, which the collector would scan: a prefix is a span of
// text, or of the build's wire prefixes for a compact rule, whose prefix
// is used in wire form.
type indexItem struct {
	key             uint64 // prefixKey of the prefix: most comparisons need no more
	off, n          uint32
	pos             int32
	whole, fromWire bool
}

// An indexBuild is the building of a ruleIndex, which can be done in
// parts: a question on a large fresh rule set can then pay for a bounded
// part of the building and answer by scanning, rather than wait for all
// of it (see lazyIndex.stepThenScan). The parts: listStep finds the
// rules' literal prefixes, wireStep writes those of compact rules in wire
// form, prepare sorts them; each step reads the rules of the distinct
// prefixes in order, making their window filters, until it has done a
// given amount of work; number numbers the windows; finish writes the
// records. newRuleIndex does them all at once.
type indexBuild struct {
	compiled []compiledRule
	text     string
	wire     string // the wire form of the compact rules' prefixes
	items    []indexItem
	// The items are found up to listAt (see listStep), all once listed
	// is set; compact tells that some are compact rules, and wireLen is
	// the length of the wire form of their prefixes (a byte >= 0x80 is
	// three).
	listAt  int
	listed  bool
	compact bool
	wireLen int
	// wireBuf is wire being written by wireStep, up to the item at
	// wireAt; wired is set once it is written.
	wireBuf []byte
	wireAt  int
	wired   bool
	idx     *ruleIndex

	wild     []wildRule
	starts   []int      // of each entry's rules in wild
	seen     patternSet // the patterns of a large entry's wild rules
	stack    []int32    // entries that are prefixes of the current one
	prefixes []string   // of the entries
	wb       wireBuffer

	// The entry being read: its items are items[i:j], of which those
	// before k are read; j is 0 between entries.
	i, j, k  int
	entry    prefixEntry
	prefix   string
	prepared bool // the items sorted (see prepare)
	// touched is how many bytes of the tables touchStep has written a
	// page at a time, touchedAll whether it is done.
	touched    int
	touchedAll bool
	done       bool // every item read
	// renumber is the windows' new numbers once compactWindows has
	// compacted their table (compacted), until number has renumbered the
	// filters with them and laid the records out (numbered).
	renumber  []int32
	compacted bool
	numbered  bool
	// The records being written (see writeRecords): out, and the entry
	// whose records come next.
	out     recordWriter
	writing bool
	entry0  int   // the entry being written
	rec     int   // its next record in wild, or -1 before its first
	prev    int32 // the position of the last rule written
}

// newRuleIndex indexes compiled, a rule set in deciding order whose
// patterns are spans of text.
func newRuleIndex(compiled []compiledRule, text string) *ruleIndex {
	return newIndexBuild(compiled, text).complete()
}

// complete does what is left of the building at once and returns the
// index.
func (b *indexBuild) complete() *ruleIndex {
	if !b.prepared {
		b.prepare() // and lists what is left to list
	}
	for !b.step(unboundedWork) {
	}
	return b.finish()
}

// unboundedWork is a work limit that any step of a building stays
// within: the step does all that is left of its part.
const unboundedWork int64 = math.MaxInt64

// newIndexBuild starts the index of compiled. Its first part, listStep,
// finds the rules' literal prefixes; the wire form of the compact rules'
// prefixes is written by wireStep.
func newIndexBuild(compiled []compiledRule, text string) *indexBuild {
	// The items are written by listStep, in parts: a fresh process takes
	// a page fault at the first write of each of their pages (192 for
	// 32,000 rules), which at once made the question that started a
	// hostile index the slowest of its file (TestQuestionInstructions'
	// families, BenchmarkSlowestQuestion).
	return &indexBuild{compiled: compiled, text: text, items: make([]indexItem, len(compiled))}
}

// listStep finds the literal prefixes of the rules from the item at
// b.listAt on, up to about work bytes of items written, and reports
// whether every one is found.
func (b *indexBuild) listStep(work int) (listed bool) {
	compiled, text, items := b.compiled, b.text, b.items
	end := min(len(items), b.listAt+max(work/int(unsafe.Sizeof(indexItem{})), 1))
	for i := b.listAt; i < end; i++ {
		c := &compiled[i]
		p, whole := literalPrefix(c.pattern(text))
		items[i] = indexItem{off: c.off, n: uint32(len(p)), pos: int32(i), whole: whole}
		if c.info&ruleCompact != 0 {
			items[i].fromWire, b.compact = true, true
			b.wireLen += compactWireLen(p)
			continue
		}
		// The string block's padding makes 8 bytes readable at any
		// pattern; the bytes past the prefix are cleared.
		items[i].key = loadKey(text, c.off) & (^uint64(0) << (8 * (8 - min(len(p), 8))))
	}
	b.listAt = end
	if end < len(items) {
		return false
	}
	b.listed = true
	if b.compact {
		// Written once, sized once, and never changed: the prefixes are
		// views of it (a hostile set's is a megabyte).
		b.wireBuf = make([]byte, 0, b.wireLen)
	} else {
		b.wired = true
	}
	return true
}

// wireStep writes the wire form of the compact rules' prefixes, from the
// item at b.wireAt on, up to about work bytes, and their keys; it
// reports whether every one is written. A hostile set's (12,000 rules of
// 28 bytes >= 0x80) took 7 M instructions at once: a step of its own,
// in parts of indexStepWork.
func (b *indexBuild) wireStep(work int64) (wired bool) {
	start := len(b.wireBuf)
	for ; b.wireAt < len(b.items) && int64(len(b.wireBuf)-start) < work; b.wireAt++ {
		if it := &b.items[b.wireAt]; it.fromWire {
			off := len(b.wireBuf)
			b.wireBuf = appendWire(b.wireBuf, spanOf(b.text, it.off, it.n))
			it.off, it.n = uint32(off), uint32(len(b.wireBuf)-off)
		}
	}
	if b.wireAt < len(b.items) {
		return false
	}
	b.wire = swar.String(b.wireBuf)
	b.wireBuf = nil
	for i := range b.items {
		if it := &b.items[i]; it.fromWire {
			it.key = prefixKey(b.prefixOf(it))
		}
	}
	b.wired = true
	return true
}

// prepare sorts the items and sizes what the steps fill, once listStep
// and wireStep are done.
func (b *indexBuild) prepare() {
	if !b.listed {
		b.listStep(math.MaxInt) // what is left of it
	}
	if !b.wired {
		b.wireStep(unboundedWork) // what is left of it
	}
	items := b.items
	b.sortItems()
	wildCount := 0
	for i := range items {
		if !items[i].whole {
			wildCount++
		}
	}
	b.idx = &ruleIndex{windows: newWindowTableFor(wildCount)}
	// The records are written once the windows are numbered and the
	// widths of their fields known.
	b.wild = make([]wildRule, 0, wildCount)
	// The pattern set is sized once, for the largest entry that uses it,
	// so that touchStep can write its pages before the steps do.
	if run := b.largestEntry(); run > 8 {
		b.seen.reset(run)
	}
	b.prepared = true
}

// largestEntry returns how many items the largest entry holds: the
// longest run of items of one prefix, once they are sorted.
func (b *indexBuild) largestEntry() int {
	items, largest := b.items, 0
	for i := 0; i < len(items); {
		j := i + 1
		for j < len(items) && b.samePrefix(&items[i], &items[j]) {
			j++
		}
		largest, i = max(largest, j-i), j
	}
	return largest
}

// pageBytes is the size of a page of memory, as the steps touch it.
const pageBytes = 4 << 10

// touchStep writes into the pages of the tables the steps fill at random
// places (the window table and the pattern set), up to work bytes of
// them from where the last call stopped, and reports whether every page
// is written. A process takes a page fault at the first write of each
// page it gets from the system, 2-3 us each on the development machine:
// the first step of a fresh process's first hostile index took them all
// (535 for 1 MiB of tables: 1.69 ms where a step takes 0.4 ms), in parts
// they cost each question a bounded share.
func (b *indexBuild) touchStep(work int) (done bool) {
	windows, seen := b.idx.windows.slots, b.seen.slots
	const perWindow, perSeen = pageBytes / int(unsafe.Sizeof(windowSlot{})), pageBytes / int(unsafe.Sizeof(patternSlot{}))
	end := b.touched + work
	for ; b.touched < end; b.touched += pageBytes {
		switch at := b.touched; {
		case at < len(windows)*int(unsafe.Sizeof(windowSlot{})):
			windows[at/pageBytes*perWindow] = windowSlot{}
		case at-len(windows)*int(unsafe.Sizeof(windowSlot{})) < len(seen)*int(unsafe.Sizeof(patternSlot{})):
			seen[(at-len(windows)*int(unsafe.Sizeof(windowSlot{})))/pageBytes*perSeen] = patternSlot{}
		default:
			b.touchedAll = true
			return true
		}
	}
	return false
}

// prefixOf returns the literal prefix of it.
func (b *indexBuild) prefixOf(it *indexItem) string {
	if it.fromWire {
		return b.wire[it.off : it.off+it.n]
	}
	return spanOf(b.text, it.off, it.n)
}

// sortItems sorts the items by prefix, then by position: the order of the
// entries, each with its rules in deciding order.
func (b *indexBuild) sortItems() {
	items := b.items
	byPrefix := func(x, y indexItem) int {
		if x.key != y.key { // most comparisons, without a call
			return cmp.Compare(x.key, y.key)
		}
		if c := b.comparePrefixes(&x, &y); c != 0 {
			return c
		}
		return cmp.Compare(x.pos, y.pos)
	}
	// Hostile sets, whose rules share one prefix, are in order already.
	if b.itemsSorted() {
		return
	}
	if len(items) < radixItems {
		slices.SortFunc(items, byPrefix)
		return
	}
	// A stable sort by key, a byte at a time from the last, which keeps
	// the items of one key in position order, as they were made; passes
	// whose byte is the same in every key are skipped.
	var counts [8][256]int32
	for i := range items {
		k := items[i].key
		for d := range 8 {
			counts[d][byte(k>>(8*d))]++
		}
	}
	src, dst := items, make([]indexItem, len(items))
	for d := range 8 {
		count := &counts[d]
		if count[byte(src[0].key>>(8*d))] == int32(len(src)) {
			continue
		}
		var sum int32
		for v := range count {
			count[v], sum = sum, sum+count[v]
		}
		for i := range src {
			v := byte(src[i].key >> (8 * d))
			dst[count[v]] = src[i]
			count[v]++
		}
		src, dst = dst, src
	}
	if &src[0] != &items[0] {
		copy(items, src)
	}
	// The items of one key whose prefixes are longer than 8 bytes, or of
	// different lengths, are put in order by comparing them.
	for i := 0; i < len(items); {
		j := i + 1
		for j < len(items) && items[j].key == items[i].key {
			j++
		}
		if run := items[i:j]; len(run) > 1 && !slices.IsSortedFunc(run, byPrefix) {
			slices.SortFunc(run, byPrefix)
		}
		i = j
	}
}

// itemsSorted reports whether the items are sorted as sortItems sorts
// them: slices.IsSortedFunc with sortItems' function, without its calls
// and copies of two items a comparison (32,000 hostile items took 3.5 M
// instructions, about 110 a comparison, in the first part of their
// index's building).
func (b *indexBuild) itemsSorted() bool {
	items := b.items
	for i := 1; i < len(items); i++ {
		x, y := &items[i-1], &items[i]
		if x.key != y.key {
			if x.key > y.key {
				return false
			}
			continue
		}
		if x.n <= 8 && y.n <= 8 {
			if x.n != y.n {
				if x.n > y.n {
					return false
				}
				continue
			}
		} else if c := strings.Compare(b.prefixOf(x), b.prefixOf(y)); c != 0 {
			if c > 0 {
				return false
			}
			continue
		}
		if x.pos > y.pos {
			return false
		}
	}
	return true
}

// samePrefix reports whether x and y have one prefix: comparePrefixes(x,
// y) == 0, for the few instructions most items' keys and lengths take.
func (b *indexBuild) samePrefix(x, y *indexItem) bool {
	if x.key != y.key || x.n != y.n {
		return false
	}
	return x.n <= 8 || b.prefixOf(x) == b.prefixOf(y)
}

// comparePrefixes orders the prefixes of x and y as strings.Compare does:
// by their keys, or, when the keys are equal and both prefixes fit them,
// by their lengths (a pattern holds no NUL byte, so the shorter is a
// prefix of the longer).
func (b *indexBuild) comparePrefixes(x, y *indexItem) int {
	if x.key != y.key {
		return cmp.Compare(x.key, y.key)
	}
	if x.n <= 8 && y.n <= 8 {
		return cmp.Compare(x.n, y.n)
	}
	return strings.Compare(b.prefixOf(x), b.prefixOf(y))
}

// step reads rules until it has charged work (see ruleBuildWork) or read
// them all, and reports whether they are all read: finish then completes
// the index.
func (b *indexBuild) step(work int64) (done bool) {
	items, compiled, text := b.items, b.compiled, b.text
	var spent int64
	for !b.done {
		if b.j == 0 { // a new entry
			if b.i == len(items) {
				b.done = true
				break
			}
			b.prefix = b.prefixOf(&items[b.i])
			b.entry = prefixEntry{n: uint32(len(b.prefix)), literal: noRule, firstWild: noRule, parent: -1}
			b.starts = append(b.starts, len(b.wild))
			j := b.i
			for j < len(items) && b.samePrefix(&items[b.i], &items[j]) {
				j++
			}
			b.j, b.k = j, b.i
			if j-b.i > 8 {
				b.seen.reset(j - b.i)
			}
		}
		large := b.j-b.i > 8
		e := &b.entry
		for ; b.k < b.j; b.k++ {
			if spent >= work {
				return false
			}
			it := &items[b.k]
			spent += ruleBuildWork
			if it.whole {
				e.literal = min(e.literal, it.pos)
				continue
			}
			c := &compiled[it.pos]
			spent += int64(c.n)
			// A rule whose pattern an earlier rule has never decides. (A
			// pattern kept in both forms is seen twice: it then costs a
			// second filter, never a wrong answer.)
			if large && b.seen.add(compiled, text, it.pos) {
				continue
			}
			pattern := wirePattern(c, text, &b.wb)
			filter, covered := newWindowFilter(b.idx.windows, pattern, len(b.prefix))
			r := wildRule{pos: it.pos, filter: filter}
			if filterKind(filter) == filterAnchoredPiece {
				r.piece = uint16(len(anchoredPiece(pattern)))
			}
			if rest := requiredBytes(pattern[len(b.prefix):]); b.j-b.i < needAfter || rest&^covered != 0 {
				r.need, r.hasNeed = byteSignature(b.prefix)|rest, true
			}
			if e.firstWild == noRule {
				e.firstWild = r.pos
			}
			b.wild = append(b.wild, r)
		}
		b.endEntry()
	}
	return true
}

// endEntry adds the entry whose rules are read to the index.
func (b *indexBuild) endEntry() {
	idx, e := b.idx, b.entry
	e.chainMin = min(e.literal, e.firstWild)
	for len(b.stack) > 0 && !strings.HasPrefix(b.prefix, b.prefixes[b.stack[len(b.stack)-1]]) {
		b.stack = b.stack[:len(b.stack)-1]
	}
	if len(b.stack) > 0 {
		e.parent = b.stack[len(b.stack)-1]
		e.chainMin = min(e.chainMin, idx.entries[e.parent].chainMin)
	}
	idx.entries = append(idx.entries, e)
	b.prefixes = append(b.prefixes, b.prefix)
	idx.keys = append(idx.keys, keyPair(b.prefix))
	b.stack = append(b.stack, int32(len(idx.entries)-1))
	b.i, b.j = b.j, 0
}

// compactWindows compacts the window table, once step has read every
// rule: the first part of finishing, apart from number's, so that no
// question does both (star-tail's 32,000 rules: 3.6 M instructions, then
// 1.7 M, with the question's scan of 2.9 M).
func (b *indexBuild) compactWindows() {
	b.starts = append(b.starts, len(b.wild))
	b.renumber = b.idx.windows.compact()
	b.compacted = true
}

// number numbers the windows and lays the records out, once step has read
// every rule: the second part of finishing, after compactWindows.
func (b *indexBuild) number() {
	if !b.compacted {
		b.compactWindows()
	}
	idx, wild, starts, renumber := b.idx, b.wild, b.starts, b.renumber
	var maxStep uint32
	var maxSpan, maxMidOff, maxPiece uint16
	for e := range idx.entries {
		prev := idx.entries[e].firstWild - 1
		for w := starts[e]; w < starts[e+1]; w++ {
			r := &wild[w]
			maxStep = max(maxStep, uint32(r.pos-prev))
			prev = r.pos
			if r.filter.first >= 0 {
				r.filter.first = renumber[r.filter.first]
			}
			if r.filter.last >= 0 {
				r.filter.last = renumber[r.filter.last]
			}
			if r.filter.mid >= 0 {
				r.filter.mid = renumber[r.filter.mid]
			}
			maxSpan, maxMidOff, maxPiece = max(maxSpan, r.filter.span), max(maxMidOff, r.filter.midOff), max(maxPiece, r.piece)
		}
	}
	idx.layout = newRecordLayout(maxStep, idx.windows.count, maxSpan, maxMidOff, maxPiece)
	b.renumber, b.numbered = nil, true
}

// finish writes the records, numbering the windows first if need be, once
// step has read every rule, and returns the index.
func (b *indexBuild) finish() *ruleIndex {
	if !b.numbered {
		b.number()
	}
	for !b.writeRecords(unboundedWork) {
	}
	return b.idx
}

// writeRecords writes the records of the entries' wild rules, once the
// windows are numbered, until it has charged work (ruleBuildWork a rule)
// or written them all, and reports whether the index is complete. It may
// stop within an entry: a hostile set's rules are most often all of one.
func (b *indexBuild) writeRecords(work int64) (done bool) {
	idx, wild, starts := b.idx, b.wild, b.starts
	if !b.writing {
		b.out = newRecordWriter(idx.recordBytes(wild, starts))
		b.writing, b.entry0, b.rec = true, 0, -1
		return false
	}
	out := &b.out
	for spent := int64(0); b.entry0 < len(idx.entries); b.entry0++ {
		e := b.entry0
		if b.rec < 0 { // the entry's first record
			idx.entries[e].recordLo = out.align()
			b.rec, b.prev = starts[e], idx.entries[e].firstWild-1
		}
		for ; b.rec < starts[e+1]; b.rec++ {
			if spent >= work {
				return false
			}
			r := &wild[b.rec]
			idx.layout.putRecord(out, uint32(r.pos-b.prev), r.need, r.hasNeed, filterKind(r.filter), r.filter, r.piece)
			b.prev = r.pos
			spent += ruleBuildWork
		}
		if starts[e] < starts[e+1] {
			out.put(0, idx.layout.headBits) // a zero step: the end
		}
		spent += ruleBuildWork
		b.rec = -1
	}
	out.align()
	idx.records = out.finish()
	b.out = recordWriter{}
	// The appends leave spare capacity: the index keeps only what it uses.
	idx.entries, idx.keys = exactSize(idx.entries), exactSize(idx.keys)
	return true
}
