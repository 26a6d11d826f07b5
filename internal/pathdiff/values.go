package pathdiff

import "encoding/binary"

// Values carried by the longest match. Besides allow and disallow rules, a
// group can hold rules whose match assigns a value to a path: Content-Usage
// lines (draft-ietf-aipref-attach-05 section 3.1) carry a path pattern,
// matched as allow and disallow patterns are, and a statement of
// preference; of the lines whose pattern matches, those with the longest
// pattern in wire form apply, and several of one length combine. The value
// of a path therefore depends, as its verdict does, only on which patterns
// match it and on their lengths, and the same automaton decides where two
// versions assign different values. Preferences apply only to content the
// crawler may fetch (attach-05 section 3.1), so a path's values are
// compared only where both versions' allow and disallow rules let it be
// fetched: the automaton runs those rules too.

// A ValueRule is a rule whose match assigns a value to a path, with its
// pattern in wire form (as Rule's). Its Value is an identifier the caller
// chooses: equal identifiers are equal values, and Options.Combine
// combines them.
type ValueRule struct {
	Wire  string
	Value int32
}

// A ValueClass is a set of paths that both versions let the crawler fetch
// and whose values differ: those for which the same value rules decide.
type ValueClass struct {
	// Decider holds, per list, the first (in list order) of the longest
	// matching value rules, -1 when none matches.
	Decider [2]int32
	// Value holds each list's value for the class: the values of its
	// longest matching rules combined, ValueOptions.None when none
	// matches.
	Value [2]int32
	// Witness is the class's shortest path found.
	Witness string
}

// ValueOptions control a comparison of values.
type ValueOptions struct {
	// Budget bounds the work, in the units of Options.Budget. There is
	// no pairwise fallback: a comparison that runs out is not decided.
	Budget int64
	// None is the value of a path no value rule matches.
	None int32
	// Combine returns the value of two rules of one length that both
	// match, and its cost in the units of Budget (values the caller
	// builds take memory: the budget bounds it); it must be commutative,
	// associative and idempotent.
	Combine func(a, b int32) (int32, int64)
	// AlwaysDiffer says the versions' values differ on every path even
	// where their value rules agree (a part of the value that does not
	// depend on the path changed): every path both let the crawler fetch
	// is then a changed path.
	AlwaysDiffer bool
}

// A ValueResult is what a comparison of values found.
type ValueResult struct {
	// Decided is true when every path was compared: Classes then lists
	// every class of paths, fetchable under both versions, whose values
	// differ. False when the budget ran out: the classes found are
	// genuine, but there may be more.
	Decided bool
	Classes []ValueClass
	Work    int64
}

// SameValues reports whether two lists of value rules assign every path
// the same value without exploring paths: equal multisets of (pattern,
// value) do.
func SameValues(a, b []ValueRule) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[ValueRule]int{}
	for _, r := range a {
		count[r]++
	}
	for _, r := range b {
		if count[r]--; count[r] < 0 {
			return false
		}
	}
	return true
}

// CompareValues finds the classes of paths that both verdict lists allow
// and whose values under the two value lists differ, within opts.Budget.
func CompareValues(verdicts [2][]Rule, values [2][]ValueRule, opts ValueOptions) *ValueResult {
	if !opts.AlwaysDiffer && SameValues(values[0], values[1]) {
		return &ValueResult{Decided: true}
	}
	if opts.Budget <= 0 {
		return &ValueResult{}
	}
	e := newValueExploration(verdicts, values, opts)
	decided := e.work <= opts.Budget && e.run()
	return &ValueResult{Decided: decided, Classes: e.classes, Work: e.work}
}

// A valueSum is what the value rules that matched for good say so far in
// one list: the first of the longest (-1: none) and their combined value.
type valueSum struct{ dec, val int32 }

// A valueNode is how breadth-first search reached a state.
type valueNode struct {
	parent int32
	via    byte
	wire   uint8
	best   bests       // verdict rules matched for good, as in exploration
	sums   [2]valueSum // value rules matched for good
}

// valueExploration is the automaton of the verdict and value rules of two
// versions, explored breadth first.
type valueExploration struct {
	a       *automaton
	st      *stepper
	rules   [2][]Rule
	values  [2][]ValueRule
	vrefs   [][]ruleRef // the verdict rules using each pattern
	urefs   [][]ruleRef // the value rules using each pattern
	udelta  []bool      // patterns the value lists do not hold alike
	opts    ValueOptions
	nodes   []valueNode
	states  []string
	classes []ValueClass
	found   map[[4]int32]bool
	work    int64
}

func newValueExploration(verdicts [2][]Rule, values [2][]ValueRule, opts ValueOptions) *valueExploration {
	e := &valueExploration{a: newAutomaton(), rules: verdicts, values: values, opts: opts, found: map[[4]int32]bool{}}
	grow := func(k int32) {
		for int(k) >= len(e.vrefs) {
			e.vrefs = append(e.vrefs, nil)
			e.urefs = append(e.urefs, nil)
		}
	}
	for f := range verdicts {
		for i := range verdicts[f] {
			k := e.a.add(verdicts[f][i].Wire)
			grow(k)
			e.vrefs[k] = append(e.vrefs[k], ruleRef{uint8(f), int32(i)})
		}
	}
	for f := range values {
		for i := range values[f] {
			k := e.a.add(values[f][i].Wire)
			grow(k)
			e.urefs[k] = append(e.urefs[k], ruleRef{uint8(f), int32(i)})
		}
	}
	// A pattern is held alike when both lists give it the same combined
	// value: a path it matches gets that value from it in both.
	e.udelta = make([]bool, len(e.urefs))
	for k, refs := range e.urefs {
		var v [2]int32
		var has [2]bool
		for _, r := range refs {
			x := e.values[r.file][r.idx].Value
			if has[r.file] {
				var cost int64
				x, cost = opts.Combine(v[r.file], x)
				e.work += cost
			}
			v[r.file], has[r.file] = x, true
		}
		e.udelta[k] = has[0] != has[1] || v[0] != v[1]
	}
	e.a.makeClasses()
	e.st = newStepper(e.a)
	return e
}

// valueLen returns the pattern length of value rule r of list f, -1 for
// none.
func (e *valueExploration) valueLen(f int, r int32) int {
	if r < 0 {
		return -1
	}
	return len(e.values[f][r].Wire)
}

// addValue returns s with value rule r of list f matched: a longer
// pattern replaces what matched, one of the same length combines with it.
func (e *valueExploration) addValue(f int, s valueSum, r int32) valueSum {
	n, cur := len(e.values[f][r].Wire), e.valueLen(f, s.dec)
	switch {
	case n > cur:
		return valueSum{r, e.values[f][r].Value}
	case n == cur:
		v, cost := e.opts.Combine(s.val, e.values[f][r].Value)
		e.work += cost
		return valueSum{min(s.dec, r), v}
	}
	return s
}

// match records the rules of pattern k as matched.
func (e *valueExploration) match(k int32, b *bests, sums *[2]valueSum) {
	for _, ref := range e.vrefs[k] {
		f := int(ref.file)
		kind := kindOf(&e.rules[f][ref.idx])
		if outranks(e.rules[f], ref.idx, b[f][kind]) {
			b[f][kind] = ref.idx
		}
	}
	for _, ref := range e.urefs[k] {
		sums[ref.file] = e.addValue(int(ref.file), sums[ref.file], ref.idx)
	}
}

// collapse removes the ends of patterns without '$' (they matched, for
// good) and records their rules.
func (e *valueExploration) collapse(positions []int32, b bests, sums [2]valueSum) ([]int32, bests, [2]valueSum) {
	out := positions[:0]
	for _, p := range positions {
		if e.a.kind[p] != posEnd {
			out = append(out, p)
			continue
		}
		e.match(e.a.pattern[p], &b, &sums)
	}
	return out, b, sums
}

// at returns, for a path ending in the state, whether each list allows it
// and its values: what matched for good, and the patterns ending in '$'
// that match where the path ends.
func (e *valueExploration) at(positions []int32, b bests, sums [2]valueSum) (allowed [2]bool, out [2]valueSum) {
	for _, p := range positions {
		if e.a.kind[p] == posEndAnchored {
			e.match(e.a.pattern[p], &b, &sums)
		}
	}
	for f := range allowed {
		ap, dp := priorityIn(e.rules[f], b[f][0]), priorityIn(e.rules[f], b[f][1])
		allowed[f] = !(dp > 0 && dp > ap)
	}
	return allowed, sums
}

func priorityIn(list []Rule, r int32) int {
	if r < 0 {
		return -1
	}
	return list[r].priority()
}

// prune drops the positions of patterns that can no longer decide a
// verdict (as exploration.prune) nor a value (a value pattern shorter than
// what matched for good in every list using it), and reports whether a
// path through the state can still have different values: when no pattern
// the value lists hold differently keeps a position and what matched for
// good is as long and the same value in both, every longer path gets the
// same value in both, whatever else matches.
func (e *valueExploration) prune(positions []int32, b bests, sums [2]valueSum) ([]int32, bool) {
	var maxAllow, maxDis [2]int
	for f := range maxAllow {
		maxAllow[f], maxDis[f] = priorityIn(e.rules[f], b[f][0]), priorityIn(e.rules[f], b[f][1])
	}
	relevant := func(k int32) bool {
		for _, ref := range e.urefs[k] {
			if len(e.values[ref.file][ref.idx].Wire) >= e.valueLen(int(ref.file), sums[ref.file].dec) {
				return true
			}
		}
		for _, ref := range e.vrefs[k] {
			if mayDecide(&e.rules[ref.file][ref.idx], maxAllow[ref.file], maxDis[ref.file]) {
				return true
			}
		}
		return false
	}
	live := e.opts.AlwaysDiffer || sums[0].val != sums[1].val ||
		e.valueLen(0, sums[0].dec) != e.valueLen(1, sums[1].dec)
	return e.a.keepPatterns(positions, relevant, e.udelta, live)
}

// key encodes a state.
func (e *valueExploration) key(buf []byte, wire uint8, b bests, sums [2]valueSum, positions []int32) []byte {
	buf = append(buf[:0], wire)
	for f := range b {
		for k := range b[f] {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(b[f][k]))
		}
		buf = binary.LittleEndian.AppendUint32(buf, uint32(sums[f].dec))
		buf = binary.LittleEndian.AppendUint32(buf, uint32(sums[f].val))
	}
	prev := int32(0)
	for _, p := range positions {
		buf = binary.AppendUvarint(buf, uint64(p-prev))
		prev = p
	}
	return buf
}

// valueKeyHeader is the length of a state key before its positions.
const valueKeyHeader = 1 + 2*4*4

// pathTo returns the path that first reached state i.
func (e *valueExploration) pathTo(i int32) string {
	var path []byte
	for j := i; j >= 0; j = e.nodes[j].parent {
		path = append(path, e.nodes[j].via)
	}
	for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
		path[l], path[r] = path[r], path[l]
	}
	return string(path)
}

// run explores every state breadth first, recording the first (shortest)
// witness of each class. It reports false when the budget ran out first.
func (e *valueExploration) run() bool {
	index := map[string]int32{}
	var keyBuf []byte
	var positions, out, elseOut []int32
	none := [2]valueSum{{-1, e.opts.None}, {-1, e.opts.None}}
	add := func(parent int32, via byte, wire uint8, b bests, sums [2]valueSum, pos []int32) {
		keyBuf = e.key(keyBuf, wire, b, sums, pos)
		if _, ok := index[string(keyBuf)]; ok {
			return
		}
		k := string(keyBuf)
		index[k] = int32(len(e.nodes))
		e.states = append(e.states, k)
		e.nodes = append(e.nodes, valueNode{parent, via, wire, b, sums})
		e.work += int64(len(pos)) + 8
	}
	type next struct {
		pos  []int32
		b    bests
		sums [2]valueSum
		live bool
	}
	step := func(positions []int32, b bests, sums [2]valueSum, c byte, out []int32) next {
		out = e.st.step(out[:0], positions, c)
		e.work += int64(len(positions) + len(out))
		out, b, sums = e.collapse(out, b, sums)
		out, live := e.prune(out, b, sums)
		return next{out, b, sums, live}
	}
	init := e.st.initial()
	e.work += int64(len(init))
	if n := step(init, noBests, none, '/', out); n.live {
		add(-1, '/', wireStep(wireNeutral, '/'), n.b, n.sums, n.pos)
	}
	for i := 0; i < len(e.nodes); i++ {
		if e.work > e.opts.Budget {
			return false
		}
		positions = decodePositionsAt(positions, e.states[i], valueKeyHeader)
		nd := e.nodes[i]
		allowed, sums := e.at(positions, nd.best, nd.sums)
		e.work += int64(len(positions))
		if allowed[0] && allowed[1] && (e.opts.AlwaysDiffer || sums[0].val != sums[1].val) {
			k := [4]int32{sums[0].dec, sums[1].dec, sums[0].val, sums[1].val}
			if !e.found[k] {
				e.found[k] = true
				e.classes = append(e.classes, ValueClass{
					Decider: [2]int32{sums[0].dec, sums[1].dec},
					Value:   [2]int32{sums[0].val, sums[1].val},
					Witness: e.pathTo(int32(i)),
				})
			}
		}
		// With no value pattern left, every longer path has the values
		// of this state: once its class is found, nothing new is.
		valuesLeft := false
		for _, p := range positions {
			if len(e.urefs[e.a.pattern[p]]) > 0 {
				valuesLeft = true
				break
			}
		}
		if !valuesLeft && e.found[[4]int32{nd.sums[0].dec, nd.sums[1].dec, nd.sums[0].val, nd.sums[1].val}] {
			continue
		}
		var reads [128]bool
		for _, p := range positions {
			if e.a.kind[p] == posLiteral {
				reads[e.a.lit[p]] = true
			}
		}
		elseDone := false
		var elseNext next
		var roles [4]bool
		for _, c := range e.a.classes {
			w := wireStep(nd.wire, c)
			if w == wireDead {
				continue
			}
			if reads[c] {
				if n := step(positions, nd.best, nd.sums, c, out); n.live {
					out = n.pos
					add(int32(i), c, w, n.b, n.sums, n.pos)
				}
				continue
			}
			if roles[roleOf(c)] {
				continue
			}
			roles[roleOf(c)] = true
			if !elseDone {
				elseNext = step(positions, nd.best, nd.sums, c, elseOut)
				elseOut = elseNext.pos
				elseDone = true
			}
			if elseNext.live {
				add(int32(i), c, w, elseNext.b, elseNext.sums, elseNext.pos)
			}
		}
	}
	return true
}
