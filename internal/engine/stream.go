package engine

import (
	"math/bits"
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/swar"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// A streamMatch is the deciding rule so far among the rules of the groups
// of one kind (naming the agent, or "*").
type streamMatch struct {
	n     int // priority: the length of the pattern in wire form; -1 for none
	allow bool
	line  int
	raw   string // the pattern as written
}

// yields reports whether a rule of priority n and kind allow, later in
// the file than the rule m holds, decides before it: as in compareRules,
// longer patterns first, then allow before disallow, then file order.
func (m *streamMatch) yields(n int, allow bool) bool {
	return n > m.n || n == m.n && allow && !m.allow
}

// A stream answers one question by reading a file once; see
// streamVerdict.
type stream struct {
	agent                string
	specific, global     streamMatch // the groups naming the agent, the "*" groups
	inSpecific, inGlobal bool        // the open group names the agent, or "*"
	named                bool        // some group names the agent
	budget               int         // what wildcard matches may still cost
	pairsAfter           int         // the cost after which the path's pairs are read
	lineRead             bool        // read stopped at a line it read into l (else one not read yet)
	patBuf               [pathBufSize]byte
}

// streamVerdict answers one question by reading body once, the way
// Google's matcher does: it follows the groups as the Grouper forms them,
// tracks the best matching rule of the groups naming the agent and of the
// "*" groups, and uses the first when any group names the agent. It
// decides exactly as the compiled form does (TestStreamMatchesCompiled).
// ok is false when the question would cost more than streamWildBudget, or
// a pattern is too long for the stack buffers; the caller then compiles.
func streamVerdict(body, agent, url string) (v Verdict, ok bool) {
	return streamVerdictPairsAfter(body, agent, url, pairsAfter)
}

// streamVerdictPairsAfter is streamVerdict, reading the path's bytes and
// pairs once the wildcard matches would cost more than after (0: at the
// first); the tests ask it with each.
func streamVerdictPairsAfter(body, agent, url string, after int) (v Verdict, ok bool) {
	// The path stays out of s, which escape analysis sees as one whole:
	// the verdict's pattern comes from s, and with it the path's buffer
	// would move to the heap.
	var pathBuf [pathBufSize]byte
	path := wirePath(url, &pathBuf)
	var s stream
	s.agent, s.budget, s.pairsAfter = agent, streamWildBudget, after
	s.specific.n, s.global.n = -1, -1
	gr := parse.NewGrouper(body)
	gr.ReadSpans()
	var l parse.Grouped
	// Only user-agent lines can matter while no group is open, or while
	// the open group applies to neither kind and already has a rule: the
	// tokenizer passes over the rest unread.
	gr.Filter(parse.AgentLines)
	switch s.read(&gr, &l, path, nil, false) {
	case streamCostly:
		return Verdict{}, false
	case streamNeedsPairs:
		if !s.readWithPairs(&gr, &l, path) {
			return Verdict{}, false
		}
	}
	return s.verdict(), true
}

// What stream.read stopped at.
const (
	streamEnd        = iota // the end of the body: the stream has its answer
	streamCostly            // a question too costly to stream
	streamNeedsPairs        // the rule line in l is to be read again with the path's pairs
)

// read reads the lines of gr (the line in l first, if again is true) up to
// the end of the body, or up to a rule line whose wildcard match would
// take the charges past s.pairsAfter while pairs is nil (s.lineRead tells
// whether that line is in l, or still to read): matching each
// wildcard rule then costs more than ruling most of them out by the path's
// bytes and pairs (see pathpairs.go).
func (s *stream) read(gr *parse.Grouper, l *parse.Grouped, path string, pairs *pathPairs, again bool) int {
	for {
		if again {
			again = false
		} else {
			if s.inSpecific || s.inGlobal {
				if pairs != nil {
					if r := s.disallowRun(gr, path, pairs); r != streamEnd {
						s.lineRead = false // the line is still to read
						return r
					}
				}
				if r, ok := s.disallowLine(gr, path, pairs); ok {
					if r != streamEnd {
						s.lineRead = false // the line is still to read
						return r
					}
					continue
				}
			}
			if !gr.Next(l) {
				return streamEnd
			}
		}
		switch l.Role {
		case parse.RoleAgent:
			s.agentLine(l, l.ValueAt.In(gr.Body()))
			gr.Filter(parse.MatcherLines)
		case parse.RoleRule:
			if !s.inSpecific && !s.inGlobal {
				gr.Filter(parse.AgentLines) // the group has a rule now
				continue
			}
			if r := s.ruleLine(l, l.ValueAt.In(gr.Body()), path, pairs); r != streamEnd {
				s.lineRead = true
				return r
			}
		}
	}
}

// readWithPairs is read from the line in l on, with the bytes and pairs
// of path; its frame holds their 10 KiB, so that the streams that need
// none (the real files': a few wildcard rules, short paths) do not clear
// them. It reports false when the question is too costly to stream.
func (s *stream) readWithPairs(gr *parse.Grouper, l *parse.Grouped, path string) bool {
	var pairs pathPairs
	pairs.reset(path)
	// Reading the path's bytes costs about a match.
	if s.budget -= len(path); s.budget < 0 {
		return false
	}
	return s.read(gr, l, path, &pairs, s.lineRead) == streamEnd
}

// verdict returns the verdict of the rules read.
func (s *stream) verdict() Verdict {
	m := &s.global
	if s.named {
		m = &s.specific
	}
	if m.n < 0 {
		return Verdict{Allowed: true}
	}
	// An empty disallow decides, and names its line, but allows.
	return Verdict{Allowed: m.allow || m.n == 0, Rule: Rule{Allow: m.allow, Pattern: m.raw, Line: m.line}}
}

// agentLine reads a user-agent line, whose value is given.
func (s *stream) agentLine(l *parse.Grouped, value string) {
	if l.NewGroup {
		s.inSpecific, s.inGlobal = false, false
	}
	if parse.IsGlobalAgent(value) {
		s.inGlobal = true
	} else if parse.EqualFold(parse.ProductToken(value), s.agent) {
		s.inSpecific, s.named = true, true
	}
}

// ruleLine reads an allow or disallow line of a group that applies, for
// path, with its bytes and pairs unless pairs is nil; raw is its value
// as written. It returns streamEnd to go on, else what read is to stop
// at.
func (s *stream) ruleLine(l *parse.Grouped, raw, path string, pairs *pathPairs) int {
	allow := l.Kind == parse.KeyAllow
	pat := raw
	if l.Flags&parse.LineMayEscape != 0 {
		// A disallow value whose only bytes to escape are >= 0x80 is in
		// compact form as written, which admits reads: ruling it out
		// spares escaping it (thousands of such rules are
		// reference.HostileFamilies' non-ascii-star).
		if pairs != nil && !allow && strings.IndexByte(pat, '%') < 0 && !pairs.admits(pat) {
			return streamEnd
		}
		if _, n, changed := wireLen(pat); changed {
			if n > len(s.patBuf)/2 {
				return streamCostly
			}
			out := appendEscaped(s.patBuf[:0], pat)
			pat = swar.String(out)
		}
	}
	if s.wants(len(pat), allow) {
		matched, r := s.matches(pat, path, pairs)
		if r != streamEnd {
			return r
		}
		if matched {
			s.take(streamMatch{n: len(pat), allow: allow, line: l.Num, raw: raw})
			return streamEnd // the derived pattern is shorter: it cannot decide
		}
	}
	if !allow || pat == "" {
		return streamEnd
	}
	// Allowing ".../index.htm..." also allows its directory, as the
	// pattern dir+"$" (see parse.IndexDirectory).
	dir, isIndex := parse.IndexDirectory(pat)
	if !isIndex || !s.wants(len(dir)+1, true) {
		return streamEnd
	}
	matched, within := derivedMatches(dir, path, &s.patBuf, &s.budget)
	if matched {
		s.take(streamMatch{n: len(dir) + 1, allow: true, line: l.Num, raw: raw})
	}
	if !within {
		return streamCostly
	}
	return streamEnd
}

// matches reports whether pattern, in wire form, matches path, ruling
// wildcard patterns out by the path's bytes and pairs unless pairs is nil,
// and charging the others to the budget. r is streamEnd, or what read is
// to stop at.
func (s *stream) matches(pattern, path string, pairs *pathPairs) (matched bool, r int) {
	literal, whole := literalPrefix(pattern)
	if !strings.HasPrefix(path, literal) {
		return false, streamEnd
	}
	switch {
	case whole:
		return true, streamEnd
	case pairs != nil && (pairs.lacksLastPair(pattern) || !pairs.admits(pattern)):
		// It cannot match. admits reads at most the pattern, so that
		// ruling rules out costs at most a pass over the file: it is not
		// charged.
		return false, streamEnd
	case pairs == nil && streamWildBudget-s.budget+len(path)+len(pattern) > s.pairsAfter:
		return false, streamNeedsPairs
	}
	if s.budget -= len(path) + len(pattern); s.budget < 0 {
		return false, streamCostly
	}
	return matchPattern(pattern, path), streamEnd
}

// disallowLine reads the next line without tokenizing it, as ruleLine
// does, when it is a disallow line of the open group whose value is
// simple: printable ASCII bytes, no '%' or '#', up to the line's end, so
// that its wire form is the value as written (most rule lines are). ok is
// false for any other line, which is not read; r is streamEnd, or what
// read is to stop at, the line not read then either.
func (s *stream) disallowLine(gr *parse.Grouper, path string, pairs *pathPairs) (r int, ok bool) {
	rest, offset, ok := gr.PlainDisallow()
	if !ok {
		return streamEnd, false
	}
	// Most often the value's first plain bytes already differ from the
	// path's, and the rule cannot match, whatever follows: the line is
	// passed over. (Escaping leaves plain bytes as they are.) The first
	// few are compared here; a simple value's other bytes by matches.
	if literalDiffers(rest, offset, path, 8) {
		gr.PassRule()
		return streamEnd, true
	}
	// Bytes past the line cap are dropped: none is read.
	k := simplePrefix(rest[:min(len(rest), max(parse.MaxLineBytes-offset, 0))])
	if !valueEnds(rest, offset, k) {
		// Not simple (an escape that may not fit the stack's buffer, say):
		// the line is read, unless its plain bytes differ from the path's.
		if literalDiffers(rest, offset, path, len(rest)) {
			gr.PassRule()
			return streamEnd, true
		}
		return streamEnd, false
	}
	pat := rest[:k]
	if s.wants(len(pat), false) {
		matched, r := s.matches(pat, path, pairs)
		if r != streamEnd {
			return r, true
		}
		if matched {
			s.take(streamMatch{n: len(pat), line: gr.Lines() + 1, raw: pat})
		}
	}
	gr.PassRuleTo(offset + k)
	return streamEnd, true
}

// disallowRun reads the disallow lines of the open group that follow,
// with the path's bytes and pairs, as disallowLine does, in one loop
// without a call to the Grouper a line: lines that start as DisallowAt
// tells and whose value is simple bytes (see disallowLine) or bytes >=
// 0x80, up to an LF within the line cap. A value with bytes >= 0x80 is in
// compact form as written, which admits reads (see ruleLine). It stops
// before the first other line, or one whose wildcard match it leaves to
// disallowLine or ruleLine (a value with bytes >= 0x80 that the pairs
// admit), or whose match would pass the budget (r is then what read is to
// stop at). These are the lines of the hostile files, tens of thousands
// of short wildcard rules, which the pairs rule out: a line costs about a
// third of what disallowLine's calls cost.
func (s *stream) disallowRun(gr *parse.Grouper, path string, pairs *pathPairs) (r int) {
	body, pos, ok := gr.RuleRun()
	if !ok {
		return streamEnd
	}
	n, line := 0, gr.Lines()
	// A value that starts with "/*" has the literal prefix "/", which
	// every path that starts with '/' has: the hostile values mostly do.
	slash := len(path) > 0 && path[0] == '/'
	for ; ; n++ {
		// The lines the last pair or order rules out are passed over in
		// a loop of their own (passRuledOut); this line is the first
		// other, its value body[v:end], or not a line of the run.
		var skipped, end int
		var high bool
		pos, skipped, end, high = passRuledOut(body, pos, pairs, slash)
		n += skipped
		if end < 0 {
			break
		}
		const offset = 10 // "disallow: "
		v := pos + offset
		pat := body[v:end]
		if !slash || len(pat) < 2 || pat[1] != '*' || pat[0] != '/' {
			// (A value that starts with "/*" has the literal prefix "/",
			// and passRuledOut found that the pairs admit it.)
			if lit, whole := literalOf(pat, path); lit < 0 {
				// The value's first plain bytes differ from the path's.
				pos = end + 1
				continue
			} else if whole {
				// Plain bytes alone (a value with a byte >= 0x80 is never
				// whole).
				if s.wants(len(pat), false) {
					s.take(streamMatch{n: len(pat), line: line + n + 1, raw: pat})
				}
				pos = end + 1
				continue
			}
			// The value's last eight bytes: there are "disallow: " before it.
			if tail := swar.Load64At(body, end-8); pairs.lacksLastPairTail(tail, len(pat)) ||
				!high && pairs.lacksLastOrderTail(tail, len(pat)) || !pairs.admits(pat) {
				pos = end + 1
				continue // it cannot match
			}
		}
		if high {
			break // ruleLine escapes it and matches
		}
		if s.wants(len(pat), false) {
			matched, r := s.matches(pat, path, pairs)
			if r != streamEnd {
				gr.PassRules(pos, n)
				return r
			}
			if matched {
				s.take(streamMatch{n: len(pat), line: line + n + 1, raw: pat})
			}
		}
		pos = end + 1
	}
	gr.PassRules(pos, n)
	return streamEnd
}

// passRuledOut passes over the lines of body from pos that disallowRun
// would pass over as no rule of theirs can match: lines that start as
// DisallowAt tells, whose value is simple bytes or bytes >= 0x80 up to
// an LF within the line cap, starts with "/*" (when slash: the path
// starts with '/', see literalOf), and which lacksLastPairTail rules out,
// or lacksLastOrderTail if no byte is >= 0x80, or admits does not admit.
// It returns where the first other line starts and how many it passed
// over, and the end of that line's value and whether it holds a byte >=
// 0x80, or end -1 when the line is not one of the run (see disallowRun).
// In a loop of its own, with few values to keep, a hostile line passed
// over costs about 30 fewer instructions than in disallowRun's.
func passRuledOut(body string, pos int, pairs *pathPairs, slash bool) (at, n, end int, high bool) {
	for ; parse.DisallowAt(body, pos); n++ {
		const offset = 10 // "disallow: "
		// runPrefix, inlined for the words that are whole within the body
		// and the line cap (hostile values are a word or two): it is
		// called for the rest, from the start.
		v := pos + offset
		end, high = v, false
		for {
			if end+8 > len(body) || end+8 > pos+parse.MaxLineBytes {
				k, h := runPrefix(body[v:min(len(body), pos+parse.MaxLineBytes)])
				end, high = v+k, h
				break
			}
			w := swar.Load64At(body, end)
			if stops := runStops(w); stops != 0 {
				t := bits.TrailingZeros64(stops)
				end, high = end+t/8, high || w&swar.HighBits&(1<<t-1) != 0
				break
			}
			end, high = end+8, high || w&swar.HighBits != 0
		}
		if end >= len(body) || body[end] != '\n' || end+1-pos >= parse.MaxLineBytes {
			return pos, n, -1, false // not the end of the value, or the line
		}
		// The value's last eight bytes: there are "disallow: " before it.
		tail := swar.Load64At(body, end-8)
		if !slash || body[v] != '/' || body[v+1] != '*' ||
			!pairs.lacksLastPairTail(tail, end-v) && (high || !pairs.lacksLastOrderTail(tail, end-v)) && pairs.admits(body[v:end]) {
			return pos, n, end, high
		}
		pos = end + 1
	}
	return pos, n, -1, false
}

// literalOf compares the literal prefix of pat, a value of simple bytes
// and bytes >= 0x80 as disallowRun reads it, with path: lit is -1 when
// they differ (no rule of that value matches path), else how many bytes
// were compared: up to pat's first '*', final '$' or byte >= 0x80, whose
// wire form differs. whole reports that pat is plain bytes alone, which
// then match.
func literalOf(pat, path string) (lit int, whole bool) {
	i := 0
	for ; i < len(pat); i++ {
		c := pat[i]
		if c == '*' || c >= 0x80 || c == '$' && i == len(pat)-1 {
			return i, false
		}
		if i == len(path) || path[i] != c {
			return -1, false
		}
	}
	return i, true
}

// runPrefix returns how many of the first bytes of s are bytes of a
// simple value (see simplePrefix) or bytes >= 0x80, and whether one of
// them is >= 0x80.
func runPrefix(s string) (k int, high bool) {
	var seen uint64
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := swar.Load64(s, i)
		if stop := runStops(w); stop != 0 {
			t := bits.TrailingZeros64(stop) // the stop byte's high bit
			seen |= w & swar.HighBits & (1<<t - 1)
			return i + t/8, seen != 0
		}
		seen |= w & swar.HighBits
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			seen = 1
		} else if !simpleValueByte[c] {
			break
		}
	}
	return i, seen != 0
}

// runStops returns the high bit of each byte of w, eight bytes of a
// value, that runPrefix stops at: simplePrefix's tests of the bytes below
// 0x80 (m is w's low seven bits of each byte), not flagging bytes >=
// 0x80.
func runStops(w uint64) uint64 {
	m := w &^ swar.HighBits
	return (^(m + 0x5F*swar.LowBits) | (m + 0x01*swar.LowBits) |
		(m+0x5D*swar.LowBits)&^(m+0x5C*swar.LowBits) | (m+0x5B*swar.LowBits)&^(m+0x5A*swar.LowBits)) &^ w & swar.HighBits
}

// literalDiffers reports whether one of the first n plain bytes of the
// value that starts rest, offset bytes into its line, differs from the
// path's byte at that place: then no rule of that value can match path.
// It stops at the first byte that is not plain (see plainPatternByte: a
// wildcard, an escape, the value's end) or past the line cap.
func literalDiffers(rest string, offset int, path string, n int) bool {
	for k := 0; k < n && k < len(rest) && offset+k < parse.MaxLineBytes; k++ {
		c := rest[k]
		if !plainPatternByte[c] {
			return false
		}
		if k == len(path) || path[k] != c {
			return true
		}
	}
	return false
}

// simplePrefix returns how many of the first bytes of s are bytes of a
// simple value (see disallowLine): plainPrefix's bytes, and '*' and '$'.
// It is plainPrefix's loop with its own stop bytes: one loop for both,
// choosing the stops by a flag, made the corpus's first question 2.5 %
// slower in instructions.
func simplePrefix(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := swar.Load64(s, i)
		// As in plainPrefix, each test exact in every byte: the flags of
		// bytes >= 0x80, below 0x21, 0x7F, '#' and '%'.
		m := w &^ swar.HighBits
		stop := (w | ^(m + 0x5F*swar.LowBits) | (m + 0x01*swar.LowBits) |
			(m+0x5D*swar.LowBits)&^(m+0x5C*swar.LowBits) | (m+0x5B*swar.LowBits)&^(m+0x5A*swar.LowBits)) & swar.HighBits
		if stop != 0 {
			return i + bits.TrailingZeros64(stop)/8
		}
	}
	for i < len(s) && simpleValueByte[s[i]] {
		i++
	}
	return i
}

// simpleValueByte marks the bytes of a simple value.
var simpleValueByte = func() (t [256]bool) {
	for c := 0x21; c < 0x7F; c++ {
		t[c] = c != '%' && c != '#'
	}
	return t
}()

// wants reports whether a matching rule of priority n and kind allow, in
// the open group, would decide before the rules matched so far.
func (s *stream) wants(n int, allow bool) bool {
	return s.inSpecific && s.specific.yields(n, allow) || s.inGlobal && s.global.yields(n, allow)
}

// take records a matching rule of the open group.
func (s *stream) take(m streamMatch) {
	if s.inSpecific && s.specific.yields(m.n, m.allow) {
		s.specific = m
	}
	if s.inGlobal && s.global.yields(m.n, m.allow) {
		s.global = m
	}
}

// plainPatternByte marks the bytes that stand for themselves in a rule's
// wire form and cannot end its value.
var plainPatternByte = func() (t [256]bool) {
	for c := 0x21; c < 0x7F; c++ {
		t[c] = true
	}
	for _, c := range "*$%#" {
		t[c] = false
	}
	return t
}()

// derivedMatches reports whether the pattern dir+"$" matches path, as
// streamMatches does. It may write the pattern to the second half of buf.
func derivedMatches(dir, path string, buf *[pathBufSize]byte, budget *int) (matched, within bool) {
	if strings.IndexByte(dir, '*') < 0 {
		return path == dir, true
	}
	// An escaped pattern may be in the first half of buf.
	half := len(buf) / 2
	if len(dir)+1 > half {
		return false, false
	}
	out := append(buf[half:half], dir...)
	out = append(out, '$')
	return streamMatches(swar.String(out), path, budget)
}

// streamMatches reports whether pattern, in wire form, matches path, as
// compiledRule.matchesFully does, charging wildcard matches to budget.
// within is false when the budget is spent.
func streamMatches(pattern, path string, budget *int) (matched, within bool) {
	literal, whole := literalPrefix(pattern)
	if !strings.HasPrefix(path, literal) {
		return false, true
	}
	if whole {
		return true, true
	}
	*budget -= len(path) + len(pattern)
	if *budget < 0 {
		return false, false
	}
	return matchPattern(pattern, path), true
}
