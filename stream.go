package robotstxt

import (
	"strings"
	"unsafe"

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

// streamVerdict answers one question by reading body once, the way
// Google's matcher does: it follows the groups as the Grouper forms them,
// tracks the best matching rule of the groups naming the agent and of the
// "*" groups, and uses the first when any group names the agent. It
// decides exactly as the compiled form does (TestStreamMatchesCompiled).
// ok is false when the question would cost more than streamWildBudget, or
// a pattern is too long for the stack buffers; the caller then compiles.
func streamVerdict(body, agent, url string) (v Verdict, ok bool) {
	specific, global := streamMatch{n: -1}, streamMatch{n: -1}
	var inSpecific, inGlobal, named bool
	var (
		pathBuf [pathBufSize]byte
		patBuf  [pathBufSize]byte
		budget  = streamWildBudget
	)
	path := urlPath(url, &pathBuf)
	gr := parse.NewGrouper(body)
	var l parse.Grouped
	// Only user-agent lines can matter while no group is open, or while
	// the open group applies to neither kind and already has a rule: the
	// tokenizer passes over the rest unread.
	gr.Filter(parse.AgentLines)
	for {
		if (inSpecific || inGlobal) && passDisallow(&gr, path) {
			continue
		}
		if !gr.Next(&l) {
			break
		}
		switch l.Role {
		case parse.RoleAgent:
			if l.NewGroup {
				inSpecific, inGlobal = false, false
			}
			if parse.IsGlobalAgent(l.Value) {
				inGlobal = true
			} else if equalFoldASCII(parse.ProductToken(l.Value), agent) {
				inSpecific, named = true, true
			}
			gr.Filter(parse.MatcherLines)
		case parse.RoleRule:
			if !inSpecific && !inGlobal {
				gr.Filter(parse.AgentLines) // the group has a rule now
				continue
			}
			allow := l.Kind == parse.KeyAllow
			pat := l.Value
			if l.Flags&parse.LineMayEscape != 0 {
				if _, n, changed := wireLen(pat); changed {
					if n > len(patBuf)/2 {
						return Verdict{}, false
					}
					out := appendEscaped(patBuf[:0], pat)
					pat = unsafe.String(unsafe.SliceData(out), len(out))
				}
			}
			wanted := inSpecific && specific.yields(len(pat), allow) || inGlobal && global.yields(len(pat), allow)
			if wanted {
				matched, within := streamMatches(pat, path, &budget)
				if !within {
					return Verdict{}, false
				}
				if matched {
					m := streamMatch{n: len(pat), allow: allow, line: l.Num, raw: l.Value}
					specific.take(inSpecific, m)
					global.take(inGlobal, m)
					continue // the derived pattern is shorter: it cannot decide
				}
			}
			if !allow || pat == "" {
				continue
			}
			// Allowing ".../index.htm..." also allows its directory, as
			// the pattern dir+"$" (see parse.IndexDirectory).
			dir, isIndex := parse.IndexDirectory(pat)
			if !isIndex {
				continue
			}
			n := len(dir) + 1
			if !(inSpecific && specific.yields(n, true) || inGlobal && global.yields(n, true)) {
				continue
			}
			matched, within := derivedMatches(dir, path, &patBuf, &budget)
			if !within {
				return Verdict{}, false
			}
			if matched {
				m := streamMatch{n: n, allow: true, line: l.Num, raw: l.Value}
				specific.take(inSpecific, m)
				global.take(inGlobal, m)
			}
		}
	}
	m := &global
	if named {
		m = &specific
	}
	if m.n < 0 {
		return Verdict{Allowed: true}, true
	}
	// An empty disallow decides, and names its line, but allows.
	return Verdict{Allowed: m.allow || m.n == 0, Rule: Rule{Allow: m.allow, Pattern: m.raw, Line: m.line}}, true
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

// urlPath returns the path of url in wire form, as decideURL matches it;
// it may be written to buf.
func urlPath(url string, buf *[pathBufSize]byte) string {
	p, n, rewrite := findPath(url)
	if rewrite {
		p = rewritePath(p, n, buf)
	}
	return p
}

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
	return streamMatches(unsafe.String(unsafe.SliceData(out), len(out)), path, budget)
}

// take makes c the deciding rule if it applies and decides before the
// current one.
func (m *streamMatch) take(applies bool, c streamMatch) {
	if applies && m.yields(c.n, c.allow) {
		*m = c
	}
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

// equalFoldASCII reports whether a and b are equal ignoring ASCII case.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}
