package pattern

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Rule values are brought to wire form (Google's MaybeEscapePattern):
// bytes >= 0x80 percent-encoded, the hex digits of escapes upper-cased,
// nothing decoded.
func TestEscape(t *testing.T) {
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
		// WireLen stops at a NUL or '#'; Escape goes on past them.
		{"/a#\xC3\xA9", "/a#%C3%A9"},
		{"/a\x00%2f", "/a\x00%2F"},
		{"#\x00#", "#\x00#"},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Escape returns its argument itself, not a copy, when it is in wire form.
func TestEscapeKeepsWireForm(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { Escape("/already/%2F/wire/form/with/a/long/tail") }); n != 0 {
		t.Errorf("Escape of a string in wire form allocates %v times", n)
	}
}

// WireLen measures, eight bytes at a time, what AppendEscaped writes one
// byte at a time: checked on random strings of the bytes that matter at
// every length and alignment.
func TestWireLen(t *testing.T) {
	const alphabet = "/%aF2g\x00#\x80\xff. !$&"
	rng := rand.New(rand.NewPCG(5, 9))
	for round := 0; round < 100000; round++ {
		b := make([]byte, rng.IntN(48))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		checkWireLen(t, string(b))
	}
	// Runs of escapes, as the paths of other scripts hold them, broken
	// by a bad or short escape, a byte to escape, or the end.
	pieces := []string{"%E0", "%b8", "%2F", "%4", "%", "%%41", "%g1", "a", "/", "#", "\x00", "\x80", "%a"}
	for round := 0; round < 100000; round++ {
		var b strings.Builder
		for n := rng.IntN(16); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		checkWireLen(t, b.String())
	}
}

// checkWireLen checks WireLen(s) against AppendEscaped.
func checkWireLen(t *testing.T, s string) {
	t.Helper()
	wantEnd := strings.IndexAny(s, "\x00#")
	if wantEnd < 0 {
		wantEnd = len(s)
	}
	wire := string(AppendEscaped(nil, s[:wantEnd]))
	end, n, changed := WireLen(s)
	if end != wantEnd || n != len(wire) || changed != (wire != s[:wantEnd]) {
		t.Fatalf("WireLen(%q) = %d, %d, %v; want %d, %d, %v", s, end, n, changed, wantEnd, len(wire), wire != s[:wantEnd])
	}
}

func TestLiteralPrefix(t *testing.T) {
	tests := []struct {
		pattern, prefix string
		whole           bool
	}{
		{"", "", true},
		{"/a/b", "/a/b", true},
		{"/a$", "/a", false},
		{"/a$b", "/a$b", true},
		{"/a*b$", "/a", false},
		{"*", "", false},
		{"/a$*", "/a$", false},
	}
	for _, tt := range tests {
		prefix, whole := LiteralPrefix(tt.pattern)
		if prefix != tt.prefix || whole != tt.whole {
			t.Errorf("LiteralPrefix(%q) = %q, %v; want %q, %v", tt.pattern, prefix, whole, tt.prefix, tt.whole)
		}
		if whole && !(Match(tt.pattern, tt.prefix) && Match(tt.pattern, tt.prefix+"/more")) {
			t.Errorf("%q is its literal prefix %q, but does not match every path that starts with it", tt.pattern, tt.prefix)
		}
	}
}
