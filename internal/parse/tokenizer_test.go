package parse

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// "Google's docs" below is Google's robots.txt documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt.

// tokenize returns every line the tokenizer emits for body.
func tokenize(body string) []Line {
	var out []Line
	tok := NewTokenizer(body)
	var l Line
	for tok.Next(&l) {
		out = append(out, l)
	}
	return out
}

// A lineView is the part of a line a test states: number, key, value and
// flags.
type lineView struct {
	Num   int
	Kind  KeyKind
	Key   string
	Value string
	Flags LineFlags
}

// A firstLineTest is a body and what the tokenizer makes of its first
// line.
type firstLineTest struct {
	body string
	want lineView
}

func checkFirstLine(t *testing.T, tests []firstLineTest) {
	t.Helper()
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, views(tokenize(tt.body))[0]); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.body, diff)
		}
	}
}

func views(lines []Line) []lineView {
	out := make([]lineView, len(lines))
	for i, l := range lines {
		out[i] = lineView{l.Num, l.Kind, l.Key, l.Value, l.Flags &^ LineMayEscape} // the hint is not Google metadata
	}
	return out
}

// contents returns the values of the directive lines and "" for the others,
// one per emitted line: enough to see where lines break.
func contents(body string) []string {
	var out []string
	for _, l := range tokenize(body) {
		out = append(out, l.Key+l.Value)
	}
	return out
}

// robots.cc RobotsTxtParser::Parse, line ends: only CR and LF end lines; a LF right after the CR
// that ended an empty-so-far line is swallowed; the last line is always
// emitted. RFC 9309 section 2.2.
func TestLineSplitting(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"empty body is one empty line", "", []string{""}},
		{"LF", "a:1\nb:2", []string{"a1", "b2"}},
		{"trailing LF adds an empty line", "a:1\n", []string{"a1", ""}},
		{"CRLF is one break", "a:1\r\nb:2", []string{"a1", "b2"}},
		{"CR alone", "a:1\rb:2", []string{"a1", "b2"}},
		{"CR CR LF is two breaks", "a:1\r\r\nb:2", []string{"a1", "", "b2"}},
		{"LF CR is two breaks", "a:1\n\rb:2", []string{"a1", "", "b2"}},
		{"CR LF LF is two breaks", "a:1\r\n\nb:2", []string{"a1", "", "b2"}},
		{"trailing CRLF", "a:1\r\n", []string{"a1", ""}},
		{"mixed", "a:1\nb:2\r\nc:3\rd:4", []string{"a1", "b2", "c3", "d4"}},
		{"VT and FF are content", "a:1\vb\fc", []string{"a1\vb\fc"}},
		{"lone LF", "\n", []string{"", ""}},
		{"lone CRLF", "\r\n", []string{"", ""}},
		{"CR LF CR LF", "\r\n\r\n", []string{"", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, contents(tt.body)); diff != "" {
				t.Errorf("lines of %q (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

// robots.cc RobotsTxtParser::Parse, line ends, and robots_test ID_LinesNumbersAreCountedCorrectly:
// line numbers count every emitted line.
func TestLineNumbers(t *testing.T) {
	bodies := map[string]string{
		"unix":     "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
		"dos":      "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
		"mac":      "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
		"no final": "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
		"mixed":    "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
	}
	for name, body := range bodies {
		var directives, last int
		for _, l := range tokenize(body) {
			if l.Flags&LineHasDirective != 0 {
				directives++
				last = l.Num
			}
		}
		if directives != 4 || last != 6 {
			t.Errorf("%s: %d directives, last on line %d; want 4 and 6", name, directives, last)
		}
	}
}

// robots.cc RobotsTxtParser::Parse, the BOM: a leading BOM, or any prefix of one, is dropped;
// after the first mismatch BOM bytes are ordinary. Google's docs, "File format": a BOM is ignored.
func TestByteOrderMark(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"full BOM", "\xEF\xBB\xBFUser-Agent: foo", []string{"User-Agentfoo"}},
		{"two bytes", "\xEF\xBBUser-Agent: foo", []string{"User-Agentfoo"}},
		{"one byte", "\xEFUser-Agent: foo", []string{"User-Agentfoo"}},
		{"broken BOM keeps the mismatch", "\xEF\x11\xBFUser-Agent: foo", []string{"\x11\xBFUser-Agentfoo"}},
		{"second BOM is content", "\xEF\xBB\xBF\xEF\xBB\xBFa: 1", []string{"\xEF\xBB\xBFa1"}},
		{"no EF, no skip", "\xBB\xBFa: 1", []string{"\xBB\xBFa1"}},
		{"EF then LF", "\xEF\na: 1", []string{"", "a1"}},
		{"BOM mid-file", "a: 1\n\xEF\xBB\xBFb: 2", []string{"a1", "\xEF\xBB\xBFb2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, contents(tt.body)); diff != "" {
				t.Errorf("lines of %q (-want +got):\n%s", tt.body, diff)
			}
		})
	}
	// The BOM does not count toward the line cap.
	body := "\xEF\xBB\xBF" + "a:" + strings.Repeat("x", MaxLineBytes-2)
	if l := tokenize(body)[0]; l.Flags&LineTooLong != 0 || len(l.Value) != MaxLineBytes-2 {
		t.Errorf("BOM counted toward the line cap: too long %v, value length %d", l.Flags&LineTooLong != 0, len(l.Value))
	}
}

// robots.cc kMaxLineLen: 16,663 content bytes are kept; the rest of the line
// is dropped before comments are removed, and the line is flagged.
func TestLineCap(t *testing.T) {
	fill := func(n int) string { return "a:" + strings.Repeat("x", n-2) }
	if MaxLineBytes != 16663 {
		t.Fatalf("MaxLineBytes = %d, want 16663", MaxLineBytes)
	}
	l := tokenize(fill(16663))[0]
	if l.Flags&LineTooLong != 0 || len(l.Value) != 16661 {
		t.Errorf("16663 bytes: flagged %v, value %d bytes; want unflagged, 16661", l.Flags&LineTooLong != 0, len(l.Value))
	}
	l = tokenize(fill(16664))[0]
	if l.Flags&LineTooLong == 0 || len(l.Value) != 16661 {
		t.Errorf("16664 bytes: flagged %v, value %d bytes; want flagged, 16661", l.Flags&LineTooLong != 0, len(l.Value))
	}
	// A '#' past the cut is never seen.
	l = tokenize(fill(16663) + "#comment")[0]
	if l.Flags&LineHasComment != 0 {
		t.Error("a '#' past the cut was seen")
	}
	// The flag covers only its own line.
	lines := tokenize(fill(20000) + "\nb: 1")
	if lines[0].Flags&LineTooLong == 0 || lines[1].Flags&LineTooLong != 0 {
		t.Errorf("too-long flags %v, %v; want true, false", lines[0].Flags&LineTooLong != 0, lines[1].Flags&LineTooLong != 0)
	}
}

// robots.cc reads a line as a C string: a NUL ends its content.
func TestNULEndsLine(t *testing.T) {
	checkFirstLine(t, []firstLineTest{
		{"Disallow: /a\x00b", lineView{1, KeyDisallow, "Disallow", "/a", LineHasDirective}},
		{"User-agent\x00: x", lineView{1, KeyUnknown, "", "", 0}},
		{"\x00Disallow: /", lineView{1, KeyUnknown, "", "", LineEmpty}},
		{"Disallow: /a\x00#b", lineView{1, KeyDisallow, "Disallow", "/a", LineHasDirective}},
	})
}

// robots.cc GetKeyAndValueFrom: comment, trim, first colon or a single run of SP/HT
// between exactly two tokens, trimmed key and value. RFC 9309 section 2.2.
func TestTokenizeLine(t *testing.T) {
	const d = LineHasDirective
	checkFirstLine(t, []firstLineTest{
		{"Disallow: /x", lineView{1, KeyDisallow, "Disallow", "/x", d}},
		{"  Disallow  :   /x  ", lineView{1, KeyDisallow, "Disallow", "/x", d}},
		{"Allow:  /p q  ", lineView{1, KeyAllow, "Allow", "/p q", d}},
		{"Disallow:", lineView{1, KeyDisallow, "Disallow", "", d}},
		{"Disallow:   ", lineView{1, KeyDisallow, "Disallow", "", d}},
		{"foo:", lineView{1, KeyUnknown, "foo", "", d}},
		{": foo", lineView{1, KeyUnknown, "", "", 0}},
		{"Disallow /a:b", lineView{1, KeyDisallow, "Disallow /a", "b", d}},
		{"Sitemap: http://x/y", lineView{1, KeySitemap, "Sitemap", "http://x/y", d}},
		{"Sitemap: http://x/s.xml#frag", lineView{1, KeySitemap, "Sitemap", "http://x/s.xml", d | LineHasComment}},
		{"Disallow /x", lineView{1, KeyDisallow, "Disallow", "/x", d | LineMissingColon}},
		{"Disallow\t/x", lineView{1, KeyDisallow, "Disallow", "/x", d | LineMissingColon}},
		{"Disallow \t  /x", lineView{1, KeyDisallow, "Disallow", "/x", d | LineMissingColon}},
		{"user agent x", lineView{1, KeyUnknown, "", "", 0}},
		{"user agent: x", lineView{1, KeyUserAgent, "user agent", "x", d | LineTypo}},
		{"Disallow\v/foo", lineView{1, KeyUnknown, "", "", 0}},
		{"Disallow\v/foo bar", lineView{1, KeyDisallow, "Disallow\v/foo", "bar", d | LineMissingColon}},
		{"justoneword", lineView{1, KeyUnknown, "", "", 0}},
		{"# only a comment", lineView{1, KeyUnknown, "", "", LineHasComment | LineIsComment}},
		{"   ", lineView{1, KeyUnknown, "", "", LineEmpty}},
		{"\t\v\f ", lineView{1, KeyUnknown, "", "", LineEmpty}},
		{"Error #and comment", lineView{1, KeyUnknown, "", "", LineHasComment}},
		{"User-Agent bar # no", lineView{1, KeyUserAgent, "User-Agent", "bar", d | LineHasComment | LineMissingColon}},
		{"Disallow: /a # b", lineView{1, KeyDisallow, "Disallow", "/a", d | LineHasComment}},
		{"Disallow: /x\xA0", lineView{1, KeyDisallow, "Disallow", "/x\xA0", d}},
		{"\xA0Disallow: /x", lineView{1, KeyUnknown, "\xA0Disallow", "/x", d}},
	})
}

// robots.cc GetKeyType and its typos: ASCII case-insensitive prefixes in a fixed order,
// with Google's exact typo list. RFC 9309 section 2.2; Google's docs, "Syntax": typos are accepted.
func TestClassifyKey(t *testing.T) {
	tests := []struct {
		key  string
		kind KeyKind
		typo bool
	}{
		{"user-agent", KeyUserAgent, false},
		{"User-Agent", KeyUserAgent, false},
		{"USER-AGENT", KeyUserAgent, false},
		{"useragent", KeyUserAgent, true},
		{"user agent", KeyUserAgent, true},
		{"User-Agents", KeyUserAgent, false},
		{"user-agentfoo", KeyUserAgent, false},
		{"user_agent", KeyUnknown, false},
		{"user  agent", KeyUnknown, false},
		{"allow", KeyAllow, false},
		{"ALLOW", KeyAllow, false},
		{"Allowance", KeyAllow, false},
		{"Allowed", KeyAllow, false},
		{"disallow", KeyDisallow, false},
		{"DisAllow", KeyDisallow, false},
		{"Disallowed", KeyDisallow, false},
		{"Disallow-all", KeyDisallow, false},
		{"dissallow", KeyDisallow, true},
		{"dissalow", KeyDisallow, true},
		{"disalow", KeyDisallow, true},
		{"diasllow", KeyDisallow, true},
		{"disallaw", KeyDisallow, true},
		{"Diaslow", KeyUnknown, false},
		{"Dis-allow", KeyUnknown, false},
		{"sitemap", KeySitemap, false},
		{"Sitemaps", KeySitemap, false},
		{"sitemap_index", KeySitemap, false},
		{"site-map", KeySitemap, true},
		{"site map", KeyUnknown, false},
		{"Crawl-delay", KeyUnknown, false},
		{"host", KeyUnknown, false},
		{"user-agen", KeyUnknown, false},
		{"user-agenT", KeyUserAgent, false},
		{"user-ageNx", KeyUnknown, false},
		{"disallo", KeyUnknown, false},
		{"\u0130sallow", KeyUnknown, false}, // no Unicode folding
		{"dİsallow", KeyUnknown, false},
	}
	for _, tt := range tests {
		kind, typo := ClassifyKey(tt.key)
		if kind != tt.kind || typo != tt.typo {
			t.Errorf("ClassifyKey(%q) = %v, %v; want %v, %v", tt.key, kind, typo, tt.kind, tt.typo)
		}
	}
}

// The fused scan in tokenizer.next and the generic TokenizeLine agree on
// every line of generated and corpus files.
func TestScanMatchesTokenizeLine(t *testing.T) {
	check := func(body string) {
		lines := tokenize(body)
		var generic []lineView
		tok := NewTokenizer(body)
		for {
			rest := tok.Rest()
			var l Line
			if !tok.Next(&l) {
				break
			}
			// Recover the line's content: what next consumed, up to its terminator.
			consumed := rest[:len(rest)-len(tok.Rest())]
			consumed = strings.TrimRight(consumed, "\r\n")
			if i := strings.IndexAny(consumed, "\r\n"); i >= 0 {
				consumed = consumed[i+1:] // a swallowed LF came first
			}
			var g Line
			TokenizeLine(&g, l.Num, consumed)
			generic = append(generic, lineView{g.Num, g.Kind, g.Key, g.Value, g.Flags &^ LineMayEscape})
			// The scan flags a '%' or a byte >= 0x80 before the content's end.
			content := consumed
			if i := strings.IndexAny(content, "\x00#"); i >= 0 {
				content = content[:i]
			}
			wantEscape := strings.ContainsFunc(content, func(r rune) bool { return r == '%' || r >= 0x80 })
			if got := l.Flags&LineMayEscape != 0; got != wantEscape && len(consumed) <= MaxLineBytes {
				t.Fatalf("line %d of %q: LineMayEscape %v, want %v", l.Num, body, got, wantEscape)
			}
		}
		if diff := cmp.Diff(generic, views(lines)); diff != "" {
			t.Fatalf("scan and TokenizeLine disagree on %q (-generic +scan):\n%s", body, diff)
		}
	}
	for _, body := range []string{
		"User-agent: *\nDisallow: /a#b\n\x00x:y\r\nk v\r\rno colon here\n:\n#\n a : b : c \n",
		"Disallow: /é%aa\nAllow: /%zz # é\n",
	} {
		check(body)
	}
	// Random lines built from the bytes and words the scan treats apart.
	pieces := []string{"\n", "\r", "\r\n", "\x00", "#", ":", " ", "\t", "%", "\xC3\xA9", "\xFF", "user-agent", "Disallow", "allow", "sitemap", "/a", "*", "$", "x", "/abcdefghijklmnop", "Disallow: /abcdefgh/ijklmnop/qrstuvwx",
		// Keys right before their colon (readLine), and near misses: a
		// byte that OR-ing 0x20 would turn into the key's '-' or ':'.
		"\nDisallow:", "\nUSER-AGENT:", "\nuser-agent:", "\nSiteMap:", "\naLLow:", "\nuser\ragent:", "\nuser\rAGENT:",
		"\nallow\x1a", "\nsitemap\x1a", "\ndisallow\x1a", "\nuser-agent\x1a", "\nDisallow\x00:", "\nallow :", "\nAllowed:", "\nuser-agents:", "\nsitemaps:"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		check(randomBody(rng, pieces, 80))
	}
}

// A filtered Tokenizer returns exactly the lines of an unfiltered one whose
// first byte that is not white space is in the filter,
// with the same numbers and contents: passing over a line never changes
// how the next ones are split (CR LF pairs, the byte order mark, the last
// line).
func TestFilterKeepsLines(t *testing.T) {
	check := func(body string, set *FirstBytes) {
		var want []Line
		for _, l := range tokenize(body) {
			if firstByteIn(body, l, set) {
				want = append(want, l)
			}
		}
		tok := NewTokenizer(body)
		tok.Filter(set)
		var got []Line
		var l Line
		for tok.Next(&l) {
			got = append(got, l)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("filtered lines of %q differ (-want +got):\n%s", body, diff)
		}
	}
	pieces := []string{"\n", "\r", "\r\n", "\x00", "#", ":", " ", "\t", "\v", "%", "\xFF", "user-agent", "User-Agent: x", "Disallow: /a", "allow", "sitemap", "Sitemap: /s", "/a", "*", "x", "crawl-delay: 1", "\xEF\xBB\xBF", "u", "d", "a"}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 3000; i++ {
		body := randomBody(rng, pieces, 60)
		check(body, MatcherLines)
		check(body, AgentLines)
	}
}

// firstByteIn reports whether line l of body (as tokenize returned it)
// is one a Tokenizer filtered by set returns: its content starts, once
// leading white space is removed, with a byte of set. The content is
// found again by splitting body the way Google does.
func firstByteIn(body string, l Line, set *FirstBytes) bool {
	tok := NewTokenizer(body) // drops the byte order mark
	s := strings.TrimLeft(splitLines(tok.Rest())[l.Num-1], " \t\v\f")
	return s != "" && set.Has(s[0])
}

// splitLines splits body at CR, LF and CR LF, as Google's parser does.
func splitLines(body string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(body); i++ {
		if c := body[i]; c == '\n' || c == '\r' {
			lines = append(lines, body[start:i])
			if c == '\r' && i+1 < len(body) && body[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(lines, body[start:])
}

// PlainDisallow reports only lines that the tokenizer reads as disallow
// directives, and finds their value where the tokenizer does.
func TestPlainDisallow(t *testing.T) {
	tests := []struct {
		line   string
		ok     bool
		offset int
	}{
		{"Disallow: /a", true, 10},
		{"Disallow: /abcdefgh\n", true, 10}, // the usual shape, read by one word
		{"DISALLOW: /abcdefgh\r\n", true, 10},
		{"Disallow:  /abcdefgh\n", true, 11}, // two spaces
		{"Disallow:\t/abcdefgh\n", true, 10},
		{"Disallow: \v/abcdefgh\n", true, 11},
		{"Disallow: #/abcdefgh\n", true, 10}, // a comment: an empty value
		{"Disallow: \n/abcdefgh", true, 10},  // an empty value, the line's end
		{"Disallow-: /abcdefgh\n", false, 0},
		{"disallow:/a", true, 9},
		{" \tDISALLOW \t: \t/a b", true, 15},
		{"disallow:", true, 9},
		{"Disallow /a", false, 0},    // missing colon: read, but not plain
		{"Disallowed: /a", false, 0}, // a disallow key, but not plain
		{"Disalow: /a", false, 0},
		{"Allow: /a", false, 0},
		{"# Disallow: /a", false, 0},
		{"\nDisallow: /a", false, 0},
		{"Disallow", false, 0},
	}
	for _, tt := range tests {
		tok := NewTokenizer(tt.line)
		rest, offset, ok := tok.PlainDisallow()
		if ok != tt.ok || offset != tt.offset {
			t.Errorf("PlainDisallow(%q) = offset %d, %v; want %d, %v", tt.line, offset, ok, tt.offset, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		var l Line
		tok.Next(&l)
		if l.Kind != KeyDisallow || !strings.HasPrefix(rest, l.Value) {
			t.Errorf("PlainDisallow(%q): value starts %q; the tokenizer reads kind %d value %q", tt.line, rest, l.Kind, l.Value)
		}
	}
}

// PlainAllow reports only lines that the tokenizer reads as allow
// directives, of the one shape "allow: " and a value, and finds their
// value where the tokenizer does.
func TestPlainAllow(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
	}{
		{"Allow: /abcdefghij\n", true},
		{"ALLOW: /abcdefghij\r\n", true},
		{"allow: *abcdefghij", true},
		{"Allow: /a\n", false},           // fewer than 16 bytes left
		{"Allow:  /abcdefghij\n", false}, // two spaces: read, but not plain
		{"Allow:\t/abcdefghij\n", false},
		{"Allow:/abcdefghij\n", false},
		{"Allow: #/abcdefghij\n", true}, // as PlainDisallow, the caller reads the value
		{"Allow- /abcdefghijk\n", false},
		{"Allov: /abcdefghij\n", false},
		{"Alloww: /abcdefghij\n", false},
		{" Allow: /abcdefghij\n", false},
		{"Disallow: /abcdefghij\n", false},
		{"Allow: \n/abcdefghij\n", false},
		{"@LLOW: /abcdefghij\n", false}, // '@' | 0x20 is '`', not 'a'
	}
	for _, tt := range tests {
		tok := NewTokenizer(tt.line)
		rest, offset, ok := tok.PlainAllow()
		if ok != tt.ok {
			t.Errorf("PlainAllow(%q) = %v; want %v", tt.line, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		var l Line
		tok.Next(&l)
		if l.Kind != KeyAllow || offset != 7 || !strings.HasPrefix(rest, l.Value) {
			t.Errorf("PlainAllow(%q): value at %d starts %q; the tokenizer reads kind %d value %q", tt.line, offset, rest, l.Kind, l.Value)
		}
	}
}

// DisallowAt reports exactly the lines PlainDisallow reads at offset 10
// that are "disallow" in any case, ": " and a value whose first byte is
// above ' ', with 16 bytes or more left; a Grouper's RuleRun and PassRules pass over such lines as
// PassRuleTo does, counting them.
func TestDisallowAtAndPassRules(t *testing.T) {
	lines := []string{
		"Disallow: /abcdefgh\n", "disallow: /*xyz\nallow: /a\n", "DISALLOW: /abcde\r\n", "Disallow:  /abcdefgh\n",
		"Disallow:\t/abcdefgh\n", "Disallow-: /abcdefgh\n", "Disallow: \n/abcdefgh\n", "Disallow: /a\n", "Disallow: /abcdef",
		"Disallow /abcdefgh\n", "Disallow:: /abcdefgh\n", "Disallow: \x00abcdefgh\n", " Disallow: /abcdefgh\n",
	}
	for _, line := range lines {
		body := "x\n" + line // DisallowAt reads from where a line starts
		tok := NewTokenizer(body)
		tok.PassLine()
		_, offset, plain := tok.PlainDisallow()
		want := plain && offset == 10 && len(line) >= 16 && line[8:10] == ": " && line[10] > ' '
		if got := DisallowAt(body, 2); got != want {
			t.Errorf("DisallowAt(%q) = %v; PlainDisallow: offset %d, %v", line, got, offset, plain)
		}
	}
	body := "user-agent: *\ndisallow: /*abcd\nDisallow: /*efgh\nallow: /x\n"
	g := NewGrouper(body)
	var l Grouped
	g.Next(&l) // the user-agent line opens a group
	b, pos, ok := g.RuleRun()
	if !ok || b != body || pos != len("user-agent: *\n") {
		t.Fatalf("RuleRun = %d, %v; want %d, true", pos, ok, len("user-agent: *\n"))
	}
	end := strings.Index(body, "allow: /x")
	g.PassRules(end, 2)
	if g.Lines() != 3 || !g.Next(&l) || l.Num != 4 || l.Kind != KeyAllow || !l.GroupHasRules {
		t.Fatalf("after PassRules: %d lines, next line %d kind %d, group has rules %v; want 3, 4, allow, true", g.Lines(), l.Num, l.Kind, l.GroupHasRules)
	}
	if fresh := NewGrouper(body); func() bool { _, _, ok := fresh.RuleRun(); return ok }() {
		t.Error("RuleRun before any group reported ok")
	}
}

// Whatever ends a line (LF, CR or CR LF) and however it was read (Next,
// an empty line, PassLineTo), the next line starts where PlainDisallow and
// NextByte look: a file of CR LF pairs takes the shortcut on every
// disallow line, as a file of LFs does. (The LF of a pair was once left
// for the next call, and no CR LF file took the shortcut.)
func TestNextLineStartsAfterLineEnd(t *testing.T) {
	for _, eol := range []string{"\n", "\r", "\r\n"} {
		body := strings.Join([]string{"User-agent: *", "", "Disallow: /a", "Disallow: /b", "Allow: /c", "Disallow: /d"}, eol) + eol
		tok := NewTokenizer(body)
		var l Line
		var got []string
		for {
			if tok.NextByte() == 'D' {
				rest, offset, ok := tok.PlainDisallow()
				if !ok {
					t.Fatalf("%q: PlainDisallow refuses %.20q", eol, rest)
				}
				end := strings.IndexAny(rest, "\r\n")
				got = append(got, "passed "+rest[:end])
				tok.PassLineTo(offset + end)
				continue
			}
			if !tok.Next(&l) {
				break
			}
			got = append(got, fmt.Sprintf("%d %q", l.Num, l.Value))
		}
		want := []string{`1 "*"`, `2 ""`, "passed /a", "passed /b", `5 "/c"`, "passed /d", `7 ""`}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("lines ended by %q (-want +got):\n%s", eol, diff)
		}
	}
}

// Passing over the lines PlainDisallow reports leaves every other line,
// its number and its role as a Grouper without the shortcut gives them.
func TestPassRuleKeepsGroups(t *testing.T) {
	type view struct {
		Num      int
		Role     Role
		NewGroup bool
		Group    int
		Value    string
	}
	pieces := []string{"\n", "\r\n", "\r", "user-agent: a\n", "User-Agent: b\r\n", "disallow: /x\n", "Disallow:/y\r", " DISALLOW : /z", "allow: /w\n", "sitemap: /s\n", "# c\n", "disallow /q\n", "x"}
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 2000; i++ {
		body := randomBody(rng, pieces, 30)
		var want []view
		var passed []int // numbers of the lines passed over
		gr := NewGrouper(body)
		var l Grouped
		for gr.Next(&l) {
			want = append(want, view{l.Num, l.Role, l.NewGroup, l.Group, l.Value})
		}
		var got []view
		gr = NewGrouper(body)
		lines := 0
		for {
			if rest, offset, ok := gr.PlainDisallow(); ok && rng.IntN(2) == 0 {
				if rng.IntN(2) == 0 {
					gr.PassRule()
				} else {
					// PassRuleTo, told where the line ends.
					end := len(rest)
					if i := strings.IndexAny(rest, "\r\n"); i >= 0 {
						end = i
					}
					gr.PassRuleTo(offset + end)
				}
				lines++
				passed = append(passed, lines)
				continue
			}
			if !gr.Next(&l) {
				break
			}
			lines = l.Num
			got = append(got, view{l.Num, l.Role, l.NewGroup, l.Group, l.Value})
		}
		// The lines passed over are rule lines in want; drop them.
		var kept []view
		for _, w := range want {
			if slices.Contains(passed, w.Num) {
				if w.Role != RoleRule {
					t.Fatalf("%q: line %d passed over as a rule is %v", body, w.Num, w.Role)
				}
				continue
			}
			kept = append(kept, w)
		}
		if diff := cmp.Diff(kept, got); diff != "" {
			t.Fatalf("%q: lines differ after passing over rules (-want +got):\n%s", body, diff)
		}
	}
}

// Lines end where Google's parser ends them (splitLines) however the
// reader mixes Next, filters and passed-over disallow lines, in bodies
// where one of CR and LF is missing for long stretches: the tokenizer
// remembers where the next CR and LF are, and must never use a stale
// position (robots.cc RobotsTxtParser::Parse, line ends, RFC 9309 section 2.2).
func TestLineEndsInAnyOrder(t *testing.T) {
	pieces := []string{"\r", "\r", "\n", "\r\n", "#c", "\x00z", "disallow: /x", " Disallow : /y#c", "user-agent: a", "sitemap: /s", "allow: /w", "x", "   ", "\v", ":",
		"Disallow:/abcdefghijk", "User-Agent:Googlebot-News", "ALLOW:/x%41\xC3\xA9/abcdef", "Sitemap:https://example.com/s.xml", "user\ragent:abcdefghij"}
	filters := []*FirstBytes{nil, MatcherLines, AgentLines}
	rng := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 5000; i++ {
		// Long runs of one line end, then the other.
		var b strings.Builder
		for j := rng.IntN(50); j > 0; j-- {
			p := pieces[rng.IntN(len(pieces))]
			if rng.IntN(3) == 0 {
				p = strings.Repeat(p, 1+rng.IntN(8))
			}
			b.WriteString(p)
		}
		body := b.String()
		tok := NewTokenizer(body)
		var ref []lineView
		for num, content := range splitLines(tok.Rest()) {
			var l Line
			TokenizeLine(&l, num+1, content)
			ref = append(ref, views([]Line{l})[0])
		}
		if diff := cmp.Diff(ref, views(tokenize(body))); diff != "" {
			t.Fatalf("lines of %q (-Google's split +tokenizer):\n%s", body, diff)
		}
		last := 0
		var l Line
		for {
			switch rng.IntN(4) {
			case 0:
				tok.Filter(filters[rng.IntN(len(filters))])
			case 1:
				if _, _, ok := tok.PlainDisallow(); ok {
					tok.PassLine()
					last++
					if r := ref[last-1]; r.Kind != KeyDisallow {
						t.Fatalf("%q: line %d passed over as a disallow line is %+v", body, last, r)
					}
				}
				continue
			}
			if !tok.Next(&l) {
				break
			}
			if l.Num <= last || l.Num > len(ref) {
				t.Fatalf("%q: line %d after line %d of %d", body, l.Num, last, len(ref))
			}
			last = l.Num
			if diff := cmp.Diff(ref[l.Num-1], views([]Line{l})[0]); diff != "" {
				t.Fatalf("%q: line %d (-Google's split +tokenizer):\n%s", body, l.Num, diff)
			}
		}
	}
}

// The tokenizer, with and without filters, with strings or by spans
// (ReadSpans), reads every line as Google's line split (splitLines) and
// TokenizeLine do, on random bodies mixing the
// bytes and words its fast paths treat apart: line ends, NUL, the byte
// order mark, white space, '%' and non-ASCII bytes, the keys right before
// their colon and the misspellings Google accepts, and lines just below,
// at and above Google's length limit (robots.cc RobotsTxtParser::Parse;
// RFC 9309 section 2.2).
func TestTokenizerMatchesLineByLine(t *testing.T) {
	long := strings.Repeat("/abcdefg", MaxLineBytes/8)
	pieces := []string{"\n", "\r", "\r\n", "\x00", "\xEF\xBB\xBF", "\xEF\xBB", " ", "\t", "\v", "\f", "  \t ", "#", "#c\n", ":", "%", "%2F", "\xC3\xA9", "\x80",
		"User-agent:", "user-agent: Googlebot", "useragent: a", "user agent: b", "USER-AGENT:*", "user\ragent:x",
		"Disallow:", "disallow: /p", "dissallow: /q", "dissalow: /r", "disalow: /s", "diasllow: /t", "disallaw: /u", "Disallow /v",
		"Allow:", "allow: /w", "Sitemap:", "sitemap: https://e/s", "site-map: /m", "crawl-delay: 2",
		"/abcdefghijklmnop", "*", "$", "x y", long[:MaxLineBytes-12], long[:MaxLineBytes-7]}
	filters := []*FirstBytes{nil, MatcherLines, AgentLines}
	rng := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 3000; i++ {
		body := randomBody(rng, pieces, 40)
		tok := NewTokenizer(body)
		var ref []lineView
		for num, content := range splitLines(tok.Rest()) {
			var l Line
			TokenizeLine(&l, num+1, content)
			ref = append(ref, views([]Line{l})[0])
		}
		for _, f := range filters {
			var want []lineView
			for _, r := range ref {
				if f == nil || firstByteIn(body, Line{Num: r.Num}, f) {
					want = append(want, r)
				}
			}
			// Read with strings, then by spans: both give the lines of
			// Google's split, and each line's spans are where its key and
			// value are in the body.
			for _, spans := range []bool{false, true} {
				tok := NewTokenizer(body)
				tok.Filter(f)
				if spans {
					tok.ReadSpans()
				}
				var l Line
				var got []lineView
				for tok.Next(&l) {
					key, value := l.KeyAt.In(body), l.ValueAt.In(body)
					if spans {
						if l.Key != "" || l.Value != "" {
							t.Fatalf("%.200q: line %d read by spans has strings %q, %q", body, l.Num, l.Key, l.Value)
						}
					} else if key != l.Key || value != l.Value {
						t.Fatalf("%.200q: line %d: spans give %q, %q; strings %q, %q", body, l.Num, key, value, l.Key, l.Value)
					}
					v := l
					v.Key, v.Value = key, value
					got = append(got, views([]Line{v})[0])
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("lines of %.200q, spans %v (-Google's split +tokenizer):\n%s", body, spans, diff)
				}
			}
		}
	}
}

// The key words the tokenizer compares are the spellings' bytes.
func TestKeyWords(t *testing.T) {
	for _, tt := range []struct {
		word     uint64
		spelling string
	}{
		{wordDisallow, "disallow"},
		{wordUserAge, "user-age"},
		{wordSitemapColon, "sitemap:"},
		{wordAllowColon, "allow:\x00\x00"},
	} {
		if got := swar.Load64(tt.spelling, 0); got != tt.word {
			t.Errorf("word of %q is %#x, the constant %#x", tt.spelling, got, tt.word)
		}
	}
}

// randomBody joins up to max-1 pieces drawn at random: a file of the
// shapes a test cares about.
func randomBody(rng *rand.Rand, pieces []string, max int) string {
	var b strings.Builder
	for j := rng.IntN(max); j > 0; j-- {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}
