package robotstxt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tokenize returns every line the tokenizer emits for body.
func tokenize(body string) []line {
	var out []line
	tok := newTokenizer(body)
	var l line
	for tok.next(&l) {
		out = append(out, l)
	}
	return out
}

// A lineView is the part of a line a test states: number, key, value and
// flags.
type lineView struct {
	Num   int
	Kind  keyKind
	Key   string
	Value string
	Flags lineFlags
}

func views(lines []line) []lineView {
	out := make([]lineView, len(lines))
	for i, l := range lines {
		out[i] = lineView{l.num, l.kind, l.key, l.value, l.flags &^ lineMayEscape} // the hint is not Google metadata
	}
	return out
}

// contents returns the values of the directive lines and "" for the others,
// one per emitted line: enough to see where lines break.
func contents(body string) []string {
	var out []string
	for _, l := range tokenize(body) {
		out = append(out, l.key+l.value)
	}
	return out
}

// GOOGLE-BEHAVIOR 1.3: only CR and LF end lines; a LF right after the CR
// that ended an empty-so-far line is swallowed; the last line is always
// emitted. SPEC 3.1.
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

// GOOGLE-BEHAVIOR 1.3 and robots_test ID_LinesNumbersAreCountedCorrectly:
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
			if l.flags&lineHasDirective != 0 {
				directives++
				last = l.num
			}
		}
		if directives != 4 || last != 6 {
			t.Errorf("%s: %d directives, last on line %d; want 4 and 6", name, directives, last)
		}
	}
}

// GOOGLE-BEHAVIOR 1.2: a leading BOM, or any prefix of one, is dropped;
// after the first mismatch BOM bytes are ordinary. SPEC 3.3.
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
	body := "\xEF\xBB\xBF" + "a:" + strings.Repeat("x", maxLineBytes-2)
	if l := tokenize(body)[0]; l.flags&lineTooLong != 0 || len(l.value) != maxLineBytes-2 {
		t.Errorf("BOM counted toward the line cap: too long %v, value length %d", l.flags&lineTooLong != 0, len(l.value))
	}
}

// GOOGLE-BEHAVIOR 1.4: 16,663 content bytes are kept; the rest of the line
// is dropped before comments are removed, and the line is flagged.
func TestLineCap(t *testing.T) {
	fill := func(n int) string { return "a:" + strings.Repeat("x", n-2) }
	if maxLineBytes != 16663 {
		t.Fatalf("maxLineBytes = %d, want 16663", maxLineBytes)
	}
	l := tokenize(fill(16663))[0]
	if l.flags&lineTooLong != 0 || len(l.value) != 16661 {
		t.Errorf("16663 bytes: flagged %v, value %d bytes; want unflagged, 16661", l.flags&lineTooLong != 0, len(l.value))
	}
	l = tokenize(fill(16664))[0]
	if l.flags&lineTooLong == 0 || len(l.value) != 16661 {
		t.Errorf("16664 bytes: flagged %v, value %d bytes; want flagged, 16661", l.flags&lineTooLong != 0, len(l.value))
	}
	// A '#' past the cut is never seen.
	l = tokenize(fill(16663) + "#comment")[0]
	if l.flags&lineHasComment != 0 {
		t.Error("a '#' past the cut was seen")
	}
	// The flag covers only its own line.
	lines := tokenize(fill(20000) + "\nb: 1")
	if lines[0].flags&lineTooLong == 0 || lines[1].flags&lineTooLong != 0 {
		t.Errorf("too-long flags %v, %v; want true, false", lines[0].flags&lineTooLong != 0, lines[1].flags&lineTooLong != 0)
	}
}

// GOOGLE-BEHAVIOR 1.5: a NUL ends a line's content.
func TestNULEndsLine(t *testing.T) {
	tests := []struct {
		body string
		want lineView
	}{
		{"Disallow: /a\x00b", lineView{1, keyDisallow, "Disallow", "/a", lineHasDirective}},
		{"User-agent\x00: x", lineView{1, keyUnknown, "", "", 0}},
		{"\x00Disallow: /", lineView{1, keyUnknown, "", "", lineEmpty}},
		{"Disallow: /a\x00#b", lineView{1, keyDisallow, "Disallow", "/a", lineHasDirective}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, views(tokenize(tt.body))[0]); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.body, diff)
		}
	}
}

// GOOGLE-BEHAVIOR 1.6: comment, trim, first colon or a single run of SP/HT
// between exactly two tokens, trimmed key and value. SPEC 3.4.
func TestTokenizeLine(t *testing.T) {
	const d = lineHasDirective
	tests := []struct {
		body string
		want lineView
	}{
		{"Disallow: /x", lineView{1, keyDisallow, "Disallow", "/x", d}},
		{"  Disallow  :   /x  ", lineView{1, keyDisallow, "Disallow", "/x", d}},
		{"Allow:  /p q  ", lineView{1, keyAllow, "Allow", "/p q", d}},
		{"Disallow:", lineView{1, keyDisallow, "Disallow", "", d}},
		{"Disallow:   ", lineView{1, keyDisallow, "Disallow", "", d}},
		{"foo:", lineView{1, keyUnknown, "foo", "", d}},
		{": foo", lineView{1, keyUnknown, "", "", 0}},
		{"Disallow /a:b", lineView{1, keyDisallow, "Disallow /a", "b", d}},
		{"Sitemap: http://x/y", lineView{1, keySitemap, "Sitemap", "http://x/y", d}},
		{"Sitemap: http://x/s.xml#frag", lineView{1, keySitemap, "Sitemap", "http://x/s.xml", d | lineHasComment}},
		{"Disallow /x", lineView{1, keyDisallow, "Disallow", "/x", d | lineMissingColon}},
		{"Disallow\t/x", lineView{1, keyDisallow, "Disallow", "/x", d | lineMissingColon}},
		{"Disallow \t  /x", lineView{1, keyDisallow, "Disallow", "/x", d | lineMissingColon}},
		{"user agent x", lineView{1, keyUnknown, "", "", 0}},
		{"user agent: x", lineView{1, keyUserAgent, "user agent", "x", d | lineTypo}},
		{"Disallow\v/foo", lineView{1, keyUnknown, "", "", 0}},
		{"Disallow\v/foo bar", lineView{1, keyDisallow, "Disallow\v/foo", "bar", d | lineMissingColon}},
		{"justoneword", lineView{1, keyUnknown, "", "", 0}},
		{"# only a comment", lineView{1, keyUnknown, "", "", lineHasComment | lineIsComment}},
		{"   ", lineView{1, keyUnknown, "", "", lineEmpty}},
		{"\t\v\f ", lineView{1, keyUnknown, "", "", lineEmpty}},
		{"Error #and comment", lineView{1, keyUnknown, "", "", lineHasComment}},
		{"User-Agent bar # no", lineView{1, keyUserAgent, "User-Agent", "bar", d | lineHasComment | lineMissingColon}},
		{"Disallow: /a # b", lineView{1, keyDisallow, "Disallow", "/a", d | lineHasComment}},
		{"Disallow: /x\xA0", lineView{1, keyDisallow, "Disallow", "/x\xA0", d}},
		{"\xA0Disallow: /x", lineView{1, keyUnknown, "\xA0Disallow", "/x", d}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, views(tokenize(tt.body))[0]); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.body, diff)
		}
	}
}

// GOOGLE-BEHAVIOR 1.7: ASCII case-insensitive prefixes in a fixed order,
// with Google's exact typo list. SPEC 3.5, 3.6.
func TestClassifyKey(t *testing.T) {
	tests := []struct {
		key  string
		kind keyKind
		typo bool
	}{
		{"user-agent", keyUserAgent, false},
		{"User-Agent", keyUserAgent, false},
		{"USER-AGENT", keyUserAgent, false},
		{"useragent", keyUserAgent, true},
		{"user agent", keyUserAgent, true},
		{"User-Agents", keyUserAgent, false},
		{"user-agentfoo", keyUserAgent, false},
		{"user_agent", keyUnknown, false},
		{"user  agent", keyUnknown, false},
		{"allow", keyAllow, false},
		{"ALLOW", keyAllow, false},
		{"Allowance", keyAllow, false},
		{"Allowed", keyAllow, false},
		{"disallow", keyDisallow, false},
		{"DisAllow", keyDisallow, false},
		{"Disallowed", keyDisallow, false},
		{"Disallow-all", keyDisallow, false},
		{"dissallow", keyDisallow, true},
		{"dissalow", keyDisallow, true},
		{"disalow", keyDisallow, true},
		{"diasllow", keyDisallow, true},
		{"disallaw", keyDisallow, true},
		{"Diaslow", keyUnknown, false},
		{"Dis-allow", keyUnknown, false},
		{"sitemap", keySitemap, false},
		{"Sitemaps", keySitemap, false},
		{"sitemap_index", keySitemap, false},
		{"site-map", keySitemap, true},
		{"site map", keyUnknown, false},
		{"Crawl-delay", keyUnknown, false},
		{"host", keyUnknown, false},
		{"\u0130sallow", keyUnknown, false}, // no Unicode folding
		{"dİsallow", keyUnknown, false},
	}
	for _, tt := range tests {
		kind, typo := classifyKey(tt.key)
		if kind != tt.kind || typo != tt.typo {
			t.Errorf("classifyKey(%q) = %v, %v; want %v, %v", tt.key, kind, typo, tt.kind, tt.typo)
		}
	}
}

// GOOGLE-BEHAVIOR 1.8: rule values are brought to wire form; user-agent and
// sitemap values are not. SPEC 6.4.
func TestEscapePattern(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/a/b?c=d", "/a/b?c=d"},
		{"á", "%C3%A1"},
		{"%aa", "%AA"},
		{"/%aa%2f%zz%a\xC3\xA9%", "/%AA%2F%zz%a%C3%A9%"},
		{"caf\xC3\xA9 %e3", "caf%C3%A9 %E3"},
		{"/%", "/%"},
		{"/%a", "/%a"},
		{"/%%41", "/%%41"},
		{"/%%6a", "/%%6A"},
		{"/\xff\x80", "/%FF%80"},
		{"/*$\"<>", "/*$\"<>"},
	}
	for _, tt := range tests {
		if got := escapePattern(tt.in); got != tt.want {
			t.Errorf("escapePattern(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRawValuesForAgentAndSitemap(t *testing.T) {
	r := Parse([]byte("Sitemap: http://x/caf\xC3\xA9%aa.xml\nUser-agent: *\nDisallow: /\n"))
	if diff := cmp.Diff([]string{"http://x/caf\xC3\xA9%aa.xml"}, r.Sitemaps()); diff != "" {
		t.Errorf("sitemap not raw (-want +got):\n%s", diff)
	}
}

// The fused scan in tokenizer.next and the generic tokenizeLine agree on
// every line of generated and corpus files.
func TestScanMatchesTokenizeLine(t *testing.T) {
	check := func(body string) {
		lines := tokenize(body)
		var generic []lineView
		tok := newTokenizer(body)
		for {
			rest := tok.rest
			var l line
			if !tok.next(&l) {
				break
			}
			// Recover the line's content: what next consumed, up to its terminator.
			consumed := rest[:len(rest)-len(tok.rest)]
			consumed = strings.TrimRight(consumed, "\r\n")
			if i := strings.IndexAny(consumed, "\r\n"); i >= 0 {
				consumed = consumed[i+1:] // a swallowed LF came first
			}
			var g line
			tokenizeLine(&g, l.num, consumed)
			generic = append(generic, lineView{g.num, g.kind, g.key, g.value, g.flags &^ lineMayEscape})
		}
		if diff := cmp.Diff(generic, views(lines)); diff != "" {
			t.Fatalf("scan and tokenizeLine disagree on %q (-generic +scan):\n%s", body, diff)
		}
	}
	for _, body := range []string{
		"User-agent: *\nDisallow: /a#b\n\x00x:y\r\nk v\r\rno colon here\n:\n#\n a : b : c \n",
		"Disallow: /é%aa\nAllow: /%zz # é\n",
	} {
		check(body)
	}
	c := &chooser{}
	for i := 0; i < 500; i++ {
		src := make([]byte, 512)
		for j := range src {
			src[j] = byte(i*31 + j*7 + j*j)
		}
		c.src = src
		check(string(genRobots(c)))
	}
}
