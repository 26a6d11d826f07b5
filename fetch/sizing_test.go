package fetch

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// sizingBody is a robots.txt of about size bytes: a group for every
// crawler and rules of 20-odd bytes, as real files are mostly made of.
func sizingBody(size int) string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "Disallow: /section-%d/page\n", i)
	}
	return b.String()
}

// BenchmarkMemoryPerSite measures what a Client holds in memory per site
// (the parsed copy in its memo and the entry in its default LRU) after
// one question about each of 2,000 sites whose robots.txt is of a given
// size, and what the two bounds (MemoBytes, the LRU's bytes) count it as.
// docs/operations.md quotes its figures:
//
//	go test -run '^$' -bench MemoryPerSite -benchtime 1x ./fetch
func BenchmarkMemoryPerSite(b *testing.B) {
	const sites = 2000
	for _, size := range []int{1 << 10, 8 << 10, 64 << 10} {
		b.Run(fmt.Sprintf("body=%dKiB", size>>10), func(b *testing.B) {
			body := sizingBody(size)
			rt := roundTrip(func(req *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
			})
			for b.Loop() {
				lru := NewLRU(0, 0)
				c := &Client{HTTPClient: &http.Client{Transport: rt}, Cache: lru, MemoBytes: math.MaxInt, MemoEntries: math.MaxInt}
				ctx := context.Background()
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i := range sites {
					if _, err := c.Allowed(ctx, "bot", fmt.Sprintf("http://site-%d.test/section-1/page", i)); err != nil {
						b.Fatal(err)
					}
				}
				if err := c.Flush(ctx); err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/sites, "heapB/site")
				b.ReportMetric(float64(lru.Bytes())/sites, "lruB/site")
				c.memo.mu.Lock()
				memoBytes := c.memo.lru.bytes
				c.memo.mu.Unlock()
				b.ReportMetric(float64(memoBytes)/sites, "memoB/site")
				b.ReportMetric(float64(len(body)), "bodyB")
				runtime.KeepAlive(c)
			}
		})
	}
}
