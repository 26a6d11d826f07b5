package robotstxt_test

import (
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// workloadQuestions returns the questions of a per-question workload over
// the corpus, file after file, each file's in the order the side-by-side
// harness asks them, on files parsed once and warmed by warmPasses passes
// over every question: the first compiles a file asked as a fifth agent,
// and by the last every file has left its first states (a scoped set's
// scans in file order and before its index, a large file's compile in
// parts), as a file a crawler keeps asking has. URLs are in wire form, as
// the harness hands them to every implementation.
func workloadQuestions(b *testing.B, agentsOf func(file []byte) []string) []crawlerQuery {
	_, files := loadCorpus(b)
	var qs []crawlerQuery
	for _, f := range files {
		r := robotstxt.Parse(f)
		agents := agentsOf(f)
		_, urls := corpus.Queries(f)
		for i, u := range urls {
			urls[i] = string(pattern.AppendEscaped(nil, u))
		}
		// Question k asks as agent k mod a about URL k/a mod u: each URL
		// as every agent in turn.
		for k := 0; k < len(agents)*len(urls); k++ {
			qs = append(qs, crawlerQuery{r, agents[k%len(agents)], urls[k/len(agents)]})
		}
	}
	for range warmPasses {
		for i := range qs {
			qs[i].robots.Allowed(qs[i].agent, qs[i].url)
		}
	}
	return qs
}

// warmPasses is how many passes over its questions warm a workload: a
// file is asked at least 9 questions a pass, and 72 questions bring every
// corpus file to the state it then keeps (no allocation after).
const warmPasses = 8

// BenchmarkAllowedWorkload reports the cost of one question on a parsed,
// warmed file (BENCHMARKS.md, "Per question on a parsed file"):
//
//   - many: the agents each file names, their Name/1.0 forms, Googlebot,
//     bingbot and UnknownBot (corpus.ManyAgents), every URL asked as each;
//   - two: Googlebot and bingbot, every URL asked as each.
//
// One iteration is one question; the questions repeat in order.
func BenchmarkAllowedWorkload(b *testing.B) {
	for _, w := range []struct {
		name     string
		agentsOf func([]byte) []string
	}{
		{"many", corpus.ManyAgents},
		{"two", func([]byte) []string { return []string{"Googlebot", "bingbot"} }},
	} {
		b.Run(w.name, func(b *testing.B) {
			qs := workloadQuestions(b, w.agentsOf)
			b.ReportAllocs()
			b.ResetTimer()
			allowed := 0
			for i, k := 0, 0; i < b.N; i++ {
				q := &qs[k]
				if q.robots.Allowed(q.agent, q.url) {
					allowed++
				}
				if k++; k == len(qs) {
					k = 0
				}
			}
			b.ReportMetric(float64(len(qs)), "questions/pass")
		})
	}
}
