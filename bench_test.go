package robotstxt

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"unsafe"
)

// corpusEnv names a directory of real robots.txt files. Without it, tests
// and benchmarks look for ../shared/corpus and skip when it is absent.
const corpusEnv = "ROBOTSTXT_CORPUS"

// loadCorpus returns the corpus files, each cut at DefaultMaxSize, sorted
// by name.
func loadCorpus(tb testing.TB) (names []string, files [][]byte) {
	tb.Helper()
	dir := os.Getenv(corpusEnv)
	if dir == "" {
		dir = filepath.Join("..", "shared", "corpus")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Skipf("no robots.txt corpus (set %s or provide ../shared/corpus): %v", corpusEnv, err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		if len(data) > DefaultMaxSize {
			data = data[:DefaultMaxSize]
		}
		names = append(names, e.Name())
		files = append(files, data)
	}
	sort.Sort(byName{names, files})
	if len(files) == 0 {
		tb.Skipf("corpus %s is empty", dir)
	}
	return names, files
}

type byName struct {
	names []string
	files [][]byte
}

func (b byName) Len() int           { return len(b.names) }
func (b byName) Less(i, j int) bool { return b.names[i] < b.names[j] }
func (b byName) Swap(i, j int) {
	b.names[i], b.names[j] = b.names[j], b.names[i]
	b.files[i], b.files[j] = b.files[j], b.files[i]
}

// corpusSize returns the bytes of all files.
func corpusSize(files [][]byte) int64 {
	n := 0
	for _, f := range files {
		n += len(f)
	}
	return int64(n)
}

// BenchmarkParseCorpus parses every corpus file once per iteration.
func BenchmarkParseCorpus(b *testing.B) {
	_, files := loadCorpus(b)
	b.SetBytes(corpusSize(files))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			Parse(f)
		}
	}
}

// BenchmarkTokenizeCorpus runs only the tokenizer over every corpus file:
// the same work as Google's ParseRobotsTxt with a handler that does
// nothing (split lines, find keys and values, classify keys), without
// building the compiled form that Parse builds. BENCHMARKS.md compares it
// with Google's parser.
func BenchmarkTokenizeCorpus(b *testing.B) {
	_, files := loadCorpus(b)
	b.SetBytes(corpusSize(files))
	b.ReportAllocs()
	b.ResetTimer()
	directives := 0
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			tok := newTokenizer(unsafe.String(unsafe.SliceData(f), len(f)))
			var l line
			for tok.next(&l) {
				if l.flags&lineHasDirective != 0 {
					directives++
				}
			}
		}
	}
	if directives == 0 {
		b.Fatal("no directives found")
	}
}

// crawlerQuery is one Allowed call of a crawler's workload.
type crawlerQuery struct {
	robots *Robots
	agent  string
	url    string
}

// crawlerQueries builds queries from each corpus file: well-known agents and
// the agents the file names, against URLs made from the file's own rules
// and ordinary pages.
func crawlerQueries(files [][]byte) []crawlerQuery {
	var qs []crawlerQuery
	for _, f := range files {
		r := Parse(f)
		agents := []string{"Googlebot", "bingbot"}
		urls := []string{"https://example.com/", "https://example.com/index.html", "https://example.com/products/item?id=42"}
		for _, g := range r.Groups() {
			for _, a := range g.Agents {
				if t := productToken(a); t != "" && len(agents) < 6 {
					agents = append(agents, t)
				}
			}
			for _, rule := range g.Rules {
				if len(urls) >= 12 {
					break
				}
				p := strings.NewReplacer("*", "x", "$", "").Replace(rule.Pattern)
				if !strings.HasPrefix(p, "/") {
					p = "/" + p
				}
				urls = append(urls, "https://example.com"+p+"page.html")
			}
		}
		for _, a := range agents {
			for _, u := range urls {
				qs = append(qs, crawlerQuery{r, a, u})
			}
		}
	}
	return qs
}

// BenchmarkAllowedCorpus reports the mean cost of one Allowed call over a
// crawler's queries against the corpus.
func BenchmarkAllowedCorpus(b *testing.B) {
	_, files := loadCorpus(b)
	qs := crawlerQueries(files)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := &qs[i%len(qs)]
		q.robots.Allowed(q.agent, q.url)
	}
}

const benchRobots = `User-agent: *
Disallow: /search
Allow: /search/about
Disallow: /*.pdf$
Disallow: /private/
Allow: /private/press/

User-agent: Googlebot
Disallow: /nogoogle/
Allow: /*/index.html
`

func BenchmarkAllowed(b *testing.B) {
	r := Parse([]byte(benchRobots))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.Allowed("Googlebot", "https://example.com/products/shoes/index.html?color=red")
	}
}

func BenchmarkAllowedNonASCII(b *testing.B) {
	r := Parse([]byte(benchRobots))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.Allowed("Googlebot", "https://example.com/café/crème?q=brûlée")
	}
}

func BenchmarkAgentAllowed(b *testing.B) {
	a := Parse([]byte(benchRobots)).Agent("Googlebot")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a.Allowed("https://example.com/products/shoes/index.html?color=red")
	}
}

func BenchmarkParse(b *testing.B) {
	data := []byte(benchRobots)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Parse(data)
	}
}

// BenchmarkRetainedMemory reports the heap kept by the parsed corpus per
// byte of input: right after Parse (retained-B/B), over the files of at
// least 4 KiB where fixed costs matter less (retained-B/B-4KiB+), and once
// Googlebot and bingbot have been asked about, which builds the lazy
// indexes of their large rule sets (retained-B/B-queried).
func BenchmarkRetainedMemory(b *testing.B) {
	_, files := loadCorpus(b)
	measure := func(files [][]byte, query bool) float64 {
		total := 0
		for _, f := range files {
			total += len(f)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		kept := make([]*Robots, len(files))
		for i, f := range files {
			kept[i] = Parse(f)
			if query {
				kept[i].Allowed("Googlebot", "/")
				kept[i].Allowed("bingbot", "/")
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(kept)
		return float64(after.HeapAlloc-before.HeapAlloc) / float64(total)
	}
	var large [][]byte
	for _, f := range files {
		if len(f) >= 4096 {
			large = append(large, f)
		}
	}
	var all, big, queried float64
	for i := 0; i < b.N; i++ {
		all, big, queried = measure(files, false), measure(large, false), measure(files, true)
	}
	b.ReportMetric(all, "retained-B/B")
	b.ReportMetric(big, "retained-B/B-4KiB+")
	b.ReportMetric(queried, "retained-B/B-queried")
}
