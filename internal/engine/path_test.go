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

// plainPath, findPath's fast path, finds what scanPath finds, and finds
// it for every URL of the form it reads (an "https://" or "http://" URL of
// at least 16 bytes whose path starts with '/' and holds no byte below
// '&' or >= 0x80), on random URLs of such hosts and paths at every length
// and alignment, and near misses.
func TestPlainPathAgainstScan(t *testing.T) {
	const hostBytes = "ab.-:9@/?;#"
	const pathBytes = "/aZ.-_~=&?;:'()*+,$!% #\x00\x7f\x80\xff"
	rng := rand.New(rand.NewPCG(11, 12))
	word := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 300000 {
		scheme := []string{"https://", "http://", "https:/", "http:", "HTTPS://", "https://"}[rng.IntN(6)]
		url := scheme + word(hostBytes, rng.IntN(24)) + word(pathBytes, rng.IntN(40))
		if rng.IntN(2) == 0 {
			// Mostly plain bytes, as most URLs are.
			url = scheme + word("ab.", rng.IntN(24)) + "/" + word("/aZ.-_~=&?;", rng.IntN(40))
		}
		want, n, rewrite := scanPath(url)
		got, ok := plainPath(url)
		if ok && (got != want || n != len(want) || rewrite) {
			t.Fatalf("plainPath(%q) = %q, scanPath finds %q (%d bytes, rewrite %v)", url, got, want, n, rewrite)
		}
		// What the URL itself starts with: "https:/" followed by "/" is "https://".
		plain := false
		for _, scheme := range []string{"https://", "http://"} {
			if rest, found := strings.CutPrefix(url, scheme); found && len(url) >= 16 {
				host := strings.IndexAny(rest, "/?;#")
				plain = host >= 0 && rest[host] == '/' && !strings.ContainsFunc(rest[host:], func(r rune) bool { return r < '&' || r >= 0x80 })
				break
			}
		}
		if ok != plain {
			t.Fatalf("plainPath(%q) ok = %v, want %v", url, ok, plain)
		}
	}
}
