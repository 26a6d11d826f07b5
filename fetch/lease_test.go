package fetch

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/fakeclock"
)

// memLeaser is a Leaser in memory, with leases that lapse as Redis's do,
// on the clock of now. A dead holder's renewals are lost, as when its
// process has died.
type memLeaser struct {
	*LRU
	now    func() time.Time
	mu     sync.Mutex
	leases map[string]memLease // key -> holder
	dead   atomic.Bool         // renewals are lost (the holder "died")
	grants atomic.Int64        // leases granted
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

func newMemLeaser(now func() time.Time) *memLeaser {
	return &memLeaser{LRU: NewLRU(0, 0), now: now, leases: map[string]memLease{}}
}

func (m *memLeaser) TryLease(_ context.Context, key string, ttl time.Duration) (Lease, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.leases[key]; ok && m.now().Before(l.expires) {
		return nil, nil
	}
	token := new(int)
	m.leases[key] = memLease{token, m.now().Add(ttl)}
	m.grants.Add(1)
	return &memHold{m, key, token}, nil
}

var errLost = errors.New("lease lost")

func (h *memHold) Renew(_ context.Context, ttl time.Duration) error {
	if h.m.dead.Load() {
		return nil // the renewal never arrives
	}
	h.m.mu.Lock()
	defer h.m.mu.Unlock()
	if l, ok := h.m.leases[h.key]; !ok || l.token != h.token || h.m.now().After(l.expires) {
		return errLost
	}
	h.m.leases[h.key] = memLease{h.token, h.m.now().Add(ttl)}
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
// takes the lease over once it lapses and fetches. The processes' waits
// run on a fake clock, which the test moves on.
func TestLeaseRenewedAndTakenOver(t *testing.T) {
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
	clock := fakeclock.New()
	store := newMemLeaser(clock.Now)
	newProcess := func() *Client {
		return &Client{Cache: store, LeaseTTL: ttl, Timeout: 10 * time.Second, Now: clock.Now, Sleep: clock.Sleep}
	}
	holder, waiter := newProcess(), newProcess()
	var answered atomic.Int64
	ask := func(c *Client, done chan<- error) {
		ok, err := c.Allowed(context.Background(), "bot", s.URL+"/public")
		if err == nil && !ok {
			err = errors.New("/public disallowed")
		}
		answered.Add(1)
		done <- err
	}
	fetched := func(n int64) func() bool { return func() bool { return hits.Load() >= n } }
	holderDone, waiterDone := make(chan error, 1), make(chan error, 1)
	go ask(holder, holderDone)
	waitUntil(t, fetched(1))
	go ask(waiter, waiterDone)
	// The holder's fetch outlives its lease five times; the clock moves
	// while both sleep on it (the holder between renewals, the waiter
	// between polls), in steps shorter than a renewal's interval.
	moved := clock.RunUntil(t, func() bool { return hits.Load() > 1 || answered.Load() > 0 }, clock.Asleep(ttl/3, leasePoll), ttl/10, 5*ttl)
	t.Logf("waited %v on the fake clock", moved)
	if hits.Load() != 1 || answered.Load() != 0 {
		t.Fatalf("%d fetches, %d answers while the holder renewed its lease; want 1 and none", hits.Load(), answered.Load())
	}
	releaseOnce.Do(func() { close(release) })
	if err := <-holderDone; err != nil {
		t.Fatal(err)
	}
	// Once the holder has stored its entry, the waiter finds it at its
	// next poll.
	if err := holder.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if moved := clock.RunUntil(t, func() bool { return answered.Load() == 2 }, clock.Asleep(leasePoll), leasePoll, 10*leasePoll); answered.Load() != 2 {
		t.Fatalf("the waiter has no answer %v after the holder's", moved)
	}
	if err := <-waiterDone; err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 1 {
		t.Errorf("%d fetches; want the holder's alone", hits.Load())
	}

	// The holder dies mid-fetch: its renewals stop, its lease lapses, and
	// the waiter takes over at its first poll after the lapse.
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
	waitUntil(t, fetched(1))
	waiterDone2 := make(chan error, 1)
	go func() {
		ok, err := waiter.Allowed(context.Background(), "bot", other.URL+"/public")
		if err == nil && !ok {
			err = errors.New("/public disallowed")
		}
		waiterDone2 <- err
	}()
	// The clock stops once the waiter has the lease: its fetch takes no
	// time of the clock.
	step := leasePoll / 5
	granted := store.grants.Load()
	took := clock.RunUntil(t, func() bool { return store.grants.Load() > granted }, clock.Asleep(ttl/3, leasePoll), step, 10*ttl)
	if store.grants.Load() == granted {
		t.Fatalf("no takeover after %v of the clock", took)
	}
	waitUntil(t, fetched(2))
	if err := <-waiterDone2; err != nil {
		t.Fatalf("waiter: %v", err)
	}
	if took < ttl || took > ttl+leasePoll+step {
		t.Errorf("takeover after %v of the clock; want one poll after the lease lapsed, within [%v, %v]", took, ttl, ttl+leasePoll+step)
	}
}
