package engine

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// sparseFile reports whether the plan compiles body whole at its first
// question because no line of it is a user-agent line and its lines, as
// Google numbers them, are long (see sparseMinBytes): found here by the
// tokenizer reading every line, not by the scoped pass.
func sparseFile(body []byte) bool {
	tok := parse.NewTokenizer(string(body))
	var l parse.Line
	lines := 0
	for tok.Next(&l) {
		lines = l.Num
		if l.Flags&parse.LineHasDirective != 0 && l.Kind == parse.KeyUserAgent {
			return false
		}
	}
	return len(body) >= sparseMinBytes && len(body) >= sparseLineBytes*lines
}

// htmlLine returns a line of n bytes, its line end included, as an HTML
// page served as robots.txt has: markup with no directive.
func htmlLine(n int) string {
	const markup = `<div class="nav"><a href="/shop/item?id=7">Item</a></div>`
	return strings.Repeat(markup, n/len(markup)+1)[:n-1] + "\n"
}

// A file with no group, of a few long lines (an HTML page served as
// robots.txt), is compiled whole at its first question, which drops its
// copy: its answers, by Allowed, Explain and Rules, are the reference
// model's before and after, its sitemaps and fields the compiled form's.
// Files just past each bound (a user-agent line, shorter lines, fewer
// bytes) keep their copy and a scoped set.
func TestSparseCompiledWhole(t *testing.T) {
	// Directives outside any group: Google ignores the rule and keeps
	// the sitemap and the other line as the file's.
	directives := "disallow: /a\nsitemap: https://example.com/s.xml\ncrawl-delay: 5\n"
	long := directives + strings.Repeat(htmlLine(2000), 8)
	// 8 lines of 1,024 bytes, the last one with no line end: exactly
	// sparseLineBytes a line.
	exact := strings.Repeat(htmlLine(sparseLineBytes), 7) + htmlLine(sparseLineBytes)[:sparseLineBytes-1] + "x"
	cases := []struct {
		name     string
		body     string
		compiled bool
	}{
		{"long lines", long, true},
		{"exactly the bound", exact, true},
		{"one line more", exact + "\n", false},
		{"a user-agent line", "user-agent: *\n" + long, false},
		{"a user-agent line at the end", long + "User-Agent: foo", false},
		{"shorter lines", directives + strings.Repeat(htmlLine(500), 40), false},
		{"fewer bytes", directives + strings.Repeat(htmlLine(2000), 2), false},
	}
	agents := []string{"Googlebot", "bingbot", "foo", "*"}
	urls := []string{"/", "/a", "/shop/item?id=7"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.body)
			if got := sparseFile(body); got != tc.compiled {
				t.Fatalf("sparseFile = %v, want %v: the case is not at its bound", got, tc.compiled)
			}
			ref := reference.New(body)
			f := load(body)
			compareWithReference(t, body, ref, f, agents[0], urls[0])
			if got := f.isBuilt(); got != tc.compiled {
				t.Fatalf("after the first question, compiled = %v, want %v", got, tc.compiled)
			}
			if _, kept := f.body(); kept == tc.compiled {
				t.Fatalf("after the first question, copy kept = %v, want %v", kept, !tc.compiled)
			}
			if got := f.scoped.Load() != nil; got == tc.compiled {
				t.Fatalf("after the first question, scoped set kept = %v, want %v", got, !tc.compiled)
			}
			for _, a := range agents {
				for _, u := range urls {
					compareWithReference(t, body, ref, f, a, u)
				}
			}
			// Rules, as the first call on a fresh file, takes the same
			// step.
			whole := load(body)
			whole.Compile()
			g := load(body)
			rs, specific := g.Rules("Googlebot")
			if g.isBuilt() != tc.compiled {
				t.Fatalf("after Rules, compiled = %v, want %v", g.isBuilt(), tc.compiled)
			}
			wantRS, wantSpecific := whole.Rules("Googlebot")
			if got, want := rs.Verdict("/a"), wantRS.Verdict("/a"); specific != wantSpecific || got != want {
				t.Fatalf("Rules(Googlebot): %v, %v; compiled at once: %v, %v", got, specific, want, wantSpecific)
			}
			if diff := cmp.Diff(whole.Sitemaps(), f.Sitemaps()); diff != "" {
				t.Fatalf("sitemaps (-compiled at once +after questions):\n%s", diff)
			}
			if diff := cmp.Diff(whole.Fields(), f.Fields()); diff != "" {
				t.Fatalf("fields (-compiled at once +after questions):\n%s", diff)
			}
		})
	}
}

// On random files of long lines, with or without a group, the answers
// are the reference model's across the first question, and the file is
// compiled whole after it exactly when it has no user-agent line and its
// lines are long.
func TestSparseRandom(t *testing.T) {
	lines := []string{
		"disallow: /a", "allow: /a/b", "Disallow: /*.php$", "sitemap: https://example.com/s.xml", "crawl-delay: 2",
		"content-usage: train-ai=n", "# comment", "", "<p>text: more</p>", "user-agent: *", "User-agent: foo",
	}
	urls := []string{"/", "/a", "/a/b", "/x.php", "/p"}
	agents := []string{"foo", "Googlebot", "bar"}
	compiled, scoped := 0, 0
	reference.EachChooser(23, raceShare(600), 64, func(i int, c *reference.Chooser) {
		var b strings.Builder
		for n := 1 + c.Pick(24); n > 0; n-- {
			if c.Pick(4) != 0 {
				b.WriteString(htmlLine(200 + 200*c.Pick(16)))
				continue
			}
			line := c.From(lines)
			if strings.HasPrefix(line, "user") && c.Pick(4) != 0 {
				continue // most files have no group
			}
			b.WriteString(line)
			b.WriteString(c.From([]string{"\n", "\r\n", "\r"}))
		}
		body := []byte(b.String())
		if len(body) == 0 {
			return // nothing to keep: compiled at once
		}
		ref := reference.New(body)
		f := load(body)
		compareWithReference(t, body, ref, f, c.From(agents), c.From(urls))
		want := sparseFile(body)
		if f.isBuilt() != want {
			t.Fatalf("after the first question, compiled = %v, want %v\nrobots.txt: %q", f.isBuilt(), want, body)
		}
		if want {
			compiled++
		} else {
			scoped++
		}
		for range 4 {
			compareWithReference(t, body, ref, f, c.From(agents), c.From(urls))
		}
	})
	if compiled == 0 || scoped == 0 {
		t.Fatalf("%d files compiled whole, %d kept scoped: the generator misses a side", compiled, scoped)
	}
	t.Logf("%d files compiled whole at their first question, %d kept scoped", compiled, scoped)
}
