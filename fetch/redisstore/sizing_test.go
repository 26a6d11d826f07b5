package redisstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt/fetch"
)

// BenchmarkRedisBytesPerSite measures what one site's entry costs Redis
// (MEMORY USAGE of its key: the wire form, JSON with the body in base64,
// and Redis's own overhead) for robots.txt files of a given size, and the
// wire form's length. docs/operations.md quotes its figures:
//
//	(cd fetch/redisstore && go test -run '^$' -bench RedisBytesPerSite -benchtime 1x .)
func BenchmarkRedisBytesPerSite(b *testing.B) {
	srv := startRedis(b)
	rdb := srv.client()
	s := New(rdb, "size:")
	ctx := context.Background()
	for _, size := range []int{1 << 10, 8 << 10, 64 << 10} {
		b.Run(fmt.Sprintf("body=%dKiB", size>>10), func(b *testing.B) {
			var body strings.Builder
			body.WriteString("User-agent: *\n")
			for i := 0; body.Len() < size; i++ {
				fmt.Fprintf(&body, "Disallow: /section-%d/page\n", i)
			}
			now := time.Now()
			e := &fetch.Entry{Copy: true, Status: 200, Body: []byte(body.String()), FetchedAt: now, ETag: `"5f3a-1a2b3c"`, LastModified: "Mon, 02 Mar 2026 10:00:00 GMT", Expires: now.Add(24 * time.Hour)}
			wire, err := e.MarshalBinary()
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				key := fmt.Sprintf("https://www.site-%d.example/robots.txt", size)
				if err := s.Put(ctx, key, e); err != nil {
					b.Fatal(err)
				}
				used, err := rdb.MemoryUsage(ctx, "size:"+key).Result()
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(used), "redisB/site")
				b.ReportMetric(float64(len(wire)), "wireB")
				b.ReportMetric(float64(len(e.Body)), "bodyB")
			}
		})
	}
}
