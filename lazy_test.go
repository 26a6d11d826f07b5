package robotstxt_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
)

// Concurrent first questions on one fresh Robots: one streams, the others
// compile, and all answer alike (run with -race), whether the Robots holds
// a copy (Parse) or the caller's bytes (ParseString, ParseOwned), and
// whether the kept bytes are copied at the first question (a rule starts
// in the file's last bytes: "allow: /p").
func TestFirstQuestionsConcurrent(t *testing.T) {
	parsers := map[string]func([]byte) *robotstxt.Robots{
		"Parse":       robotstxt.Parse,
		"ParseString": func(b []byte) *robotstxt.Robots { return robotstxt.ParseString(string(b)) },
		"ParseOwned":  func(b []byte) *robotstxt.Robots { return robotstxt.ParseOwned(ownedCopy(b)) },
	}
	bodies := []string{
		"user-agent: *\ndisallow: /private\nallow: /private/ok\n",
		"user-agent: *\nallow: /private/ok\ndisallow: /p",
	}
	for name, parse := range parsers {
		for _, body := range bodies {
			for range 50 {
				r := parse([]byte(body))
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
						t.Fatalf("%s of %q: a concurrent first question got the wrong answer", name, body)
					}
				}
			}
		}
	}
}

// Every method may be the first to touch a fresh Robots, from many
// goroutines at once: the file is compiled once, and every answer is the
// one a Robots compiled before use gives (run with -race).
func TestLazyCompileConcurrentMethods(t *testing.T) {
	body := []byte("user-agent: *\ncrawl-delay: 2\ndisallow: /private\nallow: /private/ok\ncontent-usage: train-ai=n\nsitemap: https://a.example/s.xml\n")
	ref := robotstxt.Parse(body)
	ref.Sitemaps() // compiles
	wantGroups := ref.Groups()
	for range 20 {
		r := robotstxt.Parse(body)
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

// BenchmarkStreamCorpus asks one question of every corpus file, freshly
// parsed: the question streams over the file.
func BenchmarkStreamCorpus(b *testing.B) {
	benchEachFile(b, func(f []byte) { robotstxt.Parse(f).Allowed("Googlebot", "https://example.com/a/b?c") })
}
