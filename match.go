package robotstxt

import (
	"math/bits"
	"unsafe"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
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
	r.ready()
	return r.lookup(agent)
}

// lookup is rulesFor on a compiled r.
func (r *Robots) lookup(agent string) (rs *ruleSet, specific bool) {
	if r.outcome == DisallowAll {
		return &blanketDisallow, false
	}
	if t := r.findToken(agent); t != nil {
		return &r.sets[t.set], true
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

// lowerWord lower-cases the ASCII letters among the eight bytes of w, as
// lowerASCII does each byte.
func lowerWord(w uint64) uint64 {
	low7 := w &^ swar.HighBits
	atLeastA := low7 + swar.Repeat(0x80-'A')         // high bit set where the byte is >= 'A'
	aboveZ := low7 + swar.Repeat(0x80-'Z'-1)         // high bit set where the byte is > 'Z'
	upper := atLeastA &^ aboveZ &^ w & swar.HighBits // and below 0x80
	return w | upper>>2                              // 0x80>>2 is 0x20, the case bit
}

// pathStart returns the index in url where its path, params and query
// start, as Google's GetPathParamsQuery finds them: the URL is not parsed
// or normalized, only searched for its first delimiters. It returns -1
// when the path is just "/" (there is none, or a fragment comes first).
func pathStart(url string) int {
	if len(url) >= 8 {
		// The common schemes, which the general search below would skip
		// the same way.
		switch w := swar.Load64(url, 0); {
		case w == httpsScheme:
			p, hash := indexPathStart(url, len("https://"))
			return pathFound(p, hash)
		case w&^(0xFF<<56) == httpScheme: // the eighth byte is the host's
			p, hash := indexPathStart(url, len("http://"))
			return pathFound(p, hash)
		}
	}
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
	return pathFound(p, hash)
}

// pathFound returns p, or -1 if a fragment starts before it.
func pathFound(p int, hash bool) int {
	if hash {
		return -1
	}
	return p
}

// The first eight bytes of "https://" and the first seven of "http://", as
// swar.Load64 reads them.
var (
	httpsScheme = swar.Load64("https://", 0)
	httpScheme  = swar.Load64("http://\x00", 0)
)

// pathClass marks the bytes indexPathStart looks for.
var pathClass = func() (t [256]bool) {
	for _, c := range "/?;#" {
		t[c] = true
	}
	return t
}()

// indexPathStart returns the index of the first '/', '?' or ';' in url at
// or after from, or -1, and whether a '#' comes before it.
func indexPathStart(url string, from int) (int, bool) {
	hash := false
	i := from
	for i+8 <= len(url) { // eight bytes at a time: see swar.HasZeroByte
		w := swar.Load64(url, i)
		m := swar.HasZeroByte(w^swar.Repeat('/')) | swar.HasZeroByte(w^swar.Repeat('?')) | swar.HasZeroByte(w^swar.Repeat(';')) | swar.HasZeroByte(w^swar.Repeat('#'))
		if m == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(m) >> 3
		if url[i] != '#' {
			return i, hash
		}
		hash = true
		i++
	}
	for ; i < len(url); i++ {
		if !pathClass[url[i]] {
			continue
		}
		if url[i] != '#' {
			return i, hash
		}
		hash = true
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
		if pos := rs.index.find(path); pos != noRule {
			return &rs.compiled[pos]
		}
		return nil
	}
	key := prefixKey(path)
	for i := range rs.compiled {
		// mayMatch is inlined here; matchesFully, which it mostly spares,
		// is not.
		if c := &rs.compiled[i]; c.mayMatch(rs.text, key) && c.matchesFully(rs.text, path) {
			return c
		}
	}
	return nil
}

// allows reports whether a deciding rule allows: an empty disallow
// decides (and names its line) but allows.
func (c *compiledRule) allows() bool { return c.allow() || c.n == 0 }

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

// allowsPath reports whether rs allows a path in wire form, as allowed
// does for the URL it comes from.
func (rs *ruleSet) allowsPath(path string) bool {
	if rs.disallowAll {
		return false
	}
	if len(rs.compiled) == 0 {
		return true
	}
	c := rs.decide(path)
	return c == nil || c.allows()
}

// verdict returns the verdict of rs for url, with the deciding rule.
func (rs *ruleSet) verdict(url string) Verdict {
	if rs.disallowAll {
		return Verdict{}
	}
	if c := rs.decideURL(url); c != nil {
		return Verdict{Allowed: c.allows(), Rule: c.asWritten(rs.text, rs.compiled)}
	}
	return Verdict{Allowed: true}
}

// decideURL returns the rule that decides for url, or nil.
func (rs *ruleSet) decideURL(url string) *compiledRule {
	if len(rs.compiled) == 0 {
		return nil
	}
	path, n, rewrite := findPath(url)
	if !rewrite {
		return rs.decide(path)
	}
	// Declared here, not above: the array is zeroed wherever it is declared.
	var buf [pathBufSize]byte
	return rs.decide(rewritePath(path, n, &buf))
}

// wirePath returns the path of url as the matcher sees it (see findPath
// and rewritePath), for code that matches paths outside decideURL. It may
// write to buf; the result is valid until buf is reused.
func wirePath(url string, buf *[pathBufSize]byte) string {
	path, n, rewrite := findPath(url)
	if !rewrite {
		return path
	}
	return rewritePath(path, n, buf)
}

// findPath returns the path of url, without its fragment and cut at a NUL,
// and whether it must be rewritten: given a leading '/' or brought to wire
// form, n bytes long once rewritten.
func findPath(url string) (path string, n int, rewrite bool) {
	path, prefixed := "/", false
	if p := pathStart(url); p >= 0 {
		path = url[p:]
		prefixed = path[0] != '/'
	}
	end, n, changed := wireLen(path) // stops at the fragment
	if prefixed {
		n++
	}
	return path[:end], n, changed || prefixed
}

// rewritePath returns path, n bytes long once rewritten, with a leading
// '/' when it lacks one and in wire form. It writes to buf, or to a new
// buffer if it does not fit.
func rewritePath(path string, n int, buf *[pathBufSize]byte) string {
	out := buf[:0]
	if n > len(buf) {
		out = make([]byte, 0, n)
	}
	if path == "" || path[0] != '/' {
		out = append(out, '/')
	}
	out = appendEscaped(out, path)
	// out is never written again while the result is in use, so viewing it
	// in place is safe and keeps it off the heap.
	return unsafe.String(unsafe.SliceData(out), len(out))
}
