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
func (r *Robots) rulesFor(agent string) (rs *ruleSet, specific bool) {
	if r == nil {
		return &noRules, false
	}
	if r.outcome == DisallowAll {
		return &blanketDisallow, false
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
		return &r.sets[r.tokens[lo].set], true
	}
	if r.globalSet > 0 {
		return &r.sets[r.globalSet-1], false
	}
	return &noRules, false
}

// The rule sets of files without rules for an agent, and of a blanket
// disallow. They are never written.
var (
	noRules         ruleSet
	blanketDisallow = ruleSet{disallowAll: true}
)

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
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		s = 2 // a network-path reference: skip to the authority
	}
	p, hash := indexPathStart(url, s)
	// Google skips a scheme when "://" occurs before the first '/', '?' or
	// ';'. That "://" holds a '/', so it can only be the one at p-1.
	if p > s && url[p-1] == ':' && url[p] == '/' && p+1 < len(url) && url[p+1] == '/' {
		var h bool
		p, h = indexPathStart(url, p+2)
		hash = hash || h
	}
	if p < 0 || hash {
		return "/", false // no path, or a fragment starts before it
	}
	path = url[p:]
	if h := strings.IndexByte(path, '#'); h >= 0 {
		path = path[:h]
	}
	if path[0] != '/' {
		return path, true
	}
	return path, false
}

// indexPathStart returns the index of the first '/', '?' or ';' in url at
// or after from, or -1, and whether a '#' comes before it.
func indexPathStart(url string, from int) (int, bool) {
	hash := false
	for i := from; i < len(url); i++ {
		switch url[i] {
		case '/', '?', ';':
			return i, hash
		case '#':
			hash = true
		}
	}
	return -1, hash
}

// decide returns the rule that decides for path, or nil when none
// matches.
func (rs *ruleSet) decide(path string) *compiledRule {
	// Google keeps the longest match of each kind (the first one on ties)
	// and lets allow win ties; an empty pattern matches with priority 0,
	// which names a line but never disallows. The order of rs.compiled
	// makes the first matching rule exactly that answer.
	if rs.index != nil {
		if pos := rs.index.get().find(rs.compiled, path); pos != noRule {
			return &rs.compiled[pos]
		}
		return nil
	}
	for i := range rs.compiled {
		if rs.compiled[i].matches(path) {
			return &rs.compiled[i]
		}
	}
	return nil
}

// allows reports whether a deciding rule allows: an empty disallow
// decides (and names its line) but allows.
func (c *compiledRule) allows() bool { return c.allow() || c.pattern == "" }

// allowed reports whether rs allows url.
func (rs *ruleSet) allowed(url string) bool {
	if rs.disallowAll {
		return false
	}
	if c := rs.decideURL(url); c != nil {
		return c.allows()
	}
	return true
}

// verdict returns the verdict of rs for url, with the deciding rule.
func (rs *ruleSet) verdict(url string) Verdict {
	if rs.disallowAll {
		return Verdict{}
	}
	if c := rs.decideURL(url); c != nil {
		return Verdict{Allowed: c.allows(), Rule: c.asWritten(rs.raws)}
	}
	return Verdict{Allowed: true}
}

// decideURL returns the rule that decides for url, or nil, bringing the
// URL's path to wire form without allocating where it can.
func (rs *ruleSet) decideURL(url string) *compiledRule {
	if len(rs.compiled) == 0 {
		return nil
	}
	path, prefixed := pathOf(url)
	end, n, changed := wireLen(path)
	path = path[:end]
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
