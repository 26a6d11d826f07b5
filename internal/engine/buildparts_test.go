package engine

import (
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// compiledView is what a compiled File tells: its groups as written, its
// fields and sitemaps, and the verdicts of a few questions, with the rules
// that decide them.
type compiledView struct {
	Groups   []Group
	Fields   []Field
	Sitemaps []string
	Verdicts []Verdict
}

var viewAgents = []string{"FooBot", "BarBot", "x", "Googlebot", "*"}

func viewOf(f *File, urls []string) compiledView {
	f.Compile()
	v := compiledView{Groups: f.Groups(), Fields: f.Fields(), Sitemaps: f.Sitemaps()}
	for _, a := range viewAgents {
		for _, u := range urls {
			v.Verdicts = append(v.Verdicts, f.Explain(a, u))
		}
	}
	return v
}

// inParts compiles data in parts of work bytes and returns the File and
// how many parts it took.
func inParts(data []byte, work int, tooLarge bool) (*File, int) {
	f := load(data)
	if tooLarge {
		f.markTooLarge()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	parts := 1
	for !f.buildStep(work) {
		parts++
	}
	return f, parts
}

// A file compiled in parts of any size, down to a byte, is the file
// compiled at once: random files, the hostile families and the corpus.
func TestBuildInParts(t *testing.T) {
	check := func(t *testing.T, name string, data []byte, urls []string) {
		t.Helper()
		want := viewOf(load(data), urls)
		for _, work := range []int{1, 7, 100, 4096, buildPartWork} {
			f, parts := inParts(data, work, work%2 == 0)
			if got := viewOf(f, urls); !cmp.Equal(got, want) {
				t.Fatalf("%s in parts of %d bytes (%d parts) differs from the file compiled at once (-at once +in parts):\n%s",
					name, work, parts, cmp.Diff(want, got))
			}
			if f.pending.Load() != nil || f.compiling() {
				t.Fatalf("%s in parts of %d bytes: the copy or the partial build is kept once compiled", name, work)
			}
			if lines := strings.Count(string(data), "\n"); work == 1 && lines > 2 && parts < lines {
				t.Fatalf("%s in parts of one byte: %d parts for %d lines", name, parts, lines)
			}
		}
	}
	t.Run("random", func(t *testing.T) {
		reference.EachChooser(29, raceShare(1500), 512, func(i int, c *reference.Chooser) {
			data := reference.GenRobots(c)
			urls := []string{reference.GenURL(c), reference.GenURL(c), "/", "/a"}
			check(t, "random file", data, urls)
		})
	})
	t.Run("hostile", func(t *testing.T) {
		for _, fam := range reference.HostileFamilies(40 << 10) {
			check(t, fam.Name, fam.File, []string{fam.Path(100), fam.Path(1000) + "bcd", "/"})
		}
	})
	t.Run("corpus", func(t *testing.T) {
		_, files := loadCorpus(t)
		for _, data := range files[:min(len(files), raceShare(400))] {
			check(t, "corpus file", data, []string{"/", "/search?q=1", "/admin/", "/wp-admin/admin-ajax.php"})
		}
	})
}

// A file whose groups that apply are too large for a scoped set answers
// every question as the reference model does while it is compiled in
// parts. With one CPU, each question after the first does a part, so that
// it is compiled after at most a part a question (the parts that read
// the lines, then the one that finishes), whatever the goroutine that
// does the other parts did; the copy is then dropped. A file asked
// once is not compiled. Rules compiles it at once.
func TestLargeFileCompiledInParts(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	// Wildcard rules whose literal prefix no question's path starts with:
	// the stream does not give up on them.
	body := []byte("user-agent: *\n" + strings.Repeat("disallow: /q*z\nallow: /c\n", 2*buildPartWork/24) + "disallow: /*x$\n")
	if lines := strings.Count(string(body), "\n"); lines <= maxScopedLines || len(body) > maxSize {
		t.Fatalf("%d lines, %d bytes: not too large for a scoped set, or past the size limit", lines, len(body))
	}
	parts := (len(body)+buildPartWork-1)/buildPartWork + 1 // reading, then finishing
	questions := 1 + parts                                 // the first does no part
	f := load(body)
	ref := reference.New(body)
	urls := []string{"/abx", "/c/d", "/a", "/cab", "/qz", "/q/x"}
	for q := 0; q < questions; q++ {
		url := urls[q%len(urls)]
		allowed, line := ref.Verdict("bot", url)
		if v := f.Explain("bot", url); v.Allowed != allowed || v.Rule.Line != line {
			t.Fatalf("question %d: Explain(bot, %q) = %v; reference: %v, line %d", q+1, url, v, allowed, line)
		}
		if q == 0 && (!f.isTooLarge() || f.compiling()) {
			t.Fatalf("after the first question: too large %v, compile started %v", f.isTooLarge(), f.compiling())
		}
	}
	if !f.isBuilt() || f.pending.Load() != nil || f.compiling() {
		t.Fatalf("not compiled after %d questions", questions)
	}
	g := load(body)
	if rs, _ := g.Rules("bot"); !g.isBuilt() || rs.Verdict("/abx").Allowed {
		t.Fatal("Rules of a file too large for a scoped set did not compile it whole")
	}
}

// Questions asked while a hostile file is compiled in parts, of one CPU
// and of four, and from several goroutines at once, answer as the file
// compiled at once does (whose answers TestHostileAgainstScan checks
// against the slow scan), and the questions themselves complete the
// compile: no goroutine of the engine's is left to do it (run with
// -race).
func TestLargeFileCompiledByQuestions(t *testing.T) {
	large := 0
	for _, fam := range reference.HostileFamilies(200 << 10) {
		compiled := load(fam.File)
		compiled.Compile()
		for _, procs := range []int{1, 4} {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				f := load(fam.File)
				done := make(chan struct{})
				for g := 0; g < 3; g++ {
					go func() {
						defer func() { done <- struct{}{} }()
						for q := 0; q < 6; q++ {
							url := fam.Path(100 + 700*q + g)
							if got, want := f.Explain("Googlebot", url), compiled.Explain("Googlebot", url); got != want {
								t.Errorf("%s, %d CPUs: Explain(%.40q…) = %v; compiled at once: %v", fam.Name, procs, url, got, want)
								return
							}
						}
					}()
				}
				for range 3 {
					<-done
				}
				if !f.isTooLarge() {
					return // a scoped set answers: no compile in parts
				}
				large++
				if !f.isBuilt() {
					t.Errorf("%s, %d CPUs: not compiled after 18 questions", fam.Name, procs)
				}
			}()
		}
	}
	if large < 10 {
		t.Fatalf("%d files compiled in parts: too few to test", large)
	}
}

// A file of compileWholeBytes or more that is not too large for scoped
// sets answers from them, then, from its compileWholeAfter-th question
// with a scoped set on, is compiled a part a question, which drops its
// copy and its scoped sets; every answer on the way is the reference
// model's (RFC 9309 section 2.2.2; Google's docs, "Order of precedence
// for rules"). A smaller file keeps its copy.
func TestLargeFileAskedOftenCompiledWhole(t *testing.T) {
	var body strings.Builder
	body.WriteString("user-agent: bot\ndisallow: /a\nallow: /a/b\ndisallow: /*.pdf$\n\nuser-agent: *\ndisallow: /\n")
	for body.Len() < 3*compileWholeBytes {
		body.WriteString("# a page of comments, as HTML served as robots.txt is to a parser\n")
	}
	large := []byte(body.String())
	small := []byte(body.String()[:compileWholeBytes/2])
	urls := []string{"/a", "/a/b", "/c.pdf", "/x", "/a/b.pdf"}
	parts := (len(large) + buildPartWork - 1) / buildPartWork
	for _, tt := range []struct {
		name    string
		data    []byte
		compile bool
	}{{"large", large, true}, {"small", small, false}} {
		f := load(tt.data)
		ref := reference.New(tt.data)
		// The first question of each agent builds its set and is not
		// counted; the parts start after compileWholeAfter counted ones,
		// and the one that finishes the compile comes after them.
		questions := 2 + compileWholeAfter + parts + 1
		for q := 0; q < questions; q++ {
			agent := []string{"bot", "other"}[q%2]
			url := urls[q%len(urls)]
			allowed, line := ref.Verdict(agent, url)
			if v := f.Explain(agent, url); v.Allowed != allowed || v.Rule.Line != line {
				t.Fatalf("%s, question %d: Explain(%s, %q) = %v; reference: %v, line %d", tt.name, q+1, agent, url, v, allowed, line)
			}
			if q+1 < compileWholeAfter && f.isBuilt() {
				t.Fatalf("%s compiled whole at question %d, before %d", tt.name, q+1, compileWholeAfter)
			}
		}
		if compiled := f.isBuilt() && f.pending.Load() == nil && f.scoped.Load() == nil; compiled != tt.compile {
			t.Errorf("%s: compiled whole, copy dropped: %v, want %v", tt.name, compiled, tt.compile)
		}
	}
}
