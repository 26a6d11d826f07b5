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

// memLeaser is a Leaser in memory, with leases that lapse as Redis's do.
// A dead holder's renewals are lost, as when its process has died.
type memLeaser struct {
	*LRU
	mu     sync.Mutex
	leases map[string]memLease // key -> holder
	dead   atomic.Bool         // renewals are lost (the holder "died")
}

type memLease struct {
	token   *int
	expires time.Time
}

type memHold struct {
	m     *memLeaser
	key   string
	token *int
}

func newMemLeaser() *memLeaser {
	return &memLeaser{LRU: NewLRU(0, 0), leases: map[string]memLease{}}
}

func (m *memLeaser) TryLease(_ context.Context, key string, ttl time.Duration) (Lease, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.leases[key]; ok && time.Now().Before(l.expires) {
		return nil, nil
	}
	token := new(int)
	m.leases[key] = memLease{token, time.Now().Add(ttl)}
	return &memHold{m, key, token}, nil
}

var errLost = errors.New("lease lost")

func (h *memHold) Renew(_ context.Context, ttl time.Duration) error {
	if h.m.dead.Load() {
		return nil // the renewal never arrives
	}
	h.m.mu.Lock()
	defer h.m.mu.Unlock()
	if l, ok := h.m.leases[h.key]; !ok || l.token != h.token || time.Now().After(l.expires) {
		return errLost
	}
	h.m.leases[h.key] = memLease{h.token, time.Now().Add(ttl)}
	return nil
}

func (h *memHold) Release(context.Context) error {
	if h.m.dead.Load() {
		return nil
	}
	h.m.mu.Lock()
	defer h.m.mu.Unlock()
	if l, ok := h.m.leases[h.key]; ok && l.token == h.token {
		delete(h.m.leases, h.key)
	}
	return nil
}

// A holder renews its short lease for as long as its fetch runs (here
// five lease lifetimes), so another process waits for its entry instead
// of fetching; when the holder stops renewing (it died), another process
// takes the lease over once it lapses and fetches.
func TestLeaseRenewedAndTakenOver(t *testing.T) {
	// The holder renews every third of the lease: a lease of 100 ms lapsed
	// under a loaded CI machine's scheduling delays, 300 ms does not.
	const ttl = 300 * time.Millisecond
	var hits atomic.Int64
	release := make(chan struct{})
	var releaseOnce sync.Once
	// A failure before the fetch is let go must still let it go, or the
	// test server's Close waits on it until the package times out.
	defer releaseOnce.Do(func() { close(release) })
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			<-release
		}
		w.Write([]byte(rules))
	})
	store := newMemLeaser()
	newProcess := func() *Client { return &Client{Cache: store, LeaseTTL: ttl, Timeout: 10 * time.Second} }
	holder, waiter := newProcess(), newProcess()
	ask := func(c *Client, done chan<- error) {
		ok, err := c.Allowed(context.Background(), "bot", s.URL+"/public")
		if err == nil && !ok {
			err = errors.New("/public disallowed")
		}
		done <- err
	}
	holderDone, waiterDone := make(chan error, 1), make(chan error, 1)
	go ask(holder, holderDone)
	for hits.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	go ask(waiter, waiterDone)
	time.Sleep(5 * ttl) // the holder's fetch outlives its lease many times
	if hits.Load() != 1 {
		t.Fatalf("%d fetches while the holder renewed its lease; want 1", hits.Load())
	}
	releaseOnce.Do(func() { close(release) })
	for _, done := range []chan error{holderDone, waiterDone} {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if hits.Load() != 1 {
		t.Errorf("%d fetches; want the holder's alone", hits.Load())
	}

	// The holder dies mid-fetch: its renewals stop, its lease lapses, and
	// the waiter takes over.
	hits.Store(0)
	release2 := make(chan struct{})
	defer close(release2)
	other := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			<-release2 // the dead holder's request never ends
		}
		w.Write([]byte(rules))
	})
	store.dead.Store(true)
	go func() { holder.Allowed(context.Background(), "bot", other.URL+"/public") }()
	for hits.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	if ok, err := waiter.Allowed(context.Background(), "bot", other.URL+"/public"); !ok || err != nil {
		t.Fatalf("waiter: %v, %v", ok, err)
	}
	took := time.Since(start)
	if hits.Load() != 2 || took > ttl+500*time.Millisecond {
		t.Errorf("takeover after %v with %d fetches; want one more fetch within about the lease's TTL (%v)", took, hits.Load(), ttl)
	}
}
