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
// pattern r, by a sufficient test on their shapes: r's literal pieces
// occur, in order and without overlap, each within one of q's pieces (then
// every path that holds q's pieces in order holds r's), r's first piece at
// the start of q's when r is anchored there, and r anchored at the end
// only when it is q.
func implies(q, r string, qs, rs *shape) bool {
	if q == r {
		return true
	}
	if strings.HasSuffix(r, "$") {
		return false
	}
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

// impliedIndex finds, for a rule of one list, the best rule of the other
// list its pattern implies, looking only at rules that can be implied: a
// rule anchored at the start is implied only by patterns whose first piece
// starts with its own.
type impliedIndex struct {
	e        *exploration
	shapes   [2][]shape
	byFirst  [2]map[string][]int32 // rules anchored at the start, by first piece
	floating [2][]int32            // rules not anchored at the start
	memo     [2][]int32            // per rule of list g: the best implied rule of list 1-g; -2 not yet known
}

func newImpliedIndex(e *exploration, shapes [2][]shape) *impliedIndex {
	x := &impliedIndex{e: e, shapes: shapes}
	for f := range shapes {
		x.byFirst[f] = map[string][]int32{}
		for i, s := range shapes[f] {
			switch {
			case s.never:
			case s.start && len(s.pieces) > 0:
				x.byFirst[f][s.pieces[0]] = append(x.byFirst[f][s.pieces[0]], int32(i))
			default:
				x.floating[f] = append(x.floating[f], int32(i))
			}
		}
		x.memo[f] = make([]int32, len(shapes[f]))
		for i := range x.memo[f] {
			x.memo[f][i] = -2
		}
	}
	return x
}

// best returns the rule of list 1-g that outranks every other rule there
// implied by rule i of list g (-1: none), and the work done.
func (x *impliedIndex) best(g int, i int32) (int32, int64) {
	if b := x.memo[g][i]; b != -2 {
		return b, 1
	}
	f := 1 - g
	list := x.e.lists[f]
	q := x.e.lists[g][i].Wire
	qs := &x.shapes[g][i]
	best, work := int32(-1), int64(1)
	try := func(j int32) {
		work++
		if outranks(list, j, best) && implies(q, list[j].Wire, qs, &x.shapes[f][j]) {
			best = j
		}
	}
	for _, j := range x.floating[f] {
		try(j)
	}
	if qs.start && len(qs.pieces) > 0 {
		first := qs.pieces[0]
		for n := 1; n <= len(first); n++ {
			work++
			for _, j := range x.byFirst[f][first[:n]] {
				try(j)
			}
		}
	}
	x.memo[g][i] = best
	return best, work
}
