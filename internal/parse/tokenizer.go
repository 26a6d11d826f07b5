// Package parse reads robots.txt files as Google's parser does: a
// tokenizer that splits a body into lines, keys and values, and a grouper
// that forms the groups Google's matcher sees. Parse (the matcher) and the
// lint package both consume them, so that the two read every file alike.
package parse

import (
	"math/bits"
	"strings"
)

// MaxLineBytes is how many content bytes of one line are kept. Google's
// parser reads lines into a buffer of 2083*8 bytes, one of which holds the
// terminating NUL; the rest of a longer line is dropped.
const MaxLineBytes = 2083*8 - 1

// KeyKind classifies a directive's key.
type KeyKind uint8

// The keys that matter to the matcher; every other key is KeyUnknown.
const (
	KeyUnknown KeyKind = iota
	KeyUserAgent
	KeyAllow
	KeyDisallow
	KeySitemap
)

// LineFlags record what the Tokenizer saw on a Line, as Google's
// RobotsParseHandler::LineMetadata does.
type LineFlags uint8

const (
	LineEmpty        LineFlags = 1 << iota // nothing but white space
	LineHasComment                         // a '#' was found
	LineIsComment                          // nothing but a comment
	LineHasDirective                       // a key and a value were found
	LineTypo                               // the key is an accepted misspelling
	LineTooLong                            // bytes past MaxLineBytes were dropped
	LineMissingColon                       // key and value were split by white space
	LineMayEscape                          // a '%' or a byte >= 0x80 was seen: values may need escaping
)

// A Line is one physical line of a robots.txt file after tokenizing.
type Line struct {
	Num   int // 1-based, as Google numbers lines
	Flags LineFlags
	Kind  KeyKind // meaningful only with LineHasDirective
	Key   string  // the key as written, trimmed
	Value string  // the value as written, trimmed, comment removed; not escaped
}

// A Tokenizer splits a robots.txt body into lines exactly as Google's
// RobotsTxtParser::Parse does: an optional (possibly partial) UTF-8 byte
// order mark is dropped, CR, LF and CR LF end lines, and the last line is
// always emitted, even when it is empty.
type Tokenizer struct {
	// body[pos:] is what is left to read. An offset rather than the rest
	// as a string: moving it writes no pointer, so it costs no write
	// barrier while the garbage collector runs.
	body   string
	pos    int
	lines  int
	prevCR bool // the previous line ended in CR, so a following LF may be swallowed
	done   bool
	filter *FirstBytes // nil, or the first bytes of the lines to read; see Filter
	// nextLF and nextCR are the indexes in body of the first LF and CR
	// at or after where they were last looked for (len(body) if none),
	// or -1 before that. A byte is searched again only once pos has
	// passed it, so that finding line ends costs one pass over the body
	// in all, even when one of the two never occurs (see lineEnd).
	nextLF, nextCR int
}

// A FirstBytes is a set of bytes, which a line's first byte that is not
// white space must be in for Next to read the line; see Tokenizer.Filter.
type FirstBytes [256]bool

// Filters for readers that need only some kinds of lines. Every spelling
// of a key of that kind begins with one of the bytes (see ClassifyKey),
// and a line's key begins at its first byte that is not white space.
var (
	// MatcherLines: user-agent, allow and disallow lines.
	MatcherLines = firstBytes("uUaAdD")
	// AgentLines: user-agent lines.
	AgentLines = firstBytes("uU")
)

func firstBytes(set string) *FirstBytes {
	var f FirstBytes
	for i := 0; i < len(set); i++ {
		f[set[i]] = true
	}
	return &f
}

// Filter makes Next pass over the lines whose first byte that is not white
// space is not in set, without tokenizing them; they are still counted, so
// line numbers do not change. Empty lines are always read. A nil set
// reads every line. A reader that needs only some kinds of directives
// reads a file several times faster this way.
func (t *Tokenizer) Filter(set *FirstBytes) { t.filter = set }

// skipLine passes over the next line if the filter rejects it, and
// reports whether it did.
func (t *Tokenizer) skipLine() bool {
	s := t.body[t.pos:]
	i := skipBlanks(s, 0)
	if i == len(s) {
		return false
	}
	if c := s[i]; c == '\n' || c == '\r' || t.filter[c] {
		return false
	}
	t.PassLine()
	return true
}

// PlainDisallow reports whether the next line starts as a disallow line
// usually does: white space, "disallow" in any case, white space, ':' and
// white space. If so, it returns the rest of the body from the byte after
// that (the value, then whatever follows it), and where that byte is in
// the line. A line of any other shape reports false, whatever it is; the
// line is not consumed either way.
func (t *Tokenizer) PlainDisallow() (rest string, offset int, ok bool) {
	s := t.body[t.pos:]
	i := skipBlanks(s, 0)
	if i+8 > len(s) || load64(s, i)|0x2020202020202020 != wordDisallow {
		return "", 0, false
	}
	i = skipBlanks(s, i+8)
	if i == len(s) || s[i] != ':' {
		return "", 0, false
	}
	i = skipBlanks(s, i+1)
	return s[i:], i, true
}

// skipBlanks returns the index of the first byte of s at or after i that
// is not white space within a line.
func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\v' || s[i] == '\f') {
		i++
	}
	return i
}

// PassLine passes over the next line without tokenizing it; it is
// counted. The line must not be empty.
func (t *Tokenizer) PassLine() {
	t.lines++
	end := t.lineEnd(t.pos)
	if end == len(t.body) {
		t.done = true
		t.pos = end
		return
	}
	// The line has content, so an LF ending it is never the second half
	// of a CR LF pair.
	t.prevCR = t.body[end] == '\r'
	t.pos = end + 1
}

// lineEnd returns the index in body of the first CR or LF at or after
// from, which is at or after pos, or len(body) if there is none. Looking
// for the nearer of the two afresh on every line would cross the rest of
// the body on every line of a file that lacks one of them (CR alone ends
// its lines, say): quadratic time. Each is looked for with the library's
// vectorized search, and again only once pos has passed it.
func (t *Tokenizer) lineEnd(from int) int {
	if t.nextLF < from {
		t.nextLF = len(t.body)
		if i := strings.IndexByte(t.body[from:], '\n'); i >= 0 {
			t.nextLF = from + i
		}
	}
	if t.nextCR < from {
		t.nextCR = len(t.body)
		if i := strings.IndexByte(t.body[from:], '\r'); i >= 0 {
			t.nextCR = from + i
		}
	}
	return min(t.nextLF, t.nextCR)
}

// NewTokenizer returns a Tokenizer of body.
func NewTokenizer(body string) Tokenizer {
	const bom = "\xEF\xBB\xBF"
	n := 0
	for n < len(bom) && n < len(body) && body[n] == bom[n] {
		n++
	}
	return Tokenizer{body: body, pos: n, nextLF: -1, nextCR: -1}
}

// Byte classes for the line scan.
const (
	scanEnd    = 1 // CR, LF: the line ends
	scanStop   = 2 // NUL, '#': the content ends
	scanColon  = 3 // ':'
	scanEscape = 4 // '%' or a byte >= 0x80: a rule value may need escaping
)

// scanClass classifies bytes for the line scan; 0 is an ordinary byte. It
// is never written after initialization.
var scanClass = func() (t [256]uint8) {
	t['\n'], t['\r'] = scanEnd, scanEnd
	t[0], t['#'] = scanStop, scanStop
	t[':'] = scanColon
	t['%'] = scanEscape
	for c := 0x80; c < 0x100; c++ {
		t[c] = scanEscape
	}
	return t
}()

// Next tokenizes the next line into l. It reports false when the body is
// exhausted.
func (t *Tokenizer) Next(l *Line) bool {
	for !t.done {
		if t.pos < len(t.body) {
			// Empty lines, a sixth of real files' lines, take no scan.
			switch c := t.body[t.pos]; c {
			case '\n':
				t.pos++
				if t.prevCR {
					t.prevCR = false // the LF of a CR LF pair
					continue
				}
				t.lines++
				*l = Line{Num: t.lines, Flags: LineEmpty}
				return true
			case '\r':
				t.pos++
				t.prevCR = true
				t.lines++
				*l = Line{Num: t.lines, Flags: LineEmpty}
				return true
			default:
				// Lines that start with a byte of the filter are read
				// without a call.
				if t.filter != nil && !t.filter[c] && t.skipLine() {
					continue
				}
			}
		}
		s := t.body[t.pos:]
		// One pass over the line finds its end, where its content stops
		// (NUL or '#'), its first colon, and whether it may need escaping.
		stop, colon, mayEscape := -1, -1, false
		i := 0
	scan:
		for ; i < len(s); i++ {
			// Eight bytes at a time up to the first that may be special,
			// then byte by byte, for the tail and the false alarms.
			for i+8 <= len(s) {
				if m := maySpecial(load64(s, i), colon < 0, !mayEscape); m != 0 {
					i += bits.TrailingZeros64(m) >> 3
					break
				}
				i += 8
			}
			for i < len(s) && scanClass[s[i]] == 0 {
				i++ // the tight loop over ordinary bytes
			}
			if i == len(s) {
				break
			}
			switch scanClass[s[i]] {
			case scanEnd:
				break scan
			case scanStop:
				stop = i
				i = t.lineEnd(t.pos+i) - t.pos
				break scan
			case scanColon:
				if colon < 0 {
					colon = i
				}
			case scanEscape:
				mayEscape = true
			}
		}
		var term byte
		if i < len(s) {
			term = s[i]
			t.pos += i + 1
		} else {
			t.done = true
			t.pos = len(t.body)
		}
		// The line is not empty (empty lines are read above), so an LF
		// ending it is never the second half of a CR LF pair.
		content := s[:i]
		t.prevCR = term == '\r'
		t.lines++
		if len(content) > MaxLineBytes {
			TokenizeLine(l, t.lines, content)
			return true
		}
		var flags LineFlags
		if stop >= 0 {
			if content[stop] == '#' {
				flags |= LineHasComment
			}
			content = content[:stop]
		}
		if mayEscape {
			flags |= LineMayEscape
		}
		// One write of the whole line: its strings are pointers, and
		// every pointer written through l costs a write barrier while
		// the garbage collector marks.
		*l = splitDirective(t.lines, flags, content, colon)
		return true
	}
	return false
}

// Rest returns the bytes not yet tokenized.
func (t *Tokenizer) Rest() string { return t.body[t.pos:] }

// indexEither returns the index of the first a or b in s, or -1.
// (strings.IndexAny builds a byte set on every call.)
func indexEither(s string, a, b byte) int {
	i := strings.IndexByte(s, a)
	head := s
	if i >= 0 {
		head = s[:i]
	}
	if j := strings.IndexByte(head, b); j >= 0 {
		return j
	}
	return i
}

// TokenizeLine fills l from the content of line num, following Google's
// GetKeyAndValueFrom. For lines within the length cap, next does the same
// work in its scan.
func TokenizeLine(l *Line, num int, content string) {
	flags := LineMayEscape
	if len(content) > MaxLineBytes {
		content = content[:MaxLineBytes]
		flags |= LineTooLong
	}
	// Google works on C strings, so a NUL ends the line's content.
	if i := strings.IndexByte(content, 0); i >= 0 {
		content = content[:i]
	}
	if i := strings.IndexByte(content, '#'); i >= 0 {
		flags |= LineHasComment
		content = content[:i]
	}
	*l = splitDirective(num, flags, content, strings.IndexByte(content, ':'))
}

// splitDirective returns line num, whose content (comment removed) and
// flags so far are given, with its key and value found, given the index
// of its first colon or -1.
func splitDirective(num int, flags LineFlags, content string, colon int) Line {
	start, end := 0, len(content)
	for start < end && IsSpace(content[start]) {
		start++
	}
	for end > start && IsSpace(content[end-1]) {
		end--
	}
	if start == end {
		if flags&LineHasComment != 0 {
			flags |= LineIsComment
		} else {
			flags |= LineEmpty
		}
		return Line{Num: num, Flags: flags}
	}
	var key, value string
	if colon >= 0 {
		key, value = content[start:colon], content[colon+1:end]
	} else {
		// A missing colon is accepted when white space separates exactly
		// two tokens.
		content = content[start:end]
		sep := indexEither(content, ' ', '\t')
		if sep < 0 {
			return Line{Num: num, Flags: flags}
		}
		v := sep + 1
		for v < len(content) && (content[v] == ' ' || content[v] == '\t') {
			v++
		}
		if indexEither(content[v:], ' ', '\t') >= 0 {
			return Line{Num: num, Flags: flags}
		}
		flags |= LineMissingColon
		key, value = content[:sep], content[v:]
	}
	key = TrimSpace(key)
	if key == "" {
		return Line{Num: num, Flags: flags}
	}
	kind, typo := ClassifyKey(key)
	flags |= LineHasDirective
	if typo {
		flags |= LineTypo
	}
	return Line{Num: num, Flags: flags, Kind: kind, Key: key, Value: TrimSpace(value)}
}

// IsSpace reports whether c is ASCII white space as C's isspace sees it in
// the C locale. LF and CR never reach it inside a line.
func IsSpace(c byte) bool {
	return c <= ' ' && spaceBits>>c&1 != 0
}

// spaceBits has bit c set for each white-space byte c.
const spaceBits = 1<<' ' | 1<<'\t' | 1<<'\v' | 1<<'\f' | 1<<'\n' | 1<<'\r'

// TrimSpace returns s without the leading and trailing bytes IsSpace
// reports (Google's StripWhitespaceSlowly; unlike strings.TrimSpace, no
// Unicode spaces).
func TrimSpace(s string) string {
	for len(s) > 0 && IsSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && IsSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

type keySpelling struct {
	prefix string
	kind   KeyKind
	typo   bool
}

// Key spellings Google accepts, tested as ASCII case-insensitive prefixes in
// this order; the first hit wins.
var keySpellings = [...]keySpelling{
	{"user-agent", KeyUserAgent, false},
	{"useragent", KeyUserAgent, true},
	{"user agent", KeyUserAgent, true},
	{"allow", KeyAllow, false},
	{"disallow", KeyDisallow, false},
	{"dissallow", KeyDisallow, true},
	{"dissalow", KeyDisallow, true},
	{"disalow", KeyDisallow, true},
	{"diasllow", KeyDisallow, true},
	{"disallaw", KeyDisallow, true},
	{"sitemap", KeySitemap, false},
	{"site-map", KeySitemap, true},
}

// ClassifyKey returns the kind of a directive's key and whether the key is
// an accepted misspelling.
func ClassifyKey(key string) (KeyKind, bool) {
	if key == "" {
		return KeyUnknown, false
	}
	// The usual spellings, eight bytes at a time. OR-ing 0x20 lower-cases
	// letters and maps no other byte a key can hold onto a letter, '-' or
	// ' ' (only CR and NUL would, and a line holds neither).
	if len(key) >= 8 {
		switch load64(key, 0) | 0x2020202020202020 {
		case wordDisallow:
			return KeyDisallow, false
		case wordUserAge:
			if len(key) >= 10 && key[8]|0x20 == 'n' && key[9]|0x20 == 't' {
				return KeyUserAgent, false
			}
		}
	}
	// Only the spellings that share the key's first letter can match; they
	// are tried in keySpellings order.
	var spellings []keySpelling
	switch LowerASCII(key[0]) {
	case 'u':
		spellings = keySpellings[0:3]
	case 'a':
		spellings = keySpellings[3:4]
	case 'd':
		spellings = keySpellings[4:10]
	case 's':
		spellings = keySpellings[10:12]
	}
	for _, s := range spellings {
		if HasPrefixFold(key, s.prefix) {
			return s.kind, s.typo
		}
	}
	return KeyUnknown, false
}

// HasPrefixFold reports whether s begins with prefix, ignoring ASCII case.
// prefix must be lower case.
func HasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if LowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// LowerASCII returns c lower-cased if it is an ASCII letter.
func LowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// Spelling returns the accepted key spelling that key begins with, the one
// ClassifyKey chose, or key itself when it has none.
func Spelling(key string) string {
	for _, s := range keySpellings {
		if HasPrefixFold(key, s.prefix) {
			return s.prefix
		}
	}
	return key
}

// Words of eight key bytes, as load64 reads them.
var (
	wordDisallow = load64("disallow", 0)
	wordUserAge  = load64("user-age", 0)
)

// load64 returns s[i:i+8] as a little-endian word; the compiler makes it
// one load.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// maySpecial sets the high bit of the first byte of w that the line scan
// must look at (a byte below 0x0E, which covers NUL, LF and CR; '#'; and
// ':', '%' and bytes >= 0x80 while the scan still needs them), and may set
// it in later bytes too. It is zero when no byte of w needs a look.
func maySpecial(w uint64, colon, escape bool) uint64 {
	m := (w-0x0E*lowBits)&^w | zeroBytes(w^('#'*lowBits))
	if colon {
		m |= zeroBytes(w ^ (':' * lowBits))
	}
	if escape {
		// Once one such byte is seen the line may need escaping;
		// the others of a non-ASCII line need no look.
		m |= w | zeroBytes(w^('%'*lowBits))
	}
	return m & highBits
}

// zeroBytes sets, before masking with highBits, the high bit of the first
// zero byte of w (and maybe of later ones).
func zeroBytes(w uint64) uint64 { return (w - lowBits) &^ w }
