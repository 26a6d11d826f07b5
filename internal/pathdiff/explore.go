package pathdiff

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// ruleRef names one rule of the old (file 0) or new (file 1) rule list.
type ruleRef struct {
	file uint8
	idx  int32
}

// A pathClass is a set of paths whose verdict differs: those the same old
// rule and the same new rule decide (-1: no rule).
type pathClass struct {
	decider [2]int32
	allowed [2]bool
	witness string
	// except holds, per file, rules that decide instead for some paths
	// the class's deciding patterns match: the class's exceptions.
	except [2][]int32
}

// maxExceptions bounds the exceptions kept per class and file.
const maxExceptions = 16

// exploration is the automaton of one crawler class's two rule lists,
// explored breadth-first.
type exploration struct {
	a       *automaton
	st      *stepper
	lists   [2][]Rule
	pats    [2][]int32  // each rule's pattern in the automaton
	refs    [][]ruleRef // the rules using each pattern
	classes []*pathClass
	byKey   map[[2]int32]*pathClass
	decided bool
	work    int64
	budget  int64
	states  []string // keys, in breadth-first order
	// delta marks the patterns the two files do not hold alike (a kind
	// in one that the other lacks): a path that matches none of them has
	// the same verdict in both.
	delta  []bool
	nodes  []node                                  // each state's parent and the byte read from it
	decide func(f int, path string) (int32, int64) // Options.Decide
	// scratch space of exhausted
	livePats []int32
	cand     [2][]int32
}

// A node is how breadth-first search reached a state, and the rules
// that matched for good on the way.
type node struct {
	parent int32
	via    byte
	wire   uint8
	best   bests
}

// bests holds, per file, the best allow ([f][0]) and disallow ([f][1])
// rule among those that matched for good on the way to a state (-1:
// none). A pattern without '$' that matched stays matched on every longer
// path, and the verdict depends only on the best match of each kind, so a
// state keeps these four rules in place of the set of patterns that
// matched: states that differ only in lesser matches are one.
type bests [2][2]int32

var noBests = bests{{-1, -1}, {-1, -1}}

func kindOf(r *Rule) int {
	if r.Allow {
		return 0
	}
	return 1
}

// collapse removes from a state the ends of patterns without '$' (they
// matched, for good) and records their rules in b.
func (e *exploration) collapse(positions []int32, b bests) ([]int32, bests) {
	out := positions[:0]
	for _, p := range positions {
		if e.a.kind[p] != posEnd {
			out = append(out, p)
			continue
		}
		for _, ref := range e.refs[e.a.pattern[p]] {
			f := int(ref.file)
			k := kindOf(&e.lists[f][ref.idx])
			if e.outranks(f, ref.idx, b[f][k]) {
				b[f][k] = ref.idx
			}
		}
	}
	return out, b
}

// priorityOf returns the priority of rule r of file f, -1 for none.
func (e *exploration) priorityOf(f int, r int32) int {
	return priorityIn(e.lists[f], r)
}

// pathTo returns the path that first reached state i.
func (e *exploration) pathTo(i int32) string {
	var path []byte
	for j := i; j >= 0; j = e.nodes[j].parent {
		path = append(path, e.nodes[j].via)
	}
	for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
		path[l], path[r] = path[r], path[l]
	}
	return string(path)
}

// explore compares two rule lists over every path, within budget (a
// count of position steps; see Options.MaxWork).
func explore(old, new []Rule, opts Options) *exploration {
	// The automaton gets half the budget, the pairwise check the rest.
	budget := opts.Budget
	e := &exploration{a: newAutomaton(), lists: [2][]Rule{old, new}, decide: opts.Decide, byKey: map[[2]int32]*pathClass{}, budget: budget / 2}
	if opts.AutomatonOff {
		e.budget = 0
	}
	for f := range e.lists {
		e.pats[f] = make([]int32, len(e.lists[f]))
		for i := range e.lists[f] {
			pat := e.a.add(e.lists[f][i].Wire)
			e.pats[f][i] = pat
			for int(pat) >= len(e.refs) {
				e.refs = append(e.refs, nil)
			}
			e.refs[pat] = append(e.refs[pat], ruleRef{uint8(f), int32(i)})
		}
	}
	e.delta = make([]bool, len(e.refs))
	for k, refs := range e.refs {
		var kinds [2]uint8
		for _, r := range refs {
			if e.lists[r.file][r.idx].Allow {
				kinds[r.file] |= 1
			} else {
				kinds[r.file] |= 2
			}
		}
		e.delta[k] = kinds[0] != kinds[1]
	}
	e.a.makeClasses()
	e.st = newStepper(e.a)
	e.decided = e.run()
	if !e.decided && !opts.NoFallback {
		e.decided = e.pairwise(budget - e.work)
	}
	if len(e.classes) > 0 && opts.Exceptions {
		e.findExceptions()
	}
	return e
}

// verdicts returns each file's deciding rule and verdict for a path that
// ends in the state: the rules that matched for good, and those of
// patterns ending in '$' that match where the path ends. Google's matcher:
// the longest match of each kind, the first in file order at equal length;
// a disallow decides when strictly longer than every matching allow, and
// an empty pattern (length 0) never disallows.
func (e *exploration) verdicts(positions []int32, b bests) (dec [2]int32, allowed [2]bool) {
	for _, p := range positions {
		if e.a.kind[p] != posEndAnchored {
			continue
		}
		for _, ref := range e.refs[e.a.pattern[p]] {
			f := int(ref.file)
			k := kindOf(&e.lists[f][ref.idx])
			if e.outranks(f, ref.idx, b[f][k]) {
				b[f][k] = ref.idx
			}
		}
	}
	for f := range dec {
		ap, dp := e.priorityOf(f, b[f][0]), e.priorityOf(f, b[f][1])
		if dp > ap {
			dec[f] = b[f][1]
		} else {
			dec[f] = b[f][0]
		}
		allowed[f] = !(dp > 0 && dp > ap)
	}
	return dec, allowed
}

// prune drops from a sorted state the positions of patterns that can no
// longer decide nor change a verdict, and reports whether the state can
// still lead to a path whose verdict differs.
//
// The best allow (A) and disallow (D) that matched for good only grow on
// longer paths. An allow shorter than A or D can then never be the
// deciding rule, and neither can a disallow no longer than A or shorter
// than D (allow wins a tie; at equal length the first in the file
// decides): the positions of a pattern that is such a rule in every file
// using it are dropped, which merges states that differ only in them.
// Within one pattern, a position before a '*' the pattern has reached is
// dropped too: every path the pattern can still match from it, it matches
// from the '*' (matching each piece at its leftmost place loses nothing),
// which keeps one pattern's pieces from multiplying the states.
//
// When no pattern the files hold differently keeps a position, and the
// best matches of each kind so far are as long in both files, every path
// through the state matches the same patterns of each kind and length in
// both from here on, so it has the same verdict in both: the state need
// not be explored.
func (e *exploration) prune(positions []int32, b bests) ([]int32, bool) {
	var maxAllow, maxDis [2]int
	for f := range maxAllow {
		maxAllow[f], maxDis[f] = e.priorityOf(f, b[f][0]), e.priorityOf(f, b[f][1])
	}
	relevant := func(k int32) bool {
		for _, ref := range e.refs[k] {
			if mayDecide(&e.lists[ref.file][ref.idx], maxAllow[ref.file], maxDis[ref.file]) {
				return true
			}
		}
		return false
	}
	live := maxAllow[0] != maxAllow[1] || maxDis[0] != maxDis[1]
	return e.a.keepPatterns(positions, relevant, e.delta, live)
}

// outranks reports whether rule a of file f decides over rule b (-1: no
// rule) when both match: the longer pattern, an allow at equal length, the
// first in the file among rules of one kind and length. The deciding rule
// of a path is the matching rule no other outranks (see verdicts).
func (e *exploration) outranks(f int, a, b int32) bool {
	return outranks(e.lists[f], a, b)
}

// maxPairs bounds the pairs of deciding rules exhausted looks at.
const maxPairs = 1 << 14

// exhausted reports whether no path through the state can reach a class
// of changed paths not found yet, so that its successors need not be
// explored. It over-approximates: any of the patterns with a live position
// may still match, with the patterns that matched for good (no '$').
// The deciding rule of a file on a longer path is then the best of those
// that matched for good, or a live rule that outranks it. A pair of
// deciding rules (o, n) is feasible only if the other file's rules of the
// same patterns do not outrank them, since both files read the same path.
// When every feasible pair whose verdicts differ is a class already
// found, exploring further finds nothing new.
func (e *exploration) exhausted(positions []int32, b bests) bool {
	var best [2]int32
	for f := range best {
		best[f] = b[f][0]
		if e.outranks(f, b[f][1], best[f]) {
			best[f] = b[f][1]
		}
	}
	livePats := e.livePats[:0]
	last := int32(-1)
	for _, p := range positions {
		if k := e.a.pattern[p]; k != last {
			livePats = append(livePats, k)
			last = k
		}
	}
	e.livePats = livePats
	cand := &e.cand
	for f := range cand {
		cand[f] = append(cand[f][:0], best[f])
	}
	for _, k := range livePats {
		for _, ref := range e.refs[k] {
			if e.outranks(int(ref.file), ref.idx, best[ref.file]) {
				cand[ref.file] = append(cand[ref.file], ref.idx)
			}
		}
	}
	if len(cand[0])*len(cand[1]) > maxPairs {
		return false
	}
	allows := func(f int, r int32) bool {
		if r < 0 {
			return true
		}
		x := &e.lists[f][r]
		return x.Allow || x.priority() == 0
	}
	for _, o := range cand[0] {
		for _, n := range cand[1] {
			if allows(0, o) == allows(1, n) {
				continue
			}
			if _, ok := e.byKey[[2]int32{o, n}]; ok {
				continue
			}
			if e.feasible(o, n) {
				return false
			}
		}
	}
	return true
}

// feasible reports whether the pair of deciding rules (o in the old list,
// n in the new; -1: none) can decide one path: both lists read it, so the
// rules of o's pattern in the new list must not outrank n, nor those of
// n's pattern in the old list o.
func (e *exploration) feasible(o, n int32) bool {
	check := func(f int, d int32, g int, r int32) bool {
		if r < 0 {
			return true
		}
		for _, ref := range e.refs[e.pats[g][r]] {
			if int(ref.file) == f && e.outranks(f, ref.idx, d) {
				return false
			}
		}
		return true
	}
	return check(0, o, 1, n) && check(1, n, 0, o)
}

// run explores every state breadth-first, recording the first (shortest)
// witness of each class of paths whose verdict differs. It reports false
// when the budget ran out first.
func (e *exploration) run() bool {
	nodes := &e.nodes
	index := map[string]int32{}
	var keyBuf []byte
	var positions, out []int32
	add := func(parent int32, via byte, wire uint8, b bests, pos []int32) {
		keyBuf = stateKey(keyBuf, wire, b, pos)
		if _, ok := index[string(keyBuf)]; ok {
			return
		}
		k := string(keyBuf)
		index[k] = int32(len(*nodes))
		e.states = append(e.states, k)
		*nodes = append(*nodes, node{parent, via, wire, b})
		e.work += int64(len(pos)) + 8
	}
	next := func(positions []int32, b bests, c byte, out []int32) ([]int32, bests, bool) {
		out = e.st.step(out[:0], positions, c)
		e.work += int64(len(positions) + len(out))
		out, b = e.collapse(out, b)
		out, live := e.prune(out, b)
		return out, b, live
	}
	init := e.st.initial()
	e.work += int64(len(init))
	// Every path starts with '/'.
	if out, b, live := next(init, noBests, '/', out); live {
		add(-1, '/', wireStep(wireNeutral, '/'), b, out)
	}
	var elseOut []int32
	for i := 0; i < len(*nodes); i++ {
		if e.work > e.budget {
			return false
		}
		positions = decodePositions(positions, e.states[i])
		b := (*nodes)[i].best
		dec, allowed := e.verdicts(positions, b)
		e.work += int64(len(positions))
		if allowed[0] != allowed[1] {
			if _, ok := e.byKey[dec]; !ok {
				c := &pathClass{decider: dec, allowed: allowed, witness: e.pathTo(int32(i))}
				e.byKey[dec] = c
				e.classes = append(e.classes, c)
			}
		}
		e.work += 2 * int64(len(positions))
		if e.exhausted(positions, b) {
			continue
		}
		// Only the bytes some live position reads lead to states of their
		// own; every other byte leads to the same positions, and differs
		// only in its role in wire form.
		var reads [128]bool
		for _, p := range positions {
			if e.a.kind[p] == posLiteral {
				reads[e.a.lit[p]] = true
			}
		}
		elseDone, elseLive := false, false
		var elseBests bests
		var roles [4]bool
		for _, c := range e.a.classes {
			w := wireStep((*nodes)[i].wire, c)
			if w == wireDead {
				continue
			}
			if reads[c] {
				var nb bests
				var live bool
				if out, nb, live = next(positions, b, c, out); live {
					add(int32(i), c, w, nb, out)
				}
				continue
			}
			if roles[roleOf(c)] {
				continue
			}
			roles[roleOf(c)] = true
			if !elseDone {
				elseOut, elseBests, elseLive = next(positions, b, c, elseOut)
				elseDone = true
			}
			if elseLive {
				add(int32(i), c, w, elseBests, elseOut)
			}
		}
	}
	return true
}

// maxExceptionRules bounds the rule lists findExceptions probes: it
// matches every rule against one path per rule.
const maxExceptionRules = 2000

// findExceptions finds, for each class, rules that decide instead on some
// paths the class's deciding patterns match: "paths matching /private/
// but not /private/press/". It probes one path per rule, the rule's
// pattern with its '*' and final '$' removed, and records the rules that
// decide there in place of a class's own.
func (e *exploration) findExceptions() {
	if len(e.lists[0])+len(e.lists[1]) > maxExceptionRules {
		return
	}
	decide := func(f int, path string) (int32, []bool) {
		matched := make([]bool, len(e.lists[f]))
		best := int32(-1)
		for i := range e.lists[f] {
			if pattern.Match(e.lists[f][i].Wire, path) {
				matched[i] = true
				if e.outranks(f, int32(i), best) {
					best = int32(i)
				}
			}
		}
		return best, matched
	}
	for f := range e.lists {
		for _, r := range e.lists[f] {
			path := strings.TrimSuffix(strings.ReplaceAll(r.Wire, "*", ""), "$")
			if !strings.HasPrefix(path, "/") {
				continue
			}
			var dec [2]int32
			var matched [2][]bool
			for g := range dec {
				dec[g], matched[g] = decide(g, path)
			}
			for _, c := range e.classes {
				if c.decider == dec {
					continue
				}
				in := true
				for g := range dec {
					if d := c.decider[g]; d >= 0 && !matched[g][d] {
						in = false
					}
				}
				if !in {
					continue
				}
				for g := range dec {
					if d := dec[g]; d >= 0 && d != c.decider[g] && len(c.except[g]) < maxExceptions && !contains(c.except[g], d) {
						c.except[g] = append(c.except[g], d)
					}
				}
			}
		}
	}
}

func contains(s []int32, v int32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// mayDecide reports whether rule r, still matching, could decide a path
// over the best allow and disallow matched so far (their priorities; -1
// for none): an allow must be at least as long as both, a disallow longer
// than the allow and at least as long as the disallow.
func mayDecide(r *Rule, maxAllow, maxDis int) bool {
	if r.Allow {
		return r.priority() >= maxAllow && r.priority() >= maxDis
	}
	return r.priority() > maxAllow && r.priority() >= maxDis
}

// keepPatterns keeps, of positions (grouped by pattern), those of the
// patterns relevant reports, each from the last '*' reached (the positions
// before it add nothing), and reports whether the state is live: live
// already, or keeping a pattern that delta marks as held differently.
func (a *automaton) keepPatterns(positions []int32, relevant func(int32) bool, delta []bool, live bool) ([]int32, bool) {
	out := positions[:0]
	for i := 0; i < len(positions); {
		k := a.pattern[positions[i]]
		j := i
		from := i
		for ; j < len(positions) && a.pattern[positions[j]] == k; j++ {
			if a.kind[positions[j]] == posStar {
				from = j
			}
		}
		if relevant(k) {
			out = append(out, positions[from:j]...)
			live = live || delta[k]
		}
		i = j
	}
	return out, live
}
