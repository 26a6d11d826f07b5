package redisstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/fetch"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/fakeclock"
)

func TestGetPutLease(t *testing.T) {
	srv := startRedis(t)
	ctx := context.Background()
	s := New(srv.client(), "t:")
	if e, err := s.Get(ctx, "http://a/robots.txt"); e != nil || err != nil {
		t.Fatalf("Get of a missing key: %v, %v", e, err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	in := &fetch.Entry{Copy: true, Status: 200, Body: []byte("User-agent: *\nDisallow: /x\n"), FetchedAt: now, ETag: `"e"`, Expires: now.Add(time.Hour)}
	if err := s.Put(ctx, "http://a/robots.txt", in); err != nil {
		t.Fatal(err)
	}
	out, err := s.Get(ctx, "http://a/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, out); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	ttl := srv.client().TTL(ctx, "t:http://a/robots.txt").Val()
	if want := time.Hour + DefaultRetention; ttl > want || ttl < want-time.Minute {
		t.Errorf("key TTL %v, want about %v", ttl, want)
	}

	lease, err := s.TryLease(ctx, "http://a/robots.txt", time.Minute)
	if lease == nil || err != nil {
		t.Fatalf("first lease: %v, %v", lease, err)
	}
	if again, err := s.TryLease(ctx, "http://a/robots.txt", time.Minute); again != nil || err != nil {
		t.Errorf("second lease granted while held: %v, %v", again, err)
	}
	if err := lease.Renew(ctx, 2*time.Minute); err != nil {
		t.Errorf("Renew: %v", err)
	}
	if ttl := srv.client().PTTL(ctx, "t:lease:http://a/robots.txt").Val(); ttl <= time.Minute {
		t.Errorf("lease TTL %v after renewing for 2 minutes", ttl)
	}
	if err := lease.Release(ctx); err != nil {
		t.Errorf("Release: %v", err)
	}
	if err := lease.Renew(ctx, time.Minute); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("Renew of a released lease: %v, want ErrLeaseLost", err)
	}
	again, err := s.TryLease(ctx, "http://a/robots.txt", time.Minute)
	if again == nil || err != nil {
		t.Fatalf("lease not granted after release: %v, %v", again, err)
	}
	// The old holder cannot release or renew the new holder's lease.
	lease.Release(ctx)
	if err := again.Renew(ctx, time.Minute); err != nil {
		t.Errorf("the new holder's Renew after the old holder's Release: %v", err)
	}
	again.Release(ctx)

	srv.stop()
	if _, err := s.Get(ctx, "http://a/robots.txt"); err == nil {
		t.Error("Get with Redis down: no error")
	}
}

// fleet is one loopback server playing 100 sites told apart by Host, and
// the HTTP client that reaches it for any host name.
type fleet struct {
	server *httptest.Server
	hits   sync.Map // host -> *atomic.Int64
	total  atomic.Int64
	http   *http.Client
}

const fleetRules = "User-agent: *\nDisallow: /private\n"

func newFleet(t *testing.T) *fleet {
	f := &fleet{}
	f.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		n, _ := f.hits.LoadOrStore(r.Host, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
		f.total.Add(1)
		time.Sleep(5 * time.Millisecond) // a real fetch takes a while
		io.WriteString(w, fleetRules)
	}))
	t.Cleanup(f.server.Close)
	addr := f.server.Listener.Addr().String()
	var d net.Dialer
	f.http = &http.Client{Transport: &http.Transport{
		// Every site-N.test resolves to the one loopback server.
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		MaxIdleConnsPerHost: 4,
	}}
	t.Cleanup(f.http.CloseIdleConnections)
	return f
}

func site(i int) string { return fmt.Sprintf("http://site-%d.test", i) }

// ask puts every site's /private and /public to c once, in an order
// starting at first, and reports a wrong answer or error. Each site
// answered adds one to answered, if not nil.
func ask(c *fetch.Client, first, sites int, answered *atomic.Int64) error {
	for j := 0; j < sites; j++ {
		s := site((first + j) % sites)
		private, err := c.Allowed(context.Background(), "bot", s+"/private/p")
		if err != nil {
			return err
		}
		public, err := c.Allowed(context.Background(), "bot", s+"/public")
		if err != nil {
			return err
		}
		if private || !public {
			return fmt.Errorf("%s: private allowed %v, public allowed %v", s, private, public)
		}
		if answered != nil {
			answered.Add(1)
		}
	}
	return nil
}

// Eight processes sharing one Redis, 100 goroutines each, 100 sites: one
// robots.txt request per site. Then Redis restarts (losing everything)
// while the copies expire: answers keep coming, all of them right.
func TestFleet(t *testing.T) {
	const machines, goroutines, sites = 8, 100, 100
	srv := startRedis(t)
	f := newFleet(t)
	clock := fakeclock.New()
	var storeErrors atomic.Int64
	clients := make([]*fetch.Client, machines)
	for m := range clients {
		store := New(srv.client(), "fleet:")
		store.Now = clock.Now
		clients[m] = &fetch.Client{
			HTTPClient: f.http, Cache: store, Now: clock.Now, Timeout: 5 * time.Second,
			// Longer than the default, so that a holder starved of CPU
			// (800 goroutines under -race on a loaded machine) still
			// renews its lease in time: a lapsed lease is reported as a
			// store error, which phase 1 counts. Renewal itself is
			// tested with the default in TestFleetProcessesHolderKilled.
			LeaseTTL: 10 * time.Second,
			OnEvent: func(ev fetch.Event) {
				if ev.Err != nil && !ev.Fetched {
					if storeErrors.Add(1) < 3 {
						t.Log(ev.Err)
					}
				}
			},
		}
	}

	var wg sync.WaitGroup
	errs := make(chan error, machines*goroutines)
	for m := 0; m < machines; m++ {
		for g := 0; g < goroutines; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := ask(clients[m], m*goroutines+g, sites, nil); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := f.total.Load(); n != sites {
		t.Errorf("%d robots.txt requests for %d sites, want one each", n, sites)
	}
	f.hits.Range(func(host, n any) bool {
		if n.(*atomic.Int64).Load() != 1 {
			t.Errorf("%s: %d requests", host, n.(*atomic.Int64).Load())
		}
		return true
	})
	if storeErrors.Load() != 0 {
		t.Errorf("%d store errors with Redis up", storeErrors.Load())
	}
	t.Logf("phase 1: %d questions, %d robots.txt requests", machines*goroutines*sites*2, f.total.Load())

	// Phase 2: questions keep coming while Redis goes away, every copy
	// expires, and Redis comes back empty.
	var answers atomic.Int64
	stop := make(chan struct{})
	errs = make(chan error, machines*10)
	for m := 0; m < machines; m++ {
		for g := 0; g < 10; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					if err := ask(clients[m], g*10+i, sites, &answers); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
	}
	// counted waits until 1,000 more sites have been answered, at most
	// 10 s, and returns how many were.
	counted := func() int64 {
		before := answers.Load()
		for deadline := time.Now().Add(10 * time.Second); answers.Load()-before < 1000 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		return answers.Load() - before
	}
	before := f.total.Load()
	srv.stop()
	clock.Advance(fetch.DefaultTTL + time.Second) // every copy expires while Redis is down
	down := counted()
	srv.start()
	clock.Advance(fetch.DefaultTTL + time.Second)
	up := counted()
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if down < 1000 || up < 1000 {
		t.Errorf("answers while Redis was down: %d, after its restart: %d; want 1,000 in both", down, up)
	}
	if storeErrors.Load() == 0 {
		t.Error("no store error reported while Redis was down")
	}
	t.Logf("phase 2: %d answers with Redis down, %d after its restart; %d robots.txt requests, %d store errors reported",
		down, up, f.total.Load()-before, storeErrors.Load())
}

// A process without a copy waits for the lease holder's entry; one with a
// stale copy serves it while another process fetches.
func TestLeaseWaitAndStale(t *testing.T) {
	srv := startRedis(t)
	var hits atomic.Int64
	gate := make(chan chan struct{}, 2) // one release channel per request
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		// A request beyond the two expected finds no release channel: it
		// ends with its client rather than holding the server's Close.
		select {
		case release := <-gate:
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, fleetRules)
	}))
	defer site.Close()
	// waitFor polls cond for at most 10 s: a wait that never ends fails
	// the test with what it waited for, not the whole package's timeout.
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waited 10 s for %s (%d requests so far)", what, hits.Load())
			}
		}
	}
	result := func(done <-chan error) error {
		t.Helper()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("no answer within 10 s")
			return nil
		}
	}
	// The processes wait on a fake clock (their polls for the lease
	// holder's entry, its renewals), which the test moves on; the lease is
	// long, so that Redis, on the wall clock, keeps it for the test's
	// length without a renewal.
	clock := fakeclock.New()
	const leaseTTL = 30 * time.Second
	newClient := func() *fetch.Client {
		s := New(srv.client(), "lease:")
		s.Now = clock.Now
		return &fetch.Client{Cache: s, Now: clock.Now, Sleep: clock.Sleep, Timeout: 5 * time.Second, LeaseTTL: leaseTTL}
	}
	a, b := newClient(), newClient()
	ask := func(c *fetch.Client, done chan<- error) {
		ok, err := c.Allowed(context.Background(), "bot", site.URL+"/private")
		if err == nil && ok {
			err = fmt.Errorf("/private allowed")
		}
		done <- err
	}

	// a fetches; b, with no copy, waits for a's entry rather than fetching.
	release := make(chan struct{})
	gate <- release
	aDone, bDone := make(chan error, 1), make(chan error, 1)
	go ask(a, aDone)
	waitFor("a's fetch", func() bool { return hits.Load() > 0 })
	go ask(b, bDone)
	// b polls for the entry every 50 ms of the clock (the Client's
	// leasePoll): it waits rather than fetching.
	waitFor("b's poll", func() bool { return clock.Asleep(50 * time.Millisecond)() })
	clock.Advance(50 * time.Millisecond)
	waitFor("b's next poll", func() bool { return clock.Asleep(50 * time.Millisecond)() })
	close(release)
	if err := result(aDone); err != nil {
		t.Fatal(err)
	}
	// a's entry is stored after its answer; b finds it at a poll.
	if err := a.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor("b's poll after a's entry", func() bool { return clock.Asleep(50 * time.Millisecond)() })
	clock.Advance(50 * time.Millisecond)
	if err := result(bDone); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 1 {
		t.Fatalf("%d requests, want 1", hits.Load())
	}

	// The copy expires; a refetches (held up), and b serves its stale copy
	// at once instead of waiting or fetching.
	clock.Advance(fetch.DefaultTTL + time.Second)
	release = make(chan struct{})
	gate <- release
	go ask(a, aDone)
	waitFor("a's refetch", func() bool { return hits.Load() > 1 })
	go ask(b, bDone)
	select {
	case err := <-bDone:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("b waited for a's fetch instead of serving its stale copy")
	}
	close(release)
	if err := result(aDone); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 2 {
		t.Errorf("%d requests, want 2", hits.Load())
	}
}

// Client.Allowed on a cached copy: the Redis store against the in-memory
// LRU, both behind the Client's parsed memo.
func BenchmarkAllowedCached(b *testing.B) {
	srv := startRedis(b)
	body := fleetRules + strings.Repeat("Disallow: /rule-*/x\n", 2000)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, body)
	}))
	defer site.Close()
	for _, bc := range []struct {
		name  string
		cache fetch.Cache
	}{
		{"LRU", fetch.NewLRU(0, 0)},
		{"Redis", New(srv.client(), "bench:")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c := &fetch.Client{Cache: bc.cache}
			page := site.URL + "/public/page.html"
			if ok, err := c.Allowed(context.Background(), "bot", page); !ok || err != nil {
				b.Fatal(ok, err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				c.Allowed(context.Background(), "bot", page)
			}
		})
	}
}

// Store.Get of a 2,000-rule entry: what a process pays when its memo does
// not hold a fresh copy (a Redis round trip and the JSON decoding).
func BenchmarkStoreGet(b *testing.B) {
	srv := startRedis(b)
	s := New(srv.client(), "bench:")
	ctx := context.Background()
	body := []byte(fleetRules + strings.Repeat("Disallow: /rule-*/x\n", 2000))
	if err := s.Put(ctx, "http://a/robots.txt", &fetch.Entry{Copy: true, Status: 200, Body: body, Expires: time.Now().Add(time.Hour)}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if e, err := s.Get(ctx, "http://a/robots.txt"); err != nil || len(e.Body) != len(body) {
			b.Fatal(e, err)
		}
	}
}
