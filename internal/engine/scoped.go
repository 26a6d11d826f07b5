package engine

import (
	"math/bits"
	"strings"
	"sync/atomic"

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
	return lines > maxScopedLines && (12*lines+24*wild > size || text > size/2)
}

// A scopedSet is the rule set of one agent, compiled alone, and the sets
// published before it: File.scoped holds the last published, and each
// holds the one before. It is immutable once published.
type scopedSet struct {
	agent string // as first asked; the set answers for it in any ASCII case
	rules RuleSet
	named bool         // some group names the agent
	scans atomic.Int32 // questions answered by scanWithin since it was built
	prev  *scopedSet
	count int // sets published so far, this one included
}

// findScoped returns the scoped rule set of agent, or nil.
func (f *File) findScoped(agent string) *scopedSet {
	for s := f.scoped.Load(); s != nil; s = s.prev {
		if parse.EqualFold(s.agent, agent) {
			return s
		}
	}
	return nil
}

// scopedRules returns the rules of agent and whether some group names it,
// as Rules does, from the agent's scoped set, compiling it if needed; ok
// is false when f is to be compiled whole.
func (f *File) scopedRules(agent string) (rs *RuleSet, specific, ok bool) {
	body := f.pending.Load()
	if body == nil || f.disallowAll {
		return nil, false, false
	}
	s := f.findScoped(agent)
	if s == nil {
		if s = f.scope(*body, agent); s == nil {
			return nil, false, false
		}
	}
	return &s.rules, s.named, true
}

// scope compiles the rule set of agent alone from body, the file's
// padded copy (see File.Load), publishes it and returns it; nil when
// maxScopedAgents sets are published, or the set would be too large
// (f.tooLarge is then set), for the caller to stream or compile the whole
// file.
func (f *File) scope(body, agent string) *scopedSet {
	last := f.scoped.Load()
	if last != nil && last.count >= maxScopedAgents || f.tooLarge.Load() {
		return nil
	}
	// Strings are immutable: the set keeps the caller's agent.
	s := &scopedSet{agent: agent}
	b := builders.Get().(*builder)
	named, ok := b.scopedRules(&s.rules, body, agent)
	b.release()
	if !ok {
		f.tooLarge.Store(true)
		return nil
	}
	s.named = named
	for {
		s.prev, s.count = last, 1
		if last != nil {
			s.count = last.count + 1
		}
		if s.count > maxScopedAgents {
			return nil
		}
		if f.scoped.CompareAndSwap(last, s) {
			if f.built.Load() {
				// The file was compiled meanwhile, and its scoped sets
				// dropped: so is this one (the caller may still use it).
				f.scoped.CompareAndSwap(s, nil)
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

// A scopedLine is a rule line, or another line (a field), of a group
// that applies to the agent.
type scopedLine struct {
	key    string // a field's key; "" for a rule
	value  string
	line   int32
	allow  bool
	escape bool // parse.LineMayEscape
	named  bool // of a group naming the agent (else of a "*" group)
	field  bool // a line other than a rule (crawl-delay, content-usage, ...)
	plain  bool // a disallow rule of plain bytes (see plainDisallowValue)
}

// collectScoped reads the rule lines and the other lines (fields) of the
// groups of body that apply to agent into b.lines, as streamVerdict
// follows the groups: the groups naming the agent, and the "*" groups
// until one names it (after which they cannot apply). named reports
// whether some group names the agent; ok is false when the groups that
// apply hold more than maxScopedLines lines, for the caller to compile the
// whole file instead.
func (b *builder) collectScoped(body, agent string) (named, ok bool) {
	b.lines = b.lines[:0]
	gr := parse.NewGrouper(body)
	var l parse.Grouped
	// As in streamVerdict: only user-agent lines can matter while no
	// group is open, or while the open group does not apply and already
	// has a rule. Until its first rule, a group's user-agent lines may be
	// interleaved with fields, which belong to it whatever user-agent
	// line makes it apply: they are kept until the group is known not to.
	gr.Filter(parse.AgentLines)
	inNamed, inGlobal, applies := false, false, false
	start := 0 // where the open group's lines start in b.lines
	num := 0   // the number of the last line read
	// The bytes of the values read, once one may need escaping: then
	// every pattern is copied (see verbatimRule), at least these bytes.
	values, copied := 0, 0
	wild := 0 // wildcard rules read
	for {
		if tooLarge(len(b.lines), wild, copied, len(body)) {
			clear(b.lines)
			return named, false
		}
		if applies {
			// Most rule lines are plain disallow lines, whose value the
			// tokenizer need not find.
			if value, ok := plainDisallowValue(&gr); ok {
				num++
				b.lines = append(b.lines, scopedLine{value: value, line: int32(num), named: inNamed, plain: true})
				values += len(value)
				if copied > 0 {
					copied = values
				}
				gr.PassRule()
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
					b.lines = b.lines[:start]
				}
				start = len(b.lines)
				inNamed, inGlobal = false, false
			}
			if parse.IsGlobalAgent(l.Value) {
				inGlobal = true
			} else if parse.EqualFold(parse.ProductToken(l.Value), agent) {
				inNamed, named = true, true
			}
			applies = inNamed || inGlobal && !named
			// The group's lines so far are fields, of its kind now.
			for i := start; i < len(b.lines); i++ {
				b.lines[i].named = inNamed
			}
			gr.Filter(nil)
		case parse.RoleRule:
			if !applies {
				b.lines = b.lines[:start]
				gr.Filter(parse.AgentLines) // the group has a rule now
				continue
			}
			b.lines = append(b.lines, scopedLine{
				value: l.Value, line: int32(num), allow: l.Kind == parse.KeyAllow,
				escape: l.Flags&parse.LineMayEscape != 0, named: inNamed,
			})
			values += len(l.Value)
			if strings.IndexByte(l.Value, '*') >= 0 || strings.HasSuffix(l.Value, "$") {
				wild++
			}
			if l.Flags&parse.LineMayEscape != 0 || copied > 0 {
				copied = values
			}
		case parse.RoleOther:
			if l.Group >= 0 {
				b.lines = append(b.lines, scopedLine{key: l.Key, value: l.Value, line: int32(num), named: inNamed, field: true})
			}
		}
	}
	if !applies {
		b.lines = b.lines[:start]
	}
	return named, true
}

// plainDisallowValue returns the value of the next line, without
// tokenizing it, when it is a disallow line of the open group whose value
// is plain bytes (see plainPatternByte: no wildcard, escape, comment or
// white space) up to the line's end, within the tokenizer's line cap;
// ok is false for any other line, which is not consumed either way. The
// line is the one after the last line read: the line filter passes over
// lines only within Grouper.Next.
func plainDisallowValue(gr *parse.Grouper) (value string, ok bool) {
	rest, offset, ok := gr.PlainDisallow()
	if !ok {
		return "", false
	}
	k := plainPrefix(rest)
	if offset+k+1 >= parse.MaxLineBytes || k < len(rest) && rest[k] != '\n' && rest[k] != '\r' {
		return "", false
	}
	return rest[:k], true
}

// plainPrefix returns how many of the first bytes of s are plain pattern
// bytes (see plainPatternByte), eight at a time: a byte below 0x21 or
// above 0x7E, or one of "*$%#", ends them. Each test may flag bytes after
// the first it finds, never before, so the lowest flag is exact.
func plainPrefix(s string) int {
	const (
		star, dollar, percent, hash, del = '*' * swar.LowBits, '$' * swar.LowBits, '%' * swar.LowBits, '#' * swar.LowBits, 0x7F * swar.LowBits
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := swar.Load64(s, i)
		stop := swar.HasLess(w, 0x21) | w&swar.HighBits | swar.HasZeroByte(w^star) | swar.HasZeroByte(w^dollar) |
			swar.HasZeroByte(w^percent) | swar.HasZeroByte(w^hash) | swar.HasZeroByte(w^del)
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
// copy, as File.lookup finds it in the compiled file: its rules, crawl
// delay, request rate and preferences. named reports whether some group
// names the agent; ok is false when the set would be too large to keep
// beside the file's copy (see maxScopedLines).
func (b *builder) scopedRules(rs *RuleSet, body, agent string) (named, ok bool) {
	named, ok = b.collectScoped(body, agent)
	if !ok {
		return false, false
	}
	// One pass sets the fields apart in their scratch, keeps the rules in
	// b.lines and compiles them as spans of body while they all can be:
	// the "*" groups read before the first group naming the agent do not
	// apply.
	b.scopedFields = b.scopedFields[:0]
	b.compiled = b.compiled[:0]
	rules, verbatim := 0, true
	for i := range b.lines {
		sl := &b.lines[i]
		switch {
		case named && !sl.named:
			continue
		case sl.field:
			b.scopedFields = append(b.scopedFields, Field{Key: sl.key, Value: sl.value, Line: int(sl.line)})
			continue
		}
		b.lines[rules] = *sl
		rules++
		if verbatim = verbatim && verbatimRule(sl, body); !verbatim {
			continue
		}
		off := uint32(0)
		if sl.value != "" {
			o, _ := swar.Offset(body, sl.value) // a span of body: verbatimRule
			off = uint32(o)
		}
		if sl.plain {
			// A literal disallow: newCompiledRule's answer, known.
			b.compiled = append(b.compiled, compiledRule{off: off, n: uint16(len(sl.value)), head: uint8(min(len(sl.value), 8)), line: sl.line})
			continue
		}
		info := uint8(0)
		if sl.allow {
			info = ruleAllow
		}
		b.compiled = append(b.compiled, newCompiledRule(sl.value, off, int(sl.line), info))
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
		// block of the set's own, as the builder keeps them.
		b.compiled = b.compiled[:0]
		for i := range b.lines[:rules] {
			sl := &b.lines[i]
			b.addRule(sl.allow, sl.value, int(sl.line), sl.escape)
		}
		if tooLarge(rules, 0, len(b.text), len(body)) {
			clear(b.lines)
			return false, false
		}
		var pad [textPadding]byte
		text = string(append(b.text, pad[:]...))
		for i := range b.rules {
			d := &b.rules[i]
			b.compiled = append(b.compiled, newCompiledRule(spanOf(text, d.pattern.off, d.pattern.n), d.pattern.off, int(d.line), d.info))
		}
	}
	clear(b.lines)
	if len(b.compiled) == 0 {
		return named, true
	}
	all := make([]compiledRule, len(b.compiled))
	sortRules(all, b.compiled, text)
	rs.compiled, rs.text = all, text
	if len(all) >= indexMinRules {
		rs.index = &lazyIndex{compiled: all, text: text}
	}
	return named, true
}

// verbatimRule reports whether the rule of sl is kept as its value in
// body: a span of body, which escaping leaves alone, and not an allow
// Google derives a directory pattern from.
func verbatimRule(sl *scopedLine, body string) bool {
	if sl.plain {
		return true // a span of body, that escaping leaves alone
	}
	if sl.escape && escapes(sl.value) {
		return false
	}
	if sl.allow && sl.value != "" {
		if _, ok := parse.IndexDirectory(sl.value); ok {
			return false
		}
	}
	if sl.value == "" {
		return true
	}
	// The tokenizer's values are spans of the body; a value that were not
	// is copied.
	_, ok := swar.Offset(body, sl.value)
	return ok
}

// padded returns body with the textPadding bytes File.Load keeps after
// it, so that 8 bytes can be read at the start of any of its values.
func padded(body string) string {
	return swar.Extend(body, textPadding)
}

// scopedScans is how many questions a scoped set whose rules have a lazy
// index answers by scanWithin before the index decides: a wildcard-heavy
// set's index would otherwise be built at its second question (see
// lazyIndex.scan), which costs as much as compiling the set, where a
// scan within the stream's budget costs less than streaming once.
const scopedScans = 16

// scanning reports whether the next question about s is to be answered by
// scanWithin: while s has a lazy index not yet built, for its first
// scopedScans questions.
func (s *scopedSet) scanning() bool {
	idx := s.rules.index
	return idx != nil && idx.built.Load() == nil && s.scans.Load() < scopedScans && s.scans.Add(1) <= scopedScans
}

// scanVerdict returns the verdict of rs for url, found by firstDecide; ok
// is false when the wildcard budget is spent.
func (rs *RuleSet) scanVerdict(url string) (v Verdict, ok bool) {
	c, ok := rs.firstDecide(url)
	switch {
	case !ok:
		return Verdict{}, false
	case c == nil:
		return Verdict{Allowed: true}, true
	}
	return Verdict{Allowed: c.allows(), Rule: c.asWritten(rs.text, rs.compiled)}, true
}

// firstDecide returns the rule of rs that decides for url, found by trying
// the rules in order while the wildcard matches cost less than the
// stream's budget (streamWildBudget), as streamVerdict does: the question
// that built a scoped set answers without building the set's index, which
// may never be needed. ok is false when the budget is spent; rs.decide
// then answers.
func (rs *RuleSet) firstDecide(url string) (c *compiledRule, ok bool) {
	if len(rs.compiled) == 0 {
		return nil, true
	}
	path, n, rewrite := findPath(url)
	if !rewrite {
		return rs.scanWithin(path)
	}
	var buf [pathBufSize]byte
	return rs.scanWithin(rewritePath(path, n, &buf))
}

// scanWithin returns the first rule of rs that matches path, as decide
// does without an index, unless its wildcard matches would cost more
// than streamWildBudget (ok false).
func (rs *RuleSet) scanWithin(path string) (c *compiledRule, ok bool) {
	key, budget := prefixKey(path), streamWildBudget
	for i := range rs.compiled {
		c := &rs.compiled[i]
		if !c.mayMatch(rs.text, key) {
			continue
		}
		if c.info&ruleWild != 0 {
			if budget -= len(path) + int(c.n); budget < 0 {
				return nil, false
			}
		}
		if c.matchesFully(rs.text, path) {
			return c, true
		}
	}
	return nil, true
}
