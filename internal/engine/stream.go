package engine

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/swar"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// streamWildBudget bounds the work a streamed question spends on patterns
// with wildcards: the path and pattern bytes they are matched over. A
// file that needs more (many wildcard rules, a long path) is compiled
// instead, where the rule index bounds the work; the bytes spent streaming
// are then lost, but they are bounded too.
const streamWildBudget = 64 << 10

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
	// The path stays out of s, which escape analysis sees as one whole:
	// the verdict's pattern comes from s, and with it the path's buffer
	// would move to the heap.
	var pathBuf [pathBufSize]byte
	path := wirePath(url, &pathBuf)
	var s stream
	s.agent, s.budget = agent, streamWildBudget
	s.specific.n, s.global.n = -1, -1
	gr := parse.NewGrouper(body)
	var l parse.Grouped
	// Only user-agent lines can matter while no group is open, or while
	// the open group applies to neither kind and already has a rule: the
	// tokenizer passes over the rest unread.
	gr.Filter(parse.AgentLines)
	for {
		if (s.inSpecific || s.inGlobal) && passDisallow(&gr, path) {
			continue
		}
		if !gr.Next(&l) {
			break
		}
		switch l.Role {
		case parse.RoleAgent:
			s.agentLine(&l)
			gr.Filter(parse.MatcherLines)
		case parse.RoleRule:
			if !s.inSpecific && !s.inGlobal {
				gr.Filter(parse.AgentLines) // the group has a rule now
				continue
			}
			if !s.ruleLine(&l, path) {
				return Verdict{}, false
			}
		}
	}
	m := &s.global
	if s.named {
		m = &s.specific
	}
	if m.n < 0 {
		return Verdict{Allowed: true}, true
	}
	// An empty disallow decides, and names its line, but allows.
	return Verdict{Allowed: m.allow || m.n == 0, Rule: Rule{Allow: m.allow, Pattern: m.raw, Line: m.line}}, true
}

// agentLine reads a user-agent line.
func (s *stream) agentLine(l *parse.Grouped) {
	if l.NewGroup {
		s.inSpecific, s.inGlobal = false, false
	}
	if parse.IsGlobalAgent(l.Value) {
		s.inGlobal = true
	} else if parse.EqualFold(parse.ProductToken(l.Value), s.agent) {
		s.inSpecific, s.named = true, true
	}
}

// ruleLine reads an allow or disallow line of a group that applies, for
// path. It reports false when the question costs too much to stream.
func (s *stream) ruleLine(l *parse.Grouped, path string) bool {
	allow := l.Kind == parse.KeyAllow
	pat := l.Value
	if l.Flags&parse.LineMayEscape != 0 {
		if _, n, changed := wireLen(pat); changed {
			if n > len(s.patBuf)/2 {
				return false
			}
			out := appendEscaped(s.patBuf[:0], pat)
			pat = swar.String(out)
		}
	}
	if s.wants(len(pat), allow) {
		matched, within := streamMatches(pat, path, &s.budget)
		if !within {
			return false
		}
		if matched {
			s.take(streamMatch{n: len(pat), allow: allow, line: l.Num, raw: l.Value})
			return true // the derived pattern is shorter: it cannot decide
		}
	}
	if !allow || pat == "" {
		return true
	}
	// Allowing ".../index.htm..." also allows its directory, as the
	// pattern dir+"$" (see parse.IndexDirectory).
	dir, isIndex := parse.IndexDirectory(pat)
	if !isIndex || !s.wants(len(dir)+1, true) {
		return true
	}
	matched, within := derivedMatches(dir, path, &s.patBuf, &s.budget)
	if matched {
		s.take(streamMatch{n: len(dir) + 1, allow: true, line: l.Num, raw: l.Value})
	}
	return within
}

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

// passDisallow passes over the next line, without tokenizing it, when it
// is a disallow line of the open group that cannot match path: most rule
// lines are, and comparing their first bytes with the path is cheaper than
// reading them.
func passDisallow(gr *parse.Grouper, p string) bool {
	rest, offset, ok := gr.PlainDisallow()
	if !ok {
		return false
	}
	for k := 0; k < len(rest) && offset+k < parse.MaxLineBytes; k++ {
		c := rest[k]
		if !plainPatternByte[c] {
			// A wildcard, an escape, the value's end or white space that
			// may be its end: the plain bytes so far match.
			return false
		}
		if k == len(p) || p[k] != c {
			// The rule's literal prefix starts with rest[:k+1].
			gr.PassRule()
			return true
		}
	}
	return false
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
