package engine

import (
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/seed50c7eacc/robotstxt/internal/swar"

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
// are, so that it costs 12 bytes a rule. A set that holds a value that
// escaping changes, or the directory pattern Google derives from an
// index.htm allow, keeps its patterns in a string block of its own.

// maxScopedAgents bounds the scoped rule sets of a file: a file asked
// about more agents is compiled whole.
const maxScopedAgents = 4

// A scoped set is kept beside the file's copy: one of more than
// maxScopedLines lines whose rules would take more than the file's size
// (12 bytes a rule, and about 24 more for a wildcard rule's part of the
// index), or whose string block of its own would take more than half, is
// not made, and the file is compiled whole, which drops the copy. The sets
// of the hostile files of reference.HostileFamilies (tens of thousands of
// short wildcard rules, or of non-ASCII rules kept apart) would otherwise
// keep up to three times the file with their index
// (BenchmarkRetainedHostile); on the corpus, one file's set for Googlebot
// has more than 4,096 lines (4,997 plain rules in 118 KB), the next 1,182.
const maxScopedLines = 4096

// tooLarge reports whether a scoped set of lines lines, wild of them
// wildcard rules, whose string block of its own (if any) is text bytes,
// takes too much beside a copy of size bytes.
func tooLarge(lines, wild, text, size int) bool {
	return lines > maxScopedLines && denser(lines, wild, text, size)
}

// denser reports whether such a set would take more than size bytes, or
// its string block more than half.
func denser(lines, wild, text, size int) bool {
	return 12*lines+24*wild > size || text > size/2
}

// earlyScopedLines is how many lines a scoped set reads before it may be
// given up for being denser than the part of the file read (see
// collectScoped): a file of more than maxScopedLines short wildcard rules
// in one group is known as such after its first lines.
const earlyScopedLines = 512

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
	count int32 // names published so far, this one included
}

// A scopedSet is the rule set of one agent, compiled alone, or of every
// agent no group names. It is immutable once published.
type scopedSet struct {
	// fileOrder holds the set's rules in file order, as compiled: the
	// question that built the set scans them (firstVerdict) before the
	// set is published, the next question too (fileOrderVerdict), and
	// rules is sorted from them only when a later question needs it
	// (ruleSet), which then drops them. A file asked up to
	// 1+fileOrderScans times never sorts.
	fileOrder []compiledRule
	// readers counts the scans of fileOrder under way (fileOrderVerdict),
	// plus readersClosed once sort has begun: no scan starts then, and
	// sort sorts in place only if none was under way.
	readers atomic.Int32
	// fileOrderLeft is how many questions after the one that built the
	// set may still scan fileOrder (fileOrderScans at first).
	fileOrderLeft atomic.Int32
	sortOnce      sync.Once
	scans         atomic.Int32 // questions answered by scanVerdict since it was sorted
	index         *lazyIndex   // of a large set, made with it, for its rules once sorted
	rules         RuleSet      // its compiled rules and index are set by ruleSet
	named         bool         // some group names the agent
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
		if !n.set.named {
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
	if !ok || f.disallowAll {
		return nil, false, false
	}
	s := f.findScoped(agent)
	if s == nil {
		if s = f.scope(body, agent, nil); s == nil {
			return nil, false, false
		}
	}
	return s.ruleSet(), s.named, true
}

// ruleSet returns the set's rules, sorted from fileOrder the first time.
func (s *scopedSet) ruleSet() *RuleSet {
	s.sortOnce.Do(s.sort)
	return &s.rules
}

// fileOrderScans is how many questions after the one that built a scoped
// set scan its rules in file order before they are sorted. It is the
// ski-rental point of the two costs measured on the corpus: a sort costs
// about 2,900 instructions a file, and a scan in file order, which tries
// every rule the path's first bytes do not rule out where the sorted set
// stops at its first match, about 660 more than a question of the sorted
// set. Four scans, so that a file asked up to five times never sorts
// (parse + 3 checks -7 % instructions, parse + 5 checks -5 %), for +2 %
// at ten checks and +1.5 % at twenty.
const fileOrderScans = 4

// readersClosed is added to scopedSet.readers when sort begins.
const readersClosed = math.MinInt32

// fileOrderVerdict returns the verdict for url from the set's rules in
// file order, as firstVerdict does, while fewer than fileOrderScans
// questions did so and the rules are not being sorted; ok is false
// otherwise, or when the scan gives up, and the sorted set answers. The
// caller checks fileOrderLeft first, so that later questions make no
// call.
func (s *scopedSet) fileOrderVerdict(url string) (v Verdict, ok bool) {
	if s.fileOrderLeft.Add(-1) < 0 {
		return Verdict{}, false
	}
	for {
		n := s.readers.Load()
		if n < 0 {
			return Verdict{}, false // sort has begun
		}
		if s.readers.CompareAndSwap(n, n+1) {
			break
		}
	}
	v, ok = verdictWithin(s.fileOrder, s.rules.text, url, false)
	s.readers.Add(-1)
	return v, ok
}

// sort sorts the set's rules from fileOrder; ruleSet runs it once.
func (s *scopedSet) sort() {
	rs, order := &s.rules, s.fileOrder
	if len(order) == 0 {
		return
	}
	if s.readers.Add(readersClosed) != readersClosed {
		// A question is scanning the rules in file order: they are
		// sorted into an array of their own, with an index of its own.
		sorted := make([]compiledRule, len(order))
		sortRules(sorted, order, rs.text)
		rs.compiled = sorted
		if s.index != nil {
			rs.index = &lazyIndex{compiled: sorted, text: rs.text}
		}
		return
	}
	// No scan in file order is under way, nor can one begin: no one else
	// reads order now.
	s.fileOrder = nil
	// Sorted in place, or through scratch and back. The scratch of a set
	// of up to 256 rules is on the stack, so that the question that sorts
	// allocates nothing; a larger set's is the builder's.
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
	rs.compiled = order
	rs.index = s.index // made with the set, for order sorted
}

// A firstQuestion is the question that builds a scoped set, answered
// before the set is published (see scopedSet.fileOrder).
type firstQuestion struct {
	url      string
	v        Verdict
	answered bool
}

// scope compiles the rule set of agent alone from body, the file's
// padded copy (see File.Load), publishes it and returns it; nil when
// maxScopedAgents agents are published, or the set would be too large
// (f.tooLarge is then set), for the caller to stream or compile the whole
// file. first, if not nil, is answered from the set before it is
// published. An agent no group names, when the set of such agents is
// published already, gets that set, found by a pass over the file's
// user-agent lines alone (namesAgent), and first is left unanswered.
func (f *File) scope(body, agent string, first *firstQuestion) *scopedSet {
	last := f.scoped.Load()
	if last != nil && last.count >= maxScopedAgents || f.tooLarge.Load() {
		return nil
	}
	s := f.unnamedSet()
	if s == nil || namesAgent(body, agent) {
		if s = f.compileScoped(body, agent, first); s == nil {
			return nil
		}
	}
	for {
		// Strings are immutable: the name keeps the caller's agent.
		n := &scopedName{agent: agent, set: s, prev: last, count: 1}
		if last != nil {
			n.count = last.count + 1
		}
		if n.count > maxScopedAgents {
			return nil
		}
		if f.scoped.CompareAndSwap(last, n) {
			if f.built.Load() {
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
// publishes it, and answers first (if not nil) from it; nil when the set
// would be too large (f.tooLarge is then set).
func (f *File) compileScoped(body, agent string, first *firstQuestion) *scopedSet {
	s := &scopedSet{}
	b := builders.Get().(*builder)
	named, ok := b.scopedRules(&s.rules, &s.fileOrder, body, agent)
	b.release()
	if !ok {
		f.tooLarge.Store(true)
		return nil
	}
	if len(s.fileOrder) >= indexMinRules {
		// Made now, so that the question that sorts allocates nothing.
		s.index = &lazyIndex{compiled: s.fileOrder, text: s.rules.text}
	}
	s.named = named
	s.fileOrderLeft.Store(fileOrderScans)
	if first != nil {
		first.v, first.answered = s.firstVerdict(first.url)
	}
	return s
}

// namesAgent reports whether a user-agent line of body names agent, as
// collectScoped finds it, reading the user-agent lines alone.
func namesAgent(body, agent string) bool {
	gr := parse.NewGrouper(body)
	gr.ReadSpans()
	gr.Filter(parse.AgentLines)
	var l parse.Grouped
	for gr.Next(&l) {
		if l.Role != parse.RoleAgent {
			continue
		}
		if value := l.ValueAt.In(body); !parse.IsGlobalAgent(value) && parse.EqualFold(parse.ProductToken(value), agent) {
			return true
		}
	}
	return false
}

// A scopedField is a line other than a rule (crawl-delay, content-usage,
// ...) of a group that applies to the agent.
type scopedField struct {
	// Spans of the body, the key and the value. No string is kept, so
	// that the lines hold no pointer: appending and moving them then costs
	// no write barrier while the garbage collector runs (a tenth of a
	// corpus file's first question, measured with the strings).
	key, value span
	line       int32
	named      bool // of a group naming the agent (else of a "*" group)
}

// collectScoped compiles the rules of the groups of body that apply to
// agent into b.compiled, in file order, as spans of body, and reads their
// other lines (fields) into b.fieldLines, as streamVerdict follows the
// groups: the groups naming the agent, and the "*" groups until one names
// it (after which they cannot apply). named reports whether some group
// names the agent; verbatim that every rule kept is a span of body, as
// written (see scopedRule), else the caller compiles them again into a
// string block of their own, from what b.compiled holds of each. ok is
// false when the groups that apply hold more than maxScopedLines lines,
// for the caller to compile the whole file instead.
//
// The rules are compiled as they are read, with no record of their lines
// in between: a rule of the "*" groups read before the first group that
// names the agent is dropped at the end if one does, and every rule read
// after it is of such a group (a group's user-agent lines all come before
// its rules).
func (b *builder) collectScoped(body, agent string) (named, verbatim, ok bool) {
	b.compiled, b.fieldLines = b.compiled[:0], b.fieldLines[:0]
	gr := parse.NewGrouper(body)
	gr.ReadSpans()
	var l parse.Grouped
	// As in streamVerdict: only user-agent lines can matter while no
	// group is open, or while the open group does not apply and already
	// has a rule. Until its first rule, a group's user-agent lines may be
	// interleaved with fields, which belong to it whatever user-agent
	// line makes it apply: they are kept until the group is known not to.
	gr.Filter(parse.AgentLines)
	inNamed, inGlobal, applies := false, false, false
	start := 0 // where the open group's fields start in b.fieldLines
	num := 0   // the number of the last line read
	// cut is how many rules were read before the first group naming the
	// agent; notVerbatim is 1 + the index of the last rule read that is
	// not kept as written, 0 if none.
	cut, notVerbatim := 0, 0
	// The bytes of the values read, once one may need escaping: then
	// every pattern may be copied (see scopedRule), at least these
	// bytes. A value of bytes >= 0x80 is kept as written, in compact
	// form, but counts here all the same: a set of thousands of them
	// (reference.HostileFamilies' non-ascii) keeps more than twice the
	// file once indexed, where the whole file compiled keeps less.
	values, copied := 0, 0
	wild := 0 // wildcard rules read
	// The file's lines, at most (CR LF counts twice), once counted, and
	// whether that is at most maxScopedLines.
	lines, small := 0, false
	for {
		// Measured against the bytes read so far, not the file: a set that
		// is too large for the part of the file that holds it is given up
		// early, from earlyScopedLines lines on, if the file has more than
		// maxScopedLines lines. Files of one huge group
		// (reference.HostileFamilies) would otherwise be read more than
		// half through before it is known.
		if read := len(b.compiled) + len(b.fieldLines); read > earlyScopedLines && !small && denser(read, wild, copied, len(body)-len(gr.Rest())) {
			if lines == 0 {
				// Counted once: a file of at most maxScopedLines lines is
				// never too large, however dense.
				lines = 1 + strings.Count(body, "\n") + strings.Count(body, "\r")
				small = lines <= maxScopedLines
			}
			if !small {
				return named, false, false
			}
		}
		// Most rule lines are disallow lines of simple bytes, whose value
		// the tokenizer need not find; most of them start with a 'd' or
		// 'D'.
		if applies && gr.NextByte()|0x20 == 'd' {
			// They come in runs, read here in a loop of their own, until
			// a line of another kind, or until the set is large enough
			// for the test above to be made at every line.
			read := false
			for {
				value, end, plain, ok := simpleDisallowValue(&gr)
				if !ok {
					break
				}
				v, in := spanIn(body, value)
				if !in {
					return named, false, false
				}
				num++
				if plain {
					// newCompiledRule's answer, known.
					b.compiled = append(b.compiled, compiledRule{off: v.off, n: uint16(v.n), head: uint8(min(v.n, 8)), line: int32(num)})
				} else {
					c := newCompiledRule(value, v.off, num, 0)
					b.compiled = append(b.compiled, c)
					if c.info&ruleWild != 0 {
						wild++
					}
				}
				values += len(value)
				if copied > 0 {
					copied = values
				}
				gr.PassRuleTo(end)
				read = true
				if len(b.compiled)+len(b.fieldLines) > earlyScopedLines || gr.NextByte()|0x20 != 'd' {
					break
				}
			}
			if read {
				continue
			}
		}
		if !gr.Next(&l) {
			break
		}
		num = l.Num
		switch l.Role {
		case parse.RoleAgent:
			if l.NewGroup {
				if !applies {
					b.fieldLines = b.fieldLines[:start]
				}
				start = len(b.fieldLines)
				inNamed, inGlobal = false, false
			}
			if value := l.ValueAt.In(body); parse.IsGlobalAgent(value) {
				inGlobal = true
			} else if parse.EqualFold(parse.ProductToken(value), agent) {
				if !named {
					cut = len(b.compiled)
				}
				inNamed, named = true, true
			}
			applies = inNamed || inGlobal && !named
			// The group's fields so far are of its kind now.
			for i := start; i < len(b.fieldLines); i++ {
				b.fieldLines[i].named = inNamed
			}
			gr.Filter(nil)
		case parse.RoleRule:
			if !applies {
				b.fieldLines = b.fieldLines[:start]
				gr.Filter(parse.AgentLines) // the group has a rule now
				continue
			}
			v, value := spanAt(l.ValueAt), l.ValueAt.In(body)
			mayEscape := l.Flags&parse.LineMayEscape != 0
			c, asWritten := scopedRule(value, v, num, l.Kind == parse.KeyAllow, mayEscape)
			b.compiled = append(b.compiled, c)
			if !asWritten {
				notVerbatim = len(b.compiled)
			}
			values += len(value)
			if c.info&ruleWild != 0 {
				wild++
			}
			if mayEscape || copied > 0 {
				copied = values
			}
		case parse.RoleOther:
			if l.Group >= 0 {
				b.fieldLines = append(b.fieldLines, scopedField{key: spanAt(l.KeyAt), value: spanAt(l.ValueAt), line: int32(num), named: inNamed})
			}
		}
	}
	if !applies {
		b.fieldLines = b.fieldLines[:start]
	}
	if named && cut > 0 {
		// The rules of the "*" groups read before the first group naming
		// the agent do not apply.
		b.compiled = b.compiled[:copy(b.compiled, b.compiled[cut:])]
		notVerbatim = max(notVerbatim-cut, 0)
	}
	return named, notVerbatim == 0, true
}

// scopedRule compiles a rule of a scoped set, whose value is the span v
// of the body, as a span of the body when the value as written is its
// wire form or its compact form, and it is not an allow Google derives a
// directory pattern from (asWritten). Otherwise the rule is compiled
// from its value as written all the same, for what the set's compile into
// a string block of its own reads of it (scopedRules: where its value is,
// whether it allows, its line) and for whether it is a wildcard rule.
// mayEscape is parse.LineMayEscape.
func scopedRule(value string, v span, line int, allow, mayEscape bool) (c compiledRule, asWritten bool) {
	info := uint8(0)
	if allow {
		info = ruleAllow
	}
	if mayEscape {
		switch valueFormOf(value) {
		case asEscaped:
			return newCompiledRule(value, v.off, line, info), false
		case asCompactForm:
			info |= ruleCompact
		}
	}
	if allow && value != "" {
		if _, ok := parse.IndexDirectory(value); ok {
			return newCompiledRule(value, v.off, line, info), false
		}
	}
	return newCompiledRule(value, v.off, line, info), true
}

// simpleDisallowValue returns the value of the next line, without
// tokenizing it, when it is a disallow line of the open group whose value
// is simple bytes (see simplePrefix: printable ASCII but '%' and '#', so
// that escaping leaves it alone) up to the line's end, within the
// tokenizer's line cap; plain reports that it has no '*' or '$' either
// (see plainPatternByte). ok is false for any other line, which is not
// consumed either way. The line is the one after the last line read: the
// line filter passes over lines only within Grouper.Next. end is where
// the line ends, from its start (see Grouper.PassRuleTo).
func simpleDisallowValue(gr *parse.Grouper) (value string, end int, plain, ok bool) {
	rest, offset, ok := gr.PlainDisallow()
	if !ok {
		return "", 0, false, false
	}
	k := plainPrefix(rest)
	plain = true
	if k < len(rest) && (rest[k] == '*' || rest[k] == '$') {
		// Bytes past the line cap are dropped: none is read.
		k += simplePrefix(rest[k:max(min(len(rest), parse.MaxLineBytes-offset), k)])
		plain = false
	}
	if !valueEnds(rest, offset, k) {
		return "", 0, false, false
	}
	return rest[:k], offset + k, plain, true
}

// valueEnds reports whether the first k bytes of rest, a value that
// starts offset bytes into its line, are the whole value: they end the
// line, within the tokenizer's line cap.
func valueEnds(rest string, offset, k int) bool {
	return offset+k+1 < parse.MaxLineBytes && (k == len(rest) || rest[k] == '\n' || rest[k] == '\r')
}

// plainPrefix returns how many of the first bytes of s are plain pattern
// bytes (see plainPatternByte): a byte below 0x21 or above 0x7E, or one of
// "*$%#", ends them. It reads 32 bytes at a time where the CPU can
// (plainBlocks, AVX2), then eight at a time.
func plainPrefix(s string) int {
	i := 0
	if swar.AVX2 && len(s) >= 32 {
		// Whole blocks of 32 bytes first, then words from where they end.
		if i = plainBlocks(unsafe.StringData(s), len(s)); i < len(s) && !plainPatternByte[s[i]] {
			return i
		}
	}
	for ; i+8 <= len(s); i += 8 {
		w := swar.Load64(s, i)
		// Each test is exact in every byte (no carry crosses a byte:
		// m's bytes are at most 0x7F, each sum's at most 0xDE): the
		// flags of bytes >= 0x80, below 0x21, 0x7F, "#$%" and '*'.
		m := w &^ swar.HighBits
		stop := (w | ^(m + 0x5F*swar.LowBits) | (m + 0x01*swar.LowBits) |
			(m+0x5D*swar.LowBits)&^(m+0x5A*swar.LowBits) | (m+0x56*swar.LowBits)&^(m+0x55*swar.LowBits)) & swar.HighBits
		if stop != 0 {
			return i + bits.TrailingZeros64(stop)/8
		}
	}
	for i < len(s) && plainPatternByte[s[i]] {
		i++
	}
	return i
}

// scopedRules sets rs to the rule set of agent in body, the file's padded
// copy, as File.lookup finds it in the compiled file: its crawl delay,
// request rate, preferences and string block, and its rules in file
// order in *fileOrder, for scopedSet.ruleSet to sort. named reports
// whether some group names the agent; ok is false when the set would be
// too large to keep beside the file's copy (see maxScopedLines).
func (b *builder) scopedRules(rs *RuleSet, fileOrder *[]compiledRule, body, agent string) (named, ok bool) {
	named, verbatim, ok := b.collectScoped(body, agent)
	if !ok {
		return false, false
	}
	b.scopedFields = b.scopedFields[:0]
	for i := range b.fieldLines {
		if fl := &b.fieldLines[i]; fl.named || !named {
			b.scopedFields = append(b.scopedFields, Field{Key: fl.key.in(body), Value: fl.value.in(body), Line: int(fl.line)})
		}
	}
	if len(b.scopedFields) > 0 {
		// As setFor and buildUsage find them for the groups merged.
		rs.crawlDelay, rs.hasCrawlDelay = crawlDelay(b.scopedFields)
		rs.requestInterval, rs.hasRequestRate = requestRate(b.scopedFields)
		rs.usage = groupPreferences(b.scopedFields)
		clear(b.scopedFields)
	}
	text := padded(body)
	if !verbatim {
		// Some pattern is not a span of body: all are kept in a string
		// block of the set's own, as the builder keeps them, from where
		// each rule's value is in body (a span of it as written, whatever
		// scopedRule made of the rule). The escaping hint is not kept:
		// valueFormOf tells any value's form.
		rules := len(b.compiled)
		for i := range b.compiled {
			c := &b.compiled[i]
			b.addRule(c.allow(), c.pattern(body), int(c.line), true)
		}
		if tooLarge(rules, 0, len(b.text), len(body)) {
			return false, false
		}
		var pad [textPadding]byte
		text = string(append(b.text, pad[:]...))
		b.compiled = b.compiled[:0]
		for i := range b.rules {
			d := &b.rules[i]
			b.compiled = append(b.compiled, newCompiledRule(spanOf(text, d.pattern.off, d.pattern.n), d.pattern.off, int(d.line), d.info))
		}
	}
	if len(b.compiled) == 0 {
		return named, true
	}
	*fileOrder, rs.text = slices.Clone(b.compiled), text
	return named, true
}

// spanIn returns the span of body that s is. The tokenizer's keys and
// values are slices of the body; ok is false for a string that were not,
// for which a scoped set is given up (the whole file is compiled).
func spanIn(body, s string) (_ span, ok bool) {
	if s == "" {
		return span{}, true
	}
	off, ok := swar.Offset(body, s)
	return span{uint32(off), uint32(len(s))}, ok
}

// spanAt returns the tokenizer's span of a key or value as the engine's.
func spanAt(sp parse.Span) span { return span{sp.Off, sp.N} }

// in returns the string of body that sp, a span spanIn made of it, is.
func (sp span) in(body string) string { return spanOf(body, sp.off, sp.n) }

// padded returns body with the textPadding bytes File.Load keeps after
// it, so that 8 bytes can be read at the start of any of its values.
func padded(body string) string {
	return swar.Extend(body, textPadding)
}

// scopedScans is how many questions a scoped set whose rules have a lazy
// index answers by scanVerdict before the index decides: a wildcard-heavy
// set's index would otherwise be built at its second question (see
// lazyIndex.scan), which costs as much as compiling the set, where a
// scan within the stream's budget costs less than streaming once.
const scopedScans = 16

// scanning reports whether the next question about s, whose sorted rules
// are rs, is to be answered by scanVerdict: while s has a lazy index not
// yet built, for its first scopedScans questions.
func (s *scopedSet) scanning(rs *RuleSet) bool {
	idx := rs.index
	return idx != nil && idx.built.Load() == nil && s.scans.Load() < scopedScans && s.scans.Add(1) <= scopedScans
}

// firstVerdict returns the verdict for url of the question that built s,
// before s is published, without sorting its rules: bestWithin tries
// them in file order, which finds the rule the sorted set would find
// first. ok is false when the stream's wildcard budget is spent; the
// sorted set then answers.
func (s *scopedSet) firstVerdict(url string) (v Verdict, ok bool) {
	return verdictWithin(s.fileOrder, s.rules.text, url, false)
}

// scanVerdict returns the verdict of rs for url, found by bestWithin:
// the few questions after the one that built a scoped set answer without
// building the set's index, which may never be needed. ok is false when
// the stream's wildcard budget (streamWildBudget) is spent; rs.decide
// then answers.
func (rs *RuleSet) scanVerdict(url string) (v Verdict, ok bool) {
	return verdictWithin(rs.compiled, rs.text, url, true)
}

// verdictWithin returns the verdict for url of the rule that bestWithin
// finds among rules, sorted or in file order, whose patterns are spans of
// text, for the URL's path in wire form (none: allowed); ok is false when
// it gives up.
func verdictWithin(rules []compiledRule, text, url string, sorted bool) (v Verdict, ok bool) {
	if len(rules) == 0 {
		return Verdict{Allowed: true}, true
	}
	var c *compiledRule
	path, n, rewrite := findPath(url)
	if !rewrite {
		c, ok = bestWithin(rules, text, path, sorted)
	} else {
		var buf [pathBufSize]byte
		c, ok = bestWithin(rules, text, rewritePath(path, n, &buf), sorted)
	}
	switch {
	case !ok:
		return Verdict{}, false
	case c == nil:
		return Verdict{Allowed: true}, true
	}
	return Verdict{Allowed: c.allows(), Rule: c.asWritten(text, rules)}, true
}

// bestWithin returns the rule of rules that comes first in compareRules
// order of those that match path, unless the wildcard matches would cost
// more than streamWildBudget (ok false). Rules sorted, it is the first
// that matches, as decide finds it without an index. Rules in file order,
// a rule that cannot come before the best so far is not tried.
func bestWithin(rules []compiledRule, text, path string, sorted bool) (best *compiledRule, ok bool) {
	key, budget := prefixKey(path), streamWildBudget
	for i := range rules {
		c := &rules[i]
		if !c.mayMatch(text, key) || best != nil && compareRules(*c, *best, text) >= 0 {
			continue
		}
		if c.info&ruleWild != 0 {
			if budget -= len(path) + int(c.n); budget < 0 {
				return nil, false
			}
		}
		if c.matchesFully(text, path) {
			if sorted {
				return c, true
			}
			best = c
		}
	}
	return best, true
}

// plainBlocksGo is what plainBlocks computes, written plainly: the index
// of the first byte of s that is not a plain pattern byte, within whole
// blocks of 32 bytes, or the bytes of the whole blocks when all are. It is
// the slow twin the tests compare plainBlocks with.
func plainBlocksGo(s string) int {
	whole := len(s) &^ 31
	for i := 0; i < whole; i++ {
		if !plainPatternByte[s[i]] {
			return i
		}
	}
	return whole
}
