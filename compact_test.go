package robotstxt

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Pieces of wire-form patterns and paths around escapes: hex digits, '%',
// escapes of bytes below and above 0x80, wildcards.
var wirePieces = []string{"/", "%", "%C3", "%A9", "%FF", "%80", "%7F", "%41", "%2F", "F", "8", "A", "0", "a", "C3", "*", "$", "%8", "%F", "x", "\x7f"}

// The compact form is the wire form with each escape of a byte >= 0x80
// written as that byte, and back; compareWire, commonWirePrefix and
// hasWirePrefix read the wire form of a compact pattern as the plain
// string functions read the expanded form.
func TestCompactForm(t *testing.T) {
	eachChooser(7, 30000, 40, func(_ int, c *chooser) {
		var b strings.Builder
		for n := c.pick(10); n > 0; n-- {
			b.WriteString(c.from(wirePieces))
		}
		wire := b.String()
		buf := []byte(wire)
		compact := string(buf[:compactInPlace(buf)])
		if got := string(appendWire(nil, compact)); got != wire {
			t.Fatalf("wire form of the compact form of %q = %q", wire, got)
		}
		if got, want := highEscapes(wire), (len(wire)-len(compact))/2; got != want || highBytes(compact) != want {
			t.Fatalf("%q: highEscapes = %d, highBytes of its compact form %d, want %d", wire, got, highBytes(compact), want)
		}
		b.Reset()
		for n := c.pick(10); n > 0; n-- {
			b.WriteString(c.from(wirePieces))
		}
		path := b.String()
		if c.pick(2) == 0 {
			path = wire[:c.pick(len(wire)+1)] + path // share a prefix
		}
		// A prefix of the pattern, cut between bytes of the compact form.
		cut := c.pick(len(compact) + 1)
		n := len(appendWire(nil, compact[:cut]))
		if got, want := compareWire(compact, n, path), strings.Compare(wire[:n], path); got != want {
			t.Fatalf("compareWire(%q, %d, %q) = %d, want %d", compact, n, path, got, want)
		}
		if got, want := commonWirePrefix(compact, n, path), commonPrefixLen(wire[:n], path); got != want {
			t.Fatalf("commonWirePrefix(%q, %d, %q) = %d, want %d", compact, n, path, got, want)
		}
		if got, want := hasWirePrefix(compact, path), strings.HasPrefix(path, wire); got != want {
			t.Fatalf("hasWirePrefix(%q, %q) = %v, want %v", compact, path, got, want)
		}
		if got, want := matchCompact(compact, path), matchPattern(wire, path); got != want {
			t.Fatalf("matchCompact(%q, %q) = %v, want %v", compact, path, got, want)
		}
	})
}

// Pieces of rules and paths as written: escapes in both cases, raw bytes
// >= 0x80, hex digits, wildcards.
var escapePieces = []string{"/", "/", "%", "%C3", "%c3", "%A9", "%a9", "\xc3\xa9", "\xff", "%FF",
	"F", "8", "A", "0", "a", "C3", "*", "*", "$", "%8", "%F", "%4", "%41", "x", "\xe6\x97\xa5"}

func genEscapePattern(c *chooser) string {
	var b strings.Builder
	b.WriteByte('/')
	for n := c.pick(7); n > 0; n-- {
		b.WriteString(c.from(escapePieces))
	}
	if c.pick(40) == 0 {
		b.WriteString(strings.Repeat("\xc3\xa9", smallWire/3)) // expanded past the stack buffer
	}
	return b.String()
}

// genEscapeRobots returns a file of escape-heavy rules, sometimes enough
// of them for an index.
func genEscapeRobots(c *chooser) []byte {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	rules := 1 + c.pick(12)
	if c.pick(2) == 0 {
		rules = indexMinRules + c.pick(40)
	}
	for range rules {
		b.WriteString([]string{"allow: ", "disallow: "}[c.pick(2)])
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
	eachChooser(11, 6000, 512, func(i int, c *chooser) {
		body := genEscapeRobots(c)
		ref, r := newRefModel(body), Parse(body)
		rs, _ := r.rulesFor("bot")
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
			streamTwin(t, body, r, "bot", url)
		}
	})
	if compact < 1000 || indexed < 100 {
		t.Errorf("%d rules in compact form, %d indexed files; the generator should make more", compact, indexed)
	}
}

// The same files and paths answer as Google's library does.
func TestOracleCompact(t *testing.T) {
	oracle := os.Getenv(oracleEnv)
	if oracle == "" {
		t.Skipf("set %s to the oracle binary to compare with Google's library", oracleEnv)
	}
	n := 0
	eachChooser(13, 400, 512, func(i int, c *chooser) {
		body := genEscapeRobots(c)
		qs := make([]oracleQuery, 24)
		for j := range qs {
			qs[j] = oracleQuery{"bot", "http://example.com" + genEscapePattern(c)}
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
	r := Parse([]byte(body))
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
	rs, _ := r.rulesFor("bot")
	var forms []int
	for _, c := range rs.compiled {
		if c.info&ruleCompact != 0 {
			forms = append(forms, int(c.line))
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
		for range streamedQuestions + 1 { // streamed, then compiled
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
		c := &chooser{src: src}
		body := genEscapeRobots(c)
		ref, r := newRefModel(body), Parse(body)
		if rs, _ := r.rulesFor("bot"); rs.index != nil && c.pick(2) == 0 {
			rs.index.get()
		}
		for range 4 {
			compareWithReference(t, body, ref, r, "bot", "http://example.com"+genEscapePattern(c))
		}
	})
}
