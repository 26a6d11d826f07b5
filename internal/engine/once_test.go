package engine

import (
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// AllowedOnce answers the questions the stream gives up on (more than
// streamWildBudget of wildcard matching, a pattern too long for the
// stack buffers) by compiling the file, as a File answers them, and the
// others by the stream, as the compiled file does.
func TestAllowedOnce(t *testing.T) {
	// Wildcard rules of the path's bytes, pairs and last byte, which they
	// do not rule out but which do not match (the path ends "aab"): each
	// costs the path, about 1 KiB, of the budget.
	wild := "user-agent: *\n" + strings.Repeat("disallow: /*bab$\n", streamWildBudget/1024+1)
	path := "/ab" + strings.Repeat("a", 1014) + "b"
	// A pattern whose wire form is one byte past half the stack buffer.
	wire := pathBufSize/2 + 1
	long := "/" + strings.Repeat("é", (wire-1)/6) + strings.Repeat("x", (wire-1)%6)
	tests := []struct {
		name, body, url string
		streams, want   bool
	}{
		{"a rule matches", "user-agent: *\ndisallow: /a\n", "/a/b", true, false},
		{"none matches", "user-agent: *\ndisallow: /a\n", "/b", true, true},
		{"budget spent, none matches", wild, path, false, true},
		{"budget spent, the last rule matches", wild + "disallow: /*b$\n", path, false, false},
		{"pattern too long to stream, matches", "user-agent: *\ndisallow: " + long + "\n", long, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := streamVerdict(tt.body, "x", tt.url); ok != tt.streams {
				t.Fatalf("streamVerdict ok = %v, want %v", ok, tt.streams)
			}
			if got := AllowedOnce([]byte(tt.body), "x", tt.url); got != tt.want {
				t.Errorf("AllowedOnce = %v, want %v", got, tt.want)
			}
			if compiled := load([]byte(tt.body)).Allowed("x", tt.url); compiled != tt.want {
				t.Errorf("the File answers %v, want %v", compiled, tt.want)
			}
		})
	}
	// The hostile files stream (the path's bytes and pairs rule most of
	// their rules out), at every path length, and answer as compiled.
	for _, fam := range reference.HostileFamilies(maxSize) {
		whole := load(fam.File)
		whole.Compile()
		for _, n := range []int{100, 1 << 10, 16 << 10} {
			url := fam.Path(n)
			if got, want := AllowedOnce(fam.File, "Googlebot", url), whole.Allowed("Googlebot", url); got != want {
				t.Errorf("%s, path of %d bytes: AllowedOnce = %v; compiled: %v", fam.Name, n, got, want)
			}
		}
	}
}
