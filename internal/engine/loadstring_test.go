//go:build linux

package engine

import (
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// A File that LoadString made keeps the caller's string, which has no
// padding after it: no byte past its end may be read. These tests put
// each file at the end of a page that is followed by one the process may
// not read, so that a read past the end faults and fails the run, and
// check that every answer is the one of the File that Load made, whose
// copy is padded.

// guardedString returns a string of data's bytes that ends where a page
// the process may not read begins.
func guardedString(tb testing.TB, data []byte) string {
	tb.Helper()
	page := syscall.Getpagesize()
	n := max(1, (len(data)+page-1)/page) * page
	mem, err := syscall.Mmap(-1, 0, n+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		tb.Fatalf("mmap: %v", err)
	}
	tb.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[n:], syscall.PROT_NONE); err != nil {
		tb.Fatalf("mprotect: %v", err)
	}
	if len(data) == 0 {
		return ""
	}
	copy(mem[n-len(data):n], data)
	return unsafe.String(&mem[n-len(data)], len(data))
}

// explained is one question's answer as the tests compare it.
type explained struct {
	Agent, URL string
	Allowed    bool
	Line       int
	Pattern    string
}

// askAll asks f every agent and URL, each agent's questions before the
// next agent's, enough of them for the sets to be sorted and indexed.
func askAll(tb testing.TB, f *File, agents, urls []string) []explained {
	tb.Helper()
	var out []explained
	for _, a := range agents {
		for round := 0; round < 3; round++ {
			for _, u := range urls {
				v := f.Explain(a, u)
				if f.Allowed(a, u) != v.Allowed {
					tb.Errorf("Allowed(%q, %q) and Explain disagree", a, u) // Errorf: askAll runs in goroutines too
				}
				out = append(out, explained{a, u, v.Allowed, v.Rule.Line, v.Rule.Pattern})
			}
		}
	}
	return out
}

// checkGuarded fails t when the File that LoadString makes of data, at the
// end of a readable page, answers a question otherwise than the File Load
// makes of it.
func checkGuarded(t *testing.T, name string, data []byte, agents, urls []string) {
	t.Helper()
	s := guardedString(t, data)
	var kept File
	kept.LoadString(s)
	got := askAll(t, &kept, agents, urls)
	want := askAll(t, load(data), agents, urls)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: LoadString's answers differ from Load's (-Load +LoadString):\n%s\nrobots.txt: %q", name, diff, data)
	}
	// The rules, as Rules gives them (a scoped set, or the compiled form
	// once asked about a fifth agent).
	for _, a := range agents {
		gotRules, _ := kept.Rules(a)
		wantRules, _ := load(data).Rules(a)
		if diff := cmp.Diff(rulesOf(wantRules), rulesOf(gotRules)); diff != "" {
			t.Fatalf("%s: Rules(%q) differ (-Load +LoadString):\n%s", name, a, diff)
		}
	}
}

// rulesOf returns the rules of rs as written, in deciding order.
func rulesOf(rs *RuleSet) []Rule {
	var out []Rule
	for i := range rs.compiled {
		out = append(out, rs.compiled[i].asWritten(rs.text, rs.compiled, rs.counted))
	}
	return out
}

// TestLoadStringReadsNoBytePastTheEnd: files whose last rule starts 0 to
// 12 bytes before their end, as each kind of line a set keeps (verbatim,
// escaped, the directory pattern derived from an index.htm allow), in
// the "*" group and in a named one, asked as up to six agents so that
// every state is reached: scoped, the shared set, sorted, indexed,
// compiled.
func TestLoadStringReadsNoBytePastTheEnd(t *testing.T) {
	heads := map[string]string{
		"star":  "user-agent: *\nallow: /public\n",
		"named": "user-agent: *\ndisallow: /x\n\nuser-agent: googlebot\nallow: /a\n",
		"many":  "user-agent: *\n" + strings.Repeat("disallow: /d*q\nallow: /e/\n", 12),
	}
	lasts := []string{"disallow: /", "allow: /", "disallow: ", "disallow:", "disallow: /%7e", "allow: /index.htm", "disallow: /*x$", "disallow /"}
	agents := []string{"Googlebot", "bingbot", "googlebot-news", "x", "y", "z"}
	urls := []string{"https://example.com/", "https://example.com/a", "https://example.com/aaaaaaaaaaaa", "https://example.com/~", "https://example.com/dzq/x", "http://example.com/e/index.htm"}
	for hname, head := range heads {
		for _, last := range lasts {
			for k := 0; k <= 12; k++ {
				for _, end := range []string{"", "\n", "\r\n", " # c"} {
					body := head + last + strings.Repeat("a", k) + end
					name := fmt.Sprintf("%s/%q", hname, body[len(head):])
					checkGuarded(t, name, []byte(body), agents, urls)
					// Fewer agents: the file stays scoped.
					checkGuarded(t, name+"/two agents", []byte(body), agents[:2], urls)
				}
			}
		}
	}
}

// TestLoadStringCopiesOnlyWhenARuleEndsTheFile: the copy is made when a
// set's rule starts in the last bytes of the file, which loadKey would
// read past, and then once, kept in the string's stead; a file that ends
// otherwise is never copied.
func TestLoadStringCopiesOnlyWhenARuleEndsTheFile(t *testing.T) {
	for _, tc := range []struct {
		body string
		copy bool
	}{
		{"user-agent: *\ndisallow: /private/\nsitemap: https://example.com/sitemap.xml\n", false},
		{"user-agent: *\ndisallow: /private/path\n", false},
		{"user-agent: *\ndisallow: /private/\n", false}, // 10 bytes from the start of "/private/" to the end
		{"user-agent: *\ndisallow: /abcdef\n", false},   // 8 bytes: loadKey's read ends at the end
		{"user-agent: *\ndisallow: /abcde\n", true},     // 7 bytes: it would read one past
		{"user-agent: *\ndisallow: /\n", true},
		{"user-agent: *\ndisallow:", true},
		{"user-agent: googlebot\ndisallow: /g\n\nuser-agent: *\nallow: /a\n# a comment\n", false},
	} {
		s := guardedString(t, []byte(tc.body))
		var f File
		f.LoadString(s)
		f.Allowed("bingbot", "https://example.com/private/x")
		f.Allowed("Googlebot", "https://example.com/private/x")
		body, _ := f.body()
		copied := unsafe.StringData(body) != unsafe.StringData(s)
		if copied != tc.copy {
			t.Errorf("%q: copied %v, want %v", tc.body, copied, tc.copy)
		}
		if copied && !f.isPadded(body) {
			t.Errorf("%q: the copy kept is not marked padded", tc.body)
		}
	}
}

// TestLoadStringCorpus checks LoadString against Load on every corpus
// file, each at the end of a readable page, as the crawler's two agents
// and the agents the file names.
func TestLoadStringCorpus(t *testing.T) {
	names, files := loadCorpus(t)
	for i, data := range files {
		if raceSkip(i) {
			continue
		}
		agents, urls := corpus.Queries(data)
		many := corpus.ManyAgents(data)
		checkGuarded(t, names[i], data, agents, urls)
		checkGuarded(t, names[i]+"/many", data, many[:min(len(many), 6)], urls)
	}
}

// TestLoadStringRandom checks LoadString against Load and the reference
// model on random files.
func TestLoadStringRandom(t *testing.T) {
	reference.EachChooser(29, raceShare(3000), 512, func(i int, c *reference.Chooser) {
		data := reference.GenRobots(c)
		var urls []string
		for range 4 {
			urls = append(urls, reference.GenURL(c))
		}
		agents := []string{"Googlebot", "bingbot", "foo", "bar", "baz"}[:1+c.Pick(5)]
		checkGuarded(t, fmt.Sprintf("random %d", i), data, agents, urls)
		var f File
		f.LoadString(guardedString(t, data))
		ref := reference.New(data)
		for _, a := range agents {
			for _, u := range urls {
				compareWithReference(t, data, ref, &f, a, u)
			}
		}
	})
}

// TestLoadStringHostile checks LoadString against Load on the hostile
// families, which reach the Large state and the compile in parts.
func TestLoadStringHostile(t *testing.T) {
	size := 64 << 10
	if testing.Short() || raceEnabled {
		size = 16 << 10
	}
	for _, fam := range reference.HostileFamilies(size) {
		checkGuarded(t, fam.Name, fam.File, []string{"Googlebot", "bingbot"}, []string{"https://example.com" + fam.Path(100), "https://example.com" + fam.Path(2000)})
	}
}

// TestLoadStringConcurrent asks a fresh LoadString file from many
// goroutines at once, so that the copy is made while other questions read
// the string (run with -race).
func TestLoadStringConcurrent(t *testing.T) {
	data := []byte("user-agent: googlebot\ndisallow: /g\n\nuser-agent: *\ndisallow: /a\nallow: /a/b\ndisallow: /")
	want := askAll(t, load(data), []string{"Googlebot", "bingbot", "other"}, []string{"https://example.com/a/b", "https://example.com/g", "https://example.com/"})
	for range 50 {
		var f File
		f.LoadString(guardedString(t, data))
		var wg sync.WaitGroup
		got := make([][]explained, 8)
		for g := range got {
			wg.Go(func() {
				got[g] = askAll(t, &f, []string{"Googlebot", "bingbot", "other"}, []string{"https://example.com/a/b", "https://example.com/g", "https://example.com/"})
			})
		}
		wg.Wait()
		for g := range got {
			if diff := cmp.Diff(want, got[g]); diff != "" {
				t.Fatalf("goroutine %d (-Load +LoadString):\n%s", g, diff)
			}
		}
	}
}

// FuzzLoadString checks LoadString against Load, and against the
// reference model, on any bytes at the end of a readable page: no read
// past the end, the same answers.
func FuzzLoadString(f *testing.F) {
	f.Add([]byte("user-agent: *\ndisallow: /"), "Googlebot", "https://example.com/a")
	f.Add([]byte("user-agent: foo\nallow: /index.htm\n\nuser-agent: *\ndisallow: /%7e"), "foo", "/~")
	f.Add([]byte("disallow /x\nuser-agent: *\r\nallow:"), "bar", "/x")
	f.Fuzz(func(t *testing.T, data []byte, agent, url string) {
		if len(data) > 4096 {
			return // the page trick is what is tested, not size
		}
		checkGuarded(t, "fuzz", data, []string{agent, "foo", "Googlebot"}, []string{url, "/", "/a"})
		var kept File
		kept.LoadString(guardedString(t, data))
		ref := reference.New(data)
		compareWithReference(t, data, ref, &kept, agent, url)
	})
}
