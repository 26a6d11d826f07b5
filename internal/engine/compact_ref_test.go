package engine

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// Pieces of rules and paths as written: escapes in both cases, raw bytes
// >= 0x80, hex digits, wildcards.
var escapePieces = []string{"/", "/", "%", "%C3", "%c3", "%A9", "%a9", "\xc3\xa9", "\xff", "%FF",
	"F", "8", "A", "0", "a", "C3", "*", "*", "$", "%8", "%F", "%4", "%41", "x", "\xe6\x97\xa5"}

func genEscapePattern(c *reference.Chooser) string {
	var b strings.Builder
	b.WriteByte('/')
	for n := c.Pick(7); n > 0; n-- {
		b.WriteString(c.From(escapePieces))
	}
	if c.Pick(40) == 0 {
		b.WriteString(strings.Repeat("\xc3\xa9", smallWire/3)) // expanded past the stack buffer
	}
	return b.String()
}

// genEscapeRobots returns a file of escape-heavy rules, sometimes enough
// of them for an index.
func genEscapeRobots(c *reference.Chooser) []byte {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	rules := 1 + c.Pick(12)
	if c.Pick(2) == 0 {
		rules = indexMinRules + c.Pick(40)
	}
	for range rules {
		b.WriteString([]string{"allow: ", "disallow: "}[c.Pick(2)])
		b.WriteString(genEscapePattern(c))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// Files of rules kept in compact form answer as the reference model (which
// matches in wire form) on escape-heavy patterns and paths, scanned and
// through the index, and so does the stream.
func TestCompactAgainstReference(t *testing.T) {
	compact, indexed := 0, 0
	reference.EachChooser(11, raceShare(6000), 512, func(i int, c *reference.Chooser) {
		body := genEscapeRobots(c)
		ref, r := reference.New(body), load(body)
		rs, _ := r.Rules("bot")
		for j := range rs.compiled {
			if rs.compiled[j].info&ruleCompact != 0 {
				compact++
			}
		}
		if rs.index != nil && i%2 == 0 {
			rs.index.get() // the index answers from the first query
			indexed++
		}
		for range 16 {
			url := "http://example.com" + genEscapePattern(c)
			compareWithReference(t, body, ref, r, "bot", url)
			streamVerdictTwin(t, body, r, "bot", url)
		}
	})
	if compact < raceShare(1000) || indexed < raceShare(100) {
		t.Errorf("%d rules in compact form, %d indexed files; the generator should make more", compact, indexed)
	}
}

// The same files and paths answer as Google's library does.
func TestOracleCompact(t *testing.T) {
	oracle := os.Getenv(reference.OracleEnv)
	if oracle == "" {
		t.Skipf("set %s to the oracle binary to compare with Google's library", reference.OracleEnv)
	}
	n := 0
	reference.EachChooser(13, 400, 512, func(i int, c *reference.Chooser) {
		body := genEscapeRobots(c)
		qs := make([]reference.Query, 24)
		for j := range qs {
			qs[j] = reference.Query{Agent: "bot", URL: "http://example.com" + genEscapePattern(c)}
		}
		n += compareWithOracle(t, "escape-heavy file", oracle, body, qs)
	})
	t.Logf("%d queries agree with Google's library", n)
}

// A rule is kept in compact form when that keeps fewer bytes, and still
// reports its pattern as written: kept once when it is the compact form,
// and before its length otherwise (a length of more than one byte
// included). Its priority is its length in wire form.
func TestCompactAsWritten(t *testing.T) {
	// 601 bytes as written, and as many in wire form ("%C3%A9"); 201 in
	// compact form.
	long := "/" + strings.Repeat("%c3%a9", 100)
	body := "user-agent: *\n" +
		"disallow: /caf\xc3\xa9\n" + // compact: as written
		"disallow: /%C3%A9t%c3%a9\n" + // compact, after the pattern as written
		"allow: " + long + "\n" + // compact, after the pattern as written
		"allow: /\xc3\xa9/index.html\n" + // compact, and so is the derived "/é/$"
		"disallow: /%2f%e9\n" + // one escape to decode: wire form is as short
		"disallow: /%C3%A9x\n" + // in wire form as written: kept so
		"allow: /\xc3\xa9\n" // shorter than line 7 in wire form, by one byte
	r := load([]byte(body))
	got := r.Groups()[0].Rules
	want := []Rule{
		{Allow: false, Pattern: "/caf\xc3\xa9", Line: 2},
		{Allow: false, Pattern: "/%C3%A9t%c3%a9", Line: 3},
		{Allow: true, Pattern: long, Line: 4},
		{Allow: true, Pattern: "/\xc3\xa9/index.html", Line: 5},
		{Allow: false, Pattern: "/%2f%e9", Line: 6},
		{Allow: false, Pattern: "/%C3%A9x", Line: 7},
		{Allow: true, Pattern: "/\xc3\xa9", Line: 8},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	rs, _ := r.Rules("bot")
	var forms []int
	for _, c := range rs.compiled {
		if c.info&ruleCompact != 0 {
			forms = append(forms, c.asWritten(rs.text, rs.compiled, rs.counted).Line)
		}
	}
	slices.Sort(forms)
	if diff := cmp.Diff([]int{2, 3, 4, 5, 5, 8}, forms); diff != "" {
		t.Errorf("lines of the rules in compact form (-want +got):\n%s", diff)
	}
	for _, q := range []struct {
		url  string
		line int
	}{
		{"/caf%C3%A9", 2},
		{"/café/x", 2},
		{"/ét%C3%A9", 3},
		{"/" + strings.Repeat("é", 100), 4},
		{"/é/", 5}, // the directory Google derives from an index.html allow
		{"/%2F%E9", 6},
		{"/%2f%e9", 6},
		{"/éx", 7}, // "/%C3%A9x" is longer than "/%C3%A9"
		{"/éy", 8},
	} {
		for range 1 + fileOrderScans + 1 { // in file order, then sorted
			if v := r.Explain("bot", "http://example.com"+q.url); v.Rule.Line != q.line {
				t.Errorf("Explain(%q) decided by line %d, want %d", q.url, v.Rule.Line, q.line)
			}
		}
	}
}

// FuzzCompact runs escape-heavy files and paths, chosen by the fuzzer,
// against the reference model, through the index too.
func FuzzCompact(f *testing.F) {
	f.Add([]byte("\x05\x03\x07\x01\x02\x09"))
	f.Add([]byte("\x01\x00\x28\x10\x0b\x12\x13\x14\x15\x16"))
	f.Fuzz(func(t *testing.T, src []byte) {
		c := reference.NewChooser(src)
		body := genEscapeRobots(c)
		ref, r := reference.New(body), load(body)
		if rs, _ := r.Rules("bot"); rs.index != nil && c.Pick(2) == 0 {
			rs.index.get()
		}
		for range 4 {
			compareWithReference(t, body, ref, r, "bot", "http://example.com"+genEscapePattern(c))
		}
	})
}
