package robotstxt

import "strings"

// maxLineBytes is how many content bytes of one line are kept. Google's
// parser reads lines into a buffer of 2083*8 bytes, one of which holds the
// terminating NUL; the rest of a longer line is dropped.
const maxLineBytes = 2083*8 - 1

// keyKind classifies a directive's key.
type keyKind uint8

const (
	keyUnknown keyKind = iota
	keyUserAgent
	keyAllow
	keyDisallow
	keySitemap
)

// lineFlags record what the tokenizer saw on a line, as Google's
// RobotsParseHandler::LineMetadata does.
type lineFlags uint8

const (
	lineEmpty        lineFlags = 1 << iota // nothing but white space
	lineHasComment                         // a '#' was found
	lineIsComment                          // nothing but a comment
	lineHasDirective                       // a key and a value were found
	lineTypo                               // the key is an accepted misspelling
	lineTooLong                            // bytes past maxLineBytes were dropped
	lineMissingColon                       // key and value were split by white space
	lineMayEscape                          // a '%' or a byte >= 0x80 was seen: values may need escaping
)

// A line is one physical line of a robots.txt file after tokenizing.
type line struct {
	num   int
	flags lineFlags
	kind  keyKind // meaningful only with lineHasDirective
	key   string  // the key as written, trimmed
	value string  // the value as written, trimmed, comment removed; not escaped
}

// A tokenizer splits a robots.txt body into lines exactly as Google's
// RobotsTxtParser::Parse does: an optional (possibly partial) UTF-8 byte
// order mark is dropped, CR, LF and CR LF end lines, and the last line is
// always emitted, even when it is empty.
type tokenizer struct {
	rest   string
	num    int
	prevCR bool // the previous line ended in CR, so a following LF may be swallowed
	done   bool
}

func newTokenizer(body string) tokenizer {
	const bom = "\xEF\xBB\xBF"
	n := 0
	for n < len(bom) && n < len(body) && body[n] == bom[n] {
		n++
	}
	return tokenizer{rest: body[n:]}
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

// next tokenizes the next line into l. It reports false when the body is
// exhausted.
func (t *tokenizer) next(l *line) bool {
	for !t.done {
		s := t.rest
		// One pass over the line finds its end, where its content stops
		// (NUL or '#'), its first colon, and whether it may need escaping.
		stop, colon, mayEscape := -1, -1, false
		i := 0
	scan:
		for ; i < len(s); i++ {
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
				if j := indexLineEnd(s[i:]); j >= 0 {
					i += j
				} else {
					i = len(s)
				}
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
			t.rest = s[i+1:]
		} else {
			t.done = true
			t.rest = ""
		}
		content := s[:i]
		if term == '\n' && content == "" && t.prevCR {
			// The LF of a CR LF pair: no line of its own.
			t.prevCR = false
			continue
		}
		t.prevCR = term == '\r'
		t.num++
		if len(content) > maxLineBytes {
			tokenizeLine(l, t.num, content)
			return true
		}
		*l = line{num: t.num}
		if stop >= 0 {
			if content[stop] == '#' {
				l.flags |= lineHasComment
			}
			content = content[:stop]
		}
		if mayEscape {
			l.flags |= lineMayEscape
		}
		splitDirective(l, content, colon)
		return true
	}
	return false
}

// indexLineEnd returns the index of the first CR or LF in s, or -1.
func indexLineEnd(s string) int {
	lf := strings.IndexByte(s, '\n')
	head := s
	if lf >= 0 {
		head = s[:lf]
	}
	if cr := strings.IndexByte(head, '\r'); cr >= 0 {
		return cr
	}
	return lf
}

// tokenizeLine fills l from the content of line num, following Google's
// GetKeyAndValueFrom. For lines within the length cap, next does the same
// work in its scan.
func tokenizeLine(l *line, num int, content string) {
	*l = line{num: num, flags: lineMayEscape}
	if len(content) > maxLineBytes {
		content = content[:maxLineBytes]
		l.flags |= lineTooLong
	}
	// Google works on C strings, so a NUL ends the line's content.
	if i := strings.IndexByte(content, 0); i >= 0 {
		content = content[:i]
	}
	if i := strings.IndexByte(content, '#'); i >= 0 {
		l.flags |= lineHasComment
		content = content[:i]
	}
	splitDirective(l, content, strings.IndexByte(content, ':'))
}

// splitDirective finds the key and the value in a line's content (comment
// removed), given the index of its first colon or -1.
func splitDirective(l *line, content string, colon int) {
	start, end := 0, len(content)
	for start < end && isSpace(content[start]) {
		start++
	}
	for end > start && isSpace(content[end-1]) {
		end--
	}
	if start == end {
		if l.flags&lineHasComment != 0 {
			l.flags |= lineIsComment
		} else {
			l.flags |= lineEmpty
		}
		return
	}
	var key, value string
	if colon >= 0 {
		key, value = content[start:colon], content[colon+1:end]
	} else {
		// A missing colon is accepted when white space separates exactly
		// two tokens.
		content = content[start:end]
		sep := indexBlank(content)
		if sep < 0 {
			return
		}
		v := sep + 1
		for v < len(content) && (content[v] == ' ' || content[v] == '\t') {
			v++
		}
		if indexBlank(content[v:]) >= 0 {
			return
		}
		l.flags |= lineMissingColon
		key, value = content[:sep], content[v:]
	}
	key = trimSpace(key)
	if key == "" {
		return
	}
	l.flags |= lineHasDirective
	l.key = key
	l.value = trimSpace(value)
	var typo bool
	l.kind, typo = classifyKey(key)
	if typo {
		l.flags |= lineTypo
	}
}

// indexBlank returns the index of the first space or tab in s, or -1.
// (strings.IndexAny builds a byte set on every call.)
func indexBlank(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			return i
		}
	}
	return -1
}

// isSpace reports whether c is ASCII white space as C's isspace sees it in
// the C locale. LF and CR never reach it inside a line.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\n' || c == '\r'
}

func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

type keySpelling struct {
	prefix string
	kind   keyKind
	typo   bool
}

// Key spellings Google accepts, tested as ASCII case-insensitive prefixes in
// this order; the first hit wins.
var keySpellings = [...]keySpelling{
	{"user-agent", keyUserAgent, false},
	{"useragent", keyUserAgent, true},
	{"user agent", keyUserAgent, true},
	{"allow", keyAllow, false},
	{"disallow", keyDisallow, false},
	{"dissallow", keyDisallow, true},
	{"dissalow", keyDisallow, true},
	{"disalow", keyDisallow, true},
	{"diasllow", keyDisallow, true},
	{"disallaw", keyDisallow, true},
	{"sitemap", keySitemap, false},
	{"site-map", keySitemap, true},
}

// classifyKey returns the kind of a directive's key and whether the key is
// an accepted misspelling.
func classifyKey(key string) (keyKind, bool) {
	if key == "" {
		return keyUnknown, false
	}
	// Only the spellings that share the key's first letter can match; they
	// are tried in keySpellings order.
	var spellings []keySpelling
	switch lowerASCII(key[0]) {
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
		if hasPrefixFold(key, s.prefix) {
			return s.kind, s.typo
		}
	}
	return keyUnknown, false
}

// hasPrefixFold reports whether s begins with prefix, ignoring ASCII case.
// prefix must be lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}
