package robotstxt_test

import (
	"fmt"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// BenchmarkParseCheckTwoAgents is parse + N checks per corpus file on the
// two-agent workload of the side-by-side rounds: question k asks as
// Googlebot when k is even, as bingbot when odd, the URL k/2 of the
// file's (each URL as both agents, in turn).
func BenchmarkParseCheckTwoAgents(b *testing.B) {
	_, files := loadCorpus(b)
	urls := make([][]string, len(files))
	for i, f := range files {
		_, urls[i] = corpus.Queries(f)
	}
	agents := [2]string{"Googlebot", "bingbot"}
	for _, n := range []int{1, 2, 3, 5, 10, 20, 100, 1000} {
		b.Run(fmt.Sprintf("checks=%d", n), func(b *testing.B) {
			b.SetBytes(corpusSize(files))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for j, f := range files {
					r := robotstxt.Parse(f)
					us := urls[j]
					for k := 0; k < n; k++ {
						r.Allowed(agents[k&1], us[(k>>1)%len(us)])
					}
				}
			}
		})
	}
}
