// Package bench compares robotstxt with other robots.txt libraries on the
// same inputs. It is a module of its own so that users of robotstxt never
// download the libraries it is compared with.
//
// Run from this directory:
//
//	go test -bench . -benchmem
//
// The inputs are the real robots.txt files in ../../shared/corpus (or the
// directory named by ROBOTSTXT_CORPUS); the benchmarks skip without them.
package bench

import (
	"fmt"
	"net/url"
	"sort"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
	temoto "github.com/temoto/robotstxt"
)

func loadCorpus(tb testing.TB) [][]byte {
	tb.Helper()
	_, files := corpus.Load(tb, robotstxt.DefaultMaxSize)
	return files
}

func totalSize(files [][]byte) int64 { return corpus.Size(files) }

// BenchmarkParse parses every corpus file once per iteration.
func BenchmarkParse(b *testing.B) {
	files := loadCorpus(b)
	b.Run("robotstxt", func(b *testing.B) {
		b.SetBytes(totalSize(files))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				robotstxt.Parse(f)
			}
		}
	})
	b.Run("temoto", func(b *testing.B) {
		b.SetBytes(totalSize(files))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				temoto.FromBytes(f) //nolint:errcheck // a parse error is a result like any other here
			}
		}
	})
}

// A query is one question of a crawler's workload, asked of both libraries.
type query struct {
	ours   *robotstxt.Robots
	theirs *temoto.RobotsData // nil when temoto rejected the file
	agent  string
	url    string
}

// crawlerQueries asks, of every corpus file, about well-known agents and
// the agents the file names, for URLs made from the file's own rules and
// for ordinary pages.
func crawlerQueries(tb testing.TB, files [][]byte) []query {
	var qs []query
	for _, f := range files {
		ours := robotstxt.Parse(f)
		theirs, err := temoto.FromBytes(f)
		if err != nil {
			theirs = nil
		}
		agents, urls := corpus.Queries(f)
		for _, a := range agents {
			for _, u := range urls {
				qs = append(qs, query{ours, theirs, a, u})
			}
		}
	}
	if len(qs) == 0 {
		tb.Skip("no queries")
	}
	return qs
}

// requestPath extracts what temoto matches: the URL's path and query.
func requestPath(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return "/"
	}
	return parsed.RequestURI()
}

// BenchmarkAllowed is the mean cost of one query over the crawler workload.
// temoto is given the path, extracted inside the timed loop as a caller
// must.
func BenchmarkAllowed(b *testing.B) {
	qs := crawlerQueries(b, loadCorpus(b))
	b.Run("robotstxt", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			q := &qs[i%len(qs)]
			q.ours.Allowed(q.agent, q.url)
		}
	})
	b.Run("robotstxt-agent", func(b *testing.B) {
		// A crawler that resolves its agent once per file.
		agents := make([]*robotstxt.Agent, len(qs))
		for i := range qs {
			agents[i] = qs[i].ours.Agent(qs[i].agent)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			agents[i%len(qs)].Allowed(qs[i%len(qs)].url)
		}
	})
	b.Run("temoto", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			q := &qs[i%len(qs)]
			if q.theirs != nil {
				q.theirs.TestAgent(requestPath(q.url), q.agent)
			}
		}
	})
}

// BenchmarkAllowedLatency reports the distribution of the per-query cost:
// each query is timed on its own over b.N repetitions, and the percentiles
// are taken across queries (ns/query). ns/op is meaningless here.
func BenchmarkAllowedLatency(b *testing.B) {
	qs := crawlerQueries(b, loadCorpus(b))
	report := func(b *testing.B, ask func(q *query)) {
		per := make([]float64, len(qs))
		for i := range qs {
			q := &qs[i]
			ask(q) // warm up: builds lazy indexes, fills caches
			start := time.Now()
			for n := 0; n < b.N; n++ {
				ask(q)
			}
			per[i] = float64(time.Since(start).Nanoseconds()) / float64(b.N)
		}
		sort.Float64s(per)
		at := func(p float64) float64 { return per[int(p*float64(len(per)-1))] }
		b.ReportMetric(at(0.50), "p50-ns/query")
		b.ReportMetric(at(0.90), "p90-ns/query")
		b.ReportMetric(at(0.99), "p99-ns/query")
		b.ReportMetric(at(1), "max-ns/query")
	}
	b.Run("robotstxt", func(b *testing.B) {
		report(b, func(q *query) { q.ours.Allowed(q.agent, q.url) })
	})
	b.Run("temoto", func(b *testing.B) {
		report(b, func(q *query) {
			if q.theirs != nil {
				q.theirs.TestAgent(requestPath(q.url), q.agent)
			}
		})
	})
}

// BenchmarkParseCheck parses every corpus file and asks it n questions
// (Googlebot, URLs from the file's own rules), as a crawler does that
// fetches a file for a few URLs of a site: question k is the file's URL k
// mod its URL count, the questions TestDumpQueries hands harnesses of
// other languages. temoto is given the path, extracted inside the timed
// loop as a caller must.
func BenchmarkParseCheck(b *testing.B) {
	files := loadCorpus(b)
	perFile := make([][]string, len(files))
	for i, f := range files {
		_, perFile[i] = corpus.Queries(f)
	}
	for _, n := range []int{1, 2, 3, 4, 5, 10, 20, 100, 1000} {
		b.Run(fmt.Sprintf("robotstxt/checks=%d", n), func(b *testing.B) {
			b.SetBytes(totalSize(files))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for j, f := range files {
					r := robotstxt.Parse(f)
					urls := perFile[j]
					for k := 0; k < n; k++ {
						r.Allowed("Googlebot", urls[k%len(urls)])
					}
				}
			}
		})
		b.Run(fmt.Sprintf("temoto/checks=%d", n), func(b *testing.B) {
			b.SetBytes(totalSize(files))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for j, f := range files {
					r, err := temoto.FromBytes(f)
					if err != nil {
						continue
					}
					urls := perFile[j]
					for k := 0; k < n; k++ {
						r.TestAgent(requestPath(urls[k%len(urls)]), "Googlebot")
					}
				}
			}
		})
	}
}
