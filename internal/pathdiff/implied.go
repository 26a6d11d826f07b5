package pathdiff

import "strings"

// Pairs of deciding rules that no path can have. When every path a
// pattern q matches also matches a pattern r (r is implied by q), a rule
// of q that decides a path in one list leaves every rule of r in the other
// list matching it too: if one of those outranks the other list's
// candidate deciding rule, the pair cannot decide any path. The pairwise
// fallback skips such pairs without building their candidates, which are
// many for pairs of patterns with several '*'.

// implies reports whether every path pattern q matches also matches
// pattern r, by a sufficient test: r's literal pieces occur, in order and
// without overlap, each within one of q's pieces (then every path that
// holds q's pieces in order holds r's), r's first piece at the start of
// q's when r is anchored there, and r anchored at the end only when it is
// q.
func implies(q, r string) bool {
	if q == r {
		return true
	}
	if strings.HasSuffix(r, "$") {
		return false
	}
	qs, rs := shapeOf(q), shapeOf(r)
	if qs.never {
		return true // q matches no path
	}
	if rs.never {
		return false
	}
	qi, at := 0, 0 // the piece of q being read, and the offset in it
	for k, p := range rs.pieces {
		if k == 0 && rs.start {
			if !qs.start || len(qs.pieces) == 0 || !strings.HasPrefix(qs.pieces[0], p) {
				return false
			}
			at = len(p)
			continue
		}
		found := false
		for ; qi < len(qs.pieces); qi, at = qi+1, 0 {
			if i := strings.Index(qs.pieces[qi][at:], p); i >= 0 {
				at += i + len(p)
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// maxImpliedChecks bounds the implication tests of bestImplied, which
// tests every rule of one list against every rule of the other.
const maxImpliedChecks = 1 << 20

// bestImplied returns, for each rule of list g, the rule of the other list
// that outranks every other rule there implied by its pattern (-1: none),
// or nil when the lists are too long to test every pair.
func (e *exploration) bestImplied() [2][]int32 {
	var out [2][]int32
	if int64(len(e.lists[0]))*int64(len(e.lists[1])) > maxImpliedChecks {
		return out
	}
	for g := range e.lists {
		f := 1 - g
		out[g] = make([]int32, len(e.lists[g]))
		for i := range e.lists[g] {
			best := int32(-1)
			for j := range e.lists[f] {
				if outranks(e.lists[f], int32(j), best) && implies(e.lists[g][i].Wire, e.lists[f][j].Wire) {
					best = int32(j)
				}
			}
			out[g][i] = best
		}
	}
	e.work += int64(len(e.lists[0])) * int64(len(e.lists[1])) * 2
	return out
}
