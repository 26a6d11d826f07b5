package pathdiff

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// When the automaton runs out of budget, each pair of rules that could
// decide a changed path (o in the old file, n in the new one, either
// possibly no rule) is checked on its own, on a finite set of short
// candidate paths built from the two patterns' pieces. The set is complete
// for the pair:
//
// Let w be a path that o and n decide. Mark w's first byte and the bytes
// of one occurrence of each literal piece of o and of n (a pattern
// p0*p1*...*pk[$] matches when its pieces occur in order, p0 at the start
// unless the pattern starts with '*', pk at the end with '$'), and replace
// each maximal run of unmarked bytes by one byte no pattern holds (sep).
// The result w' still matches o and n (their pieces keep their order, the
// first byte and, when w ends with a marked byte, the last byte stay in
// place), and every pattern that matches w' matches w (no piece holds sep,
// so each occurrence in w' lies in one run of w's bytes, in order). So in
// each file o and n are still the best matches of their kind, and every
// match of the other kind is no longer than before: o and n decide w' too.
// And w' is in wire form when w is (an escape cannot straddle sep, which
// is not a hex digit). candidates enumerates every such w': the pieces
// placed in order of their start, each overlapping what is placed (where
// the bytes agree), abutting it, or after one sep; then with and without
// a trailing sep.

// A shape is a pattern's literal pieces and anchors.
type shape struct {
	pieces     []string
	start, end bool // the first piece is at the path's start; the last at its end
	never      bool // the pattern matches no path
}

func shapeOf(wire string) shape {
	body, anchored := wire, strings.HasSuffix(wire, "$")
	if anchored {
		body = wire[:len(wire)-1]
	}
	parts := strings.Split(body, "*")
	var sh shape
	for _, p := range parts {
		if p != "" {
			sh.pieces = append(sh.pieces, p)
		}
	}
	sh.start = parts[0] != ""
	sh.end = anchored && parts[len(parts)-1] != ""
	// "$" alone matches only the empty path, and a path starts with '/'.
	sh.never = anchored && body == "" || sh.start && body[0] != '/'
	return sh
}

// maxCandidates bounds the candidates of one pair of rules.
const maxCandidates = 4096

// candidates calls emit with every candidate path of the pair of shapes
// (see above), until emit returns true (the pair's class is found); it
// reports false when there were more than maxCandidates.
func candidates(shapes [2]shape, sep byte, emit func(string) bool) bool {
	count := 0
	done := false
	var rec func(built string, next, lastEnd [2]int, lastStart int) bool
	rec = func(built string, next, lastEnd [2]int, lastStart int) bool {
		if next[0] == len(shapes[0].pieces) && next[1] == len(shapes[1].pieces) {
			for _, s := range []string{built, built + string(sep)} {
				ok := true
				for c := range shapes {
					if shapes[c].end && lastEnd[c] != len(s) {
						ok = false
					}
				}
				if ok {
					if count++; count > maxCandidates {
						return false
					}
					if done = emit(s); done {
						return true
					}
				}
			}
			return true
		}
		for c := range shapes {
			if next[c] == len(shapes[c].pieces) {
				continue
			}
			p := shapes[c].pieces[next[c]]
			lo, hi := max(lastEnd[c], lastStart), len(built)+1
			if next[c] == 0 && shapes[c].start {
				lo, hi = 0, 0
				if lastStart > 0 {
					continue
				}
			}
			for s := lo; s <= hi; s++ {
				var nb string
				switch {
				case s == len(built)+1:
					nb = built + string(sep) + p
				case s+len(p) <= len(built):
					if built[s:s+len(p)] != p {
						continue
					}
					nb = built
				default:
					if built[s:] != p[:len(built)-s] {
						continue
					}
					nb = built + p[len(built)-s:]
				}
				n, e := next, lastEnd
				n[c]++
				e[c] = s + len(p)
				if !rec(nb, n, e, s) {
					return false
				}
				if done {
					return true
				}
			}
		}
		return true
	}
	return rec("/", [2]int{}, [2]int{}, 0)
}

// wireForm reports whether every escape of path has upper-case hex
// digits, as a path in wire form has.
func wireForm(path string) bool {
	for i := 0; i+2 < len(path); i++ {
		if path[i] == '%' && pattern.IsHex(path[i+1]) && pattern.IsHex(path[i+2]) &&
			(pattern.IsLowerHex(path[i+1]) || pattern.IsLowerHex(path[i+2])) {
			return false
		}
	}
	return true
}

// decideAt returns the deciding rule of list f for path and the work done,
// in the units of the budget: the caller's matcher (Options.Decide), else
// the package's own, which reads every rule.
func (e *exploration) decideAt(f int, path string) (int32, int64) {
	if e.decide != nil {
		return e.decide(f, path)
	}
	return Decides(e.lists[f], path), int64(16 + len(e.lists[f]))
}

// allowsAs reports whether rule r of file f allows when it decides.
func (e *exploration) allowsAs(f int, r int32) bool { return Allows(e.lists[f], r) }

// pairwise decides the classes the automaton did not reach, pair by pair
// of deciding rules, within budget. It reports false when the budget or
// the candidates of a pair ran out.
func (e *exploration) pairwise(budget int64) bool {
	sep, ok := e.separator()
	if !ok || int64(len(e.lists[0])+1)*int64(len(e.lists[1])+1) > budget {
		return false // a pair's look costs at least a step
	}
	var shapes [2][]shape
	for f := range e.lists {
		for _, r := range e.lists[f] {
			shapes[f] = append(shapes[f], shapeOf(r.Wire))
		}
	}
	implied := newImpliedIndex(e, shapes)
	spent := int64(0)
	// excluded reports whether the rules of list f implied by rule r of the
	// other list (which decides there, so matches) outrank d in list f.
	excluded := func(f int, d, r int32) bool {
		if r < 0 {
			return false
		}
		b, work := implied.best(1-f, r)
		spent += work
		return outranks(e.lists[f], b, d)
	}
	for o := int32(-1); o < int32(len(e.lists[0])); o++ {
		for n := int32(-1); n < int32(len(e.lists[1])); n++ {
			if spent++; spent > budget {
				e.work += spent
				return false
			}
			if e.allowsAs(0, o) == e.allowsAs(1, n) {
				continue
			}
			if _, ok := e.byKey[[2]int32{o, n}]; ok || !e.feasible(o, n) || excluded(0, o, n) || excluded(1, n, o) {
				continue
			}
			var pair [2]shape
			if o >= 0 {
				pair[0] = shapes[0][o]
			}
			if n >= 0 {
				pair[1] = shapes[1][n]
			}
			if pair[0].never || pair[1].never {
				continue
			}
			complete := candidates(pair, sep, func(path string) bool {
				if spent > budget || !wireForm(path) {
					return false
				}
				d0, w0 := e.decideAt(0, path)
				d1, w1 := e.decideAt(1, path)
				spent += w0 + w1
				if d0 != o || d1 != n {
					return false
				}
				c := &pathClass{decider: [2]int32{o, n}, allowed: [2]bool{e.allowsAs(0, o), e.allowsAs(1, n)}, witness: path}
				e.byKey[c.decider] = c
				e.classes = append(e.classes, c)
				return true // the pair's class is found: its other candidates add nothing
			})
			if !complete || spent > budget {
				e.work += spent
				return false
			}
		}
	}
	e.work += spent
	return true
}

// separator returns a path byte no pattern holds and that plays no part
// in escapes, the automaton's class of other bytes.
func (e *exploration) separator() (byte, bool) {
	var used [256]bool
	for i, k := range e.a.kind {
		if k == posLiteral {
			used[e.a.lit[i]] = true
		}
	}
	for _, c := range []byte(preferred) {
		if !used[c] && pathByte(c) && roleOf(c) == roleOther {
			return c, true
		}
	}
	for c := 1; c < 0x80; c++ {
		if !used[c] && pathByte(byte(c)) && roleOf(byte(c)) == roleOther {
			return byte(c), true
		}
	}
	return 0, false
}
