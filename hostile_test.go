package robotstxt_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// Hostile rule sets: a site chooses both its rules and the URLs a crawler
// asks about, so it can try to make each query slow. Each family fills a
// file of at most DefaultMaxSize bytes with rules that the prefix index
// cannot rule out, and pairs it with paths built to defeat the matcher.

// hostilePathSizes are the path lengths the benchmarks ask about.
var hostilePathSizes = []int{100, 1 << 10, 16 << 10, 1 << 20}

// BenchmarkAllowedHostile reports the time of one query per family and
// path length, with the lazy structures already built.
func BenchmarkAllowedHostile(b *testing.B) {
	for _, f := range reference.HostileFamilies(robotstxt.DefaultMaxSize) {
		r := robotstxt.Parse(f.File)
		for _, n := range hostilePathSizes {
			url := "https://example.com" + f.Path(n)
			for range 64 { // enough queries to build the lazy index and the scratch
				r.Allowed("Googlebot", url)
			}
			b.Run(fmt.Sprintf("%s/path=%d", f.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					r.Allowed("Googlebot", url)
				}
			})
		}
	}
}

// retainedHostileQuestions is how many questions build every lazy
// structure of a hostile file: a stream, the compile in parts, the scans,
// the index in parts. Over twice the file was kept up to the 93rd
// question at most (star-tail; the 60th before the parts were halved),
// while the index was built, up to 6.6 times it.
const retainedHostileQuestions = 128

// BenchmarkRetainedHostile reports the heap each hostile file keeps per
// byte read, once a query has built its lazy structures. Run it with -cpu
// 1: with more, the index may still be building apart when the heap is
// read. The heap is read after two collections, the second of which frees
// what the first left in the pools' victim caches.
func BenchmarkRetainedHostile(b *testing.B) {
	for _, f := range reference.HostileFamilies(robotstxt.DefaultMaxSize) {
		b.Run(f.Name, func(b *testing.B) {
			var ratio float64
			for i := 0; i < b.N; i++ {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.GC()
				runtime.ReadMemStats(&before)
				r := robotstxt.Parse(f.File)
				for q := 0; q < retainedHostileQuestions; q++ {
					r.Allowed("Googlebot", "https://example.com"+f.Path(100))
				}
				runtime.GC()
				runtime.GC()
				runtime.ReadMemStats(&after)
				runtime.KeepAlive(r)
				ratio = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(f.File))
			}
			b.ReportMetric(ratio, "retained-B/B")
		})
	}
}

// Every hostile family keeps at most twice its size once every lazy
// structure is built (the least of two measures, one goroutine at a time,
// so that no index is being built apart while the heap is read).
func TestRetainedHostileWithinTwice(t *testing.T) {
	if testing.Short() || transcriptUnderRace {
		t.Skip("measures the heap: not with -short or the race detector")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, f := range reference.HostileFamilies(robotstxt.DefaultMaxSize) {
		ratio := 0.0
		for try := 0; try < 2; try++ {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r := robotstxt.Parse(f.File)
			for q := 0; q < retainedHostileQuestions; q++ {
				r.Allowed("Googlebot", "https://example.com"+f.Path(100))
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(r)
			if got := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(f.File)); try == 0 || got < ratio {
				ratio = got
			}
		}
		if ratio > 2 {
			t.Errorf("%s keeps %.3f bytes per byte of the file, more than 2", f.Name, ratio)
		}
	}
}
