package robotstxt_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
)

// This file generates the robots.txt files, agents and URLs whose answers
// by Google's library are recorded in testdata/google-answers.gz (see
// transcript_test.go). Its output must not change: the transcript holds a
// fingerprint of every file and its queries, so a change here fails the
// test loudly, and then the transcript is recorded again (-update with the
// oracle) under a new trGeneratorVersion.
//
// File i is generated from a PCG stream of its own, seeded with
// (trGeneratorSeed, i), and only through PCG.Uint64, whose algorithm is fixed;
// no math/rand helper whose output could change between Go releases is
// used. A file does not depend on the files before it, so files can be
// generated, and checked, in any order.

// trGeneratorVersion names the generator's output. Change it with any
// change to this file, and record the transcript again.
const trGeneratorVersion = 1

const trGeneratorSeed = 0x5eed_2026_0401_22b3

// A trGenQuery is one question asked of a file.
type trGenQuery struct{ agent, url string }

// A trGenFile is one generated robots.txt file and the questions asked of it.
type trGenFile struct {
	body    []byte
	queries []trGenQuery
}

// A trGen draws choices from one file's PCG stream.
type trGen struct{ src *rand.PCG }

func trNewGen(file int) *trGen { return &trGen{rand.NewPCG(trGeneratorSeed, uint64(file))} }

// n returns a number in [0, k); the slight modulo bias does not matter.
func (g *trGen) n(k int) int {
	if k <= 1 {
		return 0
	}
	return int(g.src.Uint64() % uint64(k))
}

// one reports true with probability 1/k.
func (g *trGen) one(k int) bool { return g.n(k) == 0 }

func (g *trGen) pick(xs []string) string { return xs[g.n(len(xs))] }

// The pieces files and URLs are made of. Each list aims at corners of
// Google's parser and matcher; the comments name the rule they exercise
// (RFC 9309 sections, Google's robots.txt documentation at
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt).
var (
	// User-agent values as files write them: the global group "*" (also
	// followed by whitespace and text), values whose product token is
	// empty or cut short (RFC 9309 2.2.1: a token is letters, "-", "_"),
	// case variants of the same token.
	trFileAgents = []string{
		"*", "*", "*", "* ", "* x", "*\tx", "*\vx", "*foo", "**", "*/x", "*\xA0",
		"FooBot", "FooBot", "foobot", "FOOBOT", "FooBot/1.0", "FooBot 2", "Foo Bar", "foo-bot", "foo_bot",
		"BarBot", "barbot", "Googlebot", "googlebot", "Googlebot-News", "Googlebot-Image", "Googlebot2",
		"AB42bot", "XYZ123bot", "barbarbot*", "éBot", "Bot\x00x", "123bot", "", "Foo\x00Bot",
	}
	// Agents as callers pass them: tokens, case variants, strings that are
	// no token ("Foo Bar", "FooBot/1.0"), the empty agent and "*".
	trQueryAgents = []string{
		"FooBot", "FooBot", "foobot", "FOOBOT", "fooBot", "Foo", "Foo Bar", "FooBot/1.0", "foo-bot", "foo_bot",
		"BarBot", "BarBot", "Googlebot", "googlebot", "Googlebot-News", "Googlebot-Image", "Googlebot2",
		"AB", "AB42bot", "XYZ", "XYZ123bot", "barbarbot", "barbarbot-prod", "", "*", "Bot", "éBot",
		" FooBot", "FooBot ", "OtherBot",
	}
	// Key spellings: the canonical ones in any case, the typos Google
	// accepts, names Google reads by prefix ("Allowance", "User-agents"),
	// and near misses it does not accept.
	trAgentKeys    = []string{"User-agent", "user-agent", "USER-AGENT", "User-Agent", "useragent", "User agent", "User-agents", "user-agentfoo"}
	trAllowKeys    = []string{"Allow", "allow", "ALLOW", "Allowance", "Allowed", "aLLow"}
	trDisallowKeys = []string{"Disallow", "disallow", "DISALLOW", "dissallow", "dissalow", "disalow", "diasllow", "disallaw", "Disallowed", "Disallow-all"}
	trOddKeys      = []string{"user_agent", "Dis-allow", "Diaslow", "Alow", "Sitemap", "site-map", "Sitemaps", "Crawl-delay", "Host", "Clean-param", "Noindex", "Content-Usage", "foo", "é", "\xEF\xBB\xBFUser-agent"}
	// Between key and value: the colon with any spacing, and the
	// whitespace Google accepts for a missing colon; VT and FF are no
	// separators.
	trPlainSeps = []string{": ", ":", ": ", " : ", ":\t", ":  "}
	trOddSeps   = []string{" ", "\t", "  ", " \t", "\v", "\f", "::", ": :"}
	// Line ends: LF, CRLF, CR and their combinations (RFC 9309 2.2).
	trLineEnds = []string{"\n", "\r\n", "\r", "\n\r", "\r\r\n", "\n\n", "\r\n\r\n", "\r\n\n"}
	// Pattern and path pieces: wildcards, "$" at the end and elsewhere,
	// escapes in both cases and broken ones, non-ASCII bytes (UTF-8 and
	// invalid), characters that are special elsewhere but literal here, and
	// the index.htm prefix Google treats as a directory.
	trPlainPieces = []string{"/", "/", "/", "a", "b", "ab", "x", "fish", "/a", "/b", "/fish", "/p/", "/private/", "/foo/bar", "-", "_", ".php", ".html", "A", "B"}
	trWildPieces  = []string{"*", "*", "**", "$", "*$", "/*", "*/", "$x", "$$"}
	trEscPieces   = []string{"%2F", "%2f", "%41", "%61", "%3D", "%3d", "%", "%zz", "%a", "%e3%83%84", "%E3%83%84", "é", "ツ", "\xff", "\xc3", "%c3%a9", "%C3%A9", "~", "+", "[", " ", "%20"}
	trQueryPieces = []string{"?", "?a=1", "=", "&", ";", ";p", "?q=http://d.e/", "#", "#f"}
	trIndexPieces = []string{"index.html", "index.htm", "index.htmx", "/index.html", "/index.htm", "index.html?x", "INDEX.HTML", "index.php"}
	// The parts of a URL before its path, including forms the path
	// reduction of RFC 9309 2.2.2 reads unusually: no scheme, "//",
	// ports, upper-case scheme and host, a scheme without "//", "://"
	// twice.
	trUrlHeads = []string{
		"https://example.com", "https://example.com", "http://example.com", "http://example.com:8080", "HTTP://EXAMPLE.COM",
		"//example.com", "", "example.com", "http:", "http:/", "x://y://z", "mailto:x@y.com", "ftp://h", "http://a.com;p", "http://a.com?q",
		"http://ex%41mple.com", "http://exämple.com", "http://a.com#x",
	}
	// Whole URLs whose path is a corner of the reduction.
	trOddURLs = []string{
		"", "a", "a/", "a/b", "/a", "//a/b/c", "///x", "http://a.com", "http://a.com;p", "http://a.com#f", "a#b/c",
		"http:/a.com/b", "x://y://z/w", "mailto:x@y.com", "example.com?a", "example.com/a;b#c", "http://a.com:80/x",
		"a.com:80/x", "http://a.com/?", "http://a.com/#", "?", "#", ";", "http://a.com/a b", "http://a.com/\x00x",
		"http://a.com/robots.txt", "HTTP://A.COM/P",
	}
	trComments = []string{"# comment", "#", "#Disallow: /x", "# é ツ", "#\x00"}
)

// trKnobs weighs the corners one file aims at: each is a 1-in-k chance, or 0
// for never.
type trKnobs struct {
	groups      int // groups in the file (at most)
	rules       int // rules per group (at most)
	oddKey      int // a key spelled another way
	oddSep      int // a separator other than the colon
	comment     int // a comment after a line
	blank       int // an extra blank or comment-only line
	other       int // a sitemap or unknown line between rules
	wild        int // a wildcard piece in a pattern
	esc         int // an escape or non-ASCII piece
	query       int // a query, parameter or fragment piece
	index       int // an index.htm pattern
	nul         int // a NUL byte in a line
	oddEnd      int // a line end other than the file's own
	ruleFirst   int // rules before the first user-agent line
	oddURL      int // a URL from the list of odd URLs
	spaceInline int // whitespace inside or around a value
}

// The kinds of file, each with its knobs; a file's kind is its first
// choice.
var trKinds = []struct {
	name    string
	trKnobs trKnobs
}{
	{"groups", trKnobs{groups: 8, rules: 4, oddKey: 12, oddSep: 20, comment: 8, blank: 4, other: 5, wild: 8, esc: 20, query: 12, index: 40, nul: 0, oddEnd: 30, ruleFirst: 6, oddURL: 20, spaceInline: 20}},
	{"wildcards", trKnobs{groups: 3, rules: 10, oddKey: 30, oddSep: 40, comment: 20, blank: 10, other: 20, wild: 2, esc: 12, query: 6, index: 30, oddEnd: 40, ruleFirst: 20, oddURL: 30, spaceInline: 30}},
	{"escapes", trKnobs{groups: 3, rules: 8, oddKey: 30, oddSep: 40, comment: 10, blank: 10, other: 20, wild: 5, esc: 2, query: 6, index: 30, nul: 60, oddEnd: 30, ruleFirst: 20, oddURL: 20, spaceInline: 8}},
	{"syntax", trKnobs{groups: 5, rules: 5, oddKey: 2, oddSep: 3, comment: 3, blank: 3, other: 3, wild: 6, esc: 10, query: 10, index: 30, nul: 20, oddEnd: 6, ruleFirst: 4, oddURL: 20, spaceInline: 4}},
	{"bytes", trKnobs{groups: 4, rules: 5, oddKey: 6, oddSep: 8, comment: 5, blank: 3, other: 6, wild: 6, esc: 4, query: 10, index: 30, nul: 5, oddEnd: 2, ruleFirst: 8, oddURL: 10, spaceInline: 5}},
	{"index", trKnobs{groups: 3, rules: 6, oddKey: 20, oddSep: 30, comment: 10, blank: 8, other: 20, wild: 6, esc: 12, query: 4, index: 2, oddEnd: 30, ruleFirst: 20, oddURL: 30, spaceInline: 20}},
	{"urls", trKnobs{groups: 3, rules: 5, oddKey: 20, oddSep: 30, comment: 10, blank: 8, other: 20, wild: 5, esc: 6, query: 3, index: 20, nul: 40, oddEnd: 30, ruleFirst: 20, oddURL: 3, spaceInline: 20}},
	{"long lines", trKnobs{groups: 3, rules: 4, oddKey: 20, oddSep: 20, comment: 6, blank: 8, other: 10, wild: 5, esc: 8, query: 8, index: 30, nul: 20, oddEnd: 20, ruleFirst: 20, oddURL: 30, spaceInline: 20}},
	{"huge", trKnobs{groups: 4, rules: 4, oddKey: 40, oddSep: 60, comment: 30, blank: 30, other: 40, wild: 6, esc: 10, query: 10, index: 40, oddEnd: 60, ruleFirst: 40, oddURL: 40, spaceInline: 40}},
}

// trKindWeights says how often each kind is drawn, in trKinds' order: long
// lines and huge files cost the most, so they come least often.
var trKindWeights = []int{20, 16, 14, 14, 12, 8, 10, 3, 1}

// trGenFileAt generates file i.
func trGenFileAt(i int) trGenFile {
	g := trNewGen(i)
	total := 0
	for _, w := range trKindWeights {
		total += w
	}
	kind := 0
	for r := g.n(total); r >= trKindWeights[kind]; kind++ {
		r -= trKindWeights[kind]
	}
	k := trKinds[kind].trKnobs
	fb := &trFileBuilder{g: g, k: k, end: "\n"}
	switch g.n(4) {
	case 1:
		fb.end = "\r\n"
	case 2:
		if g.one(2) {
			fb.end = "\r"
		}
	}
	fb.build(trKinds[kind].name)
	return trGenFile{body: fb.b.Bytes(), queries: fb.queries(trKinds[kind].name)}
}

// A trFileBuilder writes one file and remembers what it wrote, to aim the
// queries at it.
type trFileBuilder struct {
	g        *trGen
	k        trKnobs
	b        bytes.Buffer
	end      string
	agents   []string // user-agent values written
	patterns []string // rule values written
}

func (fb *trFileBuilder) lineEnd() {
	if fb.k.oddEnd > 0 && fb.g.one(fb.k.oddEnd) {
		fb.b.WriteString(fb.g.pick(trLineEnds))
		return
	}
	fb.b.WriteString(fb.end)
}

// line writes one key-value line with the knobs' chances of odd spelling,
// spacing, NUL bytes and comments.
func (fb *trFileBuilder) line(key, value string) {
	g, k := fb.g, fb.k
	if k.spaceInline > 0 && g.one(k.spaceInline) {
		fb.b.WriteString(g.pick([]string{" ", "\t", "  ", "\v"}))
	}
	fb.b.WriteString(key)
	if k.oddSep > 0 && g.one(k.oddSep) {
		fb.b.WriteString(g.pick(trOddSeps))
	} else {
		fb.b.WriteString(g.pick(trPlainSeps))
	}
	if k.nul > 0 && g.one(k.nul) && len(value) > 0 {
		cut := g.n(len(value) + 1)
		value = value[:cut] + "\x00" + value[cut:]
	}
	fb.b.WriteString(value)
	if k.spaceInline > 0 && g.one(k.spaceInline) {
		fb.b.WriteString(g.pick([]string{" ", "\t", " x", "  y z"}))
	}
	if k.comment > 0 && g.one(k.comment) {
		fb.b.WriteString(g.pick([]string{" ", "", "\t"}) + g.pick(trComments))
	}
	fb.lineEnd()
}

func (fb *trFileBuilder) extraLines() {
	g, k := fb.g, fb.k
	if k.blank > 0 && g.one(k.blank) {
		fb.b.WriteString(g.pick([]string{"", "", " ", "\t", "# c", "  # c", "\x00", ":", ": x", "x"}))
		fb.lineEnd()
	}
	if k.other > 0 && g.one(k.other) {
		switch g.n(3) {
		case 0:
			fb.line(g.pick([]string{"Sitemap", "sitemap", "site-map"}), "https://example.com/sitemap.xml")
		default:
			fb.line(g.pick(trOddKeys), fb.pattern())
		}
	}
}

func (fb *trFileBuilder) agentLine() {
	g := fb.g
	key := "User-agent"
	if fb.k.oddKey > 0 && g.one(fb.k.oddKey) {
		key = g.pick(trAgentKeys)
		if g.one(4) {
			key = g.pick(trOddKeys)
		}
	}
	v := g.pick(trFileAgents)
	fb.agents = append(fb.agents, v)
	fb.line(key, v)
}

func (fb *trFileBuilder) ruleLine() {
	g := fb.g
	allow := g.one(2)
	key := "Disallow"
	if allow {
		key = "Allow"
	}
	if fb.k.oddKey > 0 && g.one(fb.k.oddKey) {
		if allow {
			key = g.pick(trAllowKeys)
		} else {
			key = g.pick(trDisallowKeys)
		}
		if g.one(5) {
			key = g.pick(trOddKeys)
		}
	}
	p := fb.pattern()
	if allow && fb.k.index > 0 && g.one(fb.k.index) {
		p = fb.indexPattern()
	}
	fb.patterns = append(fb.patterns, p)
	fb.line(key, p)
}

// piece returns one piece of a pattern or path.
func (fb *trFileBuilder) piece() string {
	g, k := fb.g, fb.k
	switch {
	case k.wild > 0 && g.one(k.wild):
		return g.pick(trWildPieces)
	case k.esc > 0 && g.one(k.esc):
		return g.pick(trEscPieces)
	case k.query > 0 && g.one(k.query):
		return g.pick(trQueryPieces)
	case k.index > 0 && g.one(k.index):
		return g.pick(trIndexPieces)
	}
	return g.pick(trPlainPieces)
}

// pattern returns a rule value: mostly a path, sometimes starting with
// "*", empty, or starting with a byte no path starts with.
func (fb *trFileBuilder) pattern() string {
	g := fb.g
	var sb strings.Builder
	switch g.n(12) {
	case 0:
		return ""
	case 1:
		sb.WriteString("*")
	case 2:
		sb.WriteString(g.pick([]string{"a", "%2F", "é", "?", "$"}))
	default:
		sb.WriteString("/")
	}
	for n := g.n(5); n > 0; n-- {
		sb.WriteString(fb.piece())
	}
	if fb.k.wild > 0 && g.one(fb.k.wild) {
		sb.WriteString("$")
	}
	return sb.String()
}

// indexPattern returns an allow value ending in an index.htm page, the
// case Google also reads as allowing the directory.
func (fb *trFileBuilder) indexPattern() string {
	g := fb.g
	dir := g.pick([]string{"/", "/d/", "/a/b/", "/*/", "*/", "/x?y=/", "/é/", "/%e3/", "/d", ""})
	return dir + g.pick([]string{"index.html", "index.htm", "index.htmx", "index.html?x", "index.html$", "index.htm*", "Index.html", "index.php"})
}

// build writes the file of one kind.
func (fb *trFileBuilder) build(kind string) {
	g, k := fb.g, fb.k
	switch g.n(10) { // a byte-order mark, whole or in part, or a false one
	case 0:
		fb.b.WriteString("\xEF\xBB\xBF")
	case 1:
		fb.b.WriteString(g.pick([]string{"\xEF", "\xEF\xBB", "\xEF\xBB\xBF\xEF\xBB\xBF", "\xBB\xBF", "\xEF\x11\xBF", "\xEF\n"}))
	}
	if k.ruleFirst > 0 && g.one(k.ruleFirst) {
		fb.ruleLine()
	}
	groups := 1 + g.n(k.groups)
	huge := -1 // the group with a huge rule set
	if kind == "huge" {
		huge = g.n(groups)
	}
	for gi := range groups {
		for n := 1 + g.n(3) - g.n(2); n > 0; n-- { // sometimes a run of agents
			fb.agentLine()
			fb.extraLines()
		}
		rules := g.n(k.rules + 1)
		if gi == huge {
			rules = 200 + g.n(4000)
			if g.one(6) {
				rules = 20000 + g.n(10000) // near or past the 500 KiB limit
			}
		}
		for range rules {
			fb.ruleLine()
			fb.extraLines()
		}
		if kind == "long lines" && g.one(2) {
			fb.longLine()
		}
	}
	if g.one(3) { // the file ends without a line end
		fb.b.Truncate(len(bytes.TrimRight(fb.b.Bytes(), "\r\n")))
	}
}

// trMaxLine is the number of bytes Google's parser keeps of a line; the rest
// up to the line's end is dropped.
const trMaxLine = 2083*8 - 1

// longLine writes a rule line whose length falls near trMaxLine, with what
// comes past the cut a byte or a comment or a wildcard that the cut drops.
func (fb *trFileBuilder) longLine() {
	g := fb.g
	key := g.pick([]string{"Disallow: ", "Allow: ", "Disallow:", "User-agent: "})
	length := trMaxLine - 3 + g.n(7)
	if g.one(4) {
		length = trMaxLine/2 + g.n(trMaxLine*2)
	}
	head := "/" + g.pick([]string{"a", "ab", "x/", "é", "%41"})
	fill := strings.Repeat(g.pick([]string{"a", "ab", "/x", "é"}), length/2)
	value := head + fill
	if n := length - len(key) - 1; n > 0 && n < len(value) {
		value = value[:n]
	}
	value += g.pick([]string{"", "b", "$", "*", "#c", " "})
	if key == "User-agent: " {
		fb.agents = append(fb.agents, value)
	} else {
		fb.patterns = append(fb.patterns, value)
	}
	fb.b.WriteString(key)
	fb.b.WriteString(value)
	fb.lineEnd()
}

// queries returns the questions asked of the file: agents the file names
// (as written, as tokens, in other case) and others, URLs made from its
// patterns (wildcards filled, "$" dropped or kept, cut short or extended,
// escapes changed in case or decoded) and others.
func (fb *trFileBuilder) queries(kind string) []trGenQuery {
	g := fb.g
	n := 12 + g.n(60)
	if kind == "huge" || kind == "long lines" {
		n = 8 + g.n(24)
	}
	qs := make([]trGenQuery, 0, n)
	for range n {
		q := trGenQuery{agent: fb.queryAgent(), url: fb.queryURL()}
		qs = append(qs, q)
	}
	return qs
}

func (fb *trFileBuilder) queryAgent() string {
	g := fb.g
	if len(fb.agents) == 0 || g.one(3) {
		return g.pick(trQueryAgents)
	}
	a := fb.agents[g.n(len(fb.agents))]
	switch g.n(6) {
	case 0: // as written
	case 1: // in other case
		a = trSwapCase(a)
	default: // its product token
		end := 0
		for end < len(a) && (a[end] == '-' || a[end] == '_' || 'a' <= a[end]|0x20 && a[end]|0x20 <= 'z') {
			end++
		}
		a = a[:end]
	}
	// The oracle's line protocol cannot carry a tab or a line break in
	// the agent.
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' {
			return -1
		}
		return r
	}, a)
}

func (fb *trFileBuilder) queryURL() string {
	g := fb.g
	if g.one(max(fb.k.oddURL, 1)) {
		return g.pick(trOddURLs)
	}
	head := "https://example.com"
	if g.one(3) {
		head = g.pick(trUrlHeads)
	}
	var path string
	if len(fb.patterns) > 0 && !g.one(4) {
		path = fb.fromPattern(fb.patterns[g.n(len(fb.patterns))])
	} else {
		var sb strings.Builder
		sb.WriteString("/")
		for n := g.n(5); n > 0; n-- {
			sb.WriteString(fb.piece())
		}
		path = sb.String()
	}
	if g.one(8) {
		path += g.pick(trQueryPieces)
	}
	u := head + path
	// The oracle reads one query per line.
	return strings.ReplaceAll(u, "\n", "")
}

// fromPattern returns a path the pattern is about: wildcards filled in,
// the end anchor dropped or kept as a byte, cut short, extended, its
// escapes in other case or decoded.
func (fb *trFileBuilder) fromPattern(p string) string {
	g := fb.g
	var sb strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*':
			if !g.one(6) {
				for n := g.n(3); n > 0; n-- {
					sb.WriteString(fb.piece())
				}
				continue
			}
		case c == '$' && i == len(p)-1:
			if !g.one(5) {
				continue
			}
		case c == '%' && i+2 < len(p) && g.one(4):
			// the escape in other case, or the byte it stands for
			if g.one(2) {
				sb.WriteString(trSwapCase(p[i : i+3]))
			} else if b, ok := trUnhex(p[i+1], p[i+2]); ok {
				sb.WriteByte(b)
			} else {
				sb.WriteString(p[i : i+3])
			}
			i += 2
			continue
		case c >= 0x80 && g.one(4):
			// a raw byte as its escape, in either case
			const hex = "0123456789ABCDEF0123456789abcdef"
			off := 16 * g.n(2)
			sb.WriteByte('%')
			sb.WriteByte(hex[off+int(c>>4)])
			sb.WriteByte(hex[off+int(c&15)])
			continue
		}
		sb.WriteByte(c)
	}
	s := sb.String()
	switch g.n(6) {
	case 0:
		if len(s) > 0 {
			s = s[:g.n(len(s)+1)]
		}
	case 1:
		s += fb.piece()
	case 2:
		s = trSwapCase(s)
	}
	if !strings.HasPrefix(s, "/") && !g.one(6) {
		s = "/" + s
	}
	return s
}

func trUnhex(a, b byte) (byte, bool) {
	v := func(c byte) (byte, bool) {
		switch {
		case '0' <= c && c <= '9':
			return c - '0', true
		case 'a' <= c|0x20 && c|0x20 <= 'f':
			return c | 0x20 - 'a' + 10, true
		}
		return 0, false
	}
	hi, ok1 := v(a)
	lo, ok2 := v(b)
	return hi<<4 | lo, ok1 && ok2
}

// trSwapCase swaps the case of ASCII letters.
func trSwapCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c|0x20 && c|0x20 <= 'z' {
			b[i] = c ^ 0x20
		}
	}
	return string(b)
}

// trWireForm is the URL as a crawler sends it, which is what the library's
// contract hands Google's matcher: every byte >= 0x80 as %XX, the hex
// digits of every %xx escape upper-cased, nothing else changed.
func trWireForm(url string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(url); i++ {
		c := url[i]
		switch {
		case c >= 0x80:
			b = append(b, '%', hex[c>>4], hex[c&15])
		case c == '%' && i+2 < len(url) && trIsHex(url[i+1]) && trIsHex(url[i+2]):
			b = append(b, '%', trUpper(url[i+1]), trUpper(url[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

func trIsHex(c byte) bool {
	_, ok := trUnhex(c, '0')
	return ok
}

func trUpper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 0x20
	}
	return c
}
