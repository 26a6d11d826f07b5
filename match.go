package robotstxt

import (
	"strings"
	"unsafe"
)

// pathBufSize is how long a URL's path may be, once in wire form, for
// Allowed to re-encode it without allocating. Paths already in wire form
// never need a buffer.
const pathBufSize = 2048

// rulesFor returns the rules that decide for agent, and whether some group
// names the agent. It does not allocate.
//
// Google compares the agent, as given, with the product token of each
// user-agent line, ignoring ASCII case. Only a group naming the agent (even
// one with no rules) keeps the "*" groups from applying.
func (r *Robots) rulesFor(agent string) (rs ruleSet, specific bool) {
	if r == nil {
		return ruleSet{}, false
	}
	if r.outcome == DisallowAll {
		return ruleSet{disallowAll: true}, false
	}
	lo, hi := 0, len(r.tokens)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if compareFold(r.tokens[mid].name, agent) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(r.tokens) && compareFold(r.tokens[lo].name, agent) == 0 {
		return r.sets[r.tokens[lo].set], true
	}
	if r.globalSet > 0 {
		return r.sets[r.globalSet-1], false
	}
	return ruleSet{}, false
}

// compareFold compares a lower-case token with s lower-cased (ASCII only).
func compareFold(token, s string) int {
	n := min(len(token), len(s))
	for i := 0; i < n; i++ {
		if a, b := token[i], lowerASCII(s[i]); a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	return len(token) - len(s)
}

// pathOf returns the path, params and query of url (no fragment), as
// Google's GetPathParamsQuery finds them: the URL is not parsed or
// normalized, only searched for its first delimiters. The result always
// starts with '/'; when it has to be added, prefixed reports so and the
// result omits it.
func pathOf(url string) (path string, prefixed bool) {
	s := 0
	if strings.HasPrefix(url, "//") {
		s = 2 // a network-path reference: skip to the authority
	}
	early := indexAnyOf(url, s)
	start := s
	if proto := strings.Index(url[s:], "://"); proto >= 0 && (early < 0 || early > s+proto) {
		start = s + proto + 3
	}
	p := indexAnyOf(url, start)
	if p < 0 {
		return "/", false
	}
	end := len(url)
	if h := strings.IndexByte(url[s:], '#'); h >= 0 {
		if s+h < p {
			return "/", false
		}
		end = s + h
	}
	path = url[p:end]
	if path[0] != '/' {
		return path, true
	}
	return path, false
}

// indexAnyOf returns the index of the first '/', '?' or ';' in url at or
// after from, or -1.
func indexAnyOf(url string, from int) int {
	for i := from; i < len(url); i++ {
		if c := url[i]; c == '/' || c == '?' || c == ';' {
			return i
		}
	}
	return -1
}

// decide returns the verdict for a path given the agent's rules.
func (rs *ruleSet) decide(path string) Verdict {
	// Google keeps the longest match of each kind (the first one on ties)
	// and lets allow win ties; an empty pattern matches with priority 0,
	// which names a line but never disallows. The order of rs.rules makes
	// the first matching rule exactly that answer.
	if rs.index != nil {
		if pos := rs.index.get().find(rs.compiled, path); pos != noRule {
			return rs.compiled[pos].verdict(rs.raws)
		}
		return Verdict{Allowed: true}
	}
	for i := range rs.compiled {
		if matchPattern(rs.compiled[i].pattern, path) {
			return rs.compiled[i].verdict(rs.raws)
		}
	}
	return Verdict{Allowed: true}
}

// verdict returns the verdict of a rule that decides.
func (c *compiledRule) verdict(raws []string) Verdict {
	return Verdict{Allowed: c.allow() || c.pattern == "", Rule: c.asWritten(raws)}
}

// verdict returns the verdict of rs for url, brought to wire form without
// allocating where it can.
func (rs *ruleSet) verdict(url string) Verdict {
	if len(rs.compiled) == 0 {
		return Verdict{Allowed: !rs.disallowAll}
	}
	path, prefixed := pathOf(url)
	// Google hands the path on as a C string.
	if i := strings.IndexByte(path, 0); i >= 0 {
		path = path[:i]
	}
	n, changed := escapedLen(path)
	if !changed && !prefixed {
		return rs.decide(path)
	}
	if prefixed {
		n++
	}
	var stack [pathBufSize]byte
	buf := stack[:0]
	if n > len(stack) {
		buf = make([]byte, 0, n)
	}
	if prefixed {
		buf = append(buf, '/')
	}
	buf = appendEscaped(buf, path)
	// The string is used only during this call and buf is never written
	// again, so viewing it in place is safe and keeps it off the heap.
	return rs.decide(unsafe.String(unsafe.SliceData(buf), len(buf)))
}
