package engine

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// scopedTwin fails t when the rule set of agent compiled alone from body
// and the whole file's compiled form differ: on whether a group names the
// agent, the verdict for url (deciding rule included), the crawl delay,
// request rate and preferences.
func scopedTwin(t *testing.T, body []byte, compiled *File, agent, url string) {
	t.Helper()
	var f File
	f.Load(body)
	scopedTwinOf(t, &f, body, compiled, agent, url)
}

// scopedTwinOf is scopedTwin for the scoped set of agent in f, a file
// loaded from body that may have the sets of other agents already.
func scopedTwinOf(t *testing.T, f *File, body []byte, compiled *File, agent, url string) {
	t.Helper()
	if len(body) == 0 {
		return // nothing to compile: an empty file allows everything
	}
	first := firstQuestion{url: url, explain: true}
	kept, _ := f.body()
	s := f.scope(kept, agent, &first)
	if s == nil {
		if sparseFile(body) {
			return // no group, few long lines: compiled whole (TestSparseCompiledWhole)
		}
		if bytes.Count(body, []byte("\n"))+bytes.Count(body, []byte("\r")) < maxScopedLines { // see tooLarge
			t.Fatalf("scope(%q) = nil on a fresh file of fewer than %d lines", agent, maxScopedLines)
		}
		return // too large: compiled whole
	}
	compiled.Compile() // Rules alone would compile this agent's set alone
	want, specific := compiled.Rules(agent)
	// The question that built the set answers from its rules in file
	// order, the later ones from its sorted rules.
	if first.answered {
		if want := want.Verdict(url); first.v != want {
			t.Fatalf("scoped (%q, %q), first question = %v; compiled = %v\nrobots.txt: %q", agent, url, first.v, want, body)
		}
	}
	got := s.ruleSet()
	if s.named() != specific {
		t.Fatalf("scoped %q: named %v; compiled: %v\nrobots.txt: %q", agent, s.named(), specific, body)
	}
	if got, want := got.Verdict(url), want.Verdict(url); got != want {
		t.Fatalf("scoped (%q, %q) = %v; compiled = %v\nrobots.txt: %q", agent, url, got, want, body)
	}
	type delays struct {
		Delay, Interval   time.Duration
		HasDelay, HasRate bool
	}
	of := func(rs *RuleSet) delays {
		d, hasD := rs.CrawlDelay()
		r, hasR := rs.RequestRate()
		return delays{d, r, hasD, hasR}
	}
	if diff := cmp.Diff(of(want), of(got)); diff != "" {
		t.Fatalf("scoped %q: delays (-compiled +scoped):\n%s\nrobots.txt: %q", agent, diff, body)
	}
	if diff := cmp.Diff(want.Usage(url), got.Usage(url)); diff != "" {
		t.Fatalf("scoped (%q, %q): usage (-compiled +scoped):\n%s\nrobots.txt: %q", agent, url, diff, body)
	}
}

// The rule set of an agent compiled alone decides as the whole file's,
// deciding rule included, on every query of the corpus.
func TestScopedMatchesCompiled(t *testing.T) {
	_, files := loadCorpus(t)
	n := 0
	for i, data := range files {
		if raceSkip(i) {
			continue
		}
		compiled := load(data)
		agents, urls := corpus.Queries(data)
		for _, a := range agents {
			for _, u := range urls {
				scopedTwin(t, data, compiled, a, u)
				n++
			}
		}
	}
	t.Logf("%d corpus queries agree", n)
}

// The same on random files aimed at the corner cases of groups, escapes,
// derived index.htm patterns and long lines, and against the reference
// model through File, whose later questions the scoped sets answer.
func TestScopedCorners(t *testing.T) {
	asked := 0
	reference.EachChooser(11, raceShare(3000), 512, func(i int, c *reference.Chooser) {
		cf := genCornerFile(c)
		body, agent, url := cf.body, genCornerAgent(c, &cf), genCornerURL(c, &cf)
		compiled := load(body)
		scopedTwin(t, body, compiled, agent, url)
		// Through the File: the first question streams, the next ones
		// ask the scoped sets of up to maxScopedAgents+1 agents.
		f := load(body)
		ref := reference.New(body)
		for k := 0; k < 3; k++ {
			compareWithReference(t, body, ref, f, agent, url)
			compareWithReference(t, body, ref, f, genCornerAgent(c, &cf), genCornerURL(c, &cf))
		}
		asked++
	})
	t.Logf("%d files asked", asked)
}

// Table cases for the choice of groups, each as Google's matcher
// (robots.cc) decides: the groups naming the agent, merged, else the "*"
// groups, merged; a "*" group read before the naming one does not apply.
func TestScopedCases(t *testing.T) {
	cases := []struct {
		name, body, agent, url string
	}{
		{"star before named", "user-agent: *\ndisallow: /a\nuser-agent: foo\ndisallow: /b\n", "FOO", "/a"},
		{"star after named", "user-agent: foo\ndisallow: /b\nuser-agent: *\ndisallow: /a\n", "foo", "/a"},
		{"merged named", "user-agent: foo\ndisallow: /b\nuser-agent: bar\nallow: /\nuser-agent: foo\nallow: /b/c\n", "foo", "/b/c"},
		{"both in one group", "user-agent: *\nuser-agent: foo\ndisallow: /a\n", "foo", "/a/b"},
		{"named with no rules", "user-agent: *\ndisallow: /\nuser-agent: foo\n", "foo", "/x"},
		{"escaped", "user-agent: *\ndisallow: /é\nallow: /%e2\n", "x", "/%C3%A9x"},
		{"derived", "user-agent: *\ndisallow: /d\nallow: /d/index.html\n", "x", "/d/"},
		{"last line at end", "user-agent: *\ndisallow: /abcdefg", "x", "/abcdefgh"},
		{"outside", "disallow: /a\nuser-agent: *\nallow: /b", "x", "/a"},
		// Past the first question's wildcard budget: the index answers.
		{"field before the naming line", "user-agent: bar\ncrawl-delay: 2\nuser-agent: foo\ndisallow: /x\n", "foo", "/"},
		{"delays", "user-agent: *\ncrawl-delay: 3\nuser-agent: foo\nrequest-rate: 1/5\ndisallow: /\nuser-agent: foo\ncrawl-delay: x\ncrawl-delay: 2\n", "foo", "/"},
		{"star delays", "user-agent: foo\ncrawl-delay: 9\nuser-agent: *\ncrawl-delay: 3\ncontent-usage: train-ai=n\nallow: /\nuser-agent: *\ncontent-usage: /a search=n\n", "bar", "/a"},
		{"many wildcards", "user-agent: *\n" + strings.Repeat("disallow: /*a*b$\nallow: /*a*c\n", 40), "x", "/" + strings.Repeat("a", 1800) + "c"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.body)
			scopedTwin(t, body, load(body), tc.agent, tc.url)
			f := load(body)
			ref := reference.New(body)
			for range 3 { // the question that builds the set, and later ones
				compareWithReference(t, body, ref, f, tc.agent, tc.url)
			}
		})
	}
}

// A file asked about more agents than it keeps scoped sets for is
// compiled whole, and the scoped sets go with the copy of the file.
func TestScopedBounded(t *testing.T) {
	body := []byte("user-agent: a\ndisallow: /a\nuser-agent: *\ndisallow: /\n")
	f := load(body)
	ref := reference.New(body)
	for i := 0; i < 2*maxScopedAgents+2; i++ {
		agent := strings.Repeat("a", i%(maxScopedAgents+3)+1)
		compareWithReference(t, body, ref, f, agent, "/a")
	}
	if !f.isBuilt() {
		t.Fatalf("asked about %d agents, the file is not compiled", maxScopedAgents+3)
	}
	if f.scoped.Load() != nil {
		t.Fatal("scoped sets kept after compiling")
	}
}

// Once its scoped set is built, Allowed allocates nothing.
func TestScopedDoesNotAllocate(t *testing.T) {
	f := load([]byte("user-agent: *\ndisallow: /a*b$\nallow: /a\n"))
	f.Allowed("foo", "/x")
	f.Allowed("foo", "/x")
	if f.findScoped("FOO") == nil {
		t.Fatal("no scoped set after two questions")
	}
	if a := testing.AllocsPerRun(100, func() { f.Allowed("Foo", "/a/b") }); a != 0 {
		t.Fatalf("Allowed allocated %v times", a)
	}
}

// BenchmarkScopedCorpus compares, over every corpus file, the costs the
// choice in plan.go weighs: streaming one question, and compiling the
// asked agent's rule set alone (which then answers every question about
// it for about a hundred nanoseconds).
func BenchmarkScopedCorpus(b *testing.B) {
	_, files := loadCorpus(b)
	bodies := make([]string, 0, len(files))
	size := int64(0)
	for _, data := range files {
		if len(data) > 0 {
			var f File
			f.Load(data)
			kept, _ := f.body()
			bodies = append(bodies, kept)
			size += int64(len(data))
		}
	}
	b.Run("stream", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, body := range bodies {
				streamVerdict(body, "Googlebot", "https://example.com/a/b?c")
			}
		}
	})
	b.Run("scope", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, body := range bodies {
				var f File
				f.scope(body, "Googlebot", nil)
			}
		}
	})
}

// FuzzScoped checks the rule set of an agent compiled alone against the
// whole file's compiled form on any file, agent and URL.
func FuzzScoped(f *testing.F) {
	f.Add([]byte("user-agent: *\ndisallow: /a\nuser-agent: foo\nallow: /a/index.html\n"), "FOO", "/a/")
	f.Add([]byte("User-agent: *\r\nDisallow: /é*$\r\n\r\nuser-agent: foo\nuser-agent: *\ndisallow: /x"), "bar", "/%C3%A9x")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		compiled := load(body)
		scopedTwin(t, body, compiled, agent, url)
		// The same agent asked second, its set read through the
		// directory of groups the first agent's pass left (groupdir.go).
		var file File
		file.Load(body)
		scopedTwinOf(t, &file, body, compiled, "foo", url)
		scopedTwinOf(t, &file, body, compiled, agent, url)
	})
}

// Questions about several agents, asked at once and while the file is
// compiled, answer as the reference model (run with -race).
func TestScopedConcurrent(t *testing.T) {
	body := []byte("user-agent: a\ndisallow: /a\nallow: /a/b$\nuser-agent: b\nuser-agent: *\ndisallow: /\nallow: /*.css\nuser-agent: c\ndisallow: /c\n")
	ref := reference.New(body)
	agents := []string{"a", "B", "c", "d", "A", "e", "f"}
	urls := []string{"/a", "/a/b", "/x.css", "/c/d", "/"}
	for round := 0; round < 20; round++ {
		f := load(body)
		done := make(chan struct{})
		for g := 0; g < 4; g++ {
			go func() {
				defer func() { done <- struct{}{} }()
				for i := 0; i < 30; i++ {
					agent, url := agents[(g+i)%len(agents)], urls[i%len(urls)]
					allowed, line := ref.Verdict(agent, url)
					if v := f.Explain(agent, url); v.Allowed != allowed || v.Rule.Line != line {
						t.Errorf("Explain(%q, %q) = %v; reference: %v, line %d", agent, url, v, allowed, line)
					}
					if g == 3 && i == 15 {
						f.Groups()
					}
				}
			}()
		}
		for g := 0; g < 4; g++ {
			<-done
		}
	}
}

// The same on random files of many small groups whose user-agent lines
// are interleaved with crawl-delay, request-rate and preference lines, for
// the agent named in several groups, in none, and the empty agent.
func TestScopedRandomGroups(t *testing.T) {
	lines := []string{
		"user-agent: *", "User-Agent: FOO", "user-agent: foo/2.0", "user-agent: bar", "user-agent: *foo", "useragent: foo",
		"disallow: /a", "disallow: /a*b", "allow: /a/b", "allow: /a/index.html", "disallow:", "Disallow: /c$", "disallow: /é",
		"crawl-delay: 2", "crawl-delay: x", "Crawl-delay: 0.5", "request-rate: 1/10", "request-rate: 3/1m",
		"content-usage: train-ai=n", "content-usage: /a search=n", "content-signal: ai-train=no", "sitemap: /s.xml",
		"# comment", "", "host: example.com",
		// Lines the pass for a set passes over unread (parse.GroupLines),
		// beside indented ones and keys in other cases it reads.
		"  crawl-delay: 4", "\tdisallow: /d", "<p>disallow: /p</p>", "noindex: /a", "clean-param: a", "REQUEST-RATE: 1/2",
		"CONTENT-USAGE: train-ai=y", "dissallow: /t", " # crawl-delay: 7", "\v\fallow: /a", "x-crawl-delay: 5",
	}
	urls := []string{"/", "/a", "/a/b", "/a/xb", "/c", "/a/", "/%C3%A9", "/d", "/t", "/p"}
	agents := []string{"foo", "Bar", "baz", ""}
	reference.EachChooser(13, 4000, 64, func(i int, c *reference.Chooser) {
		var b strings.Builder
		for n := 1 + c.Pick(16); n > 0; n-- {
			b.WriteString(c.From(lines))
			b.WriteString(c.From([]string{"\n", "\r\n", "\r"}))
		}
		body := []byte(b.String())
		compiled := load(body)
		for _, agent := range agents {
			scopedTwin(t, body, compiled, agent, c.From(urls))
		}
	})
}

// The agents that no group names share one scoped set, found by a pass
// over the user-agent lines alone; a named agent gets a set of its own.
// On random files of many small groups, several agents asked of one file
// in turn each decide as the whole file's compiled form does.
func TestScopedSharedUnnamed(t *testing.T) {
	lines := []string{
		"user-agent: *", "User-Agent: FOO", "user-agent: foo/2.0", "user-agent: bar", "user-agent: *foo", "useragent: foo",
		"user-agent: baz", "disallow: /a", "disallow: /a*b", "allow: /a/b", "disallow:", "Disallow: /c$", "crawl-delay: 2",
		"request-rate: 1/10", "content-usage: train-ai=n", "# comment", "",
	}
	urls := []string{"/", "/a", "/a/b", "/a/xb", "/c"}
	agents := []string{"foo", "Bar", "baz", "", "qux"}
	shared := 0
	reference.EachChooser(17, 4000, 64, func(i int, c *reference.Chooser) {
		var b strings.Builder
		for n := 1 + c.Pick(16); n > 0; n-- {
			b.WriteString(c.From(lines))
			b.WriteString(c.From([]string{"\n", "\r\n", "\r"}))
		}
		body := []byte(b.String())
		compiled := load(body)
		var f File
		f.Load(body)
		order := []string{c.From(agents), c.From(agents), c.From(agents), c.From(agents)}
		for _, agent := range order {
			scopedTwinOf(t, &f, body, compiled, agent, c.From(urls))
		}
		var unnamed *scopedSet
		for _, agent := range order {
			s := f.findScoped(agent)
			if _, specific := compiled.Rules(agent); s == nil || specific {
				continue
			}
			if unnamed != nil && s != unnamed {
				t.Fatalf("agents named by no group have two scoped sets\nrobots.txt: %q", body)
			}
			if unnamed != nil {
				shared++
			}
			unnamed = s
		}
	})
	if shared == 0 {
		t.Fatal("no scoped set was shared")
	}
}

// plainPrefix finds, eight bytes at a time, what a byte loop over
// plainPatternByte finds.
func TestPlainPrefix(t *testing.T) {
	slow := func(s string) int {
		i := 0
		for i < len(s) && plainPatternByte[s[i]] {
			i++
		}
		return i
	}
	stops := []byte{0, ' ', '\t', '\n', '\r', '*', '$', '%', '#', 0x7F, 0x80, 0xFF, 0x20, '!', '~'}
	reference.EachChooser(17, 20000, 64, func(i int, c *reference.Chooser) {
		b := []byte(strings.Repeat("a", c.Pick(40)))
		for n := c.Pick(4); n > 0; n-- {
			b = append(b, stops[c.Pick(len(stops))])
			b = append(b, strings.Repeat("/", c.Pick(12))...)
		}
		if got, want := plainPrefix(string(b)), slow(string(b)); got != want {
			t.Fatalf("plainPrefix(%q) = %d, want %d", b, got, want)
		}
	})
	for c := 0; c < 256; c++ {
		s := "abcdefghij"[:c%10] + string([]byte{byte(c)}) + "/abcdefgh"
		if got, want := plainPrefix(s), slow(s); got != want {
			t.Fatalf("plainPrefix(%q) = %d, want %d", s, got, want)
		}
	}
}

// plainPrefix and simplePrefix stop, eight bytes at a time, at the byte a
// byte loop over their tables stops at: every byte value, at every place
// of a word, after bytes that may or may not stop the other.
func TestValuePrefixesEveryByte(t *testing.T) {
	slow := func(table *[256]bool, s string) int {
		i := 0
		for i < len(s) && table[s[i]] {
			i++
		}
		return i
	}
	// Three times sixteen bytes: the byte falls at every place of a word
	// and of plainBlocks' 32-byte block, and after it.
	for _, before := range []string{"abcdefghijklmnop", "/a*b$c/d*e$f/g*h", "~!\"&'()+,-./0:;<", "@[]^_`{|}~AZaz09"} {
		before = strings.Repeat(before, 3)
		for c := 0; c < 256; c++ {
			for at := 0; at < len(before); at++ {
				s := before[:at] + string([]byte{byte(c)}) + "/abcdefgh"
				if got, want := plainPrefix(s), slow(&plainPatternByte, s); got != want {
					t.Fatalf("plainPrefix(%q) = %d, want %d", s, got, want)
				}
				if got, want := simplePrefix(s), slow(&simpleValueByte, s); got != want {
					t.Fatalf("simplePrefix(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
}

// A large scoped set answers its first scopedScans questions by a budgeted
// scan and the later ones through its index, deciding as the reference
// model throughout; over budget, the index answers at once.
func TestScopedScansThenIndex(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for i := 0; i < 40; i++ {
		b.WriteString("disallow: /*" + strings.Repeat("x", i%7) + "a" + string(rune('a'+i%26)) + "$\n")
		b.WriteString("allow: /" + string(rune('a'+i%26)) + "*b\n")
	}
	body := []byte(b.String())
	ref := reference.New(body)
	for _, long := range []bool{false, true} {
		f := load(body)
		for q := 0; q < 3*scopedScans; q++ {
			url := "/" + string(rune('a'+q%26)) + strings.Repeat("x", q%9) + "a" + string(rune('a'+(q*7)%26))
			if long {
				url += strings.Repeat("y", 2000) // over the budget at once
			}
			compareWithReference(t, body, ref, f, "bot", url)
		}
		if s := f.findScoped("bot"); s == nil || !s.ruleSet().index.ready() {
			t.Errorf("long paths %v: the index is not built after %d questions", long, 3*scopedScans)
		}
	}
}

// The fileOrderScans questions after the one that built a scoped set
// answer from its rules in file order; the next sorts them, without
// allocating. Every answer is the reference model's (Google's longest
// match, allow winning ties, the first line on ties), for a set sorted by
// insertion, one sorted through the stack's scratch and one with an
// index.
func TestScopedSortsAfterFileOrderScans(t *testing.T) {
	rulesOf := func(n int) string {
		var b strings.Builder
		b.WriteString("user-agent: *\n")
		for i := 0; i < n; i++ {
			b.WriteString("disallow: /" + string(rune('a'+i%26)) + "*" + strings.Repeat("x", i%3) + "\n")
			b.WriteString("allow: /" + string(rune('a'+i%26)) + strings.Repeat("x", i%4) + "\n")
		}
		return b.String()
	}
	urls := []string{"/a/b", "/axx", "/bxx", "/x.gif", "/cx/y", "/", "/dxxx"}
	for _, n := range []int{3, indexMinRules, 100} {
		body := []byte(rulesOf(n))
		ref := reference.New(body)
		f := load(body)
		for q := 1; q <= 2*len(urls); q++ {
			url := urls[q%len(urls)]
			var allowed bool
			allocs := mallocsOf(func() { allowed = f.Allowed("bot", url) })
			if want, _ := ref.Verdict("bot", url); allowed != want {
				t.Fatalf("%d rules, question %d, Allowed(%q) = %v; reference: %v", 2*n, q, url, allowed, want)
			}
			s := f.findScoped("bot")
			if s == nil {
				t.Fatalf("%d rules: no scoped set after question %d", 2*n, q)
			}
			if sorted, want := s.order.Load() < 0, q >= 2+fileOrderScans; sorted != want {
				t.Fatalf("%d rules: after question %d sorted %v, want %v", 2*n, q, sorted, want)
			}
			if q >= 2 && allocs != 0 {
				t.Fatalf("%d rules: question %d allocated %v times", 2*n, q, allocs)
			}
		}
	}
}

// Questions scanning a set's rules in file order while another sorts them
// answer as the reference model (run with -race: the rules are sorted in
// place once the scans under way have ended).
func TestScopedSortWhileScanning(t *testing.T) {
	for _, body := range [][]byte{disallowThenAllowEnd(3 * indexMinRules), []byte("user-agent: *\ndisallow: /a\nallow: /*a$\n")} {
		ref := reference.New(body)
		urls := []string{"/a", "/ayy", "/ba", "/cyyy/a", "/"}
		for round := 0; round < 50; round++ {
			f := load(body)
			f.Allowed("bot", "/") // builds the scoped set
			if s := f.findScoped("bot"); s != nil {
				s.order.Store(1 << 10 * leftOne) // every question may scan in file order
			}
			var wg sync.WaitGroup
			for g := 0; g < 4; g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < 20; i++ {
						if g == 3 && i == round%10 {
							f.Rules("bot") // sorts
						}
						url := urls[(g+i)%len(urls)]
						allowed, line := ref.Verdict("bot", url)
						if v := f.Explain("bot", url); v.Allowed != allowed || v.Rule.Line != line {
							t.Errorf("Explain(%q) = %v; reference: %v, line %d", url, v, allowed, line)
						}
					}
				}()
			}
			wg.Wait()
		}
	}
}

// mallocsOf returns how many heap allocations one call of fn makes
// (testing.AllocsPerRun calls fn once more before it counts).
func mallocsOf(fn func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

// A sort that begins while a scan in file order is under way waits for it
// to end, leaving the rules it scans as they are meanwhile; no scan begins
// after the sort has begun. The rules are then sorted in place, given an
// index, and the sorted set answers as the reference model.
func TestScopedSortBesideScan(t *testing.T) {
	body := disallowThenAllowEnd(2 * indexMinRules)
	ref := reference.New(body)
	f := load(body)
	f.Allowed("bot", "/") // builds the scoped set
	s := f.findScoped("bot")
	if s == nil {
		t.Fatal("no scoped set")
	}
	order := s.rules.compiled
	written := slices.Clone(order)
	s.order.Add(1) // a scan under way
	sorted := make(chan *RuleSet)
	go func() { sorted <- s.ruleSet() }()
	for s.order.Load() >= 0 {
		runtime.Gosched() // until the sort has begun
	}
	if _, ok := s.fileOrderVerdict("/a", false); ok {
		t.Fatal("a scan in file order began after the sort")
	}
	select {
	case <-sorted:
		t.Fatal("the sort did not wait for the scan under way")
	case <-time.After(10 * time.Millisecond):
	}
	if diff := cmp.Diff(written, order, cmp.AllowUnexported(compiledRule{})); diff != "" {
		t.Fatalf("the rules in file order changed under a scan (-before +after):\n%s", diff)
	}
	s.order.Add(-1) // the scan ends
	rs := <-sorted
	if len(rs.compiled) != len(written) || &rs.compiled[0] != &order[0] {
		t.Fatalf("sorted %d rules, in place %v; want %d in place", len(rs.compiled), &rs.compiled[0] == &order[0], len(written))
	}
	if rs.index == nil {
		t.Fatal("the sorted rules have no index")
	}
	for _, url := range []string{"/a", "/ayy", "/ba", "/cyyy/a", "/", "/e", "/ey"} {
		compareWithReference(t, body, ref, f, "bot", url)
	}
}

// disallowThenAllowEnd returns a file of one "*" group of n pairs of
// rules: a plain disallow of a letter and a few y's, and an allow of
// paths ending in that letter.
func disallowThenAllowEnd(n int) []byte {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for i := 0; i < n; i++ {
		b.WriteString("disallow: /" + string(rune('a'+i%26)) + strings.Repeat("y", i%5) + "\nallow: /*" + string(rune('a'+i%26)) + "$\n")
	}
	return []byte(b.String())
}

// The summary of a file's product tokens never rules out an agent that a
// user-agent line names, in any ASCII case: on random files of random
// tokens, every token read, and its forms in other cases, may be named.
func TestScopedAgentSummaryNeverMissesANamedAgent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const letters = "abcxyzABCXYZ-_"
	for round := 0; round < 2000; round++ {
		var b strings.Builder
		var tokens []string
		for n := 1 + rng.IntN(12); n > 0; n-- {
			tok := make([]byte, rng.IntN(10))
			for i := range tok {
				tok[i] = letters[rng.IntN(len(letters))]
			}
			tokens = append(tokens, string(tok))
			fmt.Fprintf(&b, "user-agent: %s/1.%d\ndisallow: /%d\n", tok, rng.IntN(3), rng.IntN(5))
		}
		body := []byte(b.String())
		var f File
		f.Load(body)
		kept, _ := f.body()
		s := f.scope(kept, "nobody-asks-this", nil)
		if s == nil {
			t.Fatalf("no scoped set for %q", body)
		}
		for _, tok := range tokens {
			swapped := []byte(tok)
			for i, c := range swapped {
				swapped[i] = c ^ 0x20*byte(bool2int('a' <= c|0x20 && c|0x20 <= 'z'))
			}
			for _, agent := range []string{tok, string(swapped), strings.ToUpper(tok)} {
				if !s.agents.mayHold(agent) {
					t.Fatalf("agent %q of a user-agent line ruled out by the summary\nrobots.txt: %q", agent, body)
				}
			}
		}
	}
}

func bool2int(b bool) int {
	if b {
		return 1
	}
	return 0
}
