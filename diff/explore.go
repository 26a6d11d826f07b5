package diff

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
	lists   [2]ruleList
	refs    [][]ruleRef // the rules using each pattern
	classes []*pathClass
	byKey   map[[2]int32]*pathClass
	decided bool
	work    int64
	budget  int64
	states  []string // keys, in breadth-first order
	matched [2][]uint32
	gen     uint32
}

// explore compares two rule lists over every path, within budget (a
// count of position steps; see Options.MaxWork).
func explore(old, new ruleList, budget int64) *exploration {
	e := &exploration{a: newAutomaton(), lists: [2]ruleList{old, new}, byKey: map[[2]int32]*pathClass{}, budget: budget}
	for f := range e.lists {
		for i := range e.lists[f] {
			r := &e.lists[f][i]
			r.pat = e.a.add(r.wire)
			for int(r.pat) >= len(e.refs) {
				e.refs = append(e.refs, nil)
			}
			e.refs[r.pat] = append(e.refs[r.pat], ruleRef{uint8(f), int32(i)})
		}
		e.matched[f] = make([]uint32, len(e.lists[f]))
	}
	e.a.makeClasses()
	e.st = newStepper(e.a)
	e.decided = e.run()
	if len(e.classes) > 0 {
		e.findExceptions()
	}
	return e
}

// verdicts returns each file's deciding rule and verdict for a path that
// ends in the state of the given positions, and marks the rules that
// match it. Google's matcher: the longest match of each kind, the first in
// file order at equal length; a disallow decides when strictly longer than
// every matching allow, and an empty pattern (length 0) never disallows.
func (e *exploration) verdicts(positions []int32) (dec [2]int32, allowed [2]bool) {
	e.gen++
	var bestAllow, bestDis [2]int32
	for f := range bestAllow {
		bestAllow[f], bestDis[f] = -1, -1
	}
	better := func(f uint8, cur, cand int32) bool {
		if cur < 0 {
			return true
		}
		c, n := &e.lists[f][cur], &e.lists[f][cand]
		return n.priority > c.priority || n.priority == c.priority && cand < cur
	}
	for _, p := range positions {
		if k := e.a.kind[p]; k != posEnd && k != posEndAnchored {
			continue
		}
		for _, ref := range e.refs[e.a.pattern[p]] {
			e.matched[ref.file][ref.idx] = e.gen
			if e.lists[ref.file][ref.idx].allow {
				if better(ref.file, bestAllow[ref.file], ref.idx) {
					bestAllow[ref.file] = ref.idx
				}
			} else if better(ref.file, bestDis[ref.file], ref.idx) {
				bestDis[ref.file] = ref.idx
			}
		}
	}
	for f := range dec {
		ap, dp := -1, -1
		if bestAllow[f] >= 0 {
			ap = e.lists[f][bestAllow[f]].priority
		}
		if bestDis[f] >= 0 {
			dp = e.lists[f][bestDis[f]].priority
		}
		if dp > ap {
			dec[f] = bestDis[f]
		} else {
			dec[f] = bestAllow[f]
		}
		allowed[f] = !(dp > 0 && dp > ap)
	}
	return dec, allowed
}

// run explores every state breadth-first, recording the first (shortest)
// witness of each class of paths whose verdict differs. It reports false
// when the budget ran out first.
func (e *exploration) run() bool {
	type node struct {
		parent int32
		via    byte
		wire   uint8
	}
	var nodes []node
	index := map[string]int32{}
	var keyBuf []byte
	var positions, out []int32
	add := func(parent int32, via byte, wire uint8, pos []int32) {
		keyBuf = stateKey(keyBuf, wire, pos)
		if _, ok := index[string(keyBuf)]; ok {
			return
		}
		k := string(keyBuf)
		index[k] = int32(len(nodes))
		e.states = append(e.states, k)
		nodes = append(nodes, node{parent, via, wire})
		e.work += int64(len(pos)) + 8
	}
	init := e.st.initial()
	e.work += int64(len(init))
	// Every path starts with '/'.
	out = e.st.step(out[:0], init, '/')
	add(-1, '/', wireStep(wireNeutral, '/'), out)
	for i := 0; i < len(nodes); i++ {
		if e.work > e.budget {
			return false
		}
		positions = decodePositions(positions, e.states[i])
		dec, allowed := e.verdicts(positions)
		e.work += int64(len(positions))
		if allowed[0] != allowed[1] {
			if _, ok := e.byKey[dec]; !ok {
				var path []byte
				for j := int32(i); j >= 0; j = nodes[j].parent {
					path = append(path, nodes[j].via)
				}
				for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
					path[l], path[r] = path[r], path[l]
				}
				c := &pathClass{decider: dec, allowed: allowed, witness: string(path)}
				e.byKey[dec] = c
				e.classes = append(e.classes, c)
			}
		}
		for _, c := range e.a.classes {
			w := wireStep(nodes[i].wire, c)
			if w == wireDead {
				continue
			}
			out = e.st.step(out[:0], positions, c)
			e.work += int64(len(positions) + len(out))
			add(int32(i), c, w, out)
		}
	}
	return true
}

// findExceptions passes over the explored states again and records, for
// each class, the rules that decide instead where the class's deciding
// patterns match: "paths matching /private/ but not /private/press/".
func (e *exploration) findExceptions() {
	var positions []int32
	for _, k := range e.states {
		positions = decodePositions(positions, k)
		dec, _ := e.verdicts(positions)
		for _, c := range e.classes {
			if c.decider == dec {
				continue
			}
			in := true
			for f := range dec {
				if d := c.decider[f]; d >= 0 && e.matched[f][d] != e.gen {
					in = false
				}
			}
			if !in {
				continue
			}
			for f := range dec {
				if d := dec[f]; d >= 0 && d != c.decider[f] && len(c.except[f]) < maxExceptions && !contains(c.except[f], d) {
					c.except[f] = append(c.except[f], d)
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
