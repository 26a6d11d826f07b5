package engine

import (
	"slices"
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/swar"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// A scoped set's rules are read in one pass over the file's copy, passing
// over the groups that do not apply to the agent as the stream does, and
// compiled as they are read (collectScoped), most as spans of the copy.

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

// keptIn reports whether a set keeps the field: a field of a "*" group is
// dropped once a group names the agent (named).
func (fl *scopedField) keptIn(named bool) bool { return fl.named || !named }

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
// groups, if not nil, is the file's directory of groups (groupdir.go),
// for an agent asked after the first, and agentNamed whether a group
// names it (scopedSet.namesAgent): the pass reads the runs of groups that
// may apply to agent alone. Otherwise it reads the whole file, and
// leaves the groups it read in b.groupStarts and the product tokens in
// b.agentsRead, for the directory.
//
// The rules are compiled as they are read, with no record of their lines
// in between: a rule of the "*" groups read before the first group that
// names the agent is dropped at the end if one does, and every rule read
// after it is of such a group (a group's user-agent lines all come before
// its rules).
func (b *builder) collectScoped(body, agent string, groups []groupEntry, agentNamed bool) (named, verbatim, ok bool) {
	b.compiled, b.fieldLines, b.agentsRead, b.scopedAgents = b.compiled[:0], b.fieldLines[:0], agentSummary{}, false
	b.groupStarts = b.groupStarts[:0]
	gr := parse.NewGrouper(body)
	// With the file's directory, only the runs of groups that may apply
	// are read (see regionCursor), each from its first user-agent line.
	b.regions.groups = nil
	if groups != nil && !b.startRegions(body, agent, groups, agentNamed, &gr) {
		return false, true, true // no group applies: no rule
	}
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
		if read := len(b.compiled) + len(b.fieldLines); read > earlyScopedLines && !small && denser(read, wild, copied, gr.Offset()) {
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
			// They come in runs, read here in a loop of their own
			// (disallowRun), until a line of another kind, or until the
			// set is large enough for the test above to be made at every
			// line.
			if run, pos, ok := gr.RuleRun(); ok {
				if end, n, bytes, w := b.disallowRun(run, pos); n > 0 {
					gr.PassRules(end, n)
					values += bytes
					if copied > 0 {
						copied = values
					}
					wild += w
					continue
				}
			}
			// A line of another shape ("Disallow:/x", indented, ...), read
			// alone.
			if value, end, plain, ok := simpleDisallowValue(&gr); ok {
				// Where the value is: the line starts at the rest of the
				// body, and the value ends the line's first end bytes.
				// An empty value's span is in its line too, where
				// compiledRule.asWritten counts its line from.
				v := lineValueSpan(body, &gr, value, end)
				if plain {
					b.compiled = append(b.compiled, plainRule(v.off, int(v.n)))
				} else {
					c := newCompiledRule(value, v.off, 0)
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
				continue
			}
		}
		if !applies && gr.NextByte()|0x20 == 'd' {
			// The first rule of a group that does not apply, which the
			// filter reads: it ends what the group's user-agent lines
			// began, whatever its value, so it is left to the filter of
			// user-agent lines to pass over, untokenized.
			if _, pos, ok := gr.RuleRun(); ok && parse.DisallowAt(body, pos) {
				gr.RuleAhead()
				b.fieldLines = b.fieldLines[:start]
				gr.Filter(parse.AgentLines)
			}
		}
		if applies && gr.NextByte()|0x20 == 'a' {
			// An allow line of simple bytes, read alone (most allow
			// lines: a tenth of the rules of the corpus's sets for Googlebot).
			if value, end, ok := simpleAllowValue(&gr); ok {
				v := lineValueSpan(body, &gr, value, end)
				c, asWritten := scopedRule(value, v, true, false)
				b.compiled = append(b.compiled, c)
				if !asWritten {
					notVerbatim = len(b.compiled)
				}
				values += len(value)
				if copied > 0 {
					copied = values
				}
				if c.info&ruleWild != 0 {
					wild++
				}
				gr.PassRuleTo(end)
				continue
			}
		}
		if !gr.Next(&l) {
			if b.regions.groups == nil || !b.nextRegion(body, &gr) {
				break
			}
			continue
		}
		num = l.Num
		switch l.Role {
		case parse.RoleAgent:
			b.scopedAgents = true
			if l.NewGroup {
				if !applies {
					b.fieldLines = b.fieldLines[:start]
				}
				start = len(b.fieldLines)
				inNamed, inGlobal = false, false
				b.groupStarts = append(b.groupStarts, groupRead{start: l.KeyAt.Off})
			}
			// The line's bits in the open group's entry, for the
			// directory.
			bits := uint16(starGroup)
			if value := l.ValueAt.In(body); parse.IsGlobalAgent(value) {
				inGlobal = true
			} else {
				token := parse.ProductToken(value)
				h := agentHash(token)
				b.agentsRead.addHash(h)
				bits = tokenBits(h)
				if parse.EqualFold(token, agent) {
					if !named {
						cut = len(b.compiled)
					}
					inNamed, named = true, true
				}
			}
			b.groupStarts[len(b.groupStarts)-1].tokens |= bits
			applies = inNamed || inGlobal && !named
			// The group's fields so far are of its kind now.
			for i := start; i < len(b.fieldLines); i++ {
				b.fieldLines[i].named = inNamed
			}
			// Lines that are no rule nor a field a set reads (see
			// scopedRules) are passed over, comments and blank lines
			// among them: they do not change the groups either.
			gr.Filter(parse.GroupLines)
		case parse.RoleRule:
			if !applies {
				b.fieldLines = b.fieldLines[:start]
				gr.Filter(parse.AgentLines) // the group has a rule now
				continue
			}
			v, value := spanAt(l.ValueAt), l.ValueAt.In(body)
			if v.n == 0 {
				// An empty value has no span; the key's places it in its
				// line, whose number compiledRule.asWritten counts.
				v.off = l.KeyAt.Off
			}
			mayEscape := l.Flags&parse.LineMayEscape != 0
			c, asWritten := scopedRule(value, v, l.Kind == parse.KeyAllow, mayEscape)
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
				line := num
				if b.regions.groups != nil {
					line = b.regions.lineIn(body, num)
				}
				b.fieldLines = append(b.fieldLines, scopedField{key: spanAt(l.KeyAt), value: spanAt(l.ValueAt), line: int32(line), named: inNamed})
			}
		}
	}
	if !applies {
		b.fieldLines = b.fieldLines[:start]
	}
	b.scopedLines = gr.Lines()
	if named && cut > 0 {
		// The rules of the "*" groups read before the first group naming
		// the agent do not apply.
		b.compiled = b.compiled[:copy(b.compiled, b.compiled[cut:])]
		notVerbatim = max(notVerbatim-cut, 0)
	}
	return named, notVerbatim == 0, true
}

// disallowRun appends to b.compiled the rules of the lines of body from
// pos on that start as parse.DisallowAt tells, whose value is simple
// bytes (see simpleDisallowValue) up to a line end (LF, CR or CR LF)
// within the tokenizer's line cap, as collectScoped does one by one: in
// one loop, without a call to the Grouper or the Tokenizer a line. It
// stops before the first other line, or, once the set holds more than
// earlyScopedLines lines, every denseCheckLines lines, for the caller's
// test of the set's density; it returns where it stopped, the lines read,
// the bytes of their values and how many are wildcard rules. Most rule
// lines of the corpus are such lines; the loop took a corpus pass's
// first questions from 59.5 M to 56.2 M instructions
// (BenchmarkParseCheckTwoAgents, checks=1).
func (b *builder) disallowRun(body string, pos int) (end, n, bytes, wild int) {
	const offset = 10 // "disallow: "
	for parse.DisallowAt(body, pos) {
		rest := body[pos+offset:]
		k := plainPrefix(rest)
		plain, star := true, -1
		if k < len(rest) && (rest[k] == '*' || rest[k] == '$') {
			if rest[k] == '*' {
				star = k
			}
			// Bytes past the line cap are dropped: none is read.
			k += simplePrefix(rest[k:max(min(len(rest), parse.MaxLineBytes-offset), k)])
			plain = false
		}
		if k == len(rest) || rest[k] != '\n' && rest[k] != '\r' || offset+k+1 >= parse.MaxLineBytes {
			break // not the end of the value, or the line: read alone
		}
		off := uint32(pos + offset)
		if plain {
			b.compiled = append(b.compiled, plainRule(off, k))
		} else if star >= 0 {
			// Its literal prefix ends at the star: not searched again.
			b.compiled = append(b.compiled, starRule(off, k, star))
			wild++
		} else {
			c := newCompiledRule(rest[:k], off, 0)
			b.compiled = append(b.compiled, c)
			if c.info&ruleWild != 0 {
				wild++
			}
		}
		bytes += k
		n++
		pos += offset + k + 1
		if rest[k] == '\r' && pos < len(body) && body[pos] == '\n' {
			pos++ // CR LF ends one line
		}
		if n%denseCheckLines == 0 && len(b.compiled)+len(b.fieldLines) > earlyScopedLines {
			break
		}
	}
	return pos, n, bytes, wild
}

// scopedRule compiles a rule of a scoped set, whose value is the span v
// of the body, as a span of the body when the value as written is its
// wire form or its compact form, and it is not an allow Google derives a
// directory pattern from (asWritten). Otherwise the rule is compiled
// from its value as written all the same, for what the set's compile into
// a string block of its own reads of it (scopedRules: where its value is,
// whether it allows, its line) and for whether it is a wildcard rule.
// mayEscape is parse.LineMayEscape.
func scopedRule(value string, v span, allow, mayEscape bool) (c compiledRule, asWritten bool) {
	info := uint8(0)
	if allow {
		info = ruleAllow
	}
	if mayEscape {
		switch valueFormOf(value) {
		case asEscaped:
			return newCompiledRule(value, v.off, info), false
		case asCompactForm:
			info |= ruleCompact
		}
	}
	if allow && value != "" {
		if _, ok := parse.IndexDirectory(value); ok {
			return newCompiledRule(value, v.off, info), false
		}
	}
	return newCompiledRule(value, v.off, info), true
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
	return simpleValue(rest, offset)
}

// simpleAllowValue is simpleDisallowValue for an allow line (see
// parse.Grouper.PlainAllow).
func simpleAllowValue(gr *parse.Grouper) (value string, end int, ok bool) {
	rest, offset, ok := gr.PlainAllow()
	if !ok {
		return "", 0, false
	}
	value, end, _, ok = simpleValue(rest, offset)
	return value, end, ok
}

// simpleValue returns the value of a rule line as simpleDisallowValue
// does, from rest, the line from its value on, offset bytes into it.
func simpleValue(rest string, offset int) (value string, end int, plain, ok bool) {
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

// scopedRules sets rs to the rule set of agent in body, the file's padded
// copy, as File.lookup finds it in the compiled file: its crawl delay,
// request rate, preferences and string block, and its rules in file
// order, for scopedSet.ruleSet to sort. A body with no padding (a string
// File.LoadString kept) comes with copyBody, which returns a padded copy
// of it: the set keeps its patterns in body unless one starts too close
// to its end for loadKey, and in the copy then. named reports
// whether some group names the agent; ok is false when the set would be
// too large to keep beside the file's copy (see maxScopedLines).
func (b *builder) scopedRules(rs *RuleSet, body string, copyBody func(string) string, agent string, groups []groupEntry, agentNamed bool) (named, ok bool) {
	named, verbatim, ok := b.collectScoped(body, agent, groups, agentNamed)
	if !ok {
		return false, false
	}
	b.scopedFields = b.scopedFields[:0]
	for i := range b.fieldLines {
		if fl := &b.fieldLines[i]; fl.keptIn(named) {
			b.scopedFields = append(b.scopedFields, Field{Key: fl.key.in(body), Value: fl.value.in(body), Line: int(fl.line)})
		}
	}
	if len(b.scopedFields) > 0 {
		// As setFor and buildUsage find them for the groups merged.
		var x setExtras
		x.crawlDelay, x.hasCrawlDelay = crawlDelay(b.scopedFields)
		x.requestInterval, x.hasRequestRate = requestRate(b.scopedFields)
		x.usage = groupPreferences(b.scopedFields)
		rs.setExtras(x)
		clear(b.scopedFields)
	}
	text := body
	if !verbatim {
		// Some pattern is not a span of body: all are kept in a string
		// block of the set's own, as the builder keeps them, from where
		// each rule's value is in body (a span of it as written, whatever
		// scopedRule made of the rule). The escaping hint is not kept:
		// valueFormOf tells any value's form.
		rules := len(b.compiled)
		line, at := 1, uint32(0) // the line of the rule before, and where it is
		for i := range b.compiled {
			c := &b.compiled[i]
			// The rules are in file order: their lines are counted from
			// the one before's.
			line += lineAt(body[at:], c.off-at) - 1
			at = c.off
			b.addRule(c.allow(), c.pattern(body), line, true)
		}
		if tooLarge(rules, 0, len(b.text), len(body)) {
			return false, false
		}
		var pad [textPadding]byte
		text = string(append(b.text, pad[:]...))
		b.compiled = b.compiled[:0]
		for i := range b.rules {
			d := &b.rules[i]
			b.compiled = append(b.compiled, newCompiledRule(spanOf(text, d.pattern.off, d.pattern.n), d.pattern.off, d.info))
		}
	} else {
		rs.counted = true // the patterns are spans of the copy
		if copyBody == nil {
			text = padded(body)
		} else if needsPadding(b.compiled, len(body)) {
			text = padded(copyBody(body))
		}
	}
	if len(b.compiled) == 0 {
		return named, true
	}
	rs.compiled, rs.text = slices.Clone(b.compiled), text
	return named, true
}

// needsPadding reports whether a rule of rules, whose patterns are spans
// of a text of size bytes, starts too close to its end for loadKey to
// read 8 bytes there.
func needsPadding(rules []compiledRule, size int) bool {
	for i := range rules {
		if int(rules[i].off)+textPadding > size {
			return true
		}
	}
	return false
}

// lineValueSpan returns where value, which ends its line end bytes after
// the start of the line gr reads next (see simpleDisallowValue), is in
// body.
func lineValueSpan(body string, gr *parse.Grouper, value string, end int) span {
	return span{uint32(gr.Offset() + end - len(value)), uint32(len(value))}
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
