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

// next tokenizes the next line into l. It reports false when the body is
// exhausted.
func (t *tokenizer) next(l *line) bool {
	for !t.done {
		content, term := t.cut()
		if term == '\n' && content == "" && t.prevCR {
			// The LF of a CR LF pair: no line of its own.
			t.prevCR = false
			continue
		}
		t.prevCR = term == '\r'
		t.num++
		tokenizeLine(l, t.num, content)
		return true
	}
	return false
}

// cut removes the next line from t.rest and returns its content and the
// byte that ended it (0 for the final line).
func (t *tokenizer) cut() (content string, term byte) {
	s := t.rest
	end := strings.IndexByte(s, '\n')
	head := s
	if end >= 0 {
		head = s[:end]
	}
	if cr := strings.IndexByte(head, '\r'); cr >= 0 {
		end = cr
	}
	if end < 0 {
		t.done = true
		t.rest = ""
		return s, 0
	}
	t.rest = s[end+1:]
	return s[:end], s[end]
}

// tokenizeLine fills l from the content of line num, following Google's
// GetKeyAndValueFrom.
func tokenizeLine(l *line, num int, content string) {
	*l = line{num: num}
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
	content = trimSpace(content)
	if content == "" {
		if l.flags&lineHasComment != 0 {
			l.flags |= lineIsComment
		} else {
			l.flags |= lineEmpty
		}
		return
	}
	sep := strings.IndexByte(content, ':')
	valueStart := sep + 1
	if sep < 0 {
		// A missing colon is accepted when white space separates exactly
		// two tokens.
		sep = strings.IndexAny(content, " \t")
		if sep < 0 {
			return
		}
		valueStart = sep + 1
		for valueStart < len(content) && (content[valueStart] == ' ' || content[valueStart] == '\t') {
			valueStart++
		}
		if strings.ContainsAny(content[valueStart:], " \t") {
			return
		}
		l.flags |= lineMissingColon
	}
	key := trimSpace(content[:sep])
	if key == "" {
		return
	}
	l.flags |= lineHasDirective
	l.key = key
	l.value = trimSpace(content[valueStart:])
	var typo bool
	l.kind, typo = classifyKey(key)
	if typo {
		l.flags |= lineTypo
	}
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

// Key spellings Google accepts, tested as ASCII case-insensitive prefixes in
// this order; the first hit wins.
var keySpellings = [...]struct {
	prefix string
	kind   keyKind
	typo   bool
}{
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
	for _, s := range keySpellings {
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
