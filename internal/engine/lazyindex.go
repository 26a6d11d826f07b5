package engine

import (
	"math"
	"strings"
	"sync"
	"sync/atomic"
)

// The index of a rule set, built once it pays for itself (see plan.go
// for when): until then, and while it is built in parts, questions scan
// the rules.

// A lazyIndex builds the index of a rule list once it pays for itself, so
// that parsing does not pay for agents that are never asked about, and a
// file asked a few questions does not pay for more than it uses. Until
// then, queries scan the rules. It is safe for concurrent use.
type lazyIndex struct {
	compiled []compiledRule
	text     string       // the string block of compiled's patterns
	asked    atomic.Int32 // queries scanned so far
	// lastScan is what the last query that scanned every rule was
	// charged, at most math.MaxInt32: 32 bits, beside asked, so that a
	// lazyIndex takes 96 bytes, not 112.
	lastScan atomic.Int32
	scanned  atomic.Int64              // the bytes their wildcard matches were charged (see scanBytesPerRule)
	mu       sync.Mutex                // held while building
	steps    *indexBuild               // the building under way in steps (see stepThenScan), guarded by mu
	built    atomic.Pointer[ruleIndex] // set under mu; read without it by find
	// small is the index of a set prefixIndexable accepts, set under mu
	// instead of built.
	small atomic.Pointer[prefixIndex]
}

// ready reports whether the index is built, small or not.
func (l *lazyIndex) ready() bool { return l.small.Load() != nil || l.built.Load() != nil }

// getSmall returns the set's prefixIndex, building it if need be, or nil
// when the set does not take one (see prefixIndexable).
func (l *lazyIndex) getSmall() *prefixIndex {
	if p := l.small.Load(); p != nil {
		return p
	}
	if !prefixIndexable(l.compiled) {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.small.Load()
	if p == nil {
		p = newPrefixIndex(l.compiled, l.text)
		l.small.Store(p)
	}
	return p
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

// stepThenScan is how a question on a set of stepwiseRules rules or
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
// and reports whether the index is built. The parts: the rules' literal
// prefixes, touchWork bytes of them at a time (listStep), those of
// compact rules in wire form (wireStep), their sort (prepare), the pages
// of the tables the steps fill written touchWork bytes at a time
// (touchStep), the steps that read the rules, the window table
// compacted, the windows numbered, the records written a part at a
// time; each of the other bounded ones does about indexStepWork.
func (l *lazyIndex) buildPart() (built bool) {
	switch b := l.steps; {
	case l.built.Load() != nil:
		return true
	case b == nil:
		l.steps = newIndexBuild(l.compiled, l.text)
		l.steps.listStep(touchWork)
	case !b.listed:
		b.listStep(touchWork)
	case !b.wired:
		b.wireStep(indexStepWork)
	case !b.prepared:
		b.prepare()
	case !b.touchedAll:
		b.touchStep(touchWork)
	case !b.done:
		b.step(indexStepWork)
	case !b.compacted:
		b.compactWindows()
	case !b.numbered:
		b.number()
	case b.writeRecords(indexStepWork):
		l.built.Store(b.idx)
		l.steps = nil
		return true
	}
	return false
}

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
	if budget < int64(l.lastScan.Load()) {
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
			l.lastScan.Store(int32(min(spent, math.MaxInt32)))
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
			if pairs != nil && (pairs.lacksLastPair(pattern) || c.info&ruleCompact == 0 && pairs.lacksLastOrder(pattern) || !pairs.admits(pattern)) {
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
