// Package pathdiff compares two lists of allow and disallow rules over
// every URL path: it finds each class of paths whose verdict differs, with
// a shortest witness path, or proves that none does. Package diff compares
// two versions of a file with it, crawler class by crawler class; package
// lint asks it whether dropping a rule from an agent's rules changes any
// verdict (a rule that changes none is dead).
//
// A verdict depends only on which patterns of the list match a path and on
// their lengths (RFC 9309 section 2.2.2: the most specific match wins,
// measured in octets; Google's matcher: the longest pattern in wire form
// decides, allow winning a tie, an empty disallow never disallows). Each
// pattern with '*' and a final '$' is a regular language, so one automaton
// runs every pattern of both lists at once (a subset construction over the
// patterns' positions, reading only paths in wire form) and every state it
// can reach is visited, breadth first, within a budget. Where the budget
// runs out, each pair of rules that could decide a changed path is checked
// on a finite set of candidate paths built from their pieces (fallback.go).
// The result says whether every path was compared: a comparison that was
// not decided never claims "no change".
package pathdiff

import (
	"slices"
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// A Rule is an allow or disallow rule with its pattern in wire form: bytes
// >= 0x80 percent-encoded and escapes' hex digits upper-cased, as the
// matcher compares them; '*' and a final '$' keep their meaning. Its
// priority is the pattern's length.
type Rule struct {
	Allow bool
	Wire  string
}

// priority is the rule's rank in the longest-match order.
func (r *Rule) priority() int { return len(r.Wire) }

// A Class is a set of paths whose verdict differs: those for which the same
// old rule and the same new rule decide (-1: no rule matches).
type Class struct {
	// Decider holds the deciding rule's index in each list.
	Decider [2]int32
	// Allowed holds each list's verdict for the class.
	Allowed [2]bool
	// Witness is the class's shortest path found, spelled with the
	// patterns' own bytes where it can be.
	Witness string
	// Except holds, per list, rules that decide instead for some paths
	// the class's deciding patterns match (set with Options.Exceptions).
	Except [2][]int32
}

// Options control a comparison.
type Options struct {
	// Budget bounds the work, in steps of pattern positions read or rules
	// looked at; the automaton gets half of it, the pairwise fallback the
	// rest. Zero or less decides nothing but identical lists.
	Budget int64

	// Decide, if set, returns the deciding rule of list f (0 old, 1 new)
	// for a path in wire form, as an index in the list or -1, and its cost
	// in steps; the fallback asks it, so that the caller's matcher checks
	// the candidates. Nil means the package's own matcher: the longest
	// matching pattern, allow winning a tie, the first in the list at
	// equal rank.
	Decide func(f int, path string) (rule int32, cost int64)

	// Exceptions asks for each class's exceptions (Class.Except).
	Exceptions bool

	// NoFallback turns the pairwise fallback off, and AutomatonOff gives
	// the automaton no budget: tests check each path of the proof alone.
	NoFallback, AutomatonOff bool
}

// A Result is what a comparison found.
type Result struct {
	// Decided is true when every path was compared: Classes then lists
	// every class of paths whose verdict differs. False when the budget
	// ran out: the classes found are genuine, but there may be more.
	Decided bool
	// Classes are the classes of changed paths, in the order found
	// (shortest witness first, for those the automaton found).
	Classes []Class
	// Work is the budget spent.
	Work int64
}

// Changed reports whether some path's verdict differs.
func (r *Result) Changed() bool { return len(r.Classes) > 0 }

// Compare compares the verdicts of two rule lists over every path in wire
// form, within opts.Budget.
func Compare(old, new []Rule, opts Options) *Result {
	if Same(old, new) {
		return &Result{Decided: true}
	}
	if opts.Budget <= 0 {
		return &Result{}
	}
	keep, reduced := relevant([2][]Rule{old, new})
	if keep[0] == nil && keep[1] == nil && reduced {
		return &Result{Decided: true} // no pattern the lists hold differently
	}
	lists := [2][]Rule{old, new}
	if reduced {
		// Compare the rules that can meet a changed path alone; indices
		// are mapped back below, and the caller's matcher's answers in.
		var inverse [2]map[int32]int32
		for f := range lists {
			lists[f] = make([]Rule, len(keep[f]))
			inverse[f] = make(map[int32]int32, len(keep[f]))
			for i, k := range keep[f] {
				lists[f][i] = [2][]Rule{old, new}[f][k]
				inverse[f][k] = int32(i)
			}
		}
		if decide := opts.Decide; decide != nil {
			opts.Decide = func(f int, path string) (int32, int64) {
				r, cost := decide(f, path)
				if r < 0 {
					return r, cost
				}
				if i, ok := inverse[f][r]; ok {
					return i, cost
				}
				return -2, cost // a rule left out: no pair's
			}
		}
	}
	e := explore(lists[0], lists[1], opts)
	r := &Result{Decided: e.decided, Work: e.work}
	back := func(f int, i int32) int32 {
		if !reduced || i < 0 {
			return i
		}
		return keep[f][i]
	}
	for _, c := range e.classes {
		cl := Class{Allowed: c.allowed, Witness: c.witness}
		for f := range cl.Decider {
			cl.Decider[f] = back(f, c.decider[f])
			for _, x := range c.except[f] {
				cl.Except[f] = append(cl.Except[f], back(f, x))
			}
		}
		r.Classes = append(r.Classes, cl)
	}
	return r
}

// relevant returns, for each list, the indices of the rules that can match
// a path whose verdict may differ, and whether that leaves some out (else
// keep is not set). A path matching no pattern the lists hold differently
// (a delta pattern: a kind in one list the other lacks) matches the same
// patterns of each kind in both, so has the same verdict; a rule whose
// literal prefix is neither a prefix of a delta pattern's literal prefix
// nor starts with one matches no path a delta pattern matches. Leaving such
// rules out of both lists (a pattern is left out of both or neither)
// changes neither which paths differ nor the rules that decide them. It
// reports keep nil for both and true when there is no delta pattern.
func relevant(lists [2][]Rule) (keep [2][]int32, reduced bool) {
	kinds := map[string][2]uint8{}
	for f := range lists {
		for _, r := range lists[f] {
			k := kinds[r.Wire]
			if r.Allow {
				k[f] |= 1
			} else {
				k[f] |= 2
			}
			kinds[r.Wire] = k
		}
	}
	var deltas []string
	for w, k := range kinds {
		if k[0] != k[1] {
			p, _ := pattern.LiteralPrefix(w)
			deltas = append(deltas, p)
		}
	}
	if len(deltas) == 0 {
		return keep, true
	}
	slices.Sort(deltas)
	deltas = slices.Compact(deltas)
	var lengths []int
	for _, d := range deltas {
		if !slices.Contains(lengths, len(d)) {
			lengths = append(lengths, len(d))
		}
	}
	// The work is bounded: past it, every rule is kept.
	work := 0
	limit := 64 * (len(lists[0]) + len(lists[1]) + 16)
	meets := func(w string) bool {
		q, _ := pattern.LiteralPrefix(w)
		for _, n := range lengths {
			work++
			if n <= len(q) {
				if _, found := slices.BinarySearch(deltas, q[:n]); found {
					return true
				}
			}
		}
		k, _ := slices.BinarySearch(deltas, q)
		return k < len(deltas) && strings.HasPrefix(deltas[k], q)
	}
	all := true
	for f := range lists {
		keep[f] = make([]int32, 0, len(lists[f]))
		for i, r := range lists[f] {
			if work > limit {
				return [2][]int32{}, false
			}
			if meets(r.Wire) {
				keep[f] = append(keep[f], int32(i))
			} else {
				all = false
			}
		}
	}
	if all {
		return [2][]int32{}, false
	}
	return keep, true
}

// Same reports whether two rule lists decide every path alike without
// exploring paths: the verdict depends only on which patterns of each kind
// match, so equal multisets of (kind, pattern) decide alike.
func Same(a, b []Rule) bool {
	if len(a) != len(b) {
		return false
	}
	key := func(l []Rule) []string {
		out := make([]string, len(l))
		for i, r := range l {
			k := "d"
			if r.Allow {
				k = "a"
			}
			out[i] = k + r.Wire
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(a), key(b))
}

// Decides returns the rule of list that decides for a path in wire form
// (-1: none matches): the matching rule no other matching rule outranks
// (the longer pattern, an allow at equal length, the first in the list
// among rules of one kind and length). It is the package's own matcher,
// which tests check against the library's.
func Decides(list []Rule, path string) int32 {
	best := int32(-1)
	for i := range list {
		if pattern.Match(list[i].Wire, path) && outranks(list, int32(i), best) {
			best = int32(i)
		}
	}
	return best
}

// Allows reports whether rule r (-1: none) allows when it decides: an
// allow, no rule, or an empty disallow.
func Allows(list []Rule, r int32) bool {
	if r < 0 {
		return true
	}
	return list[r].Allow || list[r].priority() == 0
}

// outranks reports whether rule a of list decides over rule b (-1: no
// rule) when both match.
func outranks(list []Rule, a, b int32) bool {
	if b < 0 {
		return a >= 0
	}
	if a < 0 {
		return false
	}
	ra, rb := &list[a], &list[b]
	if ra.priority() != rb.priority() {
		return ra.priority() > rb.priority()
	}
	if ra.Allow != rb.Allow {
		return ra.Allow
	}
	return a < b
}
