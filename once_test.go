package robotstxt_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// robotstxt.Allowed answers one question as Parse(data).Allowed does (the
// transcript, oracle, reference and fuzz tests ask it every question they
// ask a Robots); these tests cover what is its own: the size limit, the
// hostile files whose question is too costly to stream, the bytes it
// leaves alone, and that it does not allocate.

// A rule past the first DefaultMaxSize bytes does not apply, as Googlebot
// reads no more (Google's robots.txt documentation, "File format"), and a
// rule cut at the limit reads as cut, as in Parse.
func TestAllowedOnceSizeLimit(t *testing.T) {
	head := "User-agent: *\nDisallow: /a\n"
	pad := strings.Repeat("#", robotstxt.DefaultMaxSize-len(head)-1) + "\n"
	data := []byte(head + pad + "Disallow: /b\n")
	cut := []byte(head + pad[:len(pad)-len("Disallow: /")-1] + "\nDisallow: /bc")
	tests := []struct {
		name string
		data []byte
		url  string
		want bool
	}{
		{"rule before the limit", data, "/a", false},
		{"rule past the limit", data, "/b", true},
		{"rule cut at the limit", cut, "/b", false},
		{"rule cut at the limit, its lost byte", cut, "/bd", false},
	}
	for _, tt := range tests {
		if got := robotstxt.Allowed(tt.data, "x", tt.url); got != tt.want {
			t.Errorf("%s: Allowed(x, %q) = %v, want %v", tt.name, tt.url, got, tt.want)
		}
		if parsed := robotstxt.Parse(tt.data).Allowed("x", tt.url); parsed != tt.want {
			t.Errorf("%s: Parse(data).Allowed(x, %q) = %v, want %v", tt.name, tt.url, parsed, tt.want)
		}
	}
}

// On the hostile files, at every path length up to 16 KiB, the
// one-question function answers as the file compiled does: it streams,
// ruling most rules out by the path's bytes and pairs (the questions too
// costly to stream, which it compiles, are the engine's TestAllowedOnce).
func TestAllowedOnceHostile(t *testing.T) {
	for _, fam := range reference.HostileFamilies(robotstxt.DefaultMaxSize) {
		compiled := robotstxt.Parse(fam.File)
		compiled.Sitemaps() // compiles
		for _, n := range []int{100, 1 << 10, 16 << 10} {
			url := "https://example.com" + fam.Path(n)
			if got, want := robotstxt.Allowed(fam.File, "Googlebot", url), compiled.Allowed("Googlebot", url); got != want {
				t.Errorf("%s, path of %d bytes: robotstxt.Allowed = %v; compiled: %v", fam.Name, n, got, want)
			}
		}
	}
}

// The file's bytes are read, never written, and a question that streams
// allocates nothing, whatever the URL holds.
func TestAllowedOnceLeavesDataAlone(t *testing.T) {
	data := []byte("User-agent: *\nDisallow: /a*b$\nAllow: /é\n\nUser-agent: FooBot\r\nDisallow: /x\r\nAllow: /x/%7e\r\n")
	before := bytes.Clone(data)
	urls := []string{"https://example.com/a/x/b", "https://example.com/é?q=%c3", "?x", "/x/~", strings.Repeat("/é", 250)}
	for _, u := range urls {
		for _, agent := range []string{"Googlebot", "foobot"} {
			want := robotstxt.Parse(data).Allowed(agent, u)
			if n := testing.AllocsPerRun(50, func() {
				if got := robotstxt.Allowed(data, agent, u); got != want {
					t.Fatalf("Allowed(%s, %.40q) = %v; Parse(data).Allowed: %v", agent, u, got, want)
				}
			}); n != 0 {
				t.Errorf("Allowed(%s, %.40q): %v allocations", agent, u, n)
			}
		}
	}
	if !bytes.Equal(data, before) {
		t.Errorf("the file's bytes changed:\n%q\nwere\n%q", data, before)
	}
}
