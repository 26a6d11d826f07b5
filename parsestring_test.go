package robotstxt_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// answers returns what a crawler reads of r: each agent's verdicts with
// the line that decided, its crawl delay, and the file's sitemaps.
func answers(r *robotstxt.Robots, agents, urls []string) []string {
	var out []string
	for _, a := range agents {
		for _, u := range urls {
			v := r.Explain(a, u)
			out = append(out, strings.Join([]string{a, u, v.String()}, " "))
		}
		if d, ok := r.Agent(a).CrawlDelay(); ok {
			out = append(out, a+" crawl-delay "+d.String())
		}
	}
	return append(out, r.Sitemaps()...)
}

// ParseString answers as Parse: it differs only in keeping the caller's
// string, which cannot change, rather than a copy (its documentation).
// The files end in each way that matters to what it keeps: a rule in the
// last bytes (which makes it copy), a sitemap, no newline, nothing.
func TestParseStringAnswersAsParse(t *testing.T) {
	compareParseString(t, keptEndings())
}

// keptEndings returns files that end in each way that matters to a
// file kept rather than copied.
func keptEndings() [][]byte {
	return [][]byte{
		[]byte("User-agent: *\nDisallow: /private/\nAllow: /private/press/\nSitemap: https://example.com/s.xml\n"),
		[]byte("user-agent: googlebot\ncrawl-delay: 2\ndisallow: /g\n\nuser-agent: *\ndisallow: /"),
		[]byte("User-agent: *\nDisallow:"),
		[]byte("User-agent: *\nAllow: /index.htm"),
		[]byte("User-agent: *\nDisallow: /%7Ea\n"),
		[]byte(""),
	}
}

// TestParseStringCorpus is TestParseStringAnswersAsParse on the corpus,
// for ParseString and ParseOwned.
func TestParseStringCorpus(t *testing.T) {
	_, files := loadCorpus(t)
	compareParseString(t, files)
	compareParseOwned(t, files)
}

// compareParseString fails t where ParseString and Parse answer a file of
// files differently, as the crawler's two agents and the file's own.
func compareParseString(t *testing.T, files [][]byte) {
	t.Helper()
	compareWithParse(t, "ParseString", files, func(data []byte) *robotstxt.Robots {
		return robotstxt.ParseString(string(data))
	})
}

// compareWithParse fails t where parse, named name, and Parse answer a
// file of files differently, as the crawler's two agents and the file's
// own.
func compareWithParse(t *testing.T, name string, files [][]byte, parse func([]byte) *robotstxt.Robots) {
	t.Helper()
	for i, data := range files {
		agents, urls := corpus.Queries(data)
		agents = append(agents, corpus.ManyAgents(data)...)
		want := answers(robotstxt.Parse(data), agents, urls)
		got := answers(parse(data), agents, urls)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("file %d: %s differs from Parse (-Parse +%s):\n%s\nrobots.txt: %q", i, name, name, diff, data)
		}
	}
}

// ParseStringWith reads as far as ParseWith, and reports a cut file as
// truncated (Google's docs, "File format": 500 KiB).
func TestParseStringSizeLimit(t *testing.T) {
	head := "User-agent: *\nDisallow: /a\n"
	data := head + strings.Repeat("#", robotstxt.DefaultMaxSize-len(head)-1) + "\nDisallow: /b\n"
	r := robotstxt.ParseString(data)
	if !r.Truncated() || r.Size() != robotstxt.DefaultMaxSize || !r.Allowed("x", "/b") || r.Allowed("x", "/a") {
		t.Errorf("ParseString: Truncated() = %v, Size() = %d, /b allowed %v, /a allowed %v; want true, %d, true, false",
			r.Truncated(), r.Size(), r.Allowed("x", "/b"), r.Allowed("x", "/a"), robotstxt.DefaultMaxSize)
	}
	all := robotstxt.ParseStringWith(data, robotstxt.Options{MaxSize: -1})
	if all.Truncated() || all.Size() != len(data) || all.Allowed("x", "/b") {
		t.Errorf("MaxSize -1: Truncated() = %v, Size() = %d, /b allowed %v; want false, %d, false", all.Truncated(), all.Size(), all.Allowed("x", "/b"), len(data))
	}
}
