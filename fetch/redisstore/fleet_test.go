package redisstore

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// The fleet tests run crawler processes, not goroutines: the test binary
// re-executes itself as children (TestFleetChild), each a fetch.Client on
// the one redis-server, asking questions and printing, per question, its
// answer and how long it took.

const childEnv = "ROBOTSTXT_FLEET_CHILD"

// TestFleetChild is the body of a child process; run directly, it does
// nothing. Its settings come from the environment: the Redis address, the
// Client's Timeout, its User-Agent and the pages to ask about.
func TestFleetChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("run by the fleet tests as a child process")
	}
	timeout, _ := time.ParseDuration(os.Getenv("FLEET_TIMEOUT"))
	// A Redis client as a user writes it: go-redis's defaults (3 s read
	// timeout, context deadlines not applied to the connection).
	rdb := redis.NewClient(&redis.Options{Addr: os.Getenv("FLEET_REDIS")})
	c := &fetch.Client{Cache: New(rdb, "fleet:"), Timeout: timeout, UserAgent: os.Getenv("FLEET_AGENT")}
	for _, page := range strings.Fields(os.Getenv("FLEET_PAGES")) {
		start := time.Now()
		ok, err := c.Allowed(context.Background(), "bot", page)
		fmt.Printf("answer %s %v %d %v\n", page, ok, time.Since(start).Nanoseconds(), err)
	}
	// As a crawler does before it exits: its last fetches reach the store
	// (and its leases are given back) before it goes.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c.Flush(ctx)
}

// A child is a running child process.
type child struct {
	cmd     *exec.Cmd
	answers chan string // its "answer" lines, closed when it exits
}

// startChild starts a child process asking about pages.
func startChild(t *testing.T, redisAddr, agent string, timeout time.Duration, pages ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFleetChild$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=1", "FLEET_REDIS="+redisAddr, "FLEET_AGENT="+agent,
		"FLEET_TIMEOUT="+timeout.String(), "FLEET_PAGES="+strings.Join(pages, " "))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, answers: make(chan string, len(pages))}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "answer "); ok {
				c.answers <- line
			}
		}
		cmd.Wait()
		close(c.answers)
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	return c
}

// An answer is one line of a child: page, allowed, latency, error.
type answer struct {
	page    string
	allowed bool
	took    time.Duration
	err     string
}

// collect returns a child's answers once it exits (at most within d).
func (c *child) collect(t *testing.T, d time.Duration) []answer {
	t.Helper()
	var out []answer
	deadline := time.After(d)
	for {
		select {
		case line, ok := <-c.answers:
			if !ok {
				return out
			}
			f := strings.SplitN(line, " ", 4)
			ns, _ := strconv.ParseInt(f[2], 10, 64)
			out = append(out, answer{page: f[0], allowed: f[1] == "true", took: time.Duration(ns), err: f[3]})
		case <-deadline:
			t.Fatalf("a child process did not finish within %v", d)
		}
	}
}

// robotsSite is a site whose robots.txt requests are logged with their
// arrival time and User-Agent; hold, if set, keeps the first one hanging
// until the client goes away.
type robotsSite struct {
	*httptest.Server
	mu       sync.Mutex
	arrivals []arrival
	hold     bool
}

type arrival struct {
	at    time.Time
	agent string
}

func newRobotsSite(t *testing.T, hold bool) *robotsSite {
	s := &robotsSite{hold: hold}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		s.arrivals = append(s.arrivals, arrival{time.Now(), r.UserAgent()})
		first := len(s.arrivals) == 1
		s.mu.Unlock()
		if first && s.hold {
			<-r.Context().Done() // the holder dies mid-fetch
			return
		}
		io.WriteString(w, fleetRules)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *robotsSite) log() []arrival {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]arrival(nil), s.arrivals...)
}

// Six crawler processes; the one holding the robots.txt lease is killed
// (SIGKILL) mid-fetch. The others, waiting on the lease, notice within
// about a second of its lapsing; one takes over and fetches, the rest
// wait for its entry: one extra fetch in all (issue: the others waited
// the whole lease wait, 5 s, and then two fetched at once).
func TestFleetProcessesHolderKilled(t *testing.T) {
	const waiters = 5
	srv := startRedis(t)
	rdb := srv.client()
	site := newRobotsSite(t, true)
	pages := []string{site.URL + "/private/p", site.URL + "/public"}
	const timeout = 30 * time.Second // the holder's fetch would not end by itself

	holder := startChild(t, srv.addr(), "holder", timeout, pages...)
	for deadline := time.Now().Add(20 * time.Second); len(site.log()) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first process did not fetch the robots.txt")
		}
	}
	var others []*child
	for i := range waiters {
		others = append(others, startChild(t, srv.addr(), fmt.Sprintf("waiter-%d", i), timeout, pages...))
	}
	// Let them start and wait on the lease, which the holder renews
	// meanwhile: the wait outlasts the lease's TTL.
	time.Sleep(fetch.DefaultLeaseTTL + time.Second)
	leaseKey := "fleet:lease:" + site.URL + "/robots.txt"
	token := rdb.Get(context.Background(), leaseKey).Val()
	if token == "" {
		t.Fatalf("no lease held after %v: the holder did not renew it", fetch.DefaultLeaseTTL+time.Second)
	}
	if len(site.log()) != 1 {
		t.Fatalf("%d fetches before the kill; want the holder's alone", len(site.log()))
	}

	holder.cmd.Process.Kill() // SIGKILL
	killed := time.Now()
	// No renewal comes any more: the lease lapses when its TTL runs out.
	pttl := rdb.PTTL(context.Background(), leaseKey).Val()
	lapse := time.Now().Add(pttl)
	if still := rdb.Get(context.Background(), leaseKey).Val(); still != token {
		t.Logf("the lease changed hands while its TTL was read")
	}

	for _, c := range others {
		for _, a := range c.collect(t, 60*time.Second) {
			want := strings.HasSuffix(a.page, "/public")
			if a.allowed != want || a.err != "<nil>" {
				t.Errorf("%s: allowed %v, error %s; want %v", a.page, a.allowed, a.err, want)
			}
		}
	}
	log := site.log()
	if len(log) != 2 {
		t.Fatalf("%d robots.txt fetches (%v); want 2: the killed holder's and one takeover", len(log), log)
	}
	takeover := log[1].at.Sub(lapse)
	t.Logf("holder killed; its lease lapsed %v later; the takeover fetch (%s) came %v after the lapse, %v after the kill; %d fetches in all",
		lapse.Sub(killed).Round(time.Millisecond), log[1].agent, takeover.Round(time.Millisecond), log[1].at.Sub(killed).Round(time.Millisecond), len(log))
	if takeover > time.Second || takeover < -100*time.Millisecond {
		t.Errorf("takeover %v after the lease lapsed; want within a second, and not before", takeover)
	}
}

// While redis-server is stopped (SIGSTOP), crawler processes asking
// about sites they have no copy of wait on it at most Client.Timeout in
// all, plus the fetch (issue: a 10 s stop held callers 10.09 s).
func TestFleetProcessesStalledRedis(t *testing.T) {
	const processes, timeout = 4, time.Second
	srv := startRedis(t)
	var pages []string
	for range 3 {
		s := newRobotsSite(t, false)
		pages = append(pages, s.URL+"/public", s.URL+"/private/p")
	}
	if err := srv.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer srv.cmd.Process.Signal(syscall.SIGCONT)
	var children []*child
	for i := range processes {
		children = append(children, startChild(t, srv.addr(), fmt.Sprintf("crawler-%d", i), timeout, pages...))
	}
	var worst time.Duration
	for _, c := range children {
		answers := c.collect(t, 60*time.Second)
		if len(answers) != len(pages) {
			t.Fatalf("%d answers; want %d", len(answers), len(pages))
		}
		for _, a := range answers {
			want := strings.HasSuffix(a.page, "/public")
			if a.allowed != want || a.err != "<nil>" {
				t.Errorf("%s: allowed %v, error %s; want %v", a.page, a.allowed, a.err, want)
			}
			worst = max(worst, a.took)
			// A loopback fetch takes milliseconds; the margin is for a
			// loaded machine, far below a second timeout.
			if a.took > timeout+500*time.Millisecond {
				t.Errorf("%s took %v with Redis stopped; want at most Timeout (%v) plus the fetch", a.page, a.took, timeout)
			}
		}
	}
	t.Logf("Redis stopped: %d processes x %d questions (%d sites), slowest answer %v with Timeout %v",
		processes, len(pages), len(pages)/2, worst.Round(time.Millisecond), timeout)
}

// When Redis refuses writes (maxmemory reached, noeviction), no lease can
// be had and no copy stored, yet each process fetches each robots.txt at
// most once in its lifetime: its own memory keeps the copy.
func TestFleetRefusedWrites(t *testing.T) {
	const machines, goroutines, sites = 8, 10, 20
	srv := startRedis(t, "--maxmemory", "1", "--maxmemory-policy", "noeviction")
	f := newFleet(t)
	var storeErrors atomic.Int64
	clients := make([]*fetch.Client, machines)
	for m := range clients {
		clients[m] = &fetch.Client{
			HTTPClient: f.http, Cache: New(srv.client(), "oom:"), Timeout: 5 * time.Second,
			OnEvent: func(ev fetch.Event) {
				if ev.Err != nil && !ev.Fetched {
					storeErrors.Add(1)
				}
			},
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, machines*goroutines)
	for m := range machines {
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for round := range 5 {
					if err := ask(clients[m], g+round, sites, nil); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, c := range clients {
		c.Flush(context.Background())
	}
	f.hits.Range(func(host, n any) bool {
		if got := n.(*atomic.Int64).Load(); got > machines {
			t.Errorf("%s: %d fetches by %d processes; want at most one each", host, got, machines)
		}
		return true
	})
	if storeErrors.Load() == 0 {
		t.Error("no store error reported while Redis refused writes")
	}
	t.Logf("Redis refusing writes: %d processes x %d questions, %d robots.txt fetches for %d sites (at most %d allowed: one per process per site), %d store errors reported",
		machines, goroutines*5*sites*2, f.total.Load(), sites, machines*sites, storeErrors.Load())
}
