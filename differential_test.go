package robotstxt

import (
	"bytes"
	"github.com/seed50c7eacc/robotstxt/internal/corpus"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A chooser turns fuzz bytes into choices; it answers 0 once the bytes run
// out, so every input is a valid program.
type chooser struct{ src []byte }

func (c *chooser) pick(n int) int {
	if len(c.src) == 0 || n <= 1 {
		return 0
	}
	v := int(c.src[0])
	c.src = c.src[1:]
	return v % n
}

func (c *chooser) from(options []string) string { return options[c.pick(len(options))] }

var (
	genKeys    = []string{"User-agent", "Allow", "Disallow", "Disallow", "Allow", "Disallow"}
	genOddKeys = []string{"user-agent", "USER-AGENT", "useragent", "user agent", "User-Agents",
		"allow", "disallow", "Disalow", "Disallowed", "Sitemap", "Crawl-delay", "foo", ""}
	genSeps      = []string{": ", ":", " : ", " ", "\t", ":\t", "  ", ": :"}
	genAgents    = []string{"*", "FooBot", "BarBot", "*", "FooBot", "* x", "*x", "foobot", "Foo Bar", "Foo-Bot_2", "", "googlebot/2.1", "é", "**", "*\t"}
	genPieces    = []string{"/", "a", "b", "*", "$", "ab", "/a", "/b"}
	genOddPieces = []string{"%61", "%c3%a9", "é", "index.html", "?", ".", "/index.htm", "\x00", " ", "/"}
	genEnds      = []string{"\n", "\n", "\r\n", "\r", "\n\n", "\r\r\n", " #c\n"}
	genQAgent    = []string{"FooBot", "BarBot", "x", "FooBot", "foobot", "Foo", "", "*", "Foo Bar", "Foo-Bot_", "googlebot"}
	genHosts     = []string{"http://example.com", "", "http://example.com", "//h", "example.com", "http://h:8080"}
)

func genPattern(c *chooser) string {
	var sb strings.Builder
	if c.pick(4) != 0 {
		sb.WriteByte('/')
	}
	for n := c.pick(6); n > 0; n-- {
		if c.pick(5) == 0 {
			sb.WriteString(c.from(genOddPieces))
		} else {
			sb.WriteString(c.from(genPieces))
		}
	}
	return sb.String()
}

// genRobots builds a robots.txt file from the choices: mostly well-formed
// lines of the kinds Google treats specially, with typos, odd separators,
// comments, blank lines and mixed line endings.
func genRobots(c *chooser) []byte {
	var b bytes.Buffer
	if c.pick(8) == 0 {
		b.WriteString("\xEF\xBB\xBF"[:1+c.pick(3)])
	}
	lines := c.pick(12)
	if c.pick(4) == 0 {
		lines = 4 * c.pick(40) // large groups, which are indexed
	}
	for n := lines; n > 0; n-- {
		key, sep := c.from(genKeys), ": "
		if c.pick(4) == 0 {
			key = c.from(genOddKeys)
		}
		if c.pick(4) == 0 {
			sep = c.from(genSeps)
		}
		var value string
		switch {
		case strings.HasPrefix(strings.ToLower(key), "user"):
			value = c.from(genAgents)
		case c.pick(8) == 0:
			value = ""
		default:
			value = genPattern(c)
		}
		if c.pick(6) == 0 {
			b.WriteString(" ")
		}
		b.WriteString(key)
		b.WriteString(sep)
		b.WriteString(value)
		b.WriteString(c.from(genEnds))
	}
	return b.Bytes()
}

func genURL(c *chooser) string {
	url := c.from(genHosts) + genPattern(c)
	if c.pick(6) == 0 {
		url += "#" + genPattern(c)
	}
	return url
}

// eachChooser calls do n times (a tenth as many with -short) with a
// chooser over size fresh random bytes, from a fixed seed so that a
// failure repeats; i counts the calls.
func eachChooser(seed uint64, n, size int, do func(i int, c *chooser)) {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	if testing.Short() {
		n /= 10
	}
	src := make([]byte, size)
	for i := 0; i < n; i++ {
		for j := range src {
			src[j] = byte(rng.Uint32())
		}
		do(i, &chooser{src: src})
	}
}

// compareWithReference fails t when the fast implementation and the
// reference model disagree on a query.
func compareWithReference(t *testing.T, body []byte, ref *refModel, r *Robots, agent, url string) {
	t.Helper()
	wantAllowed, wantLine := ref.verdict(agent, url)
	v := r.Explain(agent, url)
	if v.Allowed != wantAllowed || v.Rule.Line != wantLine {
		t.Fatalf("Explain(%q, %q) = allowed %v line %d; reference says allowed %v line %d\nrobots.txt: %q",
			agent, url, v.Allowed, v.Rule.Line, wantAllowed, wantLine, body)
	}
	if a := r.Allowed(agent, url); a != wantAllowed {
		t.Fatalf("Allowed(%q, %q) = %v; reference says %v\nrobots.txt: %q", agent, url, a, wantAllowed, body)
	}
}

// The fast implementation agrees with the reference model on generated
// files and queries, and so does the stream on every query (not only on
// the first ones asked of a file), reaching the corners the corpus lacks:
// escaped and index.htm patterns, agents named in several groups, rules
// outside groups, long lines. Failures print the file, agent and URL.
func TestReferenceGenerated(t *testing.T) {
	eachChooser(1, 4000, 2048, func(_ int, c *chooser) {
		body := genRobots(c)
		ref, r := newRefModel(body), Parse(body)
		for q := 0; q < 12; q++ {
			agent, url := c.from(genQAgent), genURL(c)
			compareWithReference(t, body, ref, r, agent, url)
			streamTwin(t, body, r, agent, url)
		}
	})
}

// The reference model agrees with the fast implementation on Google's
// compliance tests, and both meet the expectations (SPEC 9.4 aside).
func TestReferenceSpec(t *testing.T) {
	for _, c := range loadSpecCases(t) {
		body := []byte(c.robots)
		ref := newRefModel(body)
		for _, e := range c.expect {
			got, _ := ref.verdict(e.agent, e.url)
			want := e.allowed != contractExceptions[contractKey(c.file, e.url, e.agent)]
			if got != want {
				t.Errorf("reference model: %s case %d: (%q, %q) = %v, want %v", c.file, c.num, e.agent, e.url, got, want)
			}
			compareWithReference(t, body, ref, Parse(body), e.agent, e.url)
		}
	}
}

// The fast implementation agrees with the reference model on every file of
// the real-world corpus, for a crawler's queries.
func TestReferenceCorpus(t *testing.T) {
	names, files := loadCorpus(t)
	queries := 0
	for i, f := range files {
		ref, r := newRefModel(f), Parse(f)
		for _, q := range crawlerQueries([][]byte{f}) {
			wantAllowed, wantLine := ref.verdict(q.agent, q.url)
			v := r.Explain(q.agent, q.url)
			if v.Allowed != wantAllowed || v.Rule.Line != wantLine {
				t.Errorf("%s: Explain(%q, %q) = %v line %d; reference says %v line %d",
					names[i], q.agent, q.url, v.Allowed, v.Rule.Line, wantAllowed, wantLine)
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
		r := Parse(data)
		ref := newRefModel(data)
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
			if cd < 0 || cd > MaxCrawlDelay || rr < 0 || rr > MaxCrawlDelay {
				t.Fatalf("Agent(%q): CrawlDelay %v, RequestRate %v out of [0, %v]", names, cd, rr, MaxCrawlDelay)
			}
		}
		if len(data) <= DefaultMaxSize {
			all := ParseWith(data, Options{MaxSize: -1})
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
		r := Parse(data)
		compareWithReference(t, data, newRefModel(data), r, agent, url)
		streamTwin(t, data, r, agent, url)
		if len(url) < 512 {
			if n := testing.AllocsPerRun(2, func() { r.Allowed(agent, url) }); n != 0 {
				t.Fatalf("Allowed(%q, %q) allocated %v times", agent, url, n)
			}
			body := string(data)
			if n := testing.AllocsPerRun(2, func() { streamVerdict(body, agent, url) }); n != 0 {
				t.Fatalf("streamVerdict(%q, %q) allocated %v times", agent, url, n)
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
		c := &chooser{src: src}
		body := genRobots(c)
		ref, r := newRefModel(body), Parse(body)
		for q := 0; q < 8; q++ {
			agent, url := c.from(genQAgent), genURL(c)
			compareWithReference(t, body, ref, r, agent, url)
			streamTwin(t, body, r, agent, url)
		}
	})
}
