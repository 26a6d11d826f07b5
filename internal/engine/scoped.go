package engine

import (
	"math"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// A crawler asks a file about one agent, and the groups that apply to it
// (those naming its product token, else the "*" groups) are most often a
// small part of the file. Before the file is compiled, the rule set of an
// agent that keeps asking is compiled alone, from one pass over the file
// that passes over the groups that do not apply as the stream does: a
// scoped rule set. It decides exactly as the whole file's compiled set
// for that agent (TestScopedMatchesCompiled), and serves Allowed and
// Explain only; every other method compiles the whole file, after which
// the scoped sets are dropped.
//
// The patterns of a scoped set are, most often, the values as written,
// which are spans of the file's copy: the set then keeps them where they
// are, so that it costs 8 bytes a rule, and counts a rule's line in the
// copy when Explain asks for it (ruleLine). A set that holds a value that
// escaping changes, or the directory pattern Google derives from an
// index.htm allow, keeps its patterns in a string block of its own, each
// after its line.

// A scopedName is an agent asked about before compiling and its scoped
// set: File.scoped holds the last published, and each the one before.
// Every agent that no group names has the rules of the "*" groups: they
// share one set (see File.scope), which a crawler asking as two unnamed
// agents (Googlebot and bingbot, on most files) would otherwise keep
// twice, with its index.
type scopedName struct {
	agent string // as first asked; the set answers for it in any ASCII case
	set   *scopedSet
	prev  *scopedName
}

// count returns how many names are published up to n, n included: at
// most maxScopedAgents, counted rather than kept, so that a name takes 32
// bytes, not 48 (the second agent of most files asks with a name of its
// own, see File.scope).
func (n *scopedName) count() int {
	c := 0
	for ; n != nil; n = n.prev {
		c++
	}
	return c
}

// A scopedSet is the rule set of one agent, compiled alone, or of every
// agent no group names. It is immutable once published.
type scopedSet struct {
	// order holds the scans of the rules in file order
	// (fileOrderVerdict): how many are under way (readersMask), how many
	// questions may still scan (times leftOne; fileOrderScans at first),
	// and readersClosed once sort has begun: no scan starts then, and
	// sort waits for those under way to end.
	order atomic.Int32
	// state holds whether the rules are sorted (sortedBits), namedBit
	// (some group names the agent), whether rules.index is set
	// (indexBits), and, once sorted, how many questions scanVerdict
	// answered, times scanOne. Two words, not four, a sync.Once and a
	// bool: 32 bytes less a set.
	state atomic.Int32
	// rules.compiled holds the set's rules in file order, as compiled:
	// the question that built the set scans them (firstVerdict) before
	// the set is published, the next questions too (fileOrderVerdict),
	// and they are sorted in place only when a later question needs
	// them so (sortedRules). A file asked up to 1+fileOrderScans times
	// never sorts. The array's header is written only before the set is
	// published, so that a scan may read it while sort waits. A set of
	// indexMinRules rules or more gets its lazy index (rules.index) after
	// scopedScans questions more (ruleSet), so that a file asked a few
	// times keeps none (96 bytes; BenchmarkRetainedStates).
	rules RuleSet
	// agents sums up every product token of the file's user-agent
	// lines: a later agent it does not hold is named by no group; one it
	// may hold is looked for in the user-agent lines (groupdir.go).
	agents agentSummary
	// groups lists the file's groups, as the first set's pass read them,
	// for the passes of later agents (see groupdir.go); nil for a file
	// of few groups. The sets of a file share it. A pointer, so that a
	// set takes 144 bytes still.
	groups *[]groupEntry
	// name is the node of the agent the set was compiled for: one
	// allocation less for the question that compiles it.
	name scopedName
}

// findScoped returns the scoped rule set of agent, or nil.
func (f *File) findScoped(agent string) *scopedSet {
	for n := f.scoped.Load(); n != nil; n = n.prev {
		// A crawler most often asks with the same string each time: equal
		// strings at one address compare without reading their bytes.
		if n.agent == agent || parse.EqualFold(n.agent, agent) {
			return n.set
		}
	}
	return nil
}

// unnamedSet returns the scoped set of the agents no group names, or nil.
func (f *File) unnamedSet() *scopedSet {
	for n := f.scoped.Load(); n != nil; n = n.prev {
		if !n.set.named() {
			return n.set
		}
	}
	return nil
}

// scopedRules returns the rules of agent and whether some group names it,
// as Rules does, from the agent's scoped set, compiling it if needed; ok
// is false when f is to be compiled whole.
func (f *File) scopedRules(agent string) (rs *RuleSet, specific, ok bool) {
	body, ok := f.body()
	if !ok || f.isDisallowAll() {
		return nil, false, false
	}
	s := f.findScoped(agent)
	if s == nil {
		if s = f.scope(body, agent, nil); s == nil {
			return nil, false, false
		}
	}
	return s.ruleSet(), s.named(), true
}

// The parts of scopedSet.state: the sort's state in its low bits, then
// namedBit, then the questions scanVerdict answered, counted in scanOne.
const (
	notSorted  = 0
	sorting    = 1
	isSorted   = 2
	sortedBits = 3
	namedBit   = 4
	noIndex    = 0
	indexing   = 8
	indexed    = 16
	indexBits  = 24
	scanOne    = 32
)

// The parts of scopedSet.order: the scans under way in its low bits, the
// questions that may still scan counted in leftOne, and the sign bit,
// readersClosed, added when sort begins.
const (
	readersMask   = 1<<16 - 1
	leftOne       = 1 << 16
	readersClosed = math.MinInt32
)

// named reports whether some group names the set's agent.
func (s *scopedSet) named() bool { return s.state.Load()&namedBit != 0 }

// ruleSet returns the set's rules, sorted, with the lazy index of a set
// of indexMinRules rules or more: decide and every method of RuleSet may
// use them.
func (s *scopedSet) ruleSet() *RuleSet {
	if s.state.Load()&(sortedBits|indexBits) != isSorted|indexed {
		s.sortOnce()
		s.indexOnce()
	}
	return &s.rules
}

// sortedRules returns the set's rules, sorted the first time, for
// scanVerdict: their index may not be set.
func (s *scopedSet) sortedRules() *RuleSet {
	if s.state.Load()&sortedBits != isSorted {
		s.sortOnce()
	}
	return &s.rules
}

// sortOnce sorts the rules, or waits while another question sorts them
// (up to maxScopedLines rules: a fraction of a millisecond).
func (s *scopedSet) sortOnce() {
	s.once(sortedBits, sorting, isSorted, s.sort)
}

// indexOnce gives a set of indexMinRules rules or more its lazy index, or
// waits while another question does; the rules are sorted.
func (s *scopedSet) indexOnce() {
	s.once(indexBits, indexing, indexed, func() {
		if len(s.rules.compiled) >= indexMinRules {
			s.rules.index = &lazyIndex{compiled: s.rules.compiled, text: s.rules.text}
		}
	})
}

// once runs do, once, the step of state whose bits are mask: from 0 to
// doing while it runs, then done; a question that finds it under way
// waits (the steps are short).
func (s *scopedSet) once(mask, doing, done int32, do func()) {
	for {
		n := s.state.Load()
		if n&mask != 0 {
			break
		}
		if s.state.CompareAndSwap(n, n|doing) {
			do()
			s.state.Add(done - doing)
			return
		}
	}
	for s.state.Load()&mask != done {
		runtime.Gosched()
	}
}

// fileOrderScansLeft reports whether a question may still scan the rules
// in file order: one atomic load, for plan to make no call once none may.
func (s *scopedSet) fileOrderScansLeft() bool { return s.order.Load() >= leftOne }

// fileOrderVerdict returns the verdict for url from the set's rules in
// file order, as firstVerdict does, while fewer than fileOrderScans
// questions did so and the rules are not being sorted; ok is false
// otherwise, or when the scan gives up, and the sorted set answers. The
// caller checks fileOrderScansLeft first, so that later questions make
// no call.
func (s *scopedSet) fileOrderVerdict(url string, explain bool) (v Verdict, ok bool) {
	for {
		n := s.order.Load()
		if n < leftOne {
			return Verdict{}, false // none left, or sort has begun
		}
		if s.order.CompareAndSwap(n, n-leftOne+1) {
			break
		}
	}
	v, ok = s.rules.verdictWithin(url, false, explain)
	s.order.Add(-1)
	return v, ok
}

// sort sorts the set's rules in place, from file order; sortOnce runs it
// once.
func (s *scopedSet) sort() {
	// No scan in file order begins once readers is closed; one under way
	// (a scan within the stream's wildcard budget: microseconds) is
	// waited for, so that the rules are sorted where they are, and a set
	// keeps one array, not two.
	for n := s.order.Add(readersClosed); n&readersMask != 0; n = s.order.Load() {
		runtime.Gosched()
	}
	rs := &s.rules
	order := rs.compiled
	if len(order) == 0 {
		return
	}
	// Sorted in place, or through scratch and back. The scratch of a set
	// of up to 256 rules is on the stack; a larger set's is the
	// builder's.
	switch {
	case len(order) <= sortInPlaceMax:
		sortRules(order, order, rs.text)
	case len(order) <= 256:
		var scratch [256]compiledRule
		sortRules(scratch[:len(order)], order, rs.text)
		copy(order, scratch[:len(order)])
	default:
		b := builders.Get().(*builder)
		sorted := slices.Grow(b.compiled[:0], len(order))[:len(order)]
		sortRules(sorted, order, rs.text)
		copy(order, sorted)
		b.compiled = sorted[:0]
		b.release()
	}
	markClasses(order, rs.text) // decide answers from here on
}

// A firstQuestion is the question that builds a scoped set, answered
// before the set is published (see scopedSet.rules).
type firstQuestion struct {
	url      string
	v        Verdict
	answered bool
	tried    bool // the set's rules in file order were tried (see scope)
	explain  bool // v is to name its rule (Explain; see verdictWithin)
}

// scope compiles the rule set of agent alone from body, the file's
// padded copy (see File.Load), publishes it and returns it; nil when
// maxScopedAgents agents are published, when the set would be too large
// (f.tooLarge is then set), or when the file is to be compiled whole
// (compileSparse), for the caller to stream or compile the whole file. first, if not nil, is answered from the set before it is
// published. An agent no group names, when the set of such agents is
// published already, gets that set, found by the file's summary of
// product tokens or by reading its user-agent lines (namesAgent), and
// first is left unanswered.
func (f *File) scope(body, agent string, first *firstQuestion) *scopedSet {
	last := f.scoped.Load()
	if last.count() >= maxScopedAgents || f.isTooLarge() {
		return nil
	}
	s := f.unnamedSet()
	var n *scopedName
	// The first set's pass left the file's directory (nil when no group
	// names an agent): a later agent's pass reads the groups that may
	// apply to it alone, if it lists them.
	var from *scopedSet
	named := false
	if last != nil {
		from = last.set
		// Whether a group names agent decides which set it takes, and
		// which groups a pass over the directory reads (regionCursor).
		// With no unnamed set yet and no directory, the pass finds out.
		named = from.agents.mayHold(agent) && (s != nil || from.groups != nil) && from.namesAgent(body, agent)
	}
	if s == nil || named {
		if s = f.compileScoped(body, agent, first, from, named); s == nil {
			return nil
		}
		n = &s.name // not published yet
	} else {
		n = new(scopedName)
	}
	for {
		// Strings are immutable: the name keeps the caller's agent.
		*n = scopedName{agent: agent, set: s, prev: last}
		if n.count() > maxScopedAgents {
			return nil
		}
		if f.scoped.CompareAndSwap(last, n) {
			if f.isBuilt() {
				// The file was compiled meanwhile, and its scoped sets
				// dropped: so is this one (the caller may still use it).
				f.scoped.CompareAndSwap(n, nil)
			}
			return s
		}
		// Another question published a set meanwhile, maybe this
		// agent's.
		last = f.scoped.Load()
		if o := f.findScoped(agent); o != nil {
			return o
		}
	}
}

// compileScoped compiles the rule set of agent alone from body, as scope
// publishes it, and answers first (if not nil) from it. from is the last
// set published, whose directory the pass reads if it has one; agentNamed
// is then whether a group names agent. It returns nil when the set
// would be too large (f.tooLarge is then set), or when the file names no
// agent and is to be compiled whole (compileSparse).
func (f *File) compileScoped(body, agent string, first *firstQuestion, from *scopedSet, agentNamed bool) *scopedSet {
	s := &scopedSet{}
	b := builders.Get().(*builder)
	// The first set's pass reads the whole file, and leaves the file's
	// directory to the sets after it, whose passes read it.
	// A body LoadString kept has no padding: the set copies it if one of
	// its rules needs the padding (ownPaddedCopy).
	var copyBody func(string) string
	if !f.isPadded(body) {
		copyBody = f.ownPaddedCopy
	}
	named, ok := b.scopedRules(&s.rules, body, copyBody, agent, from.groupList(), agentNamed)
	sparse := ok && !b.scopedAgents && compileSparse(len(body), b.scopedLines)
	if from == nil {
		s.agents = b.agentsRead
		if ok {
			s.groups = directoryOf(b.agentsRead, b.groupStarts, len(body))
		}
	} else {
		s.agents, s.groups = from.agents, from.groups
	}
	b.release()
	if !ok {
		f.markTooLarge()
		return nil
	}
	if sparse {
		// No group: the caller compiles the whole file, which keeps
		// little of it (see compileSparse).
		return nil
	}
	if named {
		s.state.Store(namedBit)
	}
	s.order.Store(fileOrderScans * leftOne)
	if first != nil {
		first.v, first.answered = s.firstVerdict(first.url, first.explain)
		first.tried = true
	}
	return s
}
