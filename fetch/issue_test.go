package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/fakeclock"
)

// jsonCache is a store that keeps entries as encoding/json writes them,
// as a naive shared store would.
type jsonCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *jsonCache) Get(_ context.Context, k string) (*Entry, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	data, ok := c.m[k]
	if !ok {
		return nil, nil
	}
	var e Entry
	return &e, json.Unmarshal(data, &e)
}

func (c *jsonCache) Put(_ context.Context, k string, e *Entry) error {
	data, err := json.Marshal(e)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = data
	return err
}

// The wire form of an Entry has explicit field names and never carries
// parsed rules: an entry read back from JSON by another process answers as
// the file says (issue: the parsed form round-tripped as an empty, allow all
// *Robots).
func TestEntryWireForm(t *testing.T) {
	s := newSite(t, serve(rules))
	shared := &jsonCache{m: map[string][]byte{}}
	clock := fakeclock.New()
	first := &Client{Now: clock.Now, Cache: shared}
	answer(t, first, s)
	first.Flush(context.Background())
	private, public, outcome := answer(t, &Client{Now: clock.Now, Cache: shared}, s)
	if private || !public || outcome != robotstxt.Rules || s.hits.Load() != 1 {
		t.Errorf("second process: private %v public %v outcome %v hits %d; want false true rules 1", private, public, outcome, s.hits.Load())
	}

	var fields map[string]any
	if err := json.Unmarshal(shared.m[s.URL+"/robots.txt"], &fields); err != nil {
		t.Fatal(err)
	}
	var names []string
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	if diff := cmp.Diff([]string{"body", "copy", "expires", "fetched_at", "status"}, names); diff != "" {
		t.Errorf("wire fields (-want +got):\n%s", diff)
	}

	in := &Entry{Copy: true, Status: 200, Body: []byte(rules), FetchedAt: clock.Now(), ETag: `"v1"`, LastModified: "x", Expires: clock.Now().Add(time.Hour), Failures: 2, FailingSince: clock.Now(), LastError: "boom"}
	data, err := in.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	out := new(Entry)
	if err := out.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, out); diff != "" {
		t.Errorf("MarshalBinary round trip (-want +got):\n%s", diff)
	}
}

// countingCache counts the Gets reaching a store.
type countingCache struct {
	Cache
	gets atomic.Int64
}

func (c *countingCache) Get(ctx context.Context, k string) (*Entry, error) {
	c.gets.Add(1)
	return c.Cache.Get(ctx, k)
}

// A fresh copy is answered from the parsed memo, without asking the store
// or parsing again; a copy from the store is parsed once per process.
func TestParsedMemo(t *testing.T) {
	s := newSite(t, serve(rules))
	store := &countingCache{Cache: &jsonCache{m: map[string][]byte{}}}
	clock := fakeclock.New()
	a := &Client{Now: clock.Now, Cache: store}
	b := &Client{Now: clock.Now, Cache: store}
	first, err := a.Robots(context.Background(), s.URL+"/x")
	if err != nil {
		t.Fatal(err)
	}
	a.Flush(context.Background())
	gets := store.gets.Load()
	for i := 0; i < 100; i++ {
		for _, c := range []*Client{a, b} {
			r, err := c.Robots(context.Background(), s.URL+"/x")
			if err != nil {
				t.Fatal(err)
			}
			if c == a && r != first {
				t.Fatal("process a parsed its copy again")
			}
		}
	}
	if n := store.gets.Load() - gets; n != 1 {
		t.Errorf("%d store reads for 200 questions, want 1 (process b's first)", n)
	}
	if s.hits.Load() != 1 {
		t.Errorf("%d fetches, want 1", s.hits.Load())
	}
	allocs := testing.AllocsPerRun(100, func() {
		if ok, _ := b.Allowed(context.Background(), "bot", s.URL+"/private"); ok {
			t.Fatal("allowed")
		}
	})
	if allocs > 8 {
		t.Errorf("Allowed on a memoized copy: %v allocations", allocs)
	}
}

// failingCache fails every call, as a store that is down does.
type failingCache struct{}

var errStoreDown = errors.New("store down")

func (failingCache) Get(context.Context, string) (*Entry, error) { return nil, errStoreDown }
func (failingCache) Put(context.Context, string, *Entry) error   { return errStoreDown }

// A store error is a miss plus a report, never an answer.
func TestStoreErrorIsAMiss(t *testing.T) {
	s := newSite(t, serve(rules))
	clock := fakeclock.New()
	var mu sync.Mutex
	var storeErrs []string
	c := &Client{Now: clock.Now, Cache: failingCache{}, OnEvent: func(ev Event) {
		var se *StoreError
		if errors.As(ev.Err, &se) && errors.Is(ev.Err, errStoreDown) {
			mu.Lock()
			storeErrs = append(storeErrs, se.Op)
			mu.Unlock()
		}
	}}
	for day := 0; day < 3; day++ {
		private, public, outcome := answer(t, c, s)
		if private || !public || outcome != robotstxt.Rules {
			t.Fatalf("day %d: private %v public %v outcome %v", day, private, public, outcome)
		}
		c.Flush(context.Background())
		answer(t, c, s) // from the memo
		clock.Advance(DefaultTTL + time.Second)
	}
	if s.hits.Load() != 3 {
		t.Errorf("%d fetches over 3 lifetimes, want 3", s.hits.Load())
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"get", "put", "get", "put", "get", "put"}, storeErrs); diff != "" {
		t.Errorf("store errors reported (-want +got):\n%s", diff)
	}
}

// The LRU counts the strings it holds, not only bodies, and the memo of
// parsed rules is bounded.
func TestBoundsCountWhatIsRetained(t *testing.T) {
	ctx := context.Background()
	lru := NewLRU(0, 0)
	e := &Entry{Body: make([]byte, 1000), ETag: strings.Repeat("e", 500), LastError: strings.Repeat("x", 500)}
	lru.Put(ctx, "k", e)
	if got := lru.Bytes(); got < 2000 {
		t.Errorf("LRU counts %d bytes for an entry holding 2,000", got)
	}

	body := rules + strings.Repeat("# padding\n", 1000)
	s := newSite(t, serve(body))
	c := &Client{MemoBytes: 5 * parsedCost([]byte(body))}
	for i := 0; i < 20; i++ {
		// Twenty distinct keys served by one server.
		key := fmt.Sprintf("%s/robots.txt?site=%d", s.URL, i)
		if _, err := c.Entry(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.memo.len(); n > 5 {
		t.Errorf("memo holds %d parsed copies, bound allows 5", n)
	}
}

// Each fetch is reported to the hook and the logger.
func TestEvents(t *testing.T) {
	s := newSite(t, serve(rules))
	var events []Event
	var logs bytes.Buffer
	c := &Client{
		Now:     fakeclock.New().Now,
		OnEvent: func(ev Event) { events = append(events, ev) },
		Logger:  slog.New(slog.NewJSONHandler(&logs, nil)),
	}
	answer(t, c, s)
	answer(t, c, s)
	if len(events) != 1 {
		t.Fatalf("%d events, want 1: %+v", len(events), events)
	}
	ev := events[0]
	ev.Duration = 0
	want := Event{RobotsURL: s.URL + "/robots.txt", Fetched: true, Status: 200, Outcome: "rules"}
	if diff := cmp.Diff(want, ev); diff != "" {
		t.Errorf("event (-want +got):\n%s", diff)
	}
	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil {
		t.Fatalf("log %q: %v", logs.String(), err)
	}
	if line["url"] != want.RobotsURL || line["status"] != 200.0 || line["outcome"] != "rules" || line["level"] != "INFO" {
		t.Errorf("log line %v", line)
	}

	failing := newSite(t, status(503))
	events = nil
	answer(t, c, failing)
	if len(events) != 1 || events[0].Outcome != robotstxt.DisallowAll.String() || events[0].Status != 503 || events[0].Err == nil {
		t.Errorf("failed fetch events: %+v", events)
	}
}

// RFC 9110 13.1.2, 13.1.3, 15.4.5: validators are kept and sent; a 304
// renews the copy's lifetime and keeps its body.
func TestConditionalGet(t *testing.T) {
	const etag, modified = `"v1"`, "Wed, 21 Oct 2026 07:28:00 GMT"
	var gotINM, gotIMS []string
	s := newSite(t, nil)
	s.set(func(w http.ResponseWriter, r *http.Request) {
		gotINM = append(gotINM, r.Header.Get("If-None-Match"))
		gotIMS = append(gotIMS, r.Header.Get("If-Modified-Since"))
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", modified)
		io.WriteString(w, rules)
	})
	clock := fakeclock.New()
	c := newClient(clock)
	first, _ := c.Robots(context.Background(), s.URL+"/")
	clock.Advance(DefaultTTL + time.Second)
	private, public, outcome := answer(t, c, s)
	if private || !public || outcome != robotstxt.Rules {
		t.Errorf("after 304: private %v public %v outcome %v", private, public, outcome)
	}
	e, _ := c.Entry(context.Background(), s.URL+"/robots.txt")
	if string(e.Body) != rules || e.ETag != etag || e.LastModified != modified || e.Status != 200 {
		t.Errorf("entry after 304: %+v", e)
	}
	if want := clock.Now().Add(DefaultTTL); !e.Expires.Equal(want) {
		t.Errorf("Expires %v, want %v (renewed)", e.Expires, want)
	}
	if r, _ := c.Robots(context.Background(), s.URL+"/"); r != first {
		t.Error("a 304 made the copy parse again")
	}
	if diff := cmp.Diff([]string{"", etag}, gotINM); diff != "" {
		t.Errorf("If-None-Match (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", modified}, gotIMS); diff != "" {
		t.Errorf("If-Modified-Since (-want +got):\n%s", diff)
	}
}

// RFC 9110 10.2.3: Retry-After on 429 and 5xx, in seconds or as a date,
// within RetryMin and RetryMax.
func TestRetryAfter(t *testing.T) {
	clock := fakeclock.New()
	tests := []struct {
		name       string
		status     int
		retryAfter string
		want       time.Duration
	}{
		{"503 seconds", 503, "3600", time.Hour},
		{"429 seconds", 429, "7200", 2 * time.Hour},
		{"date", 503, clock.Now().Add(3 * time.Hour).Format(http.TimeFormat), 3 * time.Hour},
		{"below RetryMin", 503, "5", DefaultRetryMin},
		{"above RetryMax", 500, "99999999999999999999", DefaultRetryMax},
		{"garbage", 503, "soon", DefaultRetryMin},
		{"none", 503, "", DefaultRetryMin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				if tt.retryAfter != "" {
					w.Header().Set("Retry-After", tt.retryAfter)
				}
				w.WriteHeader(tt.status)
			})
			c := newClient(clock)
			e, err := c.Entry(context.Background(), s.URL+"/robots.txt")
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Expires.Sub(clock.Now()); got != tt.want {
				t.Errorf("next try in %v, want %v", got, tt.want)
			}
		})
	}
}

// The caller's CheckRedirect (here an SSRF guard) applies to every hop;
// a refused redirect is a failed fetch and the refused page is never read.
func TestCallerCheckRedirect(t *testing.T) {
	internal := newSite(t, serve("SECRET\nUser-agent: *\nAllow: /\n"))
	internalHost := strings.TrimPrefix(internal.URL, "http://")
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, internal.URL+"/robots.txt", http.StatusFound)
	})
	var checks atomic.Int64
	hc := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		checks.Add(1)
		if req.URL.Host == internalHost {
			return errors.New("redirect to an internal host refused")
		}
		return nil
	}}
	c := &Client{HTTPClient: hc, Now: fakeclock.New().Now}
	_, public, outcome := answer(t, c, s)
	e, _ := c.Entry(context.Background(), s.URL+"/robots.txt")
	if public || outcome != robotstxt.DisallowAll || bytes.Contains(e.Body, []byte("SECRET")) || internal.hits.Load() != 0 {
		t.Errorf("refused redirect: public %v outcome %v body %q internal hits %d", public, outcome, e.Body, internal.hits.Load())
	}
	if !strings.Contains(e.LastError, "internal host refused") || checks.Load() != 1 {
		t.Errorf("LastError %q, %d checks", e.LastError, checks.Load())
	}

	// A permissive CheckRedirect does not lift the five-hop limit.
	loop := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/robots.txt", http.StatusFound)
	})
	checks.Store(0)
	c = &Client{HTTPClient: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { checks.Add(1); return nil }}, Now: fakeclock.New().Now}
	if _, _, outcome := answer(t, c, loop); outcome != robotstxt.AllowAll || loop.hits.Load() != MaxRedirects+1 || checks.Load() != MaxRedirects {
		t.Errorf("loop: outcome %v, %d requests, %d checks", outcome, loop.hits.Load(), checks.Load())
	}
}

// RFC 9309 2.3.1.2: a redirect to another host is followed, and the file
// reached governs the original site; it is cached under the original
// robots.txt URL only.
func TestCrossOriginRedirect(t *testing.T) {
	target := newSite(t, serve(rules))
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	lru := NewLRU(0, 0)
	c := &Client{Cache: lru, Now: fakeclock.New().Now}
	private, public, outcome := answer(t, c, s)
	if private || !public || outcome != robotstxt.Rules {
		t.Errorf("private %v public %v outcome %v", private, public, outcome)
	}
	// The copy is stored in the background: wait for it before counting.
	if err := c.Flush(context.Background()); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if e, _ := lru.Get(context.Background(), target.URL+"/robots.txt"); e != nil || lru.Len() != 1 {
		t.Errorf("the target's robots.txt URL was cached (%d entries)", lru.Len())
	}
}

// An ftp:// page has no robots.txt the Client can fetch: a typed error, not
// an answer.
func TestFTPPage(t *testing.T) {
	c := &Client{}
	for _, page := range []string{"ftp://ftp.example.com/pub/file", "FTP://example.com:21/"} {
		_, err := c.Allowed(context.Background(), "bot", page)
		if !errors.Is(err, ErrUnsupportedScheme) {
			t.Errorf("Allowed(%q): %v, want ErrUnsupportedScheme", page, err)
		}
	}
	if _, err := c.Entry(context.Background(), "ftp://example.com/robots.txt"); !errors.Is(err, ErrUnsupportedScheme) {
		t.Errorf("Entry(ftp): %v", err)
	}
}

// A page on an IPv6 host with a zone is fetched (the zone keeps its %25).
func TestIPv6ZonePage(t *testing.T) {
	key, err := robotsKey("http://[fe80::1%25eth0]:8080/x")
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(key)
	if err != nil || u.Hostname() != "fe80::1%eth0" || u.Port() != "8080" {
		t.Errorf("robots.txt URL %q parses as %v, %v", key, u, err)
	}
}

// slowCache is a store whose Get takes a while, as a remote one does.
type slowCache struct {
	Cache
	delay time.Duration
}

func (c *slowCache) Get(ctx context.Context, k string) (*Entry, error) {
	e, err := c.Cache.Get(ctx, k)
	time.Sleep(c.delay) // the answer is on its way back
	return e, err
}

// No duplicate fetch when callers arrive while the fetch ends: with a slow
// store, callers that missed before the entry was stored must not start a
// second fetch (issue: every expiry was fetched twice).
func TestSlowCacheOneFetch(t *testing.T) {
	s := newSite(t, serve(rules))
	c := &Client{Cache: &slowCache{Cache: NewLRU(0, 0), delay: 20 * time.Millisecond}}
	var wg sync.WaitGroup
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ok, err := c.Allowed(context.Background(), "bot", s.URL+"/private"); ok || err != nil {
				t.Errorf("Allowed: %v, %v", ok, err)
			}
		}()
		time.Sleep(time.Millisecond) // callers keep arriving during and after the fetch
	}
	wg.Wait()
	if n := s.hits.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// The memo's byte bound holds for what is really retained, even for files
// whose parsed form is many times their size (one-line groups).
func TestMemoBoundRetained(t *testing.T) {
	var groups strings.Builder
	for i := 0; groups.Len() < 100_000; i++ {
		fmt.Fprintf(&groups, "user-agent: a%d\ndisallow: /\n", i)
	}
	// One long line: its parsed form holds a copy of it until compiled.
	longLine := "user-agent: *\ndisallow: /" + strings.Repeat("a", 100_000)
	for _, body := range []string{groups.String(), longLine} {
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body+r.URL.RawQuery) })
		const bound = 8 << 20
		c := &Client{MemoBytes: bound, Cache: NewLRU(1, 0)}
		ctx := context.Background()
		if _, err := c.Entry(ctx, s.URL+"/robots.txt?warm"); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := 0; i < 80; i++ {
			if _, err := c.Entry(ctx, fmt.Sprintf("%s/robots.txt?%d", s.URL, i)); err != nil {
				t.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > bound+bound/4 {
			t.Errorf("heap grew by %d MiB with a memo bound of %d MiB (%d copies held)", grown>>20, bound>>20, c.memo.len())
		}
	}
}
