package fetch

import (
	"context"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/fakeclock"
)

// bodyOverLimit is a 780,000-byte robots.txt: a rule, padding past the
// 500 KiB limit, and a rule past it that must be ignored.
func bodyOverLimit() string {
	const size = 780000
	tail := "\nDisallow: /public\n"
	return rules + strings.Repeat("#", size-len(rules)-len(tail)) + tail
}

// Every copy of a file cut at the limit reports Truncated, as Parse of the
// same bytes does (RFC 9309 section 2.5; Google's documentation: the
// first 500 KiB are read): the copy this Client fetched, the copy another
// Client reads from a shared in-memory LRU, and one read back from a store
// that keeps the wire form.
func TestTruncatedEveryCopy(t *testing.T) {
	ctx := context.Background()
	body := bodyOverLimit()
	if len(body) != 780000 {
		t.Fatalf("body of %d bytes", len(body))
	}
	want := robotstxt.Parse([]byte(body))
	if !want.Truncated() {
		t.Fatal("Parse of 780,000 bytes is not truncated")
	}
	s := newSite(t, serve(body))
	clock := fakeclock.New()
	lru := NewLRU(0, 0)
	wire := &mapCache{m: map[string][]byte{}}

	fetched := &Client{Now: clock.Now, Cache: lru}
	check := func(name string, c *Client) {
		t.Helper()
		r, err := c.Robots(ctx, s.URL+"/page")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !r.Truncated() || r.Size() != want.Size() {
			t.Errorf("%s: Truncated() %v Size() %d, want true %d", name, r.Truncated(), r.Size(), want.Size())
		}
		if r.Allowed("bot", s.URL+"/private") || !r.Allowed("bot", s.URL+"/public") {
			t.Errorf("%s: the rule past the limit applied, or the one before it did not", name)
		}
	}
	check("fetched", fetched)
	check("fetched, asked again", fetched)
	if err := fetched.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	check("from a shared LRU", &Client{Now: clock.Now, Cache: lru})

	viaWire := &Client{Now: clock.Now, Cache: wire}
	check("fetched for a wire store", viaWire)
	if err := viaWire.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	check("from the wire form", &Client{Now: clock.Now, Cache: wire})
	if got := s.hits.Load(); got != 2 {
		t.Errorf("%d fetches, want 2 (one per store)", got)
	}
}

// A body of exactly the limit is whole: the byte past the limit is kept
// only when there is one.
func TestBodyAtLimitNotTruncated(t *testing.T) {
	body := rules + strings.Repeat("#", robotstxt.DefaultMaxSize-len(rules))
	s := newSite(t, serve(body))
	c := newClient(fakeclock.New())
	r, err := c.Robots(context.Background(), s.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	e, _ := c.Entry(context.Background(), s.URL+"/robots.txt")
	if r.Truncated() || len(e.Body) != robotstxt.DefaultMaxSize {
		t.Errorf("Truncated() %v, body kept %d bytes; want false, %d", r.Truncated(), len(e.Body), robotstxt.DefaultMaxSize)
	}
}
