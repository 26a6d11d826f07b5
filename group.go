package robotstxt

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// A group is a run of user-agent lines and the lines that follow them, up to
// the next user-agent line that comes after a rule. This is the structure
// Google's streaming matcher implies: its flags accumulate over user-agent
// lines and reset at the first user-agent line after an allow or disallow
// line, and lines of any other kind (sitemap, unknown, invalid) leave them
// alone.
//
// A group's agents and fields are contiguous in the file, so the group
// holds index ranges into the Robots' file-order slices.
type group struct {
	line             int32 // line of the group's first user-agent line
	agentLo, agentHi int32 // r.agents[agentLo:agentHi]
	fieldLo, fieldHi int32 // r.fields[fieldLo:fieldHi]
	global           bool  // some agent is "*"
	rules            []compiledRule
	index            *lazyIndex // for large rule lists
}

// A ruleSet is every rule that can decide for one agent, compiled for
// matching.
type ruleSet struct {
	// compiled is ordered so that the first rule that matches a path
	// decides: by priority (longer patterns first), allow before disallow
	// at equal priority, then in file order. See ruleSet.decide.
	compiled        []compiledRule
	text            string     // the file's string block, which compiled rules' patterns are spans of
	index           *lazyIndex // nil for small sets
	crawlDelay      time.Duration
	hasCrawlDelay   bool
	requestInterval time.Duration
	hasRequestRate  bool
	disallowAll     bool              // the Robots is a blanket disallow
	usage           *usagePreferences // Content-Usage and Content-Signal lines; see buildUsage
}

// A compiledRule is a rule as Google's matcher sees it. It holds no
// pointer: its pattern is a span of the file's string block, so a large
// rule array costs 12 bytes a rule and the garbage collector never scans
// it.
type compiledRule struct {
	// off locates the value in wire form in the string block.
	off  uint32
	line int32
	// n is the length of the value in wire form, or in compact form with
	// ruleCompact; see priority and maxPatternLen.
	n uint16
	// info holds ruleAllow, ruleDerived, ruleWild, ruleRawBefore and
	// ruleCompact.
	info uint8
	// head is how many bytes of the pattern's literal prefix, at most 8,
	// its first 8 bytes in the string block hold: a path whose first bytes
	// differ from them cannot match, which one comparison of integers
	// tells (see mayMatch).
	head uint8
}

// maxPatternLen bounds the wire form of a rule value: the tokenizer cuts
// lines at about 16 KiB, and escaping at most triples them.
const maxPatternLen = 1<<16 - 1

// newCompiledRule returns the rule for a pattern in wire form, which is
// text[off:off+len(pattern)].
func newCompiledRule(pattern string, off uint32, line int, info uint8) compiledRule {
	literal, whole := literalPrefix(pattern)
	if !whole {
		info |= ruleWild
	}
	head := min(len(literal), 8)
	if info&ruleCompact != 0 {
		head = min(head, firstHigh(literal)) // the bytes after differ in wire form
	}
	return compiledRule{off: off, n: uint16(len(pattern)), head: uint8(head), line: int32(line), info: info}
}

// pattern returns the rule's value in wire form (compact form with
// ruleCompact), a span of text, the string block of the file the rule was
// compiled from.
func (c *compiledRule) pattern(text string) string { return spanOf(text, c.off, uint32(c.n)) }

// spanOf returns text[off:off+n], which the builder made from text, so
// there are no bounds to check.
func spanOf(text string, off, n uint32) string {
	if n == 0 {
		return ""
	}
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(text)), off)), n)
}

// textPadding is how many bytes the builder adds after the last string of
// the block, so that 8 bytes can be read at the start of any pattern.
const textPadding = 8

// loadKey returns the 8 bytes of text at off as prefixKey packs them; the
// string block's padding makes them readable.
func loadKey(text string, off uint32) uint64 {
	p := unsafe.Add(unsafe.Pointer(unsafe.StringData(text)), off)
	return binary.BigEndian.Uint64(unsafe.Slice((*byte)(p), 8))
}

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
		return int(c.n)
	}
	return int(c.n) + 2*highBytes(c.pattern(text))
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

// asWritten returns the rule as it stands in the file whose string block
// is text. set is the rule's set, which holds the allow rule a derived rule
// comes from.
func (c *compiledRule) asWritten(text string, set []compiledRule) Rule {
	if c.info&ruleDerived != 0 {
		for i := range set {
			if o := &set[i]; o.line == c.line && o.info&ruleDerived == 0 {
				return o.asWritten(text, set)
			}
		}
	}
	pattern := c.pattern(text)
	switch {
	case c.info&(ruleRawBefore|ruleCompact) == ruleRawBefore|ruleCompact:
		n := uint32(text[c.off-2]) | uint32(text[c.off-1])<<8 // see builder.compact
		pattern = spanOf(text, c.off-2-n, n)
	case c.info&ruleRawBefore != 0:
		n := rawLenBefore(text, c.off, len(pattern))
		pattern = spanOf(text, c.off-n, n)
	}
	return Rule{Allow: c.allow(), Pattern: pattern, Line: int(c.line)}
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

// compareRules orders compiled rules, whose patterns are spans of text:
// longer patterns first, then allow before disallow, then file order.
func compareRules(a, b compiledRule, text string) int {
	if pa, pb := a.priority(text), b.priority(text); pa != pb {
		return pb - pa
	}
	if a.allow() != b.allow() {
		if a.allow() {
			return -1
		}
		return 1
	}
	return int(a.line) - int(b.line)
}

// build parses body (already cut to the size limit) into r. body may be
// the caller's buffer: every string r keeps is copied out of it first.
func (r *Robots) build(body string) {
	b := builders.Get().(*builder)
	b.read(body)
	b.finish(r)
	b.release()
}

// sortRules writes src to dst in compareRules order. The rules of src that
// tie on length and kind must be in file order (as they are when src is
// in file order, or is sorted groups in file order), so that a stable
// sort on (length, allow) suffices. text is the string block of the rules'
// patterns.
func sortRules(dst, src []compiledRule, text string) {
	const small = 24
	if len(src) <= small {
		// Insertion sort on the rank alone: each rule goes after every
		// rule of its rank already placed, which keeps file order.
		for i := range src {
			v := src[i]
			rank := sortRank(&v, text)
			j := i
			for ; j > 0 && sortRank(&dst[j-1], text) > rank; j-- {
				dst[j] = dst[j-1]
			}
			dst[j] = v
		}
		return
	}
	// Counting sort on key = 2*(maxLen-len) + (1 if disallow): stable, and
	// linear when patterns are short, as they almost always are.
	maxLen := 0
	for i := range src {
		maxLen = max(maxLen, src[i].priority(text))
	}
	if maxLen > 8*len(src) {
		copy(dst, src)
		slices.SortStableFunc(dst, func(a, b compiledRule) int { return compareRules(a, b, text) })
		return
	}
	// sortRank less the ranks no pattern of src can have.
	key := func(c *compiledRule) int { return sortRank(c, text) - 2*(maxPatternLen-maxLen) }
	// The counts of usual lengths fit on the stack.
	var counts [256]int32
	var count []int32
	if n := 2*maxLen + 3; n <= len(counts) {
		count = counts[:n]
	} else {
		count = make([]int32, n)
	}
	for i := range src {
		count[key(&src[i])+1]++
	}
	for k := 1; k < len(count); k++ {
		count[k] += count[k-1]
	}
	for i := range src {
		k := key(&src[i])
		dst[count[k]] = src[i]
		count[k]++
	}
}

// sortRank orders rules as compareRules does but for file order: longer
// patterns first, then allow before disallow.
func sortRank(c *compiledRule, text string) int {
	return (maxPatternLen-c.priority(text))<<1 | int(^c.info&ruleAllow)
}

// An agentToken leads from a product token to its rule set.
type agentToken struct {
	name string // lower-cased
	set  int32  // index in Robots.sets
}

// setFor returns the index in r.sets of the rule set of the given groups,
// in file order, creating it; a single group's set is shared. scratch is
// a buffer for merging, which setFor may grow.
func (r *Robots) setFor(groups []int32, groupSet []int32, scratch *[]compiledRule) int32 {
	if len(groups) == 1 {
		gi := groups[0]
		if groupSet[gi] == 0 {
			g := &r.groups[gi]
			rs := ruleSet{compiled: g.rules, text: r.text, index: r.groupIndex(g)}
			rs.crawlDelay, rs.hasCrawlDelay = crawlDelay(r.fields[g.fieldLo:g.fieldHi])
			rs.requestInterval, rs.hasRequestRate = requestRate(r.fields[g.fieldLo:g.fieldHi])
			r.sets = append(r.sets, rs)
			groupSet[gi] = int32(len(r.sets))
		}
		return groupSet[gi] - 1
	}
	r.sets = append(r.sets, r.mergedRuleSet(groups, scratch))
	return int32(len(r.sets) - 1)
}

// groupIndex returns the index of a group's rules, shared by every agent
// of the group, or nil for a small group.
func (r *Robots) groupIndex(g *group) *lazyIndex {
	if g.index == nil && len(g.rules) >= indexMinRules {
		g.index = &lazyIndex{compiled: g.rules, text: r.text}
	}
	return g.index
}

// mergedRuleSet merges the rules of the given groups, which are in file
// order; the crawl delay is the first group's that sets one. scratch is
// a buffer for joining the groups' rules, which mergedRuleSet may grow.
func (r *Robots) mergedRuleSet(groups []int32, scratch *[]compiledRule) ruleSet {
	rs := ruleSet{text: r.text}
	if len(groups) == 1 {
		g := &r.groups[groups[0]]
		rs.compiled, rs.index = g.rules, r.groupIndex(g)
	} else {
		n := 0
		for _, gi := range groups {
			n += len(r.groups[gi].rules)
		}
		// Each group's rules are in compareRules order, and the groups
		// are in file order, so the rules that tie on length and kind
		// are already in file order: the stable sort on those alone
		// (linear, where a comparison sort took a third of compiling
		// on files naming an agent in many groups) orders them fully.
		joined := slices.Grow((*scratch)[:0], n)
		for _, gi := range groups {
			joined = append(joined, r.groups[gi].rules...)
		}
		*scratch = joined
		all := make([]compiledRule, n)
		sortRules(all, joined, r.text)
		rs.compiled = all
		if len(all) >= indexMinRules {
			rs.index = &lazyIndex{compiled: all, text: r.text}
		}
	}
	for _, gi := range groups {
		g := &r.groups[gi]
		if d, ok := crawlDelay(r.fields[g.fieldLo:g.fieldHi]); ok {
			rs.crawlDelay, rs.hasCrawlDelay = d, true
			break
		}
	}
	for _, gi := range groups {
		g := &r.groups[gi]
		if d, ok := requestRate(r.fields[g.fieldLo:g.fieldHi]); ok {
			rs.requestInterval, rs.hasRequestRate = d, true
			break
		}
	}
	return rs
}

// crawlDelay returns the first valid crawl-delay among fields. A valid
// value is a non-negative decimal number of seconds ("10", "0.5").
func crawlDelay(fields []Field) (time.Duration, bool) {
	for _, f := range fields {
		if len(f.Key) != len("crawl-delay") || !parse.HasPrefixFold(f.Key, "crawl-delay") {
			continue
		}
		if !parse.IsDecimal(f.Value) {
			continue
		}
		secs, err := strconv.ParseFloat(f.Value, 64)
		if err != nil {
			continue
		}
		if secs >= MaxCrawlDelay.Seconds() {
			return MaxCrawlDelay, true
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	return 0, false
}

// requestRate returns the interval of the first valid request-rate among
// fields: "n/T" with T in seconds or suffixed by s, m, h or d, optionally
// followed by white space and a time window, which is ignored.
func requestRate(fields []Field) (time.Duration, bool) {
	for _, f := range fields {
		if len(f.Key) != len("request-rate") || !parse.HasPrefixFold(f.Key, "request-rate") {
			continue
		}
		if d, ok := parseRequestRate(f.Value); ok {
			return d, true
		}
	}
	return 0, false
}

// parseRequestRate reads one request-rate value; see requestRate.
func parseRequestRate(v string) (time.Duration, bool) {
	if i := strings.IndexAny(v, " \t"); i >= 0 {
		v = v[:i] // the time window
	}
	count, period, ok := strings.Cut(v, "/")
	if !ok {
		return 0, false
	}
	unit := time.Second
	if n := len(period); n > 0 {
		switch period[n-1] | 0x20 {
		case 's':
			period = period[:n-1]
		case 'm':
			unit, period = time.Minute, period[:n-1]
		case 'h':
			unit, period = time.Hour, period[:n-1]
		case 'd':
			unit, period = 24*time.Hour, period[:n-1]
		}
	}
	if !isDigits(count) || !isDigits(period) {
		return 0, false
	}
	// Both are digits, so the only error is a range error, and the value
	// then saturates; the interval is capped below.
	n, _ := strconv.ParseUint(count, 10, 32)
	t, _ := strconv.ParseUint(period, 10, 32)
	if n == 0 || t == 0 {
		return 0, false
	}
	interval := float64(t) * float64(unit) / float64(n)
	if interval >= float64(MaxCrawlDelay) {
		return MaxCrawlDelay, true
	}
	return time.Duration(interval), true
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
