package robotstxt

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// streamTwin fails t when streamVerdict and the compiled form answer a
// question differently. Google's matcher streams (RobotsMatcher in
// robots.cc answers while parsing), so both must decide as it does.
func streamTwin(t *testing.T, body []byte, compiled *Robots, agent, url string) {
	t.Helper()
	got, ok := streamVerdict(string(body), agent, url)
	if !ok {
		return // over budget: the compiled form answers
	}
	rs, _ := compiled.rulesFor(agent)
	if want := rs.verdict(url); got != want {
		t.Fatalf("streamed (%q, %q) = %v; compiled = %v\nrobots.txt: %q", agent, url, got, want, body)
	}
}

// The streamed first question decides as the compiled form, on every
// query of the corpus (not only the first one asked of each file).
func TestStreamMatchesCompiled(t *testing.T) {
	_, files := loadCorpus(t)
	n := 0
	for _, f := range files {
		r := Parse(f)
		for _, q := range crawlerQueries([][]byte{f}) {
			streamTwin(t, f, r, q.agent, q.url)
			n++
		}
	}
	t.Logf("%d corpus queries agree", n)
}

// Table cases for what the stream must get right, each from Google's
// matcher (robots.cc) or RFC 9309 section 2.2.2.
func TestStreamCases(t *testing.T) {
	tests := []struct {
		name, body, agent, url string
	}{
		{"longest match decides (RFC 9309 2.2.2)", "user-agent: *\ndisallow: /a\nallow: /a/b\n", "x", "/a/b/c"},
		{"allow wins a tie (RFC 9309 2.2.2)", "user-agent: *\ndisallow: /a\nallow: /a\n", "x", "/a"},
		{"first line on a tie of the same kind", "user-agent: *\ndisallow: /a*\ndisallow: /a$\n", "x", "/a"},
		{"a group naming the agent hides *", "user-agent: *\ndisallow: /\nuser-agent: foo\nallow: /x\n", "FOO", "/y"},
		{"a group naming the agent without rules hides *", "user-agent: foo\nuser-agent: *\ndisallow: /\n", "foo", "/y"},
		{"groups naming the agent merge", "user-agent: foo\ndisallow: /a\nuser-agent: bar\ndisallow: /\nuser-agent: foo\nallow: /a/b\n", "foo", "/a/b"},
		{"index.htm allows its directory (Google)", "user-agent: *\ndisallow: /\nallow: /d/index.html\n", "x", "/d/"},
		{"escaped pattern", "user-agent: *\ndisallow: /é\n", "x", "/%C3%A9x"},
		{"empty disallow names its line and allows", "user-agent: *\ndisallow:\n", "x", "/"},
		{"rules before any group are ignored", "disallow: /\nuser-agent: *\nallow: /a\n", "x", "/b"},
		{"wildcard and anchor", "user-agent: *\ndisallow: /*.pdf$\n", "x", "/x/y.pdf"},
		{"star agent with trailing words", "user-agent: * foo\ndisallow: /\n", "foo", "/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			streamTwin(t, []byte(tt.body), Parse([]byte(tt.body)), tt.agent, tt.url)
			if _, ok := streamVerdict(tt.body, tt.agent, tt.url); !ok {
				t.Fatal("streamVerdict gave up on a small file")
			}
		})
	}
}

// A question that would cost more than the budget gives up, and the
// compiled form answers it.
func TestStreamBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for i := range 2000 {
		b.WriteString("disallow: /*" + letters(i) + "q\n")
	}
	body := b.String()
	url := "/" + strings.Repeat("a", 1000)
	if _, ok := streamVerdict(body, "x", url); ok {
		t.Fatal("streamVerdict matched 2,000 wildcard rules against a 1 KB path")
	}
	r := Parse([]byte(body))
	if !r.Allowed("x", url) {
		t.Fatal("the compiled form disallowed a path no rule matches")
	}
}

// Streaming the first question allocates nothing.
func TestStreamDoesNotAllocate(t *testing.T) {
	body := "user-agent: *\ndisallow: /é\nallow: /d/index.html\ndisallow: /*.pdf$\n"
	if n := testing.AllocsPerRun(20, func() { streamVerdict(body, "x", "https://a.example/d/%c3%a9") }); n != 0 {
		t.Fatalf("streamVerdict allocated %v times", n)
	}
}

// Concurrent first questions on one fresh Robots: one streams, the others
// compile, and all answer alike (run with -race).
func TestFirstQuestionsConcurrent(t *testing.T) {
	body := []byte("user-agent: *\ndisallow: /private\nallow: /private/ok\n")
	for range 50 {
		r := Parse(body)
		done := make(chan bool, 8)
		for g := range 8 {
			go func() {
				url := "/private/x"
				if g%2 == 0 {
					url = "/private/ok"
				}
				done <- r.Allowed("x", url) == (g%2 == 0)
			}()
		}
		for range 8 {
			if !<-done {
				t.Fatal("a concurrent first question got the wrong answer")
			}
		}
	}
}

// Every method may be the first to touch a fresh Robots, from many
// goroutines at once: the file is compiled once, and every answer is the
// one a Robots compiled before use gives (run with -race).
func TestLazyCompileConcurrentMethods(t *testing.T) {
	body := []byte("user-agent: *\ncrawl-delay: 2\ndisallow: /private\nallow: /private/ok\ncontent-usage: train-ai=n\nsitemap: https://a.example/s.xml\n")
	ref := Parse(body)
	ref.ready()
	wantGroups := ref.Groups()
	for range 20 {
		r := Parse(body)
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				switch g % 6 {
				case 0:
					if r.Allowed("x", "/private/x") {
						errs <- "Allowed"
					}
				case 1:
					if v := r.Explain("x", "/private/ok"); !v.Allowed || v.Rule.Line != 4 {
						errs <- fmt.Sprintf("Explain: %v", v)
					}
				case 2:
					if !cmp.Equal(r.Groups(), wantGroups) {
						errs <- "Groups"
					}
				case 3:
					if d, ok := r.Agent("x").CrawlDelay(); !ok || d != 2*time.Second {
						errs <- "CrawlDelay"
					}
				case 4:
					if len(r.Sitemaps()) != 1 || len(r.Fields()) != 2 {
						errs <- "Sitemaps/Fields"
					}
				case 5:
					if u := r.Usage("x", "/a"); !cmp.Equal(u, ref.Usage("x", "/a")) {
						errs <- fmt.Sprintf("Usage: %v", u)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	}
}
