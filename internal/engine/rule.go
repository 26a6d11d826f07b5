package engine

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// A compiledRule is a rule as Google's matcher sees it. It holds no
// pointer: its pattern is a span of the file's string block, so a large
// rule array costs 8 bytes a rule and the garbage collector never scans
// it. Its line, which only Explain and Groups read, is not kept here (see
// compiledRule.line).
type compiledRule struct {
	// off locates the value in wire form in the string block.
	off uint32
	// n is the length of the value in wire form, or in compact form with
	// ruleCompact; see priority and maxPatternLen.
	n uint16
	// info holds ruleAllow, ruleDerived, ruleWild, ruleRawBefore and
	// ruleCompact.
	info uint8
	// head is, in its low four bits, how many bytes of the pattern's
	// literal prefix, at most 8, its first 8 bytes in the string block
	// hold: a path whose first bytes differ from them cannot match, which
	// one comparison of integers tells (see mayMatch). Its high four bits
	// are the pathClasses a wildcard pattern requires (see needsClasses),
	// once markClasses has marked them.
	head uint8
}

// maxPatternLen bounds the wire form of a rule value: the tokenizer cuts
// lines at about 16 KiB, and escaping at most triples them.
const maxPatternLen = 1<<16 - 1

// newCompiledRule returns the rule for a pattern in wire form, which is
// text[off:off+len(pattern)].
func newCompiledRule(pattern string, off uint32, info uint8) compiledRule {
	literal, whole := literalPrefix(pattern)
	if !whole {
		info |= ruleWild
	}
	head := min(len(literal), 8)
	if info&ruleCompact != 0 {
		head = min(head, firstHigh(literal)) // the bytes after differ in wire form
	}
	return compiledRule{off: off, n: uint16(len(pattern)), head: uint8(head), info: info}
}

// plainRule is newCompiledRule's answer for a disallow pattern of n
// plain bytes (no '*', '$' or byte >= 0x80) at off, which a scoped pass
// knows without reading the pattern again.
func plainRule(off uint32, n int) compiledRule {
	return compiledRule{off: off, n: uint16(n), head: uint8(min(n, 8))}
}

// starRule is newCompiledRule's answer for a disallow pattern of n
// simple bytes (see simplePrefix) at off whose first byte that is not
// plain is a star, at star: a wildcard rule whose literal prefix is the
// bytes before it.
func starRule(off uint32, n, star int) compiledRule {
	return compiledRule{off: off, n: uint16(n), head: uint8(min(star, 8)), info: ruleWild}
}

// markClasses records in each wildcard rule of rules (not in compact form)
// the pathClasses its pattern requires, a span of text, for decide to rule
// it out by them (see needsClasses). It is done when a set is first asked
// through decide (sorted, or compiled whole), not as each rule is
// compiled: a scoped set asked at most five times never sorts, and its
// first question paid 2.4 M instructions a corpus pass for them
// (BenchmarkParseCheckTwoAgents, N = 1). A rule with no classes marked
// is tried as before, so that marking them is an optimization only.
func markClasses(rules []compiledRule, text string) {
	for i := range rules {
		if c := &rules[i]; c.info&(ruleWild|ruleCompact) == ruleWild {
			c.head = c.head&15 | requiredClasses(c.pattern(text))<<4
		}
	}
}

// pattern returns the rule's value in wire form (compact form with
// ruleCompact), a span of text, the string block of the file the rule was
// compiled from.
func (c *compiledRule) pattern(text string) string { return spanOf(text, c.off, uint32(c.n)) }

// spanOf returns text[off:off+n], which the builder made from text, so
// there are no bounds to check.
func spanOf(text string, off, n uint32) string { return swar.Span(text, off, n) }

// textPadding is how many bytes the builder adds after the last string of
// the block, so that 8 bytes can be read at the start of any pattern.
const textPadding = 8

// loadKey returns the 8 bytes of text at off as prefixKey packs them; the
// string block's padding makes them readable.
func loadKey(text string, off uint32) uint64 { return swar.Load64BEAt(text, off) }

const (
	ruleAllow   = 1 << 0 // an allow rule
	ruleDerived = 1 << 1 // the directory pattern Google derives from an index.htm allow
	ruleWild    = 1 << 2 // the pattern holds a '*' or ends in '$': not a plain prefix
	// ruleRawBefore: escaping changed the pattern as written, which comes
	// right before the pattern in the string block.
	ruleRawBefore = 1 << 3
	// ruleCompact: the pattern is in compact form and holds bytes >= 0x80
	// (see compact.go); the pattern as written, if kept, is followed by
	// its length in two bytes.
	ruleCompact = 1 << 4
)

// priority returns the length of the rule's pattern in wire form, which
// ranks it: Google's matcher lets the longest matching pattern decide.
func (c *compiledRule) priority(text string) int {
	if c.info&ruleCompact == 0 {
		return int(c.n) // inlined: most rules, and every rule a sort ranks
	}
	return c.compactPriority(text)
}

// compactPriority is priority for a rule in compact form.
func (c *compiledRule) compactPriority(text string) int {
	return compactWireLen(c.pattern(text))
}

func (c *compiledRule) allow() bool { return c.info&ruleAllow != 0 }

// matches reports whether the rule's pattern, a span of text, matches
// path, whose prefixKey is pathKey.
func (c *compiledRule) matches(text, path string, pathKey uint64) bool {
	return c.mayMatch(text, pathKey) && c.matchesFully(text, path)
}

// mayMatch reports whether the path's first bytes, packed in pathKey,
// agree with the rule's literal prefix, a span of text, which rules out
// most rules with one comparison.
func (c *compiledRule) mayMatch(text string, pathKey uint64) bool {
	return (loadKey(text, c.off)^pathKey)&headMasks[c.head&15] == 0
}

// headMasks[n] keeps the first n bytes of a prefixKey. A table is cheaper
// than a shift by 64 (n = 0 or 8), which Go defines, so must test for.
var headMasks = func() (m [16]uint64) {
	for n := 1; n <= 8; n++ {
		m[n] = ^(^uint64(0) >> (8 * n))
	}
	return m
}()

// needsClasses returns the pathClasses a wildcard rule's pattern (not in
// compact form) requires: a path that lacks one cannot match it. 0 for
// every other rule.
func (c *compiledRule) needsClasses() uint8 { return c.head >> 4 }

// The bytes pathClasses tells a path holds or lacks: those that most
// often rule out the wildcard patterns real files hold ("/*?sort=",
// "/*/?ref_id=*", "/*.php"), whose first bytes agree with most paths. A
// query-less path lacks '?' and '='. Four, so that a rule keeps them in
// the high bits of its head, with no byte more.
var classOf = func() (t [256]uint8) {
	for i, b := range "?=._" {
		t[b] = 1 << i
	}
	return t
}()

// pathClasses returns the classes (see classOf) of the bytes of s, a
// byte at a time: inlined where decide reads a path's, most of a few
// dozen bytes.
func pathClasses(s string) uint8 {
	var m uint8
	for i := 0; i < len(s); i++ {
		m |= classOf[s[i]]
	}
	return m
}

// patternClasses is pathClasses for the patterns markClasses reads, eight
// bytes at a time: each class's byte looked for in the word, and a word
// of none of them (most, the bytes of the patterns of many stars of a
// hostile set, hundreds of bytes each, which took 5 instructions a byte
// one at a time) passed after one test; the last bytes one at a time.
func patternClasses(s string) uint8 {
	var m uint8
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := swar.Load64(s, i)
		q, e, d, u := swar.ZeroFlags(w^swar.Repeat('?')), swar.ZeroFlags(w^swar.Repeat('=')),
			swar.ZeroFlags(w^swar.Repeat('.')), swar.ZeroFlags(w^swar.Repeat('_'))
		if (q|e|d|u)&swar.HighBits == 0 {
			continue
		}
		m |= classFlag(q, 1) | classFlag(e, 2) | classFlag(d, 4) | classFlag(u, 8)
	}
	return m | pathClasses(s[i:])
}

// classFlag returns class when flags, the ZeroFlags of a word's bytes
// xor a class's byte, flag one.
func classFlag(flags uint64, class uint8) uint8 {
	if flags&swar.HighBits != 0 {
		return class
	}
	return 0
}

// requiredClasses returns the classes of the literal bytes a wildcard
// pattern requires: every byte but its stars and a final '$'.
func requiredClasses(pattern string) uint8 {
	return patternClasses(strings.TrimSuffix(pattern, "$"))
}

// matchesFully reports whether the rule's pattern, a span of text,
// matches path. Most patterns are plain prefixes, which need no pattern
// matcher.
func (c *compiledRule) matchesFully(text, path string) bool {
	pattern := c.pattern(text)
	switch c.info & (ruleWild | ruleCompact) {
	case 0:
		return len(path) >= len(pattern) && path[:len(pattern)] == pattern
	case ruleWild:
		return matchPattern(pattern, path)
	case ruleCompact:
		return hasWirePrefix(pattern, path)
	}
	return matchCompact(pattern, path)
}

// matchesEveryPath reports whether the rule's pattern, a span of text,
// matches every path a URL can have: each starts with '/' (see findPath),
// so the patterns "", "/", and those of stars after an optional '/', with
// or without a final '$' after a star ("/*", "*", "/*$"), do. A set's
// first rule is its longest: most are ruled out by their length, inlined.
func (c *compiledRule) matchesEveryPath(text string) bool {
	return c.n <= maxEveryPathLen && c.shortMatchesEveryPath(text)
}

// shortMatchesEveryPath is matchesEveryPath for a rule of at most
// maxEveryPathLen bytes.
func (c *compiledRule) shortMatchesEveryPath(text string) bool {
	switch c.info & (ruleWild | ruleCompact) {
	case 0:
		return c.n == 0 || c.n == 1 && text[c.off] == '/'
	case ruleWild:
		return everyPathPattern(c.pattern(text))
	}
	return false
}

// everyPathPattern reports whether a wildcard pattern matches every path
// that starts with '/': after an optional '/', only stars, at least one
// before a final '$'.
func everyPathPattern(p string) bool {
	p = strings.TrimPrefix(p, "/")
	if q, ok := strings.CutSuffix(p, "$"); ok {
		if q == "" {
			return false // "/$" and "$" match only "/" and ""
		}
		p = q
	}
	return strings.Trim(p, "*") == ""
}

// asWritten returns the rule as it stands in the file whose string block
// is text. set is the rule's set, which holds the allow rule a derived rule
// comes from; counted tells where the rule's line is (see line).
func (c *compiledRule) asWritten(text string, set []compiledRule, counted bool) Rule {
	if c.info&ruleDerived != 0 {
		// The derived pattern follows the pattern of the rule it comes
		// from in the string block (see builder.addRule): that rule is the
		// one of set whose pattern starts last before it.
		var from *compiledRule
		for i := range set {
			if o := &set[i]; o.info&ruleDerived == 0 && o.off < c.off && (from == nil || o.off > from.off) {
				from = o
			}
		}
		if from != nil {
			return from.asWritten(text, set, counted)
		}
	}
	pattern := c.pattern(text)
	start := c.off // where the pattern as written starts
	switch {
	case c.info&(ruleRawBefore|ruleCompact) == ruleRawBefore|ruleCompact:
		n := uint32(text[c.off-2]) | uint32(text[c.off-1])<<8 // see builder.compact
		start = c.off - 2 - n
		pattern = spanOf(text, start, n)
	case c.info&ruleRawBefore != 0:
		n := rawLenBefore(text, c.off, len(pattern))
		start = c.off - n
		pattern = spanOf(text, start, n)
	}
	return Rule{Allow: c.allow(), Pattern: pattern, Line: ruleLine(text, start, counted)}
}

// ruleLine returns the line of the rule whose pattern as written starts
// at start in text. counted: text is the file itself (the copy a scoped
// set's patterns are spans of), whose line ends before start are counted
// (lineAt); else the builder kept the line in the 4 bytes before the
// pattern as written (see builder.addRule). Only Explain and Groups ask,
// so that a rule array keeps 8 bytes a rule, not 12.
func ruleLine(text string, start uint32, counted bool) int {
	if counted {
		return lineAt(text, start)
	}
	b := text[start-lineBytes : start]
	return int(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
}

// lineBytes is how many bytes the builder keeps a rule's line in, before
// its pattern as written.
const lineBytes = 4

// lineAt returns the number of the line of body that holds its byte off,
// as the tokenizer numbers lines (parse.Line.Num): 1 for the first, and
// one more after each line end, which is LF, CR, or CR LF.
func lineAt(body string, off uint32) int {
	head := body[:off]
	return 1 + strings.Count(head, "\n") + strings.Count(head, "\r") - strings.Count(head, "\r\n")
}

// rawLenBefore returns the length of the value as written that ends at off
// in text and whose wire form is n bytes long. Escaping turns each byte of
// it into one byte, or three for a byte >= 0x80, so its bytes, read
// backwards, tell where it starts.
func rawLenBefore(text string, off uint32, n int) uint32 {
	i := off
	for n > 0 {
		i--
		if text[i] >= 0x80 {
			n -= 3
		} else {
			n--
		}
	}
	return off - i
}

// allows reports whether a deciding rule allows: an empty disallow
// decides (and names its line) but allows.
func (c *compiledRule) allows() bool { return c.allow() || c.n == 0 }
