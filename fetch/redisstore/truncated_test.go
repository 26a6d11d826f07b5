package redisstore

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/fakeclock"
)

// A 780,000-byte robots.txt cut at the 500 KiB limit (RFC 9309 section
// 2.5; Google's documentation) reports Truncated in the process that
// fetched it and in another process that reads its copy from Redis, as
// Parse of the same bytes does.
func TestTruncatedThroughRedis(t *testing.T) {
	srv := startRedis(t)
	ctx := context.Background()
	body := fleetRules + strings.Repeat("#", 780000-len(fleetRules)-len("\nDisallow: /public\n")) + "\nDisallow: /public\n"
	want := robotstxt.Parse([]byte(body))
	var hits atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, body)
	}))
	defer site.Close()
	clock := fakeclock.New()
	for _, name := range []string{"the fetching process", "a process reading Redis"} {
		c := &fetch.Client{Cache: New(srv.client(), "t:"), Now: clock.Now}
		r, err := c.Robots(ctx, site.URL+"/page")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !want.Truncated() || r.Truncated() != want.Truncated() || r.Size() != want.Size() {
			t.Errorf("%s: Truncated() %v Size() %d; Parse %v %d", name, r.Truncated(), r.Size(), want.Truncated(), want.Size())
		}
		if !r.Allowed("bot", site.URL+"/public") {
			t.Errorf("%s: the rule past the limit applied", name)
		}
		if err := c.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if hits.Load() != 1 {
			t.Fatalf("after %s: %d fetches, want 1", name, hits.Load())
		}
	}
}
