// Package parse reads robots.txt files as Google's parser does: a
// tokenizer that splits a body into lines, keys and values, and a grouper
// that forms the groups Google's matcher sees. Parse (the matcher) and the
// lint package both consume them, so that the two read every file alike.
package parse

import (
	"math/bits"
	"strings"
	"unsafe"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
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
	Key   string  // the key as written, trimmed; "" when read by spans
	Value string  // the value as written, trimmed, comment removed; not escaped; "" when read by spans
	// KeyAt and ValueAt are where Key and Value are in the body, set by
	// Tokenizer.Next (not by TokenizeLine, which has no body).
	KeyAt, ValueAt Span
}

// A Span is where a key or value is in the body a Tokenizer reads: N
// bytes from Off. Bodies are at most 4 GiB.
type Span struct{ Off, N uint32 }

// In returns the bytes of body that sp is.
func (sp Span) In(body string) string { return body[sp.Off : sp.Off+sp.N] }

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
	done   bool
	filter *FirstBytes // nil, or the first bytes of the lines to read; see Filter
	spans  bool        // Next sets KeyAt and ValueAt alone; see ReadSpans
	vector bool        // passLines may call passBlocks (swar.AVX2; false in some tests)
	// nextLF and nextCR are the indexes in body of the first LF and CR
	// at or after where they were last looked for (len(body) if none),
	// or -1 before that. A byte is searched again only once pos has
	// passed it, so that finding line ends costs one pass over the body
	// in all, even when one of the two never occurs (see lineEnd).
	nextLF, nextCR int
}

// A FirstBytes is a set of bytes, which a line's first byte that is not
// white space must be in for Next to read the line; see Tokenizer.Filter.
type FirstBytes struct {
	set [256]bool
	// letters is the set for passBlocks, when it is up to three letters
	// in both cases (see vectorLetters); 0 otherwise.
	letters uint64
}

// Has reports whether c is in the set.
func (f *FirstBytes) Has(c byte) bool { return f.set[c] }

// Filters for readers that need only some kinds of lines. Every spelling
// of a key of that kind begins with one of the bytes (see ClassifyKey),
// and a line's key begins at its first byte that is not white space.
var (
	// MatcherLines: user-agent, allow and disallow lines.
	MatcherLines = firstBytes("uUaAdD")
	// AgentLines: user-agent lines.
	AgentLines = firstBytes("uU")
	// GroupLines: the lines of a group that a reader of one agent's rule
	// set needs: user-agent, allow and disallow lines, and the fields of
	// a group it reads (crawl-delay, request-rate, content-usage,
	// content-signal). Comments, blank lines, sitemaps and every other
	// key, and the text of an HTML page, are passed over.
	GroupLines = firstBytes("uUaAdDcCrR")
)

func firstBytes(set string) *FirstBytes {
	var f FirstBytes
	for i := 0; i < len(set); i++ {
		f.set[set[i]] = true
	}
	f.letters, _ = vectorLetters(&f.set)
	return &f
}

// Filter makes Next pass over the lines whose first byte that is not white
// space is not in set, without tokenizing them; they are still counted, so
// line numbers do not change. Empty lines and lines of white space alone
// are passed over too: they hold no directive. A nil set reads every
// line. A reader that needs only some kinds of directives reads a file
// several times faster this way.
func (t *Tokenizer) Filter(set *FirstBytes) { t.filter = set }

// ReadSpans makes Next set a line's KeyAt and ValueAt and leave its Key
// and Value empty. A reader that has the body finds them there: a line
// written without strings holds no pointer, so that writing it costs no
// write barrier while the garbage collector runs (two a line, and the
// buffer they fill then to flush: 3 % of a corpus file's first question).
func (t *Tokenizer) ReadSpans() { t.spans = true }

// set sets the key and value of l, substrings of the body (or empty), as
// ReadSpans says.
func (t *Tokenizer) set(l *Line, key, value string) {
	l.KeyAt, l.ValueAt = t.spanOf(key), t.spanOf(value)
	if !t.spans {
		l.Key, l.Value = key, value
	}
}

// spanOf returns where s, a substring of the body or empty, is in it.
func (t *Tokenizer) spanOf(s string) Span {
	if s == "" {
		return Span{}
	}
	return Span{uint32(swar.OffsetWithin(t.body, s)), uint32(len(s))}
}

// passLines passes over the lines from the next on that the filter
// rejects, are empty or hold white space alone, up to one the filter
// passes or the end of the body, and reports whether it passed any. It
// stays in one loop however many lines it passes: a reader of one group's
// lines passes most lines of a file.
func (t *Tokenizer) passLines() bool {
	body, pos, passed := t.body, t.pos, false
	// lineEnd's state, in registers while lines are passed.
	nextLF, nextCR := t.nextLF, t.nextCR
	letters := uint64(0)
	if t.vector {
		letters = t.filter.letters
	}
	for {
		i := pos
		if letters != 0 && len(body)-pos >= minVectorPass {
			// Whole blocks, up to a line of the filter's, where the pass
			// ends, or else up to the last line start of the blocks, whose
			// line is read below, as the lines after it.
			off, ends, found := passBlocks(unsafe.StringData(body[pos:]), len(body)-pos, letters)
			if ends > 0 {
				t.lines += ends
				passed = true
			}
			pos += off
			if found {
				break
			}
			i = pos
		}
		if i < len(body) && body[i] <= ' ' && blankBits>>body[i]&1 != 0 {
			i = skipBlankRun(body, i)
		}
		// Empty lines, and lines of white space alone (indented HTML
		// served as robots.txt has thousands), are passed as they are
		// found: their end is where their white space ends. The body's
		// end after a line end is its last line, empty, which Google
		// counts.
		end := i
		if i < len(body) && body[i] != '\n' && body[i] != '\r' {
			if t.filter.set[body[i]] {
				break
			}
			// lineEnd's two searches, written here on locals: the call
			// was a tenth of passing a line, and a helper for one search
			// is over the inlining budget (+1.5 % on the corpus's first
			// question).
			if nextLF < i {
				nextLF = len(body)
				if k := strings.IndexByte(body[i:], '\n'); k >= 0 {
					nextLF = i + k
				}
			}
			if nextCR < i {
				nextCR = len(body)
				if k := strings.IndexByte(body[i:], '\r'); k >= 0 {
					nextCR = i + k
				}
			}
			end = min(nextLF, nextCR)
		}
		t.lines++
		passed = true
		if end == len(body) {
			t.done = true
			pos = end
			break
		}
		pos = afterLineEnd(body, end)
	}
	t.pos = pos
	t.nextLF, t.nextCR = nextLF, nextCR
	return passed
}

// PlainDisallow reports whether the next line starts as a disallow line
// usually does: white space, "disallow" in any case, white space, ':' and
// white space. If so, it returns the rest of the body from the byte after
// that (the value, then whatever follows it), and where that byte is in
// the line. A line of any other shape reports false, whatever it is; the
// line is not consumed either way.
func (t *Tokenizer) PlainDisallow() (rest string, offset int, ok bool) {
	s := t.body[t.pos:]
	// Most disallow lines start "Disallow: " and then their value (as
	// DisallowAt tells, written out here: the compiler then knows s is
	// long enough).
	if len(s) >= 16 && swar.Load64At(s, 0)|0x2020202020202020 == wordDisallow && s[8] == ':' && s[9] == ' ' && s[10] > ' ' {
		return s[10:], 10, true
	}
	i := skipBlanks(s, 0)
	if i+8 > len(s) || swar.Load64(s, i)|0x2020202020202020 != wordDisallow {
		return "", 0, false
	}
	i = skipBlanks(s, i+8)
	if i == len(s) || s[i] != ':' {
		return "", 0, false
	}
	i = skipBlanks(s, i+1)
	return s[i:], i, true
}

// PlainAllow reports whether the next line starts as most allow lines
// do: "allow" in any case, ": ", and a value whose first byte is above
// ' ', with at least 16 bytes left. If so, it returns the rest of the
// body from the value on, and where the value is in the line (7). A line
// of any other shape reports false, whatever it is; the line is not
// consumed either way.
func (t *Tokenizer) PlainAllow() (rest string, offset int, ok bool) {
	s := t.body[t.pos:]
	if len(s) >= 16 && (swar.Load64At(s, 0)|0x2020202020)&0xFFFFFFFFFFFFFF == wordAllowColon|' '<<48 && s[7] > ' ' {
		return s[7:], 7, true
	}
	return "", 0, false
}

// DisallowAt reports whether the line that starts at body[pos] starts as
// most disallow lines do: "disallow" in any case, ": ", and a value whose
// first byte is above ' ', 10 bytes after pos (PlainDisallow reports the
// line); and at least 16 bytes are left from pos. pos must be at most
// len(body).
func DisallowAt(body string, pos int) bool {
	return len(body)-pos >= 16 && swar.Load64At(body, pos)|0x2020202020202020 == wordDisallow &&
		swar.Load64At(body, pos+8)&0xFFFF == ':'|' '<<8 && body[pos+10] > ' '
}

// NextByte returns the first byte not yet read, or 0 at the end of the
// body: a caller can tell from it that PlainDisallow would report false
// (anything but 'd', 'D' or white space), without a call.
func (t *Tokenizer) NextByte() byte {
	if t.pos < len(t.body) {
		return t.body[t.pos]
	}
	return 0
}

// skipBlanks returns the index of the first byte of s at or after i that
// is not white space within a line.
func skipBlanks(s string, i int) int {
	// A byte above ' ', the most common, is told by one comparison.
	for i < len(s) && s[i] <= ' ' && blankBits>>s[i]&1 != 0 {
		i++
	}
	return i
}

// skipBlankRun is skipBlanks for lines that start with white space, as
// indented ones do (some files indent hundreds of lines with tabs): it
// passes over spaces and tabs eight at a time, then over the rest one by
// one.
func skipBlankRun(s string, i int) int {
	for last := len(s) - 8; i <= last; i += 8 {
		w := swar.Load64At(s, i) // 0 <= i <= len(s)-8
		if w == ' '*swar.LowBits || w == '\t'*swar.LowBits {
			continue // deep indents are eight spaces, or tabs, at a time
		}
		// The high bit of each byte that is neither a space nor a tab:
		// nonZero sets it exactly, since no carry crosses bytes.
		if m := nonZero(w^' '*swar.LowBits) & nonZero(w^'\t'*swar.LowBits) & swar.HighBits; m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			break
		}
	}
	return skipBlanks(s, i)
}

// nonZero sets the high bit of each byte of w that is not zero, exactly;
// its other bits are noise.
func nonZero(w uint64) uint64 {
	return (w&^swar.HighBits + ^uint64(swar.HighBits)) | w
}

// blankBits has bit c set for each byte c that is white space within a
// line: ' ', '\t', '\v' and '\f'.
const blankBits uint64 = 1<<' ' | 1<<'\t' | 1<<'\v' | 1<<'\f'

// PassLinesTo passes over the n lines from the next one up to pos, where
// the line after them starts, which the caller has read as PlainDisallow
// reports them, each ending in LF, CR or CR LF (see Grouper.RuleRun). They
// are counted.
func (t *Tokenizer) PassLinesTo(pos, n int) {
	t.lines += n
	t.pos = pos
}

// PassLine passes over the next line without tokenizing it; it is
// counted. The line must not be empty.
func (t *Tokenizer) PassLine() { t.PassLineTo(t.lineEnd(t.pos) - t.pos) }

// PassLineTo passes over the next line, whose content the caller has read
// up to its end: the CR or LF that ends it, or the end of the body, end
// bytes after where the line starts (see PlainDisallow). It is counted.
// Unlike PassLine, it does not look for the line's end.
func (t *Tokenizer) PassLineTo(end int) {
	t.lines++
	if end = t.pos + end; end >= len(t.body) {
		t.done = true
		t.pos = len(t.body)
		return
	}
	t.pos = afterLineEnd(t.body, end)
}

// afterLineEnd returns where the line after the CR or LF at body[end]
// starts: past the LF of a CR LF pair too, so that pos is then where
// PlainDisallow and NextByte look for the next line (in a file of CR LF
// pairs they would otherwise find the LF).
func afterLineEnd(body string, end int) int {
	if body[end] == '\r' && end+1 < len(body) && body[end+1] == '\n' {
		return end + 2
	}
	return end + 1
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
	return Tokenizer{body: body, pos: n, nextLF: -1, nextCR: -1, vector: swar.AVX2}
}

// Next tokenizes the next line into l. It reports false when the body is
// exhausted.
func (t *Tokenizer) Next(l *Line) bool {
	for !t.done {
		if t.pos < len(t.body) {
			c := t.body[t.pos]
			// Lines that start with a byte of the filter are read
			// without a call. No filter holds a line end.
			if t.filter != nil && !t.filter.set[c] && t.passLines() {
				continue
			}
			// Empty lines, a sixth of real files' lines, take no scan.
			if c == '\n' || c == '\r' {
				t.lines++
				t.pos = afterLineEnd(t.body, t.pos)
				l.Num, l.Flags, l.Kind = t.lines, LineEmpty, KeyUnknown
				t.set(l, "", "")
				return true
			}
		} else if t.filter != nil {
			// The last line, empty: a filter passes it, as passLines
			// passes empty lines.
			t.lines++
			t.done = true
			continue
		}
		t.readLine(l)
		return true
	}
	return false
}

// readLine tokenizes the next line, which is not empty, into l.
func (t *Tokenizer) readLine(l *Line) {
	s := t.body[t.pos:]
	// One pass over the line finds its end, where its content stops (NUL
	// or '#'), its first colon, and whether its content holds a '%' or a
	// byte >= 0x80 (esc: the high bit of some byte is set).
	i, colon, kind := 0, -1, KeyUnknown
	// Most lines start with a key of the matcher spelled as usual, right
	// before the colon: the scan then starts at the value.
	// These are user-agent, allow, disallow and sitemap in any case with
	// the colon right after; ClassifyKey reads them alike. Only the
	// letters are compared ignoring case (OR-ing 0x20 maps only letters
	// onto letters); '-' and ':' must be exact, since a CR would OR into
	// '-'. (Written here rather than called: a call spills every register.)
	if len(s) >= 16 {
		switch w := swar.Load64At(s, 0); { // len(s) >= 8
		case w|0x2020202020202020 == wordDisallow:
			if s[8] == ':' {
				kind, colon = KeyDisallow, 8
			}
		case w|0x2020200020202020 == wordUserAge:
			if s[8]|0x20 == 'n' && s[9]|0x20 == 't' && s[10] == ':' {
				kind, colon = KeyUserAgent, 10
			}
		case w|0x0020202020202020 == wordSitemapColon:
			kind, colon = KeySitemap, 7
		case (w|0x2020202020)&0xFFFFFFFFFFFF == wordAllowColon:
			kind, colon = KeyAllow, 5
		}
		i = colon + 1 // 0 if none
	}
	var esc uint64
	stop, end := -1, len(s)
	for {
		var e uint64
		if colon < 0 {
			i, e = scanKey(s, i)
		} else {
			i, e = scanValue(s, i)
		}
		esc |= e
		if i == len(s) {
			break
		}
		// A byte below 0x0E that is not a line end (a tab, say) is an
		// ordinary byte: the scan goes on after it.
		c := s[i]
		if c == '\n' || c == '\r' {
			end = i
			break
		}
		if c == 0 || c == '#' {
			stop = i
			end = t.lineEnd(t.pos+i) - t.pos
			break
		}
		if c == ':' {
			colon = i // scanKey stops at a colon, scanValue does not
		}
		i++
	}
	if end < len(s) {
		// The line is not empty (Next reads empty lines), so an LF
		// ending it is never the second half of a CR LF pair.
		t.pos = afterLineEnd(t.body, t.pos+end)
	} else {
		t.done = true
		t.pos = len(t.body)
	}
	t.lines++
	content := s[:end]
	if len(content) > MaxLineBytes {
		key, value := tokenizeLine(l, t.lines, content)
		t.set(l, key, value)
		return
	}
	var flags LineFlags
	if stop >= 0 {
		if s[stop] == '#' {
			flags |= LineHasComment
		}
		content = content[:stop]
	}
	if esc&swar.HighBits != 0 {
		flags |= LineMayEscape
	}
	if kind != KeyUnknown {
		// The key is content[:colon], all letters and '-'.
		l.Num, l.Flags, l.Kind = t.lines, flags|LineHasDirective, kind
		t.set(l, content[:colon], TrimSpace(content[colon+1:]))
		return
	}
	key, value := splitDirective(l, t.lines, flags, content, colon)
	t.set(l, key, value)
}

// scanKey returns the index of the first byte of s at or after i (0 <= i
// <= len(s)) that is below 0x0E, '#' or ':', or len(s); and, in the high
// bits of esc, whether a '%' or a byte >= 0x80 came before. It reads eight
// bytes at a time, then the last few one by one.
func scanKey(s string, i int) (_ int, esc uint64) {
	for last := len(s) - 8; i <= last; i += 8 {
		w := swar.Load64At(s, i) // 0 <= i <= len(s)-8
		m := (swar.LessFlags(w, 0x0E*swar.LowBits) | swar.ZeroFlags(w^'#'*swar.LowBits) |
			swar.ZeroFlags(w^':'*swar.LowBits)) & swar.HighBits
		e := w | swar.ZeroFlags(w^'%'*swar.LowBits)
		if m != 0 {
			// Only the bytes before the first flagged one are content
			// for sure; ZeroFlags never flags a byte below the first
			// match, so the bits kept are true ones.
			b := bits.TrailingZeros64(m) &^ 7
			return i + b>>3, esc | e&(1<<b-1)
		}
		esc |= e
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < 0x0E || c == '#' || c == ':' {
			break
		}
		if c == '%' || c >= 0x80 {
			esc = swar.HighBits
		}
	}
	return i, esc
}

// scanValue is scanKey once the colon is found: the same loop, without the
// colon's test, for the bytes of values, most bytes of a file.
func scanValue(s string, i int) (_ int, esc uint64) {
	for last := len(s) - 8; i <= last; i += 8 {
		w := swar.Load64At(s, i) // 0 <= i <= len(s)-8
		m := (swar.LessFlags(w, 0x0E*swar.LowBits) | swar.ZeroFlags(w^'#'*swar.LowBits)) & swar.HighBits
		e := w | swar.ZeroFlags(w^'%'*swar.LowBits)
		if m != 0 {
			b := bits.TrailingZeros64(m) &^ 7
			return i + b>>3, esc | e&(1<<b-1)
		}
		esc |= e
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < 0x0E || c == '#' {
			break
		}
		if c == '%' || c >= 0x80 {
			esc = swar.HighBits
		}
	}
	return i, esc
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
	l.Key, l.Value = tokenizeLine(l, num, content)
	l.KeyAt, l.ValueAt = Span{}, Span{}
}

// tokenizeLine is TokenizeLine, returning the key and value rather than
// setting them (see splitDirective).
func tokenizeLine(l *Line, num int, content string) (key, value string) {
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
	return splitDirective(l, num, flags, content, strings.IndexByte(content, ':'))
}

// splitDirective fills l with line num, whose content (comment removed)
// and flags so far are given, given the index of its first colon or -1,
// and returns its key and value, for the caller to set (see
// Tokenizer.set). It writes l field by field: a Line returned whole would
// be stored in pieces and read back in wider loads, which stalls the
// store forwarding of most CPUs on every line.
func splitDirective(l *Line, num int, flags LineFlags, content string, colon int) (key, value string) {
	l.Num = num
	l.Kind = KeyUnknown
	start := 0
	for start < len(content) && IsSpace(content[start]) {
		start++
	}
	if start == len(content) {
		if flags&LineHasComment != 0 {
			flags |= LineIsComment
		} else {
			flags |= LineEmpty
		}
		l.Flags = flags
		return "", ""
	}
	if colon >= 0 {
		// content[colon] is not white space, so start <= colon.
		key, value = content[start:colon], content[colon+1:]
	} else {
		// A missing colon is accepted when white space separates exactly
		// two tokens.
		end := len(content)
		for IsSpace(content[end-1]) {
			end--
		}
		content = content[start:end]
		sep := indexEither(content, ' ', '\t')
		if sep < 0 {
			l.Flags = flags
			return "", ""
		}
		v := sep + 1
		for v < len(content) && (content[v] == ' ' || content[v] == '\t') {
			v++
		}
		if indexEither(content[v:], ' ', '\t') >= 0 {
			l.Flags = flags
			return "", ""
		}
		flags |= LineMissingColon
		key, value = content[:sep], content[v:]
	}
	// The key starts with a byte that is not white space.
	for len(key) > 0 && IsSpace(key[len(key)-1]) {
		key = key[:len(key)-1]
	}
	if key == "" {
		l.Flags = flags
		return "", ""
	}
	kind, typo := ClassifyKey(key)
	flags |= LineHasDirective
	if typo {
		flags |= LineTypo
	}
	l.Flags, l.Kind = flags, kind
	return key, TrimSpace(value)
}

// IsSpace reports whether c is ASCII white space as C's isspace sees it in
// the C locale. LF and CR never reach it inside a line.
func IsSpace(c byte) bool {
	return c <= ' ' && spaceBits>>c&1 != 0
}

// spaceBits has bit c set for each white-space byte c.
const spaceBits uint64 = 1<<' ' | 1<<'\t' | 1<<'\v' | 1<<'\f' | 1<<'\n' | 1<<'\r'

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
		switch swar.Load64(key, 0) | 0x2020202020202020 {
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

// IsKey reports whether a directive's key is name (lower case), ignoring
// ASCII case: the one comparison of keys of the tokenizer, the matcher,
// lint and the preference lines. The lengths are compared first, where
// most keys differ.
func IsKey(key, name string) bool {
	return len(key) == len(name) && HasPrefixFold(key, name)
}

// EqualFold reports whether a and b are equal ignoring ASCII case (and
// only ASCII case: strings.EqualFold would also fold the Kelvin sign to
// 'k').
func EqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if LowerASCII(a[i]) != LowerASCII(b[i]) {
			return false
		}
	}
	return true
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

// Words of eight key bytes, as swar.Load64 reads them
// (TestKeyWords): constants, so that they are operands of the compares.
const (
	wordDisallow = 0x776f6c6c61736964 // "disallow"
	wordUserAge  = 0x6567612d72657375 // "user-age"
	// With the colon, for readLine.
	wordSitemapColon = 0x3a70616d65746973 // "sitemap:"
	wordAllowColon   = 0x3a776f6c6c61     // "allow:", two zero bytes above
)
