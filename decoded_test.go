package robotstxt

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// decodable: a pattern keeps its answers in decoded form unless a literal
// piece could start or end inside an escape of the path ("%C3" is one
// byte in decoded form, three in wire form, which RFC 9309 section 2.2.2
// and Google's matcher compare).
func TestDecodable(t *testing.T) {
	tests := []struct {
		pattern string
		want    bool
		why     string
	}{
		{"/caf\xc3\xa9", true, "raw bytes, no wildcard"},
		{"/%C3%A9/*x", true, "pieces start and end outside escapes"},
		{"/*%C3", true, "a piece starting with '%' starts an escape"},
		{"/*a", true, "lower case is never a hex digit of an escape in wire form"},
		{"/*F", false, `"F" could be the last digit of "%FF"`},
		{"/*8x", false, `"8" could be the first digit of "%8A"`},
		{"/*0", false, "digits are hex digits"},
		{"/x%", false, `a prefix ending in '%' matches "/x%C3"`},
		{"/x%C*", false, `a piece ending in "%C" could end inside "%C3"`},
		{"/x%4*", true, "an escape of a byte below 0x80 is not decoded"},
		{"/x%$", true, "an anchored piece ends where the path ends"},
		{"/x%*$", false, `"*$" anchors nothing`},
		{"/x%C$", true, "anchored"},
		{"/F*", true, "the first piece starts where the path starts"},
		{"", true, "empty"},
		{"*", true, "no piece"},
		{"/**F", false, "empty pieces do not hide the next one"},
	}
	for _, tt := range tests {
		if got := decodable(tt.pattern); got != tt.want {
			t.Errorf("decodable(%q) = %v, want %v (%s)", tt.pattern, got, tt.want, tt.why)
		}
	}
}

// decodePath turns the escapes of bytes >= 0x80 into those bytes and keeps
// every other byte, as a plain loop over the escapes does.
func TestDecodePath(t *testing.T) {
	slow := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if i+2 < len(s) && s[i] == '%' && strings.IndexByte("89ABCDEF", s[i+1]) >= 0 && strings.IndexByte("0123456789ABCDEF", s[i+2]) >= 0 {
				b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
				i += 2
				continue
			}
			b.WriteByte(s[i])
		}
		return b.String()
	}
	pieces := []string{"%", "C", "3", "8", "F", "%C3", "%7F", "%80", "%ff", "a", "/", "%%", "9", "G"}
	eachChooser(7, 20000, 24, func(_ int, c *chooser) {
		var b strings.Builder
		for n := c.pick(12); n > 0; n-- {
			b.WriteString(c.from(pieces))
		}
		path := b.String()
		var buf [pathBufSize]byte
		if got, want := decodePath(path, &buf), slow(path); got != want {
			t.Fatalf("decodePath(%q) = %q, want %q", path, got, want)
		}
		if got, want := hasHighEscape(path), slow(path) != path; got != want {
			t.Fatalf("hasHighEscape(%q) = %v, want %v", path, got, want)
		}
	})
	long := "/" + strings.Repeat("%C3%A9", pathBufSize)
	var buf [pathBufSize]byte
	if got, want := decodePath(long, &buf), "/"+strings.Repeat("é", pathBufSize); got != want {
		t.Errorf("decodePath of a path longer than the buffer = %d bytes, want %d", len(got), len(want))
	}
}

// Pieces of patterns and paths that meet escapes: hex digits, '%',
// escapes in both cases, raw bytes >= 0x80, wildcards.
var escapePieces = []string{"/", "/", "%", "%C3", "%c3", "%A9", "%a9", "\xc3\xa9", "\xff", "%FF",
	"F", "8", "A", "0", "a", "C3", "*", "*", "$", "%8", "%F", "%4", "%41", "x"}

func genEscapePattern(c *chooser) string {
	var b strings.Builder
	b.WriteByte('/')
	for n := c.pick(7); n > 0; n-- {
		b.WriteString(c.from(escapePieces))
	}
	return b.String()
}

// genEscapeRobots returns a file of escape-heavy rules; most are
// decodable, so that both forms are kept, by whichever rule comes.
func genEscapeRobots(c *chooser) []byte {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	rules := 1 + c.pick(24)
	for range rules {
		b.WriteString([]string{"allow: ", "disallow: "}[c.pick(2)])
		b.WriteString(genEscapePattern(c))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// Files whose patterns are kept in decoded form answer as the reference
// model (which matches in wire form) on escape-heavy patterns and paths,
// and so does the stream; both forms occur.
func TestDecodedAgainstReference(t *testing.T) {
	forms := map[bool]int{}
	eachChooser(11, 6000, 512, func(_ int, c *chooser) {
		body := genEscapeRobots(c)
		ref, r := newRefModel(body), Parse(body)
		r.Groups() // compiles
		forms[r.decoded]++
		for range 16 {
			url := "http://example.com" + genEscapePattern(c)
			compareWithReference(t, body, ref, r, "bot", url)
			streamTwin(t, body, r, "bot", url)
		}
	})
	if forms[true] < 100 || forms[false] < 100 {
		t.Errorf("files kept in decoded form: %d, in wire form: %d; the generator should make both", forms[true], forms[false])
	}
}

// The same files and paths answer as Google's library does.
func TestOracleDecoded(t *testing.T) {
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

// A rule kept in decoded form still reports the pattern as written, kept
// once when it is its decoded form, and after its length otherwise (a
// length of more than one byte included).
func TestDecodedAsWritten(t *testing.T) {
	// 601 bytes as written, and as many in wire form ("%C3%A9"): the
	// decoded form saves 398.
	long := "/" + strings.Repeat("%c3%a9", 100)
	body := "user-agent: *\n" +
		"disallow: /caf\xc3\xa9\n" +
		"disallow: /%C3%A9t%c3%a9\n" +
		"allow: " + long + "\n" +
		"allow: /\xc3\xa9/index.html\n" +
		"disallow: /%2f%c3%a9\n"
	r := Parse([]byte(body))
	got := r.Groups()[0].Rules
	if !r.decoded {
		t.Fatal("the file is kept in wire form; want decoded form")
	}
	want := []Rule{
		{Allow: false, Pattern: "/caf\xc3\xa9", Line: 2},
		{Allow: false, Pattern: "/%C3%A9t%c3%a9", Line: 3},
		{Allow: true, Pattern: long, Line: 4},
		{Allow: true, Pattern: "/\xc3\xa9/index.html", Line: 5},
		{Allow: false, Pattern: "/%2f%c3%a9", Line: 6},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
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
		{"/%2F%C3%A9", 6},
		{"/%2F%c3%a9", 6},
	} {
		for range 3 { // streamed, then compiled
			if v := r.Explain("bot", "http://example.com"+q.url); v.Rule.Line != q.line {
				t.Errorf("Explain(%q) decided by line %d, want %d", q.url, v.Rule.Line, q.line)
			}
		}
	}
}
