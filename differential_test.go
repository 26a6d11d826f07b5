package robotstxt_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// freshTwin fails t when a fresh Robots of body, which answers its first
// question from the agent's rules compiled alone (or, for a file whose
// groups are too large for that, by streaming over the file), and
// compiled, compiled first, answer a question differently.
func freshTwin(t *testing.T, body []byte, compiled *robotstxt.Robots, agent, url string) {
	t.Helper()
	compiled.Sitemaps() // compiles
	got := robotstxt.Parse(body).Explain(agent, url)
	if want := compiled.Explain(agent, url); got != want {
		t.Fatalf("fresh (%q, %q) = %v; compiled = %v\nrobots.txt: %q", agent, url, got, want, body)
	}
}

// onceTwin fails t when the one-question function, robotstxt.Allowed,
// answers a question about body otherwise than r, a Robots of body whose
// answers the caller checks, does.
func onceTwin(t *testing.T, body []byte, r *robotstxt.Robots, agent, url string) {
	t.Helper()
	if got, want := robotstxt.Allowed(body, agent, url), r.Allowed(agent, url); got != want {
		t.Fatalf("robotstxt.Allowed(body, %q, %q) = %v; Parse(body).Allowed: %v\nrobots.txt: %q", agent, url, got, want, body)
	}
}

// compareWithReference fails t when r and the reference model disagree on
// a query.
func compareWithReference(t *testing.T, body []byte, ref *reference.Model, r *robotstxt.Robots, agent, url string) {
	t.Helper()
	ref.Compare(t, body, matcherOf(r), agent, url)
}

// matcherOf returns r as the reference package's comparisons see it.
func matcherOf(r *robotstxt.Robots) reference.Matcher {
	return reference.Matcher{
		Explain: func(agent, url string) (bool, int) {
			v := r.Explain(agent, url)
			return v.Allowed, v.Rule.Line
		},
		Allowed: r.Allowed,
	}
}

// The fast implementation agrees with the reference model on generated
// files and queries, and so does the stream on every query (not only on
// the first ones asked of a file), reaching the corners the corpus lacks:
// escaped and index.htm patterns, agents named in several groups, rules
// outside groups, long lines. Failures print the file, agent and URL.
func TestReferenceGenerated(t *testing.T) {
	reference.EachChooser(1, 4000, 2048, func(_ int, c *reference.Chooser) {
		body := reference.GenRobots(c)
		ref, r := reference.New(body), robotstxt.Parse(body)
		for q := 0; q < 12; q++ {
			agent, url := c.From(reference.GenQAgent), reference.GenURL(c)
			compareWithReference(t, body, ref, r, agent, url)
			freshTwin(t, body, r, agent, url)
			onceTwin(t, body, r, agent, url)
		}
	})
}

// The reference model agrees with the fast implementation on Google's
// compliance tests, and both meet the expectations (but for the two raw-URL expectations that wire form overrides; see
// contractExceptions).
func TestReferenceSpec(t *testing.T) {
	for _, c := range loadSpecCases(t) {
		body := []byte(c.robots)
		ref := reference.New(body)
		for _, e := range c.expect {
			got, _ := ref.Verdict(e.agent, e.url)
			want := e.allowed != contractExceptions[contractKey(c.file, e.url, e.agent)]
			if got != want {
				t.Errorf("reference model: %s case %d: (%q, %q) = %v, want %v", c.file, c.num, e.agent, e.url, got, want)
			}
			compareWithReference(t, body, ref, robotstxt.Parse(body), e.agent, e.url)
		}
	}
}

// The fast implementation agrees with the reference model on every file of
// the real-world corpus, for a crawler's queries.
func TestReferenceCorpus(t *testing.T) {
	names, files := loadCorpus(t)
	queries := 0
	for i, f := range files {
		ref, r := reference.New(f), robotstxt.Parse(f)
		for _, q := range crawlerQueries([][]byte{f}) {
			wantAllowed, wantLine := ref.Verdict(q.agent, q.url)
			v := r.Explain(q.agent, q.url)
			if v.Allowed != wantAllowed || v.Rule.Line != wantLine {
				t.Errorf("%s: Explain(%q, %q) = %v line %d; reference says %v line %d",
					names[i], q.agent, q.url, v.Allowed, v.Rule.Line, wantAllowed, wantLine)
			}
			if once := robotstxt.Allowed(f, q.agent, q.url); once != wantAllowed {
				t.Errorf("%s: robotstxt.Allowed(file, %q, %q) = %v; reference says %v", names[i], q.agent, q.url, once, wantAllowed)
			}
			queries++
		}
	}
	t.Logf("%d files, %d queries agree", len(files), queries)
}

// fuzzSeeds returns the files of testdata and a sample of the corpus.
func fuzzSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	for _, name := range []string{"testdata/robots.txt"} {
		if data, err := os.ReadFile(name); err == nil {
			seeds = append(seeds, data)
		}
	}
	dir := corpus.Dir()
	entries, _ := os.ReadDir(dir)
	for i, e := range entries {
		if i%20 != 0 {
			continue
		}
		if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && len(data) < 64<<10 {
			seeds = append(seeds, data)
		}
	}
	return seeds
}

// FuzzParse: any bytes parse without panicking; answers are deterministic
// and agree with the reference model; the size limit changes nothing for
// files below it.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte("user-agent: *\ndisallow: /a*b$\nallow: /a/index.html\n"))
	f.Add([]byte("user-agent: googlebot\ncrawl-delay: 99999999999999\nrequest-rate: 1/99999999999d 0600-0900\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := robotstxt.Parse(data)
		ref := reference.New(data)
		for _, agent := range []string{"Googlebot", "*", "", "foo"} {
			for _, url := range []string{"/", "https://example.com/a/b?c=d", "/index.html", "/%e9"} {
				compareWithReference(t, data, ref, r, agent, url)
				first := r.Allowed(agent, url)
				if again := r.Agent(agent).Allowed(url); again != first {
					t.Fatalf("Agent(%q).Allowed(%q) = %v, Allowed = %v", agent, url, again, first)
				}
			}
		}
		// A token list resolves as its first named token, else as "*";
		// delays stay within MaxCrawlDelay.
		for _, names := range [][]string{{"foo", "Googlebot"}, {"Googlebot", "foo"}, {"", "*"}} {
			list, want := r.Agent(names...), r.Agent(names[1])
			if first := r.Agent(names[0]); first.Specific() {
				want = first
			}
			if list.Allowed("/a") != want.Allowed("/a") || list.Specific() != want.Specific() || list.Name() != want.Name() && want.Specific() {
				t.Fatalf("Agent(%q) differs from Agent(%q)", names, want.Name())
			}
			cd, _ := list.CrawlDelay()
			rr, _ := list.RequestRate()
			if cd < 0 || cd > robotstxt.MaxCrawlDelay || rr < 0 || rr > robotstxt.MaxCrawlDelay {
				t.Fatalf("Agent(%q): CrawlDelay %v, RequestRate %v out of [0, %v]", names, cd, rr, robotstxt.MaxCrawlDelay)
			}
		}
		if len(data) <= robotstxt.DefaultMaxSize {
			all := robotstxt.ParseWith(data, robotstxt.Options{MaxSize: -1})
			if r.Allowed("Googlebot", "/a") != all.Allowed("Googlebot", "/a") || r.Truncated() {
				t.Fatal("the size limit changed a file below it")
			}
		}
	})
}

// FuzzAllowed: any agent and URL against any file; the fast implementation
// agrees with the reference model and does not allocate.
func FuzzAllowed(f *testing.F) {
	f.Add([]byte("user-agent: FooBot\ndisallow: /x\n"), "FooBot", "http://a/x")
	f.Add([]byte("user-agent: *\nallow: /é$\ndisallow: /\n"), "a", "/%c3%a9")
	f.Add([]byte(""), "", "")
	// The stream's shortcuts: lines ended by CR alone, a passed-over
	// disallow line with CR LF, a partial byte order mark, '\v' and '\f'
	// around the key, a value cut at the line cap.
	f.Add([]byte("user-agent: *\r#c\rdisallow: /b\r\ndisallow: /a\r"), "x", "/a")
	f.Add([]byte("\xEF\xBBuser-agent: foo\n\v\fDisallow\v:\f/a b\nallow: /*/index.htm$\n"), "FOO", "/a b/")
	f.Add([]byte("user-agent: *\ndisallow: /"+strings.Repeat("a", 16660)+"\n"), "x", "/"+strings.Repeat("a", 16655))
	f.Fuzz(func(t *testing.T, data []byte, agent, url string) {
		r := robotstxt.Parse(data)
		compareWithReference(t, data, reference.New(data), r, agent, url)
		// A kept slice, which has no padding after it, answers as the
		// copy Parse makes.
		if got, want := robotstxt.ParseOwned(ownedCopy(data)).Explain(agent, url), r.Explain(agent, url); got != want {
			t.Fatalf("ParseOwned: Explain(%q, %q) = %v, Parse %v", agent, url, got, want)
		}
		freshTwin(t, data, r, agent, url)
		onceTwin(t, data, r, agent, url)
		if len(url) < 512 {
			if n := testing.AllocsPerRun(2, func() { r.Allowed(agent, url) }); n != 0 {
				t.Fatalf("Allowed(%q, %q) allocated %v times", agent, url, n)
			}
			// A fresh Robots compiles the agent's rules alone at its
			// first question (AllocsPerRun's warm-up run); the two
			// after it allocate nothing.
			fresh := robotstxt.Parse(data)
			if n := testing.AllocsPerRun(2, func() { fresh.Allowed(agent, url) }); n != 0 {
				t.Fatalf("streamed Allowed(%q, %q) allocated %v times", agent, url, n)
			}
		}
	})
}

// FuzzDifferential: generated robots.txt files and queries, built from the
// fuzz input, answer as the reference model does.
func FuzzDifferential(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Add(bytes.Repeat([]byte{0x37, 0x91, 0x02, 0xfe}, 32))
	f.Fuzz(func(t *testing.T, src []byte) {
		c := reference.NewChooser(src)
		body := reference.GenRobots(c)
		ref, r := reference.New(body), robotstxt.Parse(body)
		for q := 0; q < 8; q++ {
			agent, url := c.From(reference.GenQAgent), reference.GenURL(c)
			compareWithReference(t, body, ref, r, agent, url)
			freshTwin(t, body, r, agent, url)
			onceTwin(t, body, r, agent, url)
		}
	})
}
