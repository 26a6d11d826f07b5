package robotstxt

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

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
		if got := escapePattern(tt.in); got != tt.want || pattern.Escape(tt.in) != tt.want {
			t.Errorf("escapePattern(%q) = %q, pattern.Escape %q, want %q", tt.in, got, pattern.Escape(tt.in), tt.want)
		}
	}
}

func TestRawValuesForAgentAndSitemap(t *testing.T) {
	r := Parse([]byte("Sitemap: http://x/caf\xC3\xA9%aa.xml\nUser-agent: *\nDisallow: /\n"))
	if diff := cmp.Diff([]string{"http://x/caf\xC3\xA9%aa.xml"}, r.Sitemaps()); diff != "" {
		t.Errorf("sitemap not raw (-want +got):\n%s", diff)
	}
}

// The lint package's pattern primitives (internal/pattern) agree with the
// matcher's on random patterns and paths.
func TestInternalPatternAgrees(t *testing.T) {
	alphabet := []string{"/", "a", "b", "*", "$", "%", "%2f", "%2F", "\xC3\xA9", "\xFF"}
	rng := rand.New(rand.NewPCG(3, 4))
	word := func(n int) string {
		var b strings.Builder
		for i := rng.IntN(n); i > 0; i-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for i := 0; i < 20000; i++ {
		p, path := word(8), word(10)
		if a, b := escapePattern(p), pattern.Escape(p); a != b {
			t.Fatalf("escape %q: matcher %q, internal %q", p, a, b)
		}
		path = strings.ReplaceAll(path, "$", "")
		if a, b := matchPattern(p, path), pattern.Match(p, path); a != b {
			t.Fatalf("match %q against %q: matcher %v, internal %v", p, path, a, b)
		}
		lit, _ := literalPrefix(p)
		if got := pattern.LiteralPrefix(p); got != lit {
			t.Fatalf("literal prefix of %q: matcher %q, internal %q", p, lit, got)
		}
	}
}
