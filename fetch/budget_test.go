package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/fakeclock"
)

// stalledStore is a Leaser that answers nothing, as a stalled server
// does: each call blocks until its context ends or, when ignoreContext is
// set (a client that does not honour deadlines), until the test ends.
type stalledStore struct {
	ignoreContext bool
	unblock       chan struct{}
	calls         atomic.Int64

	mu    sync.Mutex
	asked []context.Context // of the calls a caller waits on (Get, TryLease)
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

// waited records a call a caller waits on, then blocks.
func (s *stalledStore) waited(ctx context.Context) error {
	s.mu.Lock()
	s.asked = append(s.asked, ctx)
	s.mu.Unlock()
	return s.block(ctx)
}

// waiting reports whether a caller waits on a call whose budget is not
// spent (its context has not ended).
func (s *stalledStore) waiting() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ctx := range s.asked {
		if ctx.Err() == nil {
			return true
		}
	}
	return false
}

func (s *stalledStore) Get(ctx context.Context, _ string) (*Entry, error) { return nil, s.waited(ctx) }
func (s *stalledStore) Put(ctx context.Context, _ string, _ *Entry) error { return s.block(ctx) }
func (s *stalledStore) TryLease(ctx context.Context, _ string, _ time.Duration) (Lease, error) {
	return nil, s.waited(ctx)
}

// A stalled store costs a caller at most Timeout in all, get, lease and
// put together, plus the fetch (issue: 3.01 s with Timeout 1 s, each call
// waiting out its own timeout and the put before the answer), whether or
// not the store honours its context. The budget runs on a fake clock,
// which the test moves on while a store call waits on it.
func TestStalledStoreOneBudget(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		store := &stalledStore{ignoreContext: ignore, unblock: make(chan struct{})}
		s := newSite(t, serve(rules))
		var storeErrs atomic.Int64
		clock := fakeclock.New()
		c := &Client{Cache: store, Timeout: time.Second, Now: clock.Now, Sleep: clock.Sleep, OnEvent: func(ev Event) {
			var se *StoreError
			if errors.As(ev.Err, &se) {
				storeErrs.Add(1)
			}
		}}
		var ok atomic.Bool
		var answered atomic.Bool
		var err error
		go func() {
			var allowed bool
			allowed, err = c.Allowed(context.Background(), "bot", s.URL+"/public")
			ok.Store(allowed)
			answered.Store(true)
		}()
		// The clock moves 10 ms at a time while the caller waits on a
		// store call (the background put, after the answer, is not
		// waited on).
		const step = 10 * time.Millisecond
		took := clock.RunUntil(t, answered.Load, func() bool { return store.waiting() && clock.AsleepAny() }, step, 10*c.Timeout)
		waitUntil(t, answered.Load)
		close(store.unblock)
		if !ok.Load() || err != nil {
			t.Fatalf("ignoring context %v: Allowed: %v, %v", ignore, ok.Load(), err)
		}
		if took > c.Timeout+step || took < c.Timeout-step {
			t.Errorf("ignoring context %v: Allowed took %v of the clock with Timeout %v; want the budget, spent once", ignore, took, c.Timeout)
		}
		t.Logf("ignoring context %v: Allowed answered after %v of the clock (Timeout %v), %d store calls, %d store errors reported", ignore, took, c.Timeout, store.calls.Load(), storeErrs.Load())
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

// wedgedStore is a Cache whose Get and Put block, ignoring their context
// (a stalled server behind a client without deadlines), until unblock is
// closed. It counts the calls that reached it.
type wedgedStore struct {
	*LRU
	unblock    chan struct{}
	gets, puts atomic.Int64
}

func (s *wedgedStore) Get(ctx context.Context, k string) (*Entry, error) {
	s.gets.Add(1)
	<-s.unblock
	return s.LRU.Get(ctx, k)
}

func (s *wedgedStore) Put(ctx context.Context, k string, e *Entry) error {
	s.puts.Add(1)
	<-s.unblock
	return s.LRU.Put(ctx, k, e)
}

// A store that hangs on every call, context or not, keeps at most
// maxStoreCalls (4,096) of the calls a caller waits on (gets) and
// maxPendingPuts (1,024) background puts under way: the goroutines and
// pending work stay bounded, whatever the number of sites asked. A call
// beyond either bound is not made: an Event carries a *StoreError
// wrapping ErrStoreBusy, and the caller still gets its answer (the store
// counting as a miss). Once the store answers, Flush returns, the
// goroutines end, and the store is asked again. The real bounds are used:
// the Client has no hook for maxStoreCalls.
func TestStoreCallsBounded(t *testing.T) {
	const extra = 1000
	const sites = maxStoreCalls + extra
	store := &wedgedStore{LRU: NewLRU(0, 0), unblock: make(chan struct{})}
	unblocked := false
	defer func() {
		if !unblocked {
			close(store.unblock)
		}
	}()
	var busyGets, busyPuts, otherErrs atomic.Int64
	rt := roundTrip(func(req *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusNotFound, Body: http.NoBody, Request: req}, nil
	})
	c := &Client{
		HTTPClient: &http.Client{Transport: rt},
		Cache:      store,
		Timeout:    100 * time.Millisecond, // what each get may cost its caller
		OnEvent: func(ev Event) {
			var se *StoreError
			switch {
			case !errors.As(ev.Err, &se):
			case se.Op == "get" && errors.Is(ev.Err, ErrStoreBusy):
				busyGets.Add(1)
			case se.Op == "put" && errors.Is(ev.Err, ErrStoreBusy):
				busyPuts.Add(1)
			case se.Op == "get" && errors.Is(ev.Err, ErrStoreBudget):
			default:
				otherErrs.Add(1)
			}
		},
	}
	base := runtime.NumGoroutine()
	start := time.Now()

	// Distinct sites, asked by a pool of workers (the race detector
	// allows 8,128 goroutines: the bounds' 5,120, and two per worker).
	const workers = 512
	var allowAll, failed atomic.Int64
	var slowest atomic.Int64
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t0 := time.Now()
				ok, err := c.Allowed(context.Background(), "bot", fmt.Sprintf("http://h%d.test/x", i))
				for took := int64(time.Since(t0)); ; {
					if s := slowest.Load(); took <= s || slowest.CompareAndSwap(s, took) {
						break
					}
				}
				if err != nil {
					failed.Add(1)
				} else if ok { // the 404 (allow all), unless the fetch itself timed out
					allowAll.Add(1)
				}
			}
		}()
	}
	for i := range sites {
		next <- i
	}
	close(next)
	wg.Wait()
	asked := time.Since(start)

	if n := failed.Load(); n != 0 {
		t.Errorf("%d of %d callers got an error, not an answer", n, sites)
	}
	// The puts run after their callers have the answer, and a get's own
	// goroutine may start after its caller's budget ran out, so the last of
	// them may still be on their way to the store or to their busy event.
	for deadline := time.Now().Add(5 * time.Second); (store.puts.Load()+busyPuts.Load() < sites || store.gets.Load()+busyGets.Load() < sites) && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	// The store's calls never end here, so every slot taken stays taken.
	if got, want := store.gets.Load(), int64(maxStoreCalls); got != want {
		t.Errorf("%d gets reached the store; want %d, the bound", got, want)
	}
	if got, want := busyGets.Load(), int64(sites-maxStoreCalls); got != want {
		t.Errorf("%d gets refused as busy; want %d", got, want)
	}
	if got, want := store.puts.Load(), int64(maxPendingPuts); got != want {
		t.Errorf("%d puts reached the store; want %d, the bound", got, want)
	}
	if got, want := busyPuts.Load(), int64(sites-maxPendingPuts); got != want {
		t.Errorf("%d puts dropped as busy; want %d", got, want)
	}
	if n := otherErrs.Load(); n != 0 {
		t.Errorf("%d other store errors reported", n)
	}
	// What is left: a goroutine per get and per put under way, and no
	// more (the run goroutine of each fetch stays in its put).
	held := runtime.NumGoroutine() - base
	if limit := maxStoreCalls + maxPendingPuts + 50; held > limit {
		t.Errorf("%d goroutines left while the store hangs; want at most %d", held, limit)
	}
	t.Logf("%d sites asked in %v (slowest answer %v, %d allow all): %d gets and %d puts under way, %d and %d refused as busy, %d goroutines held",
		sites, asked.Round(time.Millisecond), time.Duration(slowest.Load()).Round(time.Millisecond), allowAll.Load(),
		store.gets.Load(), store.puts.Load(), busyGets.Load(), busyPuts.Load(), held)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := c.Flush(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Flush while the puts hang: %v; want the context's error", err)
	}
	close(store.unblock)
	unblocked = true
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Flush(ctx); err != nil {
		t.Fatalf("Flush once the store answers: %v", err)
	}
	if got := store.LRU.Len(); got != maxPendingPuts {
		t.Errorf("%d copies stored; want %d", got, maxPendingPuts)
	}
	// The slots are given back: the goroutines end (polled; the deadline
	// only bounds a failure), and the store is asked again.
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine()-base > 50 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if held := runtime.NumGoroutine() - base; held > 50 {
		t.Errorf("%d goroutines left after the store answered", held)
	}
	gets := store.gets.Load()
	if _, err := c.Allowed(context.Background(), "bot", "http://after.test/x"); err != nil {
		t.Fatal(err)
	}
	if store.gets.Load() != gets+1 {
		t.Errorf("after the store answered, a new site's get did not reach it")
	}
}
