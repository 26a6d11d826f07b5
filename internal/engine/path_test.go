package engine

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// robots.cc GetPathParamsQuery: the URL's path, params and query, found without
// parsing.
func TestFindPath(t *testing.T) {
	tests := []struct{ url, want string }{
		{"", "/"},
		{"http://www.example.com", "/"},
		{"http://www.example.com/", "/"},
		{"http://www.example.com/a", "/a"},
		{"http://www.example.com/a/", "/a/"},
		{"http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"},
		{"http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"example.com", "/"},
		{"example.com/", "/"},
		{"example.com/a", "/a"},
		{"example.com/a/", "/a/"},
		{"example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"example.com?a", "/?a"},
		{"example.com/a;b#c", "/a;b"},
		{"a", "/"},
		{"a/", "/"},
		{"/a", "/a"},
		{"a/b", "/b"},
		{"example.com/a?b", "/a?b"},
		{"//a/b/c", "/b/c"},
		{"http://a.com;p", "/;p"},
		{"http://a.com#f", "/"},
		{"a#b/c", "/"},
		{"http:/a.com/b", "/a.com/b"},
		{"http://a.com:80/x", "/x"},
		{"a.com:80/x", "/x"},
		{"x://y://z/w", "//z/w"},
		{"///x", "/x"},
		{"mailto:x@y.com", "/"},
		{"HTTP://A.COM/P", "/P"},
		{"http://a.com/%aa", "/%aa"},
		{"http://a.com/a b", "/a b"},
		{"http://a.com?x#y", "/?x"},
		{"http://a.com/p#x?y", "/p"},
		{"//", "/"},
		{"?", "/?"},
	}
	for _, tt := range tests {
		path, _, rewrite := findPath(tt.url)
		if path[0] != '/' {
			if !rewrite {
				t.Errorf("findPath(%q) = %q, lacking its '/', but asks for no rewrite", tt.url, path)
			}
			path = "/" + path
		}
		if path != tt.want {
			t.Errorf("findPath(%q) finds %q, want %q", tt.url, path, tt.want)
		}
	}
}

// The matcher's view of a URL (found by findPath, cut at a NUL, brought to
// wire form by rewritePath, as decideURL and wirePath do) equals the
// reference model's on random URLs made of the bytes that matter, at every
// length and alignment the eight-byte scans meet, and findPath announces
// its length: URLs in wire form (the package documentation); robots.cc reads
// the URL as a C string, through GetPathParamsQuery.
func TestWirePathAgainstReference(t *testing.T) {
	const alphabet = "/?;#:%aF2\x00\x80\xff."
	rng := rand.New(rand.NewPCG(3, 7))
	var buf [pathBufSize]byte
	for n := 0; n < 200000; n++ {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		// Scheme forms the matcher has a fast path for, and near misses.
		prefixes := []string{"", "", "https://example.com", "http://a", "https:/", "http:/", "HTTPS://x", "//h"}
		b = append([]byte(prefixes[rng.IntN(len(prefixes))]), b...)
		url := string(b)
		want := reference.Path(url)
		if i := strings.IndexByte(want, 0); i >= 0 {
			want = want[:i]
		}
		want = reference.Escape([]byte(want))
		got := wirePath(url, &buf)
		if _, n, _ := findPath(url); got != want || n != len(want) {
			t.Fatalf("wirePath(%q) = %q (findPath announces %d bytes), want %q", url, got, n, want)
		}
	}
}
