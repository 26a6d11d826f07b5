package engine

import (
	"math/bits"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// A rule list tried in file order or in deciding order within the
// stream's wildcard budget: the questions a scoped set answers before it
// is sorted or indexed (see plan.go).

// firstVerdict returns the verdict for url of the question that built s,
// before s is published, without sorting its rules: bestWithin tries
// them in file order, which finds the rule the sorted set would find
// first. ok is false when the stream's wildcard budget is spent; the
// sorted set then answers.
func (s *scopedSet) firstVerdict(url string, explain bool) (v Verdict, ok bool) {
	return s.rules.verdictWithin(url, false, explain)
}

// scanVerdict returns the verdict of rs for url, found by bestWithin:
// the few questions after the one that built a scoped set answer without
// building the set's index, which may never be needed. ok is false when
// the stream's wildcard budget (streamWildBudget) is spent; rs.decide
// then answers.
func (rs *RuleSet) scanVerdict(url string, explain bool) (v Verdict, ok bool) {
	return rs.verdictWithin(url, true, explain)
}

// verdictWithin returns the verdict for url of the rule that bestWithin
// finds among rules, sorted or in file order, whose patterns are spans of
// text, for the URL's path in wire form (none: allowed); ok is false when
// it gives up.
func (rs *RuleSet) verdictWithin(url string, sorted, explain bool) (v Verdict, ok bool) {
	rules, text := rs.compiled, rs.text
	if len(rules) == 0 {
		return Verdict{Allowed: true}, true
	}
	var c *compiledRule
	path, n, rewrite := findPath(url)
	if !rewrite {
		c, ok = bestWithin(rules, text, path, sorted)
	} else {
		var buf [pathBufSize]byte
		c, ok = bestWithin(rules, text, rewritePath(path, n, &buf), sorted)
	}
	switch {
	case !ok:
		return Verdict{}, false
	case c == nil:
		return Verdict{Allowed: true}, true
	}
	if !explain {
		// Allowed reads the answer alone: the rule's line may cost a
		// count over the file (see ruleLine).
		return Verdict{Allowed: c.allows()}, true
	}
	return Verdict{Allowed: c.allows(), Rule: c.asWritten(text, rules, rs.counted)}, true
}

// bestWithin returns the rule of rules that comes first in compareRules
// order of those that match path, unless the wildcard matches would cost
// more than streamWildBudget (ok false). Rules sorted, it is the first
// that matches, as decide finds it without an index. Rules in file order,
// a rule that cannot come before the best so far is not tried.
func bestWithin(rules []compiledRule, text, path string, sorted bool) (best *compiledRule, ok bool) {
	key, budget := bits.ReverseBytes64(prefixKey(path)), streamWildBudget
	// The table on the stack: read at an offset of the stack pointer,
	// not through an address made again for every rule.
	masks := memoryOrderMasks
	for i := nextMayMatch(rules, text, key, &masks, 0); i < len(rules); i = nextMayMatch(rules, text, key, &masks, i+1) {
		c := &rules[i]
		if best != nil && compareRules(*c, *best, text) >= 0 {
			continue
		}
		if c.info&ruleWild != 0 {
			if budget -= len(path) + int(c.n); budget < 0 {
				return nil, false
			}
		}
		if c.matchesFully(text, path) {
			if sorted {
				return c, true
			}
			best = c
		}
	}
	return best, true
}

// nextMayMatch returns the index of the first rule of rules from i on
// that mayMatch admits for a path whose prefixKey, its bytes reversed, is
// key, or len(rules). Most rules end here, and bestWithin inlines it as an
// inner loop that calls nothing, so that no register is spilled between
// two rules: bestWithin's own loop, which calls, spilled and reloaded them
// on every rule (1,060 instructions a question on a corpus file; parse +
// 5 checks a corpus pass took 80.4 M instructions before, 76.0 M after).
// The words compare in memory order, as loaded, and the masks' table is
// the caller's copy on the stack: 13 instructions a rule, not 15 (no
// BSWAP, and no address of the table made again for every rule).
func nextMayMatch(rules []compiledRule, text string, key uint64, masks *[16]uint64, i int) int {
	for ; i < len(rules); i++ {
		if (swar.Load64At(text, int(rules[i].off))^key)&masks[rules[i].head&15] == 0 {
			return i
		}
	}
	return i
}

// memoryOrderMasks[n] keeps the first n bytes of a word loaded in memory
// order (little-endian): headMasks with its bytes reversed.
var memoryOrderMasks = func() (m [16]uint64) {
	for n := range m {
		m[n] = bits.ReverseBytes64(headMasks[n])
	}
	return m
}()
