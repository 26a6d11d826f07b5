package engine

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/seed50c7eacc/robotstxt/internal/swar"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// A builder collects the parts of a file while it is read, as offsets into
// one byte buffer, then gives the File each of its arrays in one
// allocation of the exact size: all strings in one block, all rules in
// one array (each group's rules a part of it), one array of groups, of
// fields, of agents and sitemaps together. Nothing grows
// while reading but the builder's own buffers, which are reused from one
// Parse to the next, so a file costs a handful of allocations whatever its
// length.
type builder struct {
	text     []byte // the bytes kept: agents, tokens, patterns, keys, values
	rules    []ruleDraft
	groups   []groupDraft
	agents   []agentDraft
	fields   []fieldDraft
	sitemaps []span

	// Scratch of the final steps.
	compiled     []compiledRule // then the joined rules of merged groups
	names        []parse.Naming
	groupIDs     []int32
	groupSet     []int32
	fieldLines   []scopedField // the fields of a scoped set (see scoped.go)
	scopedFields []Field       // and its fields
	agentsRead   agentSummary  // the product tokens a scoped set's pass read
	groupStarts  []groupRead   // and its groups, for the file's directory
	regions      regionCursor  // the groups a later agent's pass reads
	// The lines a scoped set's pass read, the whole file's when it read
	// to the end, and whether one was a user-agent line (see
	// compileSparse).
	scopedLines  int
	scopedAgents bool
	// precompiled is how many of the rules read are compiled into
	// compiled already, in file order, their classes marked: a compile in
	// parts compiles each part's rules (compileRead), so that finishing
	// need not compile them all at once.
	precompiled int
}

// A span is a string of builder.text.
type span struct{ off, n uint32 }

type ruleDraft struct {
	pattern span
	line    int32
	info    uint8 // as compiledRule.info, without ruleWild
}

type groupDraft struct {
	line             int32
	agentLo, agentHi int32
	fieldLo, fieldHi int32
	ruleLo, ruleHi   int32
	global           bool
}

type agentDraft struct {
	value, token span // token: the lower-cased product token
}

type fieldDraft struct {
	key, value span
	line       int
}

// A builder is kept for the next Parse only while its buffers are small:
// the pool holds them across a garbage collection, and the memory a large
// file needed should go back to the heap with the file, not stay behind
// in the pool.
const (
	maxPooledText  = 64 << 10
	maxPooledRules = 2048
)

var builders = sync.Pool{New: func() any { return new(builder) }}

// keep appends s to the text and returns its span.
func (b *builder) keep(s string) span {
	off := len(b.text)
	b.text = append(b.text, s...)
	return span{uint32(off), uint32(len(s))}
}

// escapes reports whether s differs from its wire form.
func escapes(s string) bool {
	_, _, changed := wireLen(s)
	return changed
}

// keepLower appends s lower-cased and returns its span.
func (b *builder) keepLower(s string) span {
	off := len(b.text)
	for i := 0; i < len(s); i++ {
		b.text = append(b.text, parse.LowerASCII(s[i]))
	}
	return span{uint32(off), uint32(len(s))}
}

// read reads the lines of body into the builder. dense tells that the
// file's rules are known to be many and short (a scoped set was given up
// for them, see tooLarge).
func (b *builder) read(body string, dense bool) {
	gr := b.startReading(body, dense)
	b.readLines(&gr, math.MaxInt)
}

// startReading makes the builder ready to read body, as read does, and
// returns the grouper to read it with.
func (b *builder) startReading(body string, dense bool) parse.Grouper {
	if dense && len(body) > maxPooledText {
		// A builder this large is not pooled, so its scratch would grow
		// from nothing by doubling, copying each array about twice over.
		// Sized for a file of short rules (the hostile files of
		// reference.HostileFamilies: 16 bytes a line or more, a quarter of
		// them kept); only for those: most large files hold few rules,
		// and allocating is clearing.
		b.text = slices.Grow(b.text[:0], len(body)/4)
		b.rules = slices.Grow(b.rules[:0], len(body)/16)
	}
	gr := parse.NewGrouper(body)
	gr.ReadSpans()
	return gr
}

// readLines reads the lines of gr into the builder until it has read work
// bytes or more (whole lines), and reports whether it read the last.
func (b *builder) readLines(at *parse.Grouper, work int) (done bool) {
	// Read through a copy on the stack, written back (through at, the
	// whole compile took a few tenths of a percent more instructions).
	gr := *at
	stop := len(gr.Rest()) - work // read until no more than this is left
	var l parse.Grouped
	body := gr.Body()
	for {
		if rb, pos, ok := gr.RuleRun(); ok && parse.DisallowAt(rb, pos) {
			b.readDisallowRun(&gr, len(body)-stop)
			if len(gr.Rest()) <= stop {
				*at = gr
				return false
			}
		}
		if !gr.Next(&l) {
			break
		}
		switch l.Role {
		case parse.RoleAgent:
			if l.NewGroup {
				if n := len(b.groups); n > 0 {
					b.groups[n-1].ruleHi = int32(len(b.rules))
				}
				a, f, ru := int32(len(b.agents)), int32(len(b.fields)), int32(len(b.rules))
				b.groups = append(b.groups, groupDraft{line: int32(l.Num), agentLo: a, agentHi: a, fieldLo: f, fieldHi: f, ruleLo: ru, ruleHi: ru})
			}
			g := &b.groups[l.Group]
			agent := l.ValueAt.In(body)
			value := b.keep(agent)
			token := parse.ProductToken(agent)
			tokenSpan := span{value.off, uint32(len(token))}
			if parse.HasUpper(token) {
				tokenSpan = b.keepLower(token)
			}
			b.agents = append(b.agents, agentDraft{value: value, token: tokenSpan})
			g.agentHi++
			if parse.IsGlobalAgent(agent) {
				g.global = true
			}
		case parse.RoleRule:
			b.addRule(l.Kind == parse.KeyAllow, l.ValueAt.In(body), l.Num, l.Flags&parse.LineMayEscape != 0)
		case parse.RoleSitemap:
			if l.ValueAt.N != 0 {
				b.sitemaps = append(b.sitemaps, b.keep(l.ValueAt.In(body)))
			}
		case parse.RoleOther:
			b.fields = append(b.fields, fieldDraft{key: b.keep(l.KeyAt.In(body)), value: b.keep(l.ValueAt.In(body)), line: l.Num})
			if l.Group >= 0 {
				b.groups[l.Group].fieldHi++
			}
		}
		if len(gr.Rest()) <= stop {
			// A part read; the body's last line may be empty and still
			// to come, so that the end is only known from Next.
			*at = gr
			return false
		}
	}
	*at = gr
	if n := len(b.groups); n > 0 {
		b.groups[n-1].ruleHi = int32(len(b.rules))
	}
	return true
}

// readDisallowRun reads the disallow lines of the open group that follow,
// up to the first that starts at limit or later, as readLines would, in
// one loop without the tokenizer: lines that start as DisallowAt tells
// and whose value is simple bytes or bytes >= 0x80 up to an LF within the
// line cap, whose wire form needs no escape but of its bytes >= 0x80 (see
// disallowRun, which reads them so for a stream). It stops before the
// first other line. These are the lines of the hostile files, tens of
// thousands of short wildcard rules: a compile part read them for about
// 575 instructions a line, half of it the tokenizer's.
func (b *builder) readDisallowRun(gr *parse.Grouper, limit int) {
	body, pos, _ := gr.RuleRun()
	n, line := 0, gr.Lines()
	for pos < limit && parse.DisallowAt(body, pos) {
		const offset = 10 // "disallow: "
		v := pos + offset
		k, high := runPrefix(body[v:min(len(body), pos+parse.MaxLineBytes)])
		end := v + k
		if end >= len(body) || body[end] != '\n' || end+1-pos >= parse.MaxLineBytes {
			break // not the end of the value, or the line: Next reads it
		}
		// A value with bytes >= 0x80 (and no '%') may need escaping, as
		// the tokenizer's LineMayEscape tells.
		b.addRule(false, body[v:end], line+n+1, high)
		n++
		pos = end + 1
	}
	gr.PassRules(pos, n)
}

// A valueForm tells how a rule value is kept.
type valueForm uint8

const (
	asWireForm    valueForm = iota // as written: escaping leaves it alone
	asCompactForm                  // as written, in compact form (see compact.go)
	asEscaped                      // in wire form, after the value as written
)

// valueFormOf returns how value, which the tokenizer found may need
// escaping (LineMayEscape; without it, it is kept asWireForm), is kept.
// Escaping a value without '%' changes only its bytes >= 0x80, which the
// compact form decodes back: that form is the value as written, which
// compact would find after writing the wire form and reading it back.
func valueFormOf(value string) valueForm {
	switch {
	case strings.IndexByte(value, '%') < 0:
		if firstHigh(value) < len(value) {
			return asCompactForm
		}
		return asWireForm
	case escapes(value):
		return asEscaped
	}
	return asWireForm
}

// addRule adds one rule as written, with the directory pattern Google
// derives from an index.htm allow.
func (b *builder) addRule(allow bool, value string, line int, mayEscape bool) {
	info := uint8(0)
	if allow {
		info |= ruleAllow
	}
	var pattern span
	form := asWireForm
	if mayEscape {
		form = valueFormOf(value)
	}
	// The line first, where compiledRule.asWritten finds it, right before
	// the pattern as written: a compiled rule does not keep it.
	b.text = binary.LittleEndian.AppendUint32(b.text, uint32(line))
	switch form {
	case asWireForm:
		pattern = b.keep(value)
	case asCompactForm:
		pattern, info = b.keep(value), info|ruleCompact
	case asEscaped:
		// The pattern as written is kept right before the wire form,
		// where compiledRule.asWritten finds it without allocating.
		raw := b.keep(value)
		off := len(b.text)
		b.text = appendEscaped(b.text, value)
		pattern, info = b.compact(raw, span{uint32(off), uint32(len(b.text) - off)}, info|ruleRawBefore)
	}
	b.rules = append(b.rules, ruleDraft{pattern: pattern, line: int32(line), info: info})
	if !allow {
		return
	}
	// The derived pattern is the directory of the wire form, then '$' (in
	// compact form if its rule's pattern is).
	if pattern.n == 0 {
		return
	}
	dir, ok := parse.IndexDirectory(swar.String(b.text[pattern.off : pattern.off+pattern.n]))
	if !ok {
		return
	}
	// The derived rule finds its pattern as written through the rule it
	// comes from, on the same line (see compiledRule.asWritten).
	off := len(b.text)
	b.text = append(b.text, b.text[pattern.off:pattern.off+uint32(len(dir))]...)
	b.text = append(b.text, '$')
	b.rules = append(b.rules, ruleDraft{pattern: span{uint32(off), uint32(len(dir) + 1)}, line: int32(line), info: ruleAllow | ruleDerived | info&ruleCompact})
}

// compact brings a pattern in wire form, the last bytes of the text, right
// after the pattern as written (raw), to compact form when that keeps
// fewer bytes (see compact.go), and returns its span and info. When the
// compact form is the pattern as written, it is kept once; otherwise the
// length of the pattern as written comes between them, in two bytes, where
// compiledRule.asWritten finds it.
func (b *builder) compact(raw, wire span, info uint8) (span, uint8) {
	h := highEscapes(swar.String(b.text[wire.off : wire.off+wire.n]))
	if h == 0 {
		return wire, info
	}
	n := uint32(compactInPlace(b.text[wire.off:]))
	b.text = b.text[:wire.off+n]
	if string(b.text[raw.off:raw.off+raw.n]) == string(b.text[wire.off:]) {
		b.text = b.text[:wire.off]
		return raw, info&^ruleRawBefore | ruleCompact
	}
	if h < 2 || raw.n > 0xFFFF {
		// The length and the compact form would take as many bytes as the
		// wire form, or more (or the length would not fit): keep that.
		b.text = appendEscaped(b.text[:wire.off], string(b.text[raw.off:raw.off+raw.n]))
		return wire, info
	}
	b.text = append(b.text, 0, 0)
	copy(b.text[wire.off+2:], b.text[wire.off:wire.off+n])
	b.text[wire.off], b.text[wire.off+1] = byte(raw.n), byte(raw.n>>8)
	return span{wire.off + 2, n}, info | ruleCompact
}

// finish gives r its parts, each array allocated once at its exact size.
func (b *builder) finish(f *File) {
	if f.compiledForm == nil {
		f.compiledForm = new(compiledForm)
	}
	if len(b.text) == 0 && len(b.groups) == 0 && len(b.fields) == 0 {
		return
	}
	// The padding lets the matcher read 8 bytes at the start of any
	// pattern (see loadKey).
	var pad [textPadding]byte
	text := string(append(b.text, pad[:]...))
	f.text = text
	// Every span is of text: no bounds to check.
	str := func(sp span) string { return spanOf(text, sp.off, sp.n) }

	// The agents and sitemaps share one array.
	strs := make([]string, len(b.agents)+len(b.sitemaps))
	for i := range b.agents {
		strs[i] = str(b.agents[i].value)
	}
	n := len(b.agents)
	for i, sp := range b.sitemaps {
		strs[n+i] = str(sp)
	}
	if len(strs) > 0 {
		f.strs, f.agentsN = strs, int32(len(b.agents))
	}

	if len(b.fields) > 0 {
		f.fields = make([]Field, len(b.fields))
		for i := range b.fields {
			d := &b.fields[i]
			f.fields[i] = Field{Key: str(d.key), Value: str(d.value), Line: d.line}
		}
	}

	// Every group's rules, compiled in file order into the scratch, then
	// sorted into their part of one array; or straight into it when every
	// group's rules are in deciding order already (a hostile file's run of
	// rules of one length and kind), which spares the scratch and a copy.
	var all []compiledRule
	inOrder := false
	if len(b.rules) > 0 {
		all = make([]compiledRule, len(b.rules))
		if b.precompiled > 0 {
			// A compile in parts: the parts compiled their rules into the
			// scratch, to be sorted from it, or copied when in order.
			b.compileRead()
			if inOrder = b.rulesInOrder(); inOrder {
				copy(all, b.compiled)
			}
		} else {
			compiled := all
			if inOrder = b.rulesInOrder(); !inOrder {
				b.compiled = slices.Grow(b.compiled[:0], len(b.rules))[:len(b.rules)]
				compiled = b.compiled
			}
			for i := range b.rules {
				d := &b.rules[i]
				compiled[i] = newCompiledRule(str(d.pattern), d.pattern.off, d.info)
			}
			markClasses(compiled, text) // decide answers the compiled sets
		}
	}
	indexes := 0
	for i := range b.groups {
		if g := &b.groups[i]; g.ruleHi-g.ruleLo >= indexMinRules {
			indexes++
		}
	}
	var lazy []lazyIndex
	if indexes > 0 {
		lazy = make([]lazyIndex, indexes)
	}
	f.groups = make([]group, len(b.groups))
	for i := range b.groups {
		d := &b.groups[i]
		g := &f.groups[i]
		*g = group{line: d.line, agentLo: d.agentLo, agentHi: d.agentHi, fieldLo: d.fieldLo, fieldHi: d.fieldHi, global: d.global}
		if d.ruleHi > d.ruleLo {
			g.rules = all[d.ruleLo:d.ruleHi:d.ruleHi]
			if !inOrder {
				sortRules(g.rules, b.compiled[d.ruleLo:d.ruleHi], text)
			}
		}
		if len(g.rules) >= indexMinRules {
			g.index = &lazy[0]
			g.index.compiled = g.rules
			g.index.text = text
			lazy = lazy[1:]
		}
	}

	b.agentSets(f, str)
}

// compileRead compiles the rules read since it was last called into
// b.compiled, in file order, their classes marked, as finish would: each
// part of a compile in parts calls it for the rules it read. The string
// block is not padded yet, nor final: newCompiledRule and markClasses
// read each pattern's bytes alone, which are final once its rule is read.
func (b *builder) compileRead() {
	if b.precompiled == 0 {
		b.compiled = b.compiled[:0]
	}
	text := swar.String(b.text)
	from := len(b.compiled)
	for i := b.precompiled; i < len(b.rules); i++ {
		d := &b.rules[i]
		b.compiled = append(b.compiled, newCompiledRule(spanOf(text, d.pattern.off, d.pattern.n), d.pattern.off, d.info))
	}
	markClasses(b.compiled[from:], text)
	b.precompiled = len(b.rules)
}

// rulesInOrder reports whether the rules of every group are in the order
// sortRules puts them in: none in compact form, whose rank needs its
// pattern, and their ranks (see plainRank) never falling within a group.
func (b *builder) rulesInOrder() bool {
	for i := range b.groups {
		g := &b.groups[i]
		prev := 0
		for _, d := range b.rules[g.ruleLo:g.ruleHi] {
			if d.info&ruleCompact != 0 {
				return false
			}
			k := rankOf(int(d.pattern.n), d.info)
			if k < prev {
				return false
			}
			prev = k
		}
	}
	return true
}

// release returns the builder to the pool, emptied.
func (b *builder) release() {
	if cap(b.text) > maxPooledText || cap(b.rules) > maxPooledRules || cap(b.compiled) > maxPooledRules ||
		cap(b.agents) > maxPooledRules || cap(b.fields) > maxPooledRules || cap(b.names) > maxPooledRules ||
		cap(b.fieldLines) > maxPooledRules || cap(b.scopedFields) > maxPooledRules || cap(b.groupStarts) > maxPooledRules {
		return
	}
	b.reset()
	builders.Put(b)
}

// reset empties the builder for another file.
func (b *builder) reset() {
	b.text = b.text[:0]
	b.rules = b.rules[:0]
	b.groups = b.groups[:0]
	b.agents = b.agents[:0]
	b.fields = b.fields[:0]
	b.sitemaps = b.sitemaps[:0]
	b.precompiled = 0
	b.regions = regionCursor{} // holds a file's directory
}
