package fetch

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/fakeclock"
)

// The counters of Stats follow what the Client did: each answer from
// memory, from the store, from a fetch; failures, drops, purges.
func TestStats(t *testing.T) {
	ctx := context.Background()
	s := newSite(t, serve(rules))
	down := newSite(t, status(http.StatusServiceUnavailable))
	clock := fakeclock.New()
	lru := NewLRU(0, 0)
	a := &Client{Now: clock.Now, Cache: lru}
	answer(t, a, s) // a fetch: the store misses
	answer(t, a, s) // from memory
	answer(t, a, s) // from memory
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	answer(t, a, down) // a failed fetch
	want := Stats{MemoryHits: 2, StoreMisses: 2, Fetches: 2, FetchFailures: 1, MemoEntries: 2}
	if diff := cmp.Diff(want, a.Stats()); diff != "" {
		t.Errorf("a (-want +got):\n%s", diff)
	}

	b := &Client{Now: clock.Now, Cache: lru}
	answer(t, b, s) // from the shared store
	if diff := cmp.Diff(Stats{StoreHits: 1, MemoEntries: 1}, b.Stats()); diff != "" {
		t.Errorf("b (-want +got):\n%s", diff)
	}

	// Purge forgets the copy in memory and in the store: the next
	// question fetches again.
	if err := b.Purge(ctx, s.URL+"/any/page"); err != nil {
		t.Fatal(err)
	}
	if e, _ := lru.Get(ctx, s.URL+"/robots.txt"); e != nil {
		t.Error("the LRU still holds the purged entry")
	}
	answer(t, b, s)
	if got := b.Stats(); got.Purges != 1 || got.Fetches != 1 || s.hits.Load() != 2 {
		t.Errorf("after Purge: %+v, %d requests; want one purge and one more fetch", got, s.hits.Load())
	}

	// A copy that cannot be stored (no slot free) is a drop and a store
	// error.
	c := &Client{Now: clock.Now, Cache: NewLRU(0, 0), putSlots: make(chan struct{})}
	answer(t, c, s)
	c.Flush(ctx)
	if got := c.Stats(); got.StoreDrops != 1 || got.StoreErrors != 1 {
		t.Errorf("a dropped copy: %+v; want StoreDrops 1, StoreErrors 1", got)
	}
	if err := c.Purge(ctx, "ftp://x/"); !errors.Is(err, ErrUnsupportedScheme) {
		t.Errorf("Purge of an ftp page: %v", err)
	}
}

// A process that finds another's lease waits (LeaseWaits), and one with a
// stale copy serves it (StaleServed); the waits run on a fake clock.
func TestStatsLease(t *testing.T) {
	ctx := context.Background()
	s := newSite(t, serve(rules))
	clock := fakeclock.New()
	store := newMemLeaser(clock.Now)
	key := s.URL + "/robots.txt"
	other, err := store.TryLease(ctx, key, time.Hour) // another process fetches
	if err != nil || other == nil {
		t.Fatal(err)
	}
	c := &Client{Now: clock.Now, Sleep: clock.Sleep, Cache: store, LeaseWait: 200 * time.Millisecond, Timeout: time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		answer(t, c, s)
	}()
	answered := func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	clock.RunUntil(t, answered, clock.Asleep(leasePoll), leasePoll, time.Second)
	<-done
	clock.Advance(DefaultTTL + time.Second) // the copy is stale
	if again, _ := store.TryLease(ctx, key, time.Hour); again == nil {
		t.Fatal("the other process could not take the lease again")
	}
	answer(t, c, s)
	got := c.Stats()
	if got.LeaseWaits != 1 || got.StaleServed != 1 || got.Fetches != 1 {
		t.Errorf("%+v; want one lease wait (then a fetch), one stale copy served", got)
	}
}

// The Transport counts the requests it checks, those it refuses, the
// waits for a site's turn and their time, and the 429 and 503 pauses.
func TestTransportStats(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private\nCrawl-delay: 2\n"))
		case "/busy":
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	clock := fakeclock.New()
	var slept time.Duration
	tr := &Transport{Now: clock.Now, Sleep: func(_ context.Context, d time.Duration) error {
		slept += d
		clock.Advance(d)
		return nil
	}}
	tr.Agents = []string{"bot"}
	hc := &http.Client{Transport: tr}
	for _, path := range []string{"/a", "/private/x", "/b", "/busy", "/c"} {
		resp, err := hc.Get(s.URL + path)
		if err == nil {
			resp.Body.Close()
		}
	}
	got := tr.Stats()
	want := TransportStats{Requests: 5, Refused: 1, Waits: got.Waits, WaitTime: slept, Pauses: 1}
	if diff := cmp.Diff(want, got); diff != "" || got.Waits < 3 || slept < 6*time.Second {
		t.Errorf("(-want +got):\n%s\nwaits %d, slept %v: want the three requests after the first held back 2 s each or more", diff, got.Waits, slept)
	}
}
