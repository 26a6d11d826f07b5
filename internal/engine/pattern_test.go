package engine

import (
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// The pattern matcher (internal/pattern, shared with package lint) is
// tested here, where the reference model's position-set matcher is.

// robots.cc RobotsMatchStrategy::Matches: pattern semantics. RFC 9309 section 2.2.2; RFC 9309 section 2.2.3.
func TestMatchPattern(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"", "/anything", true},
		{"/", "/", true},
		{"/a", "/abc", true},
		{"/a", "/", false},
		{"/A", "/a", false},
		{"/a$", "/a", true},
		{"/a$", "/ab", false},
		{"/a$$", "/a$", true},
		{"/a$$", "/a", false},
		{"/a$b", "/a$bc", true},
		{"/a$b", "/ab", false},
		{"$", "/", false},
		{"/*$", "/anything?x", true},
		{"*", "/x", true},
		{"/*", "/", true},
		{"/**", "/x", true},
		{"/*a", "/ba", true},
		{"/*a", "/b", false},
		{"/a*b*c", "/aXbYc", true},
		{"/a*b*c", "/aXcYb", false},
		{"/a*b*c$", "/abcXbc", true},
		{"/a*b*c$", "/abcX", false},
		{"/a*bc$", "/abcbc", true},
		{"/a*ab$", "/ab", false},
		{"/*.php$", "/x.php", true},
		{"/*.php$", "/x.php5", false},
		{"a", "/a", false},
		{"?", "/?", false},
		{"/?", "/?x", true},
		{"/.", "/x", false},
		{"/%2A", "/*", false},
		{"/%2A", "/%2A", true},
		{"/x*$", "/x", true},
		{"/*x*$", "/y", false},
	}
	for _, tt := range tests {
		if got := matchPattern(tt.pattern, tt.path); got != tt.want {
			t.Errorf("matchPattern(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
		if got := reference.Match(tt.pattern, tt.path); got != tt.want {
			t.Errorf("reference reference.Match(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

// The leftmost-piece matcher agrees with the position-set algorithm on
// every pattern and path over a small alphabet, up to a few bytes long.
func TestMatchPatternExhaustive(t *testing.T) {
	patternBytes := []byte("ab*$")
	pathBytes := []byte("ab$")
	var patterns, paths []string
	var gen func(prefix string, n int, alphabet []byte, out *[]string)
	gen = func(prefix string, n int, alphabet []byte, out *[]string) {
		*out = append(*out, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+string(c), n-1, alphabet, out)
		}
	}
	gen("/", 5, patternBytes, &patterns)
	gen("*", 4, patternBytes, &patterns)
	gen("/", 6, pathBytes, &paths)
	for _, pat := range patterns {
		for _, path := range paths {
			if got, want := matchPattern(pat, path), reference.Match(pat, path); got != want {
				t.Fatalf("matchPattern(%q, %q) = %v, position sets say %v", pat, path, got, want)
			}
		}
	}
}
