package lint

import (
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// The shadowing proof on its own: coverText and matchPattern decide
// "q matches every path p matches".
func TestCovers(t *testing.T) {
	tests := []struct {
		q, p string
		want bool
	}{
		{"/a", "/a", true},
		{"/a*", "/a", true},
		{"/a", "/a*", true},
		{"/*a", "/a", true},
		{"/*a", "/ba", true},
		{"/a*", "/a$", true},
		{"/a$", "/a", false},
		{"/a$", "/a$", true},
		{"/a*$", "/a", true},
		{"/a*$", "/ab*", true},
		{"/ab", "/a", false},
		{"/a", "/*a", false},
		{"*", "/x*y$", true},
		{"/*.php", "/a.php", true},
		{"/*.php$", "/a.php", false},
		{"/*.php$", "/a.php$", true},
		{"/*.php$", "/*.php$", true},
		{"/x*y", "/x*z", false},
		{"/x*y", "/x*y*z", true},
		{"/a$b", "/a$b", true},
		{"/a$b", "/a$", false},
	}
	for _, tt := range tests {
		if got := pattern.Match(tt.q, coverText(tt.p)); got != tt.want {
			t.Errorf("%q covers %q: %v, want %v", tt.q, tt.p, got, tt.want)
		}
	}
}

// coverText is appendCoverText as a string.
func coverText(p string) string { return string(appendCoverText(nil, p)) }
