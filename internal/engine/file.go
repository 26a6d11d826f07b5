// Package engine is the matcher behind package robotstxt: it builds the
// compiled form of a robots.txt file and answers questions about it, as
// Google's matcher does, from the rules of the asked agent compiled alone,
// by streaming over the file, or through the whole file's compiled form.
//
// The root package holds the API and its documented types; this package
// holds how the answers are found. Its surface is small: a [File] is one
// file (Load, then Allowed, Explain, Rules, Resolve, Groups, Fields,
// Sitemaps), a [RuleSet] the rules that apply to one crawler (Allowed,
// Verdict, CrawlDelay, RequestRate, Usage), [CompileRules] compiles a
// list of rules on its own, for the linter, and [AllowedOnce] answers one
// question of a file that is not kept.
//
// plan.go is the map: the states a File goes through, what moves it on,
// what each step costs, and the table of every tuning constant. Every
// choice of strategy is made there; the other files carry one out. One
// file per concern, as package regexp has:
//
//	plan.go          what a question does next; the states; the tuning table
//	file.go          File: the copy of a file, then its compiled form
//	scoped.go        an agent's rule set compiled alone, published and shared
//	scopedcollect.go the one pass that reads and compiles a scoped set's rules
//	within.go        a rule list tried within the stream's wildcard budget
//	plainblocks*     simple values checked 32 bytes at a time (AVX2; Go twin)
//	stream.go        one question answered by reading the file once
//	once.go          one question of a file never loaded: the stream alone
//	buildparts.go    a large file compiled a part per question
//	build.go         the builder: a file's lines into the compiled form
//	sets.go          the rule set of each agent, merged across groups
//	agents.go        agents: the hash table of product tokens, lookup, fallback
//	ruleset.go       RuleSet: the rules that apply to one crawler
//	rule.go          a compiled rule: its pattern, rank and test
//	sort.go          the order in which a rule set's rules decide
//	lazyindex.go     a rule set's index, built once it pays, or in parts
//	prefixindex.go   the small index of a set of fewer than stepwiseRules rules
//	indexbuild.go    the building of an index, whole or in steps
//	index.go         the ruleIndex: the deciding rule by literal prefix and windows
//	prefixkey.go     the 8- and 16-byte keys and byte signatures compared first
//	patternset.go    the seeded hash set of an entry's patterns while building
//	window.go        the window filters of the index's wildcard rules
//	records.go       the bit-packed records of the index's wildcard rules
//	pathpairs.go     a path's bytes and pairs: wildcard rules ruled out by a scan
//	compact.go       the compact form of patterns with non-ASCII bytes
//	path.go          a URL's path, found and brought to wire form
//	delay.go         crawl-delay and request-rate
//	patterns.go      the engine's names for internal/pattern's functions
//	usage*.go        Content-Usage and Content-Signal preferences
package engine

import (
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// A File is one robots.txt file as the engine holds it: a copy of its
// bytes, which the first question about an agent compiles that agent's
// rules from, then the compiled form (see plan.go).
// The zero value is an empty file. A File must not be copied after Load;
// it is safe for concurrent use.
type File struct {
	// Load keeps a copy of the file and builds nothing: the first
	// question about an agent compiles its rules alone from that copy
	// (see plan.go), and the compiled form below is built, once, when a
	// later question or another method needs it.
	//
	// pending is the first byte of the file's copy (or of the string
	// LoadString kept) until compiled, nil after; pendingLen its length,
	// set by Load (at most MaxParseSize, in 30 bits), and disallowAllBit.
	// A pointer and a length rather than a *string: one allocation less a
	// file.
	pending    atomic.Pointer[byte]
	pendingLen uint32
	// state holds builtBit (the fields below are set), tooLargeBit (the
	// groups that apply to an agent were too many lines for a scoped
	// set, see maxScopedLines: questions stream until compiling),
	// unpaddedBit (pending is a string LoadString kept, not a padded
	// copy), and the questions asked before compiling (askedMask). The
	// flags and the length share words so that a File takes 40 bytes and
	// a Robots 48, not 64 (BenchmarkRetainedStates: 0.004 bytes a byte).
	state atomic.Uint32
	mu    sync.Mutex // held while compiling
	// The rule sets of the agents asked about before compiling, each
	// compiled alone (see scoped.go): the last published; nil after.
	scoped atomic.Pointer[scopedName]

	// The compiled form, allocated when the compile begins: a File that
	// is only asked about a few agents never compiles, and keeps a few
	// words beside its copy rather than the fourteen of the compiled
	// form (BenchmarkRetainedStates: 0.05 bytes a byte over the corpus).
	// Its fields are read only once built is set.
	*compiledForm
}

// A compiledForm is the whole file compiled (build.go, sets.go).
type compiledForm struct {
	// parts is a compile in parts under way (see buildparts.go), under
	// File.mu.
	parts *partialBuild

	groups []group
	// strs holds the user-agent values, in file order, then the sitemap
	// values, the first agentsN of them agents: one slice header, not
	// two (see agents and sitemaps).
	strs      []string
	fields    []Field // other directives, in file order
	text      string  // the string block: every kept string is a part of it
	agentsN   int32
	tokens    []agentToken // every product token of the file
	slots     []uint32     // finds tokens by name (see agents.go)
	tokenMask uint32       // the bits of a slot that hold a token's index
	globalSet int32        // 1 + the index in sets of the rules of the "*" groups; 0 if none
	sets      []RuleSet    // the rule sets tokens lead to
}

// agents returns the user-agent values, in file order.
func (c *compiledForm) agents() []string { return c.strs[:c.agentsN:c.agentsN] }

// sitemaps returns the values of the sitemap lines, in file order.
func (c *compiledForm) sitemaps() []string { return c.strs[c.agentsN:] }

// emptyForm is the compiled form of an empty file, shared: nothing
// writes it.
var emptyForm compiledForm

// Load sets f to a copy of the file body, already cut to the size limit.
// It must be called at most once, before f is used.
func (f *File) Load(data []byte) { f.LoadCopy(swar.String(data)) }

// LoadCopy sets f to a copy of s, as Load does.
func (f *File) LoadCopy(s string) {
	if len(s) == 0 {
		return
	}
	// The copy is followed by textPadding bytes, so that a scoped rule set
	// can keep its patterns where they are in it (see scoped.go): the
	// spare bytes of the allocation, whose content does not matter (see
	// compiledRule.mayMatch).
	f.pendingLen |= uint32(len(s))
	f.pending.Store(unsafe.StringData(paddedCopy(s)))
}

// paddedCopy returns a copy of body followed by textPadding spare bytes,
// in one allocation. A strings.Builder grown to size allocates without
// clearing the bytes the copy then writes.
func paddedCopy(body string) string {
	var kept strings.Builder
	kept.Grow(len(body) + textPadding)
	kept.WriteString(body)
	return kept.String()
}

// LoadString sets f to s itself, already cut to the size limit: a string
// cannot change, so f keeps it rather than a copy. It must be called at
// most once, before f is used. s lacks only the padding a scoped rule set
// reads past a pattern that starts in its last textPadding-1 bytes (see
// loadKey): the first set that holds such a rule copies the file then, as
// Load would have, and f keeps the copy from there on (see
// File.ownPaddedCopy). Most files end with no rule that close to their
// end, and are never copied.
func (f *File) LoadString(s string) {
	if len(s) == 0 {
		return
	}
	f.pendingLen |= uint32(len(s))
	f.state.Store(unpaddedBit)
	f.pending.Store(unsafe.StringData(s))
}

// isPadded reports whether body, which f.body returned earlier, has the
// textPadding spare bytes of Load's copy after it.
func (f *File) isPadded(body string) bool {
	// The state first: ownPaddedCopy publishes its copy before it clears
	// unpaddedBit, so that once the bit reads clear, the body read next
	// is the copy, or nil once compiled. A body read before then may
	// still be the string LoadString kept: hence the comparison.
	if f.state.Load()&unpaddedBit != 0 {
		return false
	}
	p := f.pending.Load()
	return p != nil && p == unsafe.StringData(body)
}

// ownPaddedCopy returns a padded copy of body, the string LoadString
// kept, for a scoped set that needs the padding, and keeps the copy in
// the string's stead for the sets built after it: a file is copied once,
// and the caller's string is no longer held by f.
func (f *File) ownPaddedCopy(body string) string {
	c := paddedCopy(body)
	if f.pending.CompareAndSwap(unsafe.StringData(body), unsafe.StringData(c)) {
		f.state.And(^uint32(unpaddedBit))
	}
	return c
}

// Size returns how many bytes of the file Load copied, or LoadString kept.
func (f *File) Size() int { return int(f.pendingLen &^ disallowAllBit) }

// body returns the file's copy, and false once f is compiled (the copy
// is dropped then).
func (f *File) body() (string, bool) {
	p := f.pending.Load()
	if p == nil {
		return "", false
	}
	return unsafe.String(p, f.Size()), true
}

// The bits of File.state, and the one of File.pendingLen.
const (
	builtBit       = 1 << 31
	tooLargeBit    = 1 << 30
	unpaddedBit    = 1 << 29
	askedMask      = 1<<29 - 1
	disallowAllBit = 1 << 31
)

// isBuilt reports whether the compiled form is set.
func (f *File) isBuilt() bool { return f.state.Load()&builtBit != 0 }

// isTooLarge reports whether an agent's scoped set was found too large.
func (f *File) isTooLarge() bool { return f.state.Load()&tooLargeBit != 0 }

// markTooLarge records that an agent's scoped set was too large.
func (f *File) markTooLarge() { f.state.Or(tooLargeBit) }

// isDisallowAll reports whether f is a blanket disallow.
func (f *File) isDisallowAll() bool { return f.pendingLen&disallowAllBit != 0 }

// addAsked counts a question asked before compiling, and returns how
// many were, at most askedMask.
func (f *File) addAsked() uint32 {
	for {
		v := f.state.Load()
		n := v & askedMask
		if n == askedMask {
			return n
		}
		if f.state.CompareAndSwap(v, v+1) {
			return n + 1
		}
	}
}

// DisallowAll makes f a blanket disallow, which answers false to every
// question with no rule. It must be called before f is used.
func (f *File) DisallowAll() { f.pendingLen |= disallowAllBit }

// A Rule is an allow or disallow line, as robotstxt.Rule.
type Rule struct {
	Allow   bool
	Pattern string
	Line    int
}

// A Field is a directive other than user-agent, allow, disallow and
// sitemap, as robotstxt.Field.
type Field struct {
	Key   string
	Value string
	Line  int
}

// A Group is a group as written, as robotstxt.Group.
type Group struct {
	Line   int
	Agents []string
	Rules  []Rule
	Fields []Field
}

// A Verdict is an answer with the rule that decided it, as
// robotstxt.Verdict.
type Verdict struct {
	Allowed bool
	Rule    Rule
}

// Compile builds the compiled form, once, if that is not done yet. Every
// method that reads the compiled fields calls it first.
func (f *File) Compile() {
	if !f.isBuilt() {
		f.compile()
	}
}

// compile builds the compiled form from the pending copy of the file and
// drops the copy.
func (f *File) compile() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buildStep(math.MaxInt) // the whole compile, or what is left of one in parts
}

// Sitemaps returns a copy of the values of the file's sitemap lines.
func (f *File) Sitemaps() []string {
	f.Compile()
	return append([]string(nil), f.sitemaps()...)
}

// Fields returns a copy of the file's other directives, in file order.
func (f *File) Fields() []Field {
	f.Compile()
	return append([]Field(nil), f.fields...)
}

// Groups returns the file's groups as written, in file order.
func (f *File) Groups() []Group {
	f.Compile()
	out := make([]Group, len(f.groups))
	for i := range f.groups {
		g := &f.groups[i]
		out[i] = Group{
			Line:   int(g.line),
			Agents: append([]string(nil), f.agents()[g.agentLo:g.agentHi]...),
			Rules:  f.rulesAsWritten(g),
			Fields: append([]Field(nil), f.fields[g.fieldLo:g.fieldHi]...),
		}
	}
	return out
}

// rulesAsWritten returns a group's rules in file order.
func (f *File) rulesAsWritten(g *group) []Rule {
	var rules []Rule
	for i := range g.rules {
		if g.rules[i].info&ruleDerived == 0 {
			rules = append(rules, g.rules[i].asWritten(f.text, g.rules, false))
		}
	}
	slices.SortFunc(rules, func(a, b Rule) int { return a.Line - b.Line })
	return rules
}
