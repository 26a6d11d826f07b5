package robotstxt_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// Hostile and extreme inputs: each must parse well within 50 ms and answer
// well within 1 ms, with memory bounded by the input (see BENCHMARKS.md).

// adversarialFiles are robots.txt files of at most DefaultMaxSize bytes
// built to stress one part of the parser or matcher.
func adversarialFiles() []struct {
	name string
	data []byte
} {
	const size = robotstxt.DefaultMaxSize
	fill := func(unit string) []byte {
		return []byte(strings.Repeat(unit, size/len(unit)))
	}
	var distinctAgents, sharedPrefix, manyRules strings.Builder
	for i := 0; distinctAgents.Len() < size-40; i++ {
		fmt.Fprintf(&distinctAgents, "User-agent: bot%s\n", letters(i))
	}
	sharedPrefix.WriteString("User-agent: *\n")
	long := "/" + strings.Repeat("shared/prefix/", 8)
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&sharedPrefix, "Disallow: %s%d\n", long, i)
	}
	manyRules.WriteString(manyRulesFile(10000))
	rng := rand.New(rand.NewPCG(7, 7))
	random := make([]byte, size)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	return []struct {
		name string
		data []byte
	}{
		{"user-agent-lines", fill("User-agent: Googlebot\n")},
		{"distinct-user-agents", []byte(distinctAgents.String())},
		{"one-line", fill("x")},
		{"one-star-line", append([]byte("User-agent: *\nDisallow: /"), fill("*")[:size-30]...)},
		{"empty-lines", fill("\n")},
		{"cr-lines", fill("\r")},
		// Lines ended by CR alone, with no LF in the rest of the file: a
		// search for the line's end that looks for LF first would cross
		// the whole rest of the file on every line.
		{"cr-comment-lines", fill("#c\r")},
		{"cr-sitemap-lines", fill("Sitemap: /s\r")},
		{"cr-rules", inGroup(fill("Disallow: /b\r"))},
		{"colons", fill(":")},
		{"rules-shared-prefix", []byte(sharedPrefix.String())},
		{"rules-10000", []byte(manyRules.String())},
		{"index-html-allows", inGroup(fill("Allow: /a/index.html\n"))},
		{"non-ascii-rules", inGroup(fill("Disallow: /ééééé\n"))},
		{"random-bytes", random},
	}
}

// inGroup puts the rules of body in a "*" group, keeping the size limit.
func inGroup(body []byte) []byte {
	return append([]byte("User-agent: *\n"), body[:len(body)-len("User-agent: *\n")]...)
}

// letters spells i in base 26 with letters, so that every agent token
// differs.
func letters(i int) string {
	var b []byte
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}

// manyRulesFile returns a file with n realistic rules: a few path
// families, ids, wildcards and anchors.
func manyRulesFile(n int) string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	families := []string{"/product/", "/category/", "/search", "/user/", "/tmp/", "/api/v1/", "/*.pdf$", "/*?sessionid=", "/blog/20"}
	for i := 0; i < n; i++ {
		kind := "Disallow"
		if i%5 == 0 {
			kind = "Allow"
		}
		f := families[i%len(families)]
		switch {
		case strings.HasPrefix(f, "/*"):
			fmt.Fprintf(&b, "%s: /%d%s\n", kind, i, f[1:])
		default:
			fmt.Fprintf(&b, "%s: %s%d/\n", kind, f, i)
		}
	}
	return b.String()
}

// BenchmarkParseAdversarial measures, per adversarial file, the two ways
// a parsed file is first used: Parse and one question (which streams over
// the file), and Parse and compiling (what a second question adds).
func BenchmarkParseAdversarial(b *testing.B) {
	// A million empty lines is twice the size limit; read all of it.
	million := []byte(strings.Repeat("\n", 1_000_000))
	files := append(adversarialFiles(), struct {
		name string
		data []byte
	}{"million-empty-lines-unlimited", million})
	for _, f := range files {
		opts := robotstxt.Options{}
		if f.name == "million-empty-lines-unlimited" {
			opts.MaxSize = -1
		}
		b.Run(f.name+"/first-question", func(b *testing.B) {
			b.SetBytes(int64(len(f.data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				robotstxt.ParseWith(f.data, opts).Allowed("Googlebot", "https://example.com/a/b/c")
			}
		})
		b.Run(f.name+"/compiled", func(b *testing.B) {
			b.SetBytes(int64(len(f.data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				robotstxt.ParseWith(f.data, opts).Sitemaps() // compiles
			}
		})
	}
}

func BenchmarkAllowedAdversarial(b *testing.B) {
	urls := []string{
		"https://example.com/" + strings.Repeat("a", 16<<10),
		"https://example.com/" + strings.Repeat("ab/", 16<<10/3),
		"https://example.com/" + strings.Repeat("é", 16<<10/2),
		"https://example.com/shared/prefix/shared/prefix/shared/prefix/shared/prefix/shared/prefix/shared/prefix/shared/prefix/shared/prefix/9999x",
		"https://example.com/product/12345/",
	}
	for _, f := range adversarialFiles() {
		r := robotstxt.Parse(f.data)
		for ui, u := range urls {
			r.Allowed("Googlebot", u) // build lazy indexes
			b.Run(fmt.Sprintf("%s/url%d", f.name, ui), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					r.Allowed("Googlebot", u)
				}
			})
		}
	}
}

// BenchmarkStarPattern shows matching time growing linearly with the
// pattern: n '*' (each followed by a byte) against a 16 KiB path.
func BenchmarkStarPattern(b *testing.B) {
	path := "/" + strings.Repeat("a", 16<<10)
	for _, n := range []int{125, 250, 500, 1000} {
		for _, tail := range []string{"a", "b"} {
			pattern := "/" + strings.Repeat("*a", n) + "*" + tail + "$"
			r := robotstxt.Parse([]byte("User-agent: *\nDisallow: " + pattern + "\n"))
			b.Run(fmt.Sprintf("stars=%d/tail=%s", n, tail), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					r.Allowed("x", path)
				}
			})
		}
	}
}

// BenchmarkURLLength shows matching time growing linearly with the URL.
func BenchmarkURLLength(b *testing.B) {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /*a*b*c*d$\nAllow: /*.html$\nDisallow: /x\n"))
	for _, n := range []int{1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10} {
		url := "https://example.com/" + strings.Repeat("abcz", n/4)
		b.Run(fmt.Sprintf("bytes=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r.Allowed("x", url)
			}
		})
	}
}

// BenchmarkRuleCount shows that an indexed rule set of 10,000 rules answers
// close to a set of 10.
func BenchmarkRuleCount(b *testing.B) {
	urls := []string{
		"https://example.com/product/123/details",
		"https://example.com/category/shoes?page=2",
		"https://example.com/blog/2024/01/post.html",
		"https://example.com/files/report.pdf",
		"https://example.com/",
		"https://example.com/user/42/settings?sessionid=abc",
		"https://example.com/api/v1/items/9",
		"https://example.com/about/team",
	}
	for _, n := range []int{10, 100, 1000, 10000} {
		r := robotstxt.Parse([]byte(manyRulesFile(n)))
		for _, u := range urls {
			r.Allowed("x", u)
		}
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r.Allowed("x", urls[i%len(urls)])
			}
		})
	}
}

// Adversarial files parse and answer the same as the reference model.
func TestAdversarialAgainstReference(t *testing.T) {
	if testing.Short() {
		t.Skip("slow reference model")
	}
	for _, f := range adversarialFiles() {
		ref, r := reference.New(f.data), robotstxt.Parse(f.data)
		for _, u := range []string{"/", "/product/10/", "/shared/prefix/9", "/a/", "/ééééé", "/" + strings.Repeat("*", 100)} {
			for _, agent := range []string{"Googlebot", "botaa", "x"} {
				compareWithReference(t, f.data[:min(len(f.data), 200)], ref, r, agent, u)
			}
		}
	}
}
