package robotstxt_test

import (
	"fmt"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
)

// BenchmarkParseCheckCorpus parses every corpus file and asks it n
// questions, as a crawler does that fetches a file for a few URLs of a
// site: the cost of the first questions, lazy structures included. The n
// values are those of the side-by-side table in BENCHMARKS.md (and 4, the
// last streamed question).
func BenchmarkParseCheckCorpus(b *testing.B) {
	_, files := loadCorpus(b)
	type question struct{ agent, url string }
	perFile := make([][]question, len(files))
	for i, f := range files {
		for _, q := range crawlerQueries([][]byte{f}) {
			if q.agent == "Googlebot" {
				perFile[i] = append(perFile[i], question{q.agent, q.url})
			}
		}
	}
	for _, n := range []int{1, 2, 3, 4, 5, 10, 20, 100, 1000} {
		b.Run(fmt.Sprintf("checks=%d", n), func(b *testing.B) {
			b.SetBytes(corpusSize(files))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for j, f := range files {
					r := robotstxt.Parse(f)
					qs := perFile[j]
					for k := 0; k < n; k++ {
						q := &qs[k%len(qs)]
						r.Allowed(q.agent, q.url)
					}
				}
			}
		})
	}
}

// BenchmarkAllowedOnceCorpus asks each corpus file one question through
// robotstxt.Allowed, the question that BenchmarkParseCheckCorpus's
// checks=1 asks after Parse: the file is read once and not kept.
func BenchmarkAllowedOnceCorpus(b *testing.B) {
	_, files := loadCorpus(b)
	first := make([]crawlerQuery, len(files))
	for i, f := range files {
		for _, q := range crawlerQueries([][]byte{f}) {
			if q.agent == "Googlebot" {
				first[i] = q
				break
			}
		}
	}
	b.SetBytes(corpusSize(files))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, f := range files {
			robotstxt.Allowed(f, first[j].agent, first[j].url)
		}
	}
}
