// Package reference is a reference model of Google's robots.txt matcher
// for tests: the twin that the engine, the stream and the API are checked
// against on generated files, the corpus and Google's compliance tests,
// and the generators of random files and queries those checks use. It is
// imported only by tests.
package reference

// This file is a reference model of Google's robots.txt semantics, written
// straight from the behaviour of Google's robots.cc and kept deliberately simple and slow: a
// byte-at-a-time line reader, a streaming matcher with Google's four
// best-priority buckets, and the position-set pattern matcher. It shares no
// code with the fast implementation, so that differential tests and fuzzing
// can compare the two.

// refLine is one line as the reference tokenizer sees it.
type refLine struct {
	num   int
	kind  string // "user-agent", "allow", "disallow", "sitemap", "unknown" or "" (no directive)
	value string // trimmed value; escaped for allow and disallow
}

// refTokenize splits body into lines as robots.cc RobotsTxtParser::Parse
// does: the BOM, line ends, kMaxLineLen, a NUL ending a line, GetKeyAndValueFrom,
// GetKeyType and MaybeEscapePattern.
func refTokenize(body []byte) []refLine {
	const capacity = 2083*8 - 1
	var lines []refLine
	var buf []byte
	bomPos := 0
	lastCR := false
	num := 0
	emit := func() {
		num++
		lines = append(lines, refParseLine(num, buf))
	}
	for _, c := range body {
		if bomPos < 3 {
			if c == "\xEF\xBB\xBF"[bomPos] {
				bomPos++
				continue
			}
			bomPos = 3
		}
		if c != '\n' && c != '\r' {
			if len(buf) < capacity {
				buf = append(buf, c)
			}
			continue
		}
		if !(len(buf) == 0 && lastCR && c == '\n') {
			emit()
		}
		buf = buf[:0]
		lastCR = c == '\r'
	}
	emit()
	return lines
}

func refIsSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

func refTrim(b []byte) []byte {
	for len(b) > 0 && refIsSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && refIsSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func refIndex(b []byte, set string) int {
	for i, c := range b {
		for j := 0; j < len(set); j++ {
			if c == set[j] {
				return i
			}
		}
	}
	return -1
}

func refParseLine(num int, raw []byte) refLine {
	l := refLine{num: num}
	line := append([]byte(nil), raw...)
	if i := refIndex(line, "\x00"); i >= 0 {
		line = line[:i]
	}
	if i := refIndex(line, "#"); i >= 0 {
		line = line[:i]
	}
	line = refTrim(line)
	if len(line) == 0 {
		return l
	}
	sep := refIndex(line, ":")
	var key, value []byte
	if sep >= 0 {
		key, value = line[:sep], line[sep+1:]
	} else {
		sep = refIndex(line, " \t")
		if sep < 0 {
			return l
		}
		rest := line[sep:]
		for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
			rest = rest[1:]
		}
		if refIndex(rest, " \t") >= 0 {
			return l
		}
		key, value = line[:sep], rest
	}
	key = refTrim(key)
	if len(key) == 0 {
		return l
	}
	value = refTrim(value)
	l.kind = refKeyKind(string(key))
	switch l.kind {
	case "allow", "disallow", "unknown":
		l.value = Escape(value)
	default:
		l.value = string(value)
	}
	return l
}

func refKeyKind(key string) string {
	lower := make([]byte, len(key))
	for i := 0; i < len(key); i++ {
		c := key[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	starts := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if len(lower) >= len(p) && string(lower[:len(p)]) == p {
				return true
			}
		}
		return false
	}
	switch {
	case starts("user-agent", "useragent", "user agent"):
		return "user-agent"
	case starts("allow"):
		return "allow"
	case starts("disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"):
		return "disallow"
	case starts("sitemap", "site-map"):
		return "sitemap"
	}
	return "unknown"
}

// Escape upper-cases %xx escapes and percent-encodes bytes >= 0x80.
func Escape(b []byte) string {
	isHex := func(c byte) bool {
		return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	}
	up := func(c byte) byte {
		if 'a' <= c && c <= 'f' {
			return c - 'a' + 'A'
		}
		return c
	}
	var out []byte
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '%' && i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]):
			out = append(out, '%', up(b[i+1]), up(b[i+2]))
			i += 2
		case b[i] >= 0x80:
			out = append(out, '%', "0123456789ABCDEF"[b[i]>>4], "0123456789ABCDEF"[b[i]&15])
		default:
			out = append(out, b[i])
		}
	}
	return string(out)
}

// Path reduces a URL to its path, params and query (robots.cc GetPathParamsQuery).
func Path(url string) string {
	find := func(from int, set string) int {
		for i := from; i < len(url); i++ {
			for j := 0; j < len(set); j++ {
				if url[i] == set[j] {
					return i
				}
			}
		}
		return -1
	}
	s := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		s = 2
	}
	early := find(s, "/?;")
	proto := -1
	for i := s; i+3 <= len(url); i++ {
		if url[i:i+3] == "://" {
			proto = i
			break
		}
	}
	if early >= 0 && proto >= 0 && early < proto {
		proto = -1
	}
	start := s
	if proto >= 0 {
		start = proto + 3
	}
	p := find(start, "/?;")
	if p < 0 {
		return "/"
	}
	h := find(s, "#")
	if h >= 0 && h < p {
		return "/"
	}
	end := len(url)
	if h >= 0 {
		end = h
	}
	path := url[p:end]
	if path[0] != '/' {
		path = "/" + path
	}
	return path
}

// Match is Google's position-set matcher (robots.cc RobotsMatchStrategy::Matches).
func Match(pattern, path string) bool {
	pos := []int{0}
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '$' && i == len(pattern)-1 {
			return pos[len(pos)-1] == len(path)
		}
		if c == '*' {
			var all []int
			for p := pos[0]; p <= len(path); p++ {
				all = append(all, p)
			}
			pos = all
			continue
		}
		var next []int
		for _, p := range pos {
			if p < len(path) && path[p] == c {
				next = append(next, p+1)
			}
		}
		if len(next) == 0 {
			return false
		}
		pos = next
	}
	return true
}

// refBucket is the best match of one kind: its priority and line.
type refBucket struct{ priority, line int }

// refMatcher is Google's RobotsMatcher state for one agent and one path.
type refMatcher struct {
	agent, path                                         string
	seenGlobal, seenSpecific, everSeenSpecific, seenSep bool
	allowSpecific, allowGlobal, disSpecific, disGlobal  refBucket
}

func (m *refMatcher) userAgent(value string) {
	if m.seenSep {
		m.seenGlobal, m.seenSpecific, m.seenSep = false, false, false
	}
	if len(value) >= 1 && value[0] == '*' && (len(value) == 1 || refIsSpace(value[1])) {
		m.seenGlobal = true
		return
	}
	n := 0
	for n < len(value) {
		c := value[n]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			break
		}
		n++
	}
	token := value[:n]
	if len(token) != len(m.agent) {
		return
	}
	for i := 0; i < len(token); i++ {
		a, b := token[i], m.agent[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return
		}
	}
	m.seenSpecific, m.everSeenSpecific = true, true
}

func (m *refMatcher) record(specific, global *refBucket, priority, line int) {
	b := global
	if m.seenSpecific {
		b = specific
	}
	if priority > b.priority {
		*b = refBucket{priority, line}
	}
}

func (m *refMatcher) allow(value string, line int) {
	if !m.seenGlobal && !m.seenSpecific {
		return
	}
	m.seenSep = true
	if Match(value, m.path) {
		m.record(&m.allowSpecific, &m.allowGlobal, len(value), line)
		return
	}
	slash := -1
	for i := range value {
		if value[i] == '/' {
			slash = i
		}
	}
	if slash >= 0 && len(value)-slash >= len("/index.htm") && value[slash:slash+len("/index.htm")] == "/index.htm" {
		m.allow(value[:slash+1]+"$", line)
	}
}

func (m *refMatcher) disallow(value string, line int) {
	if !m.seenGlobal && !m.seenSpecific {
		return
	}
	m.seenSep = true
	if Match(value, m.path) {
		m.record(&m.disSpecific, &m.disGlobal, len(value), line)
	}
}

// verdict is Google's disallow() and matching_line() (robots.cc RobotsMatcher::disallow).
func (m *refMatcher) verdict() (allowed bool, line int) {
	higher := func(dis, allow refBucket) int {
		if dis.priority > allow.priority {
			return dis.line
		}
		return allow.line
	}
	if m.everSeenSpecific {
		line = higher(m.disSpecific, m.allowSpecific)
	} else {
		line = higher(m.disGlobal, m.allowGlobal)
	}
	switch {
	case m.allowSpecific.priority > 0 || m.disSpecific.priority > 0:
		return !(m.disSpecific.priority > m.allowSpecific.priority), line
	case m.everSeenSpecific:
		return true, line
	case m.allowGlobal.priority > 0 || m.disGlobal.priority > 0:
		return !(m.disGlobal.priority > m.allowGlobal.priority), line
	}
	return true, line
}

// Model is a robots.txt file tokenized once, ready to be streamed for
// each query.
type Model struct{ lines []refLine }

// New applies the contract's 500 KiB cut (Parse's documentation; Google's robots.txt documentation) and tokenizes.
func New(body []byte) *Model {
	if len(body) > 512000 {
		body = body[:512000]
	}
	return &Model{lines: refTokenize(body)}
}

// verdict streams the lines for one agent and URL. The URL is brought to
// wire form first (the package documentation); a NUL ends the path, which robots.cc reads as a C
// string.
func (rm *Model) Verdict(agent, url string) (allowed bool, line int) {
	path := Path(url)
	for i := 0; i < len(path); i++ {
		if path[i] == 0 {
			path = path[:i]
			break
		}
	}
	m := &refMatcher{agent: agent, path: Escape([]byte(path))}
	none := refBucket{-1, 0}
	m.allowSpecific, m.allowGlobal, m.disSpecific, m.disGlobal = none, none, none, none
	for _, l := range rm.lines {
		switch l.kind {
		case "user-agent":
			m.userAgent(l.value)
		case "allow":
			m.allow(l.value, l.num)
		case "disallow":
			m.disallow(l.value, l.num)
		}
	}
	return m.verdict()
}
