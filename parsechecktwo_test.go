package robotstxt_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// BenchmarkParseCheckTwoAgents is parse + N checks per corpus file on the
// two-agent workload of the side-by-side rounds: question k asks as
// Googlebot when k is even, as bingbot when odd, the URL k/2 of the
// file's (each URL as both agents, in turn). string/checks=N is the same
// with ParseString on the files as strings, which keeps them uncopied,
// and owned/checks=N with ParseOwned on the files handed over (copies
// made before the timing, which nothing writes).
func BenchmarkParseCheckTwoAgents(b *testing.B) {
	_, files := loadCorpus(b)
	urls := make([][]string, len(files))
	for i, f := range files {
		_, urls[i] = corpus.Queries(f)
	}
	strs := asStrings(files)
	for _, n := range []int{1, 2, 3, 5, 10, 20, 100, 1000} {
		b.Run(fmt.Sprintf("checks=%d", n), func(b *testing.B) {
			parseCheckTwoAgents(b, files, urls, n)
		})
	}
	for _, n := range []int{1, 2, 3, 5, 10} {
		b.Run(fmt.Sprintf("string/checks=%d", n), func(b *testing.B) {
			parseStringCheckTwoAgents(b, files, strs, urls, n)
		})
	}
	owned := make([][]byte, len(files))
	for i, f := range files {
		owned[i] = ownedCopy(f)
	}
	for _, n := range []int{1, 2, 3, 5, 10} {
		b.Run(fmt.Sprintf("owned/checks=%d", n), func(b *testing.B) {
			timePerFile(b, files, func(j int, _ []byte) {
				askTwoAgents(robotstxt.ParseOwned(owned[j]), urls[j], n)
			})
		})
	}
}

// asStrings returns the files as strings, made before a benchmark times
// ParseString on them, as a crawler that keeps bodies as strings has
// them.
func asStrings(files [][]byte) []string {
	strs := make([]string, len(files))
	for i, f := range files {
		strs[i] = string(f)
	}
	return strs
}

// BenchmarkParseCheckBySize is BenchmarkParseCheckTwoAgents for the
// corpus files of each size apart, under 1 KiB (two thirds of the files,
// 5 % of the bytes), up to 16 KiB, and larger (3 % of the files, 70 % of
// the bytes), with checks=0 for Parse alone, the copy: the side-by-side
// rounds average over files, which hides a lead on the large files and a
// lag on the small ones (see BENCHMARKS.md, "By file size"). stream=1 is
// Parse, then the first question answered by the one-shot Allowed on the
// same bytes, which keeps nothing: against checks=1, what keeping the
// agent's set costs the first question (BENCHMARKS.md, the ninth round).
// string=N is checks=N with ParseString: what Parse's copy costs.
func BenchmarkParseCheckBySize(b *testing.B) {
	_, all := loadCorpus(b)
	for _, size := range []struct {
		name     string
		min, max int
	}{{"small", 0, 1 << 10}, {"mid", 1 << 10, 16 << 10}, {"large", 16 << 10, 1 << 30}} {
		var files [][]byte
		var urls [][]string
		for _, f := range all {
			if len(f) >= size.min && len(f) < size.max {
				_, us := corpus.Queries(f)
				files, urls = append(files, f), append(urls, us)
			}
		}
		for _, n := range []int{0, 1, 2, 3} {
			b.Run(fmt.Sprintf("size=%s/checks=%d", size.name, n), func(b *testing.B) {
				parseCheckTwoAgents(b, files, urls, n)
			})
		}
		b.Run(fmt.Sprintf("size=%s/stream=1", size.name), func(b *testing.B) {
			parseStreamOne(b, files, urls)
		})
		strs := asStrings(files)
		for _, n := range []int{1, 2, 3} {
			b.Run(fmt.Sprintf("size=%s/string=%d", size.name, n), func(b *testing.B) {
				parseStringCheckTwoAgents(b, files, strs, urls, n)
			})
		}
	}
}

// parseCheckTwoAgents parses each file and asks n questions of it, in
// turn as Googlebot and bingbot, the URL k/2 of the file's, and reports
// the time per file.
func parseCheckTwoAgents(b *testing.B, files [][]byte, urls [][]string, n int) {
	timePerFile(b, files, func(j int, f []byte) {
		askTwoAgents(robotstxt.Parse(f), urls[j], n)
	})
}

// askTwoAgents asks r n questions, in turn as Googlebot and bingbot, the
// URL k/2 of us.
func askTwoAgents(r *robotstxt.Robots, us []string, n int) {
	agents := [2]string{"Googlebot", "bingbot"}
	for k := 0; k < n; k++ {
		r.Allowed(agents[k&1], us[(k>>1)%len(us)])
	}
}

// parseStringCheckTwoAgents is parseCheckTwoAgents with ParseString on
// strs, the files as strings: what the copy Parse makes costs.
func parseStringCheckTwoAgents(b *testing.B, files [][]byte, strs []string, urls [][]string, n int) {
	timePerFile(b, files, func(j int, _ []byte) {
		askTwoAgents(robotstxt.ParseString(strs[j]), urls[j], n)
	})
}

// parseStreamOne parses each file, then answers parseCheckTwoAgents'
// first question by the one-shot Allowed on the same bytes, and reports
// the time per file.
func parseStreamOne(b *testing.B, files [][]byte, urls [][]string) {
	timePerFile(b, files, func(j int, f []byte) {
		r := robotstxt.Parse(f)
		robotstxt.Allowed(f, "Googlebot", urls[j][0])
		runtime.KeepAlive(r)
	})
}

// timePerFile runs each file through do, b.N times, and reports the time
// per file besides the bytes and allocations per pass. A call of do a
// file costs about a nanosecond of the microseconds a file takes.
func timePerFile(b *testing.B, files [][]byte, do func(j int, f []byte)) {
	b.SetBytes(corpusSize(files))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for j, f := range files {
			do(j, f)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/file")
}
