package fetch

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// removeDotSegmentsRFC is RFC 3986 section 5.2.4's algorithm as the RFC
// writes it, on an input and an output buffer.
func removeDotSegmentsRFC(in string) string {
	var out string
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			out = out[:max(strings.LastIndex(out, "/"), 0)]
		case in == "/..":
			in = "/"
			out = out[:max(strings.LastIndex(out, "/"), 0)]
		case in == "." || in == "..":
			in = ""
		default:
			j := strings.IndexByte(in[1:], '/')
			if j < 0 {
				out, in = out+in, ""
			} else {
				out, in = out+in[:j+1], in[j+1:]
			}
		}
	}
	return out
}

// removeDotSegmentsSlow is the slow twin of removeDotSegments: the RFC's
// algorithm, with "/" for a path it empties.
func removeDotSegmentsSlow(in string) string {
	if out := removeDotSegmentsRFC(in); out != "" {
		return out
	}
	return "/"
}

// removeDotSegments agrees with the RFC's own algorithm on random paths
// made of the pieces that matter.
func TestRemoveDotSegmentsTwin(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"/", "/", ".", "..", "...", "a", "b", "/.", "/..", "./", "../", ".a", "a."}
	for i := 0; i < 100000; i++ {
		var b strings.Builder
		b.WriteByte('/')
		for n := rng.IntN(10); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		p := b.String()
		if got, want := removeDotSegments(p), removeDotSegmentsSlow(p); got != want {
			t.Fatalf("removeDotSegments(%q) = %q; the RFC's algorithm gives %q", p, got, want)
		}
	}
}

// The readings of the spellings, and of others (RFC 3986 sections
// 5.2.4 and 6.2.2; nginx's decoding and merge_slashes; Apache's %2F).
func TestPathReadings(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/private/x", []string{"/private/x"}},
		{"/public/../private/x", []string{"/public/../private/x", "/private/x"}},
		{"/public/%2E%2E/private/x", []string{"/public/%2E%2E/private/x", "/private/x"}},
		{"//private/x", []string{"//private/x", "/private/x"}},
		{"/%70rivate/x", []string{"/%70rivate/x", "/private/x"}},
		{"/a%2fb", []string{"/a%2fb", "/a%2Fb", "/a/b"}},
		{"/public%2F..%2Fprivate", []string{"/public%2F..%2Fprivate", "/private"}},
		{"/a/%3f%23%25%20%C3%A9", []string{"/a/%3f%23%25%20%C3%A9", "/a/%3F%23%25%20%C3%A9"}},
		{"/a//b/../c", []string{"/a//b/../c", "/a//c", "/a/c"}},
		{"/a/%2e%2e%2f%2e%2e/b", []string{"/a/%2e%2e%2f%2e%2e/b", "/a/..%2F../b", "/b"}},
		// A decoded '%' is a '%', never the start of an escape.
		{"/a%252Fb", []string{"/a%252Fb"}},
		{"/a%252F%2e%2e/b", []string{"/a%252F%2e%2e/b", "/a%252F../b"}},
		// Servers on Windows (IIS; nginx and Apache built for Windows)
		// take a backslash for a slash, raw or as %5C.
		{"/public%5C..%5Cprivate", []string{"/public%5C..%5Cprivate", "/private"}},
		{`/public\..\private`, []string{`/public\..\private`, "/public%5C..%5Cprivate", "/private"}},
		{"/a%5c%5cb", []string{"/a%5c%5cb", "/a%5C%5Cb", "/a/b"}},
		// Tomcat and Jetty drop each segment's parameters (RFC 3986
		// section 3.3) before they resolve the path.
		{"/index.jsp;jsessionid=1", []string{"/index.jsp;jsessionid=1", "/index.jsp"}},
		{"/public/..;/private", []string{"/public/..;/private", "/private"}},
		{"/;x/private;y", []string{"/;x/private;y", "/private"}},
		{"/a;b%2F..%2Fc", []string{"/a;b%2F..%2Fc", "/c", "/a"}},
		// path.Clean drops a trailing slash, and a static file server
		// serves the file for it (Go's http.FileServer, Caddy, lighttpd,
		// Python's http.server): a rule ending in '$' must see the path
		// without it, after %2F is decoded too.
		{"/secret.html/.", []string{"/secret.html/.", "/secret.html/", "/secret.html"}},
		{"/file.pdf%2F", []string{"/file.pdf%2F", "/file.pdf/", "/file.pdf"}},
		{"/file.pdf/%2e/", []string{"/file.pdf/%2e/", "/file.pdf/", "/file.pdf/%2e", "/file.pdf"}},
		{"/docs/", []string{"/docs/", "/docs"}},
		{"/", []string{"/"}},
		// '*' and '$' are a wildcard and an end in a rule: a decoded
		// reading writes them escaped, as the server-read rules do.
		{"/a$b", []string{"/a$b", "/a%24b"}},
		{"/a*b", []string{"/a*b", "/a%2Ab"}},
		{"/x%2a%24", []string{"/x%2a%24", "/x%2A%24"}},
		// A byte that may not stand for itself is read escaped.
		{"/a[b", []string{"/a[b", "/a%5Bb"}},
	} {
		got := pathReadings(tc.path)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("pathReadings(%q) (-want +got):\n%s", tc.path, diff)
		}
	}
}

// However hostile the path, there are at most maxReadings readings, each
// at most three times as long as the path (one decoded byte encoded
// again), so the work is linear in the path's length.
func TestPathReadingsBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"/", "//", ".", "..", "%2e", "%2E%2e", "%2f", "%2F", "%25", "%", "%zz", "%00", "%C3%A9", "a", "é", "?", "#", `\`, "%5c", ";", ";x"}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		b.WriteByte('/')
		for n := rng.IntN(60); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		p := b.String()
		readings := pathReadings(p)
		if len(readings) > maxReadings || readings[0] != p {
			t.Fatalf("pathReadings(%q) = %q", p, readings)
		}
		for _, r := range readings {
			if len(r) > 3*len(p) || r == "" || r[0] != '/' {
				t.Fatalf("pathReadings(%q) has the reading %q", p, r)
			}
		}
	}
}

// BenchmarkPathReadings: a plain path (no reading but itself), a
// crawler's path with a few %xx, and hostile paths of 1,000 and 10,000
// triplets and dot segments, whose time grows linearly.
func BenchmarkPathReadings(b *testing.B) {
	for _, bc := range []struct{ name, path string }{
		{"plain", "/products/item-1234/reviews"},
		{"escaped", "/search/caf%C3%A9/page%2D2/../3"},
		{"hostile-1k", "/" + strings.Repeat("%2e%2E/%2F..//", 1000/4)},
		{"hostile-10k", "/" + strings.Repeat("%2e%2E/%2F..//", 10000/4)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.path)))
			b.ReportAllocs()
			for range b.N {
				pathReadings(bc.path)
			}
		})
	}
}

// FuzzPathReadings: any path gives at most maxReadings readings, the path
// as sent first, each an absolute path at most three times as long, and
// the readings of a reading that decoded everything add nothing that
// decodes further.
func FuzzPathReadings(f *testing.F) {
	for _, seed := range []string{"/", "/a/../b", "/%2e%2E/%2F..//x", "/%252F", "//%00/%zz", "/é/%C3%A9"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if p == "" || p[0] != '/' {
			p = "/" + p
		}
		readings := pathReadings(p)
		if len(readings) == 0 || len(readings) > maxReadings || readings[0] != p {
			t.Fatalf("pathReadings(%q) = %q", p, readings)
		}
		for _, r := range readings {
			if r == "" || r[0] != '/' || len(r) > 3*len(p) {
				t.Fatalf("pathReadings(%q) has the reading %q", p, r)
			}
		}
		// nginx's reading is a fixed point: read again, it reads the same.
		nginx := encodeDecoded(removeDotSegments(mergeSlashes(decodeAll(p, false))), false)
		if again := encodeDecoded(removeDotSegments(mergeSlashes(decodeAll(nginx, false))), false); again != nginx {
			t.Fatalf("nginx's reading of %q is %q, and of that %q", p, nginx, again)
		}
	})
}
