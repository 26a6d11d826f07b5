package fetch

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stalledStore is a Leaser that answers nothing, as a stalled server
// does: each call blocks until its context ends or, when ignoreContext is
// set (a client that does not honour deadlines), until the test ends.
type stalledStore struct {
	ignoreContext bool
	unblock       chan struct{}
	calls         atomic.Int64
}

func (s *stalledStore) block(ctx context.Context) error {
	s.calls.Add(1)
	if s.ignoreContext {
		<-s.unblock
		return errors.New("stalled")
	}
	<-ctx.Done()
	return ctx.Err()
}

func (s *stalledStore) Get(ctx context.Context, _ string) (*Entry, error) { return nil, s.block(ctx) }
func (s *stalledStore) Put(ctx context.Context, _ string, _ *Entry) error { return s.block(ctx) }
func (s *stalledStore) TryLease(ctx context.Context, _ string, _ time.Duration) (Lease, error) {
	return nil, s.block(ctx)
}

// A stalled store costs a caller at most Timeout in all, get, lease and
// put together, plus the fetch (issue: 3.01 s with Timeout 1 s, each call
// waiting out its own timeout and the put before the answer), whether or
// not the store honours its context.
func TestStalledStoreOneBudget(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		store := &stalledStore{ignoreContext: ignore, unblock: make(chan struct{})}
		s := newSite(t, serve(rules))
		var storeErrs atomic.Int64
		c := &Client{Cache: store, Timeout: time.Second, OnEvent: func(ev Event) {
			var se *StoreError
			if errors.As(ev.Err, &se) {
				storeErrs.Add(1)
			}
		}}
		start := time.Now()
		ok, err := c.Allowed(context.Background(), "bot", s.URL+"/public")
		took := time.Since(start)
		close(store.unblock)
		if !ok || err != nil {
			t.Fatalf("ignoring context %v: Allowed: %v, %v", ignore, ok, err)
		}
		// The fetch is on loopback; a second of margin would hide a
		// second timeout.
		if took > c.Timeout+400*time.Millisecond {
			t.Errorf("ignoring context %v: Allowed took %v with Timeout %v", ignore, took, c.Timeout)
		}
		t.Logf("ignoring context %v: Allowed answered in %v (Timeout %v), %d store calls, %d store errors reported", ignore, took.Round(time.Millisecond), c.Timeout, store.calls.Load(), storeErrs.Load())
		if s.hits.Load() != 1 {
			t.Errorf("%d fetches, want 1", s.hits.Load())
		}
	}
}

// gatedStore is an LRU whose Put waits for the test's word.
type gatedStore struct {
	*LRU
	gate chan struct{}
	puts atomic.Int64
}

func (s *gatedStore) Put(ctx context.Context, k string, e *Entry) error {
	s.puts.Add(1)
	select {
	case <-s.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	return s.LRU.Put(ctx, k, e)
}

// A fetched answer comes before its copy is stored; Flush waits for the
// storing. At most maxPendingPuts copies are stored at once: beyond, a
// copy is dropped and the drop reported.
func TestPutInBackgroundBounded(t *testing.T) {
	s := newSite(t, serve(rules))
	store := &gatedStore{LRU: NewLRU(0, 0), gate: make(chan struct{})}
	var mu sync.Mutex
	var dropped []string
	const slots = 3
	c := &Client{Cache: store, Timeout: 10 * time.Second, putSlots: make(chan struct{}, slots), OnEvent: func(ev Event) {
		var se *StoreError
		if errors.As(ev.Err, &se) && se.Op == "put" && errors.Is(ev.Err, ErrStoreBusy) {
			mu.Lock()
			dropped = append(dropped, se.RobotsURL)
			mu.Unlock()
		}
	}}
	const keys = 10
	for i := range keys {
		ok, err := c.Allowed(context.Background(), "bot", s.URL+"/public?"+string(rune('a'+i)))
		if !ok || err != nil {
			t.Fatalf("Allowed: %v, %v", ok, err)
		}
		// Ten distinct robots.txt URLs: one server, keys told apart by
		// the query of the key itself.
		if _, err := c.Entry(context.Background(), s.URL+"/robots.txt?"+string(rune('a'+i))); err != nil {
			t.Fatal(err)
		}
	}
	// Every answer came while no put could finish.
	if n := store.LRU.Len(); n != 0 {
		t.Fatalf("%d copies stored before the gate opened", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := c.Flush(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Flush with puts blocked: %v; want the context's error", err)
	}
	// Every fetch's put has taken a slot or been dropped before the gate
	// opens (polled, not timed: the deadline only bounds a failure).
	fetched := int(s.hits.Load())
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(dropped)
		mu.Unlock()
		if n+int(store.puts.Load()) >= fetched {
			break
		}
	}
	if n := store.puts.Load(); n != slots {
		t.Errorf("%d puts under way at once; want %d, the bound", n, slots)
	}
	close(store.gate)
	if err := c.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if stored := store.LRU.Len(); stored != slots || len(dropped) != fetched-slots {
		t.Errorf("%d fetches: %d stored, %d dropped (%q); want %d stored, the rest dropped and reported", fetched, stored, len(dropped), dropped, slots)
	}
}

// Fetch requests carry the robots.txt mark; other requests do not.
func TestRobotsFetchMark(t *testing.T) {
	var marked, unmarked atomic.Int64
	rt := roundTrip(func(req *http.Request) (*http.Response, error) {
		if isRobotsFetch(req.Context()) {
			marked.Add(1)
		} else {
			unmarked.Add(1)
		}
		return &http.Response{StatusCode: 404, Body: http.NoBody, Request: req}, nil
	})
	c := &Client{HTTPClient: &http.Client{Transport: rt}}
	if _, err := c.Allowed(context.Background(), "bot", "http://a.example/"); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "http://a.example/robots.txt", nil)
	rt.RoundTrip(req)
	if marked.Load() != 1 || unmarked.Load() != 1 {
		t.Errorf("%d marked, %d unmarked; want 1 and 1", marked.Load(), unmarked.Load())
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
