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
func shadowed(s *agentSet, budget *int) map[ruleKey]finding {
	// Candidate shadowers by their literal prefix.
	byPrefix := make(map[string][]int)
	var lengths []int
	haveLen := make(map[int]bool)
	sameAllow := make(map[string]int) // wire pattern -> first allow rule with it
	for i, r := range s.rules {
		if !matchable(r.pattern) {
			continue
		}
		p := pattern.LiteralPrefix(r.pattern)
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

	type state struct {
		entries, shadowed int
		f                 finding
	}
	var states map[ruleKey]*state
	for i := range s.rules {
		r := &s.rules[i]
		k := ruleKey{r.group, r.index}
		if states == nil {
			states = make(map[ruleKey]*state)
		}
		st := states[k]
		if st == nil {
			st = &state{}
			states[k] = st
		}
		st.entries++
		if !matchable(r.pattern) {
			continue
		}
		if !r.allow && !r.derived {
			if j, ok := sameAllow[r.pattern]; ok {
				st.shadowed++
				if !st.f.found {
					st.f = finding{set: s, by: s.rules[j], same: true, found: true}
				}
				continue
			}
		}
		text := coverText(r.pattern)
		t0 := textPrefix(text)
		by := -1
	search:
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
					by = j
					break search
				}
			}
		}
		if by >= 0 {
			st.shadowed++
			if !st.f.found {
				st.f = finding{set: s, by: s.rules[by], found: true}
			}
		}
	}
	out := make(map[ruleKey]finding)
	for k, st := range states {
		if st.shadowed == st.entries && st.f.found {
			out[k] = st.f
		}
	}
	return out
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
