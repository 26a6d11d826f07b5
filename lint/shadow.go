package lint

import (
	"sort"
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// Which rules can never decide: a rule of the other kind that takes
// precedence matches every path the rule matches.

// shadowBudget bounds the pattern comparisons of one Lint call, so that a
// file built to be slow cannot make it so; past it, fewer shadowed rules
// are reported, never wrong ones.
const shadowBudget = 1 << 20

// shadowed returns the rules of s that never decide, each with a rule that
// takes precedence wherever it matches.
func shadowed(s *agentSet, budget *int) []keyedFinding {
	// Candidate shadowers by their literal prefix.
	byPrefix := make(map[string][]int)
	var lengths []int
	haveLen := make(map[int]bool)
	sameAllow := make(map[string]int) // wire pattern -> first allow rule with it
	for i, r := range s.rules {
		if !matchable(r.pattern) {
			continue
		}
		p, _ := pattern.LiteralPrefix(r.pattern)
		byPrefix[p] = append(byPrefix[p], i)
		if !haveLen[len(p)] {
			haveLen[len(p)] = true
			lengths = append(lengths, len(p))
		}
		if r.allow && !r.derived {
			if _, ok := sameAllow[r.pattern]; !ok {
				sameAllow[r.pattern] = i
			}
		}
	}
	sort.Ints(lengths)

	// A rule's entries (itself and its derived index.htm pattern) are
	// adjacent; it never decides if every entry is shadowed.
	var out []keyedFinding
	for i := 0; i < len(s.rules); {
		k := ruleKey{int(s.rules[i].group), int(s.rules[i].index)}
		var f finding
		all := true
		for ; i < len(s.rules) && int(s.rules[i].group) == k.group && int(s.rules[i].index) == k.index; i++ {
			by, same := s.coveredBy(i, sameAllow, byPrefix, lengths, budget)
			if by < 0 {
				all = false
				continue
			}
			if !f.found {
				f = finding{set: s, by: s.rules[by], same: same, found: true}
			}
		}
		if all && f.found {
			out = append(out, keyedFinding{k, f})
		}
	}
	return out
}

// A keyedFinding is a finding about the rule with key k.
type keyedFinding struct {
	k ruleKey
	f finding
}

// coveredBy returns the index in s.rules of a rule that takes precedence
// over rule i wherever i matches, and whether it has the same pattern; -1
// if none is found.
func (s *agentSet) coveredBy(i int, sameAllow map[string]int, byPrefix map[string][]int, lengths []int, budget *int) (int, bool) {
	r := &s.rules[i]
	if !matchable(r.pattern) {
		return -1, false
	}
	if !r.allow && !r.derived {
		if j, ok := sameAllow[r.pattern]; ok {
			return j, true
		}
	}
	text := coverText(r.pattern)
	t0 := textPrefix(text)
	for _, n := range lengths {
		if n > len(t0) || *budget <= 0 {
			break
		}
		for _, j := range byPrefix[t0[:n]] {
			o := &s.rules[j]
			if o.allow == r.allow || !(len(o.pattern) > len(r.pattern) || len(o.pattern) == len(r.pattern) && o.allow) {
				continue
			}
			*budget -= 1 + len(o.pattern)/64
			if pattern.Match(o.pattern, text) {
				return j, false
			}
		}
	}
	return -1, false
}

// matchable reports whether a pattern can match some path, which always
// starts with '/'.
func matchable(p string) bool {
	return p != "" && (p[0] == '/' || p[0] == '*')
}

// textPrefix returns the literal start of a coverText: the bytes before its
// first 0xFF.
func textPrefix(t string) string {
	if i := strings.IndexByte(t, 0xFF); i >= 0 {
		return t[:i]
	}
	return t
}

// coverText returns pattern p as a string that another pattern matches
// only if it matches every path p matches: each '*' of p, and its open end
// unless p ends in '$', become the byte 0xFF, which no pattern in wire form
// contains, so that only a '*' can absorb it.
func coverText(p string) string {
	anchored := strings.HasSuffix(p, "$")
	if anchored {
		p = p[:len(p)-1]
	}
	t := strings.ReplaceAll(p, "*", "\xFF")
	if !anchored {
		t += "\xFF"
	}
	return t
}
