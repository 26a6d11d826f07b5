package robotstxt_test

import (
	"runtime"
	"strconv"
	"testing"
	"unsafe"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// loadCorpus returns the corpus files, each cut at DefaultMaxSize, sorted
// by name.
func loadCorpus(tb testing.TB) (names []string, files [][]byte) {
	tb.Helper()
	return corpus.Load(tb, robotstxt.DefaultMaxSize)
}

func corpusSize(files [][]byte) int64 { return corpus.Size(files) }

// BenchmarkParseCorpus parses every corpus file once per iteration.
func BenchmarkParseCorpus(b *testing.B) {
	benchEachFile(b, func(f []byte) { robotstxt.Parse(f) })
}

// benchEachFile runs do on every corpus file once per iteration.
func benchEachFile(b *testing.B, do func(file []byte)) {
	_, files := loadCorpus(b)
	b.SetBytes(corpusSize(files))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			do(f)
		}
	}
}

// BenchmarkCompileCorpus parses every corpus file and compiles it, the
// work the second question (or Agent, Groups, ...) adds to Parse: what
// Parse did before it deferred compiling.
func BenchmarkCompileCorpus(b *testing.B) {
	benchEachFile(b, func(f []byte) { robotstxt.Parse(f).Sitemaps() }) // Sitemaps compiles
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
			tok := parse.NewTokenizer(unsafe.String(unsafe.SliceData(f), len(f)))
			var l parse.Line
			for tok.Next(&l) {
				if l.Flags&parse.LineHasDirective != 0 {
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
	robots *robotstxt.Robots
	agent  string
	url    string
}

// crawlerQueries builds queries from each corpus file: well-known agents and
// the agents the file names, against URLs made from the file's own rules
// and ordinary pages.
func crawlerQueries(files [][]byte) []crawlerQuery {
	var qs []crawlerQuery
	for _, f := range files {
		r := robotstxt.Parse(f)
		agents, urls := corpus.Queries(f)
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
	// Parsed once, asked many times: compiled before the clock starts, as
	// Parse did before it deferred compiling, so that the figure is the
	// compiled question's (parse + N questions is BenchmarkParseCheckCorpus).
	for i := range qs {
		qs[i].robots.Sitemaps() // compiles
	}
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
	r := robotstxt.Parse([]byte(benchRobots))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.Allowed("Googlebot", "https://example.com/products/shoes/index.html?color=red")
	}
}

func BenchmarkAllowedNonASCII(b *testing.B) {
	r := robotstxt.Parse([]byte(benchRobots))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.Allowed("Googlebot", "https://example.com/café/crème?q=brûlée")
	}
}

func BenchmarkAgentAllowed(b *testing.B) {
	a := robotstxt.Parse([]byte(benchRobots)).Agent("Googlebot")
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
		robotstxt.Parse(data)
	}
}

// BenchmarkRetainedMemory reports the heap kept by the parsed corpus per
// byte of input: right after Parse (retained-B/B), over the files of at
// least 4 KiB where fixed costs matter less (retained-B/B-4KiB+), and once
// Googlebot and bingbot have been asked about, which builds the lazy
// indexes of their large rule sets (retained-B/B-queried).
func BenchmarkRetainedMemory(b *testing.B) {
	_, files := loadCorpus(b)
	// How the files are used before measuring: kept as parsed, compiled
	// and asked, or asked about one agent only, as a crawler does (which
	// compiles that agent's rule set alone).
	const (
		parsed = iota
		compiled
		asked
	)
	measure := func(files [][]byte, use int) float64 {
		total := 0
		for _, f := range files {
			total += len(f)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		kept := make([]*robotstxt.Robots, len(files))
		for i, f := range files {
			kept[i] = robotstxt.Parse(f)
			switch use {
			case compiled:
				// Compiled (Sitemaps compiles) and asked.
				kept[i].Sitemaps()
				for q := range 2 {
					kept[i].Allowed([]string{"Googlebot", "bingbot"}[q%2], "/x")
				}
			case asked:
				for q := range 10 {
					kept[i].Allowed("Googlebot", "/x/"+strconv.Itoa(q))
				}
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
	var all, big, queried, agent float64
	for i := 0; i < b.N; i++ {
		all, big, queried, agent = measure(files, parsed), measure(large, parsed), measure(files, compiled), measure(files, asked)
	}
	b.ReportMetric(all, "retained-B/B")
	b.ReportMetric(big, "retained-B/B-4KiB+")
	b.ReportMetric(queried, "retained-B/B-queried")
	b.ReportMetric(agent, "retained-B/B-one-agent")
}
