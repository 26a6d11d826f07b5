package fetch

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// The pacer keeps at most maxHosts hosts, forgetting the least recently
// used, so that a crawl of millions of hosts holds bounded memory.
func TestPacerBoundedHosts(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var slept time.Duration
	p := &pacer{
		maxDelay: DefaultMaxDelay, backoff: DefaultBackoff, maxBackoff: DefaultMaxBackoff, maxHosts: 100,
		now:   func() time.Time { return now },
		sleep: func(_ context.Context, d time.Duration) error { slept += d; return nil },
	}
	ctx := context.Background()
	if err := p.wait(ctx, "kept.example", time.Second); err != nil {
		t.Fatal(err)
	}
	for i := range 100000 {
		if err := p.wait(ctx, fmt.Sprintf("h%d.example", i), time.Second); err != nil {
			t.Fatal(err)
		}
		if i%50 == 0 { // kept.example stays among the recently used
			p.mu.Lock()
			p.hostLocked("kept.example")
			p.mu.Unlock()
		}
	}
	if got := p.len(); got != 100 {
		t.Errorf("%d hosts held; want 100", got)
	}
	if slept != 0 {
		t.Errorf("slept %v for first requests to new hosts", slept)
	}
	// The host kept in use still has its state: its next turn is 1 s after
	// its first request.
	if err := p.wait(ctx, "kept.example", time.Second); err != nil {
		t.Fatal(err)
	}
	if slept != time.Second {
		t.Errorf("kept.example waited %v; want 1s", slept)
	}
}

// RFC 9110, section 10.2.3: Retry-After is a number of seconds or an
// HTTP date.
// TestRetryAfterValues covers the forms of RFC 9110 section 10.2.3 that
// pacing reads (the fetch tests cover robots.txt retries).
func TestRetryAfterValues(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"", 0, false},
		{"120", 2 * time.Minute, true},
		{" 7 ", 7 * time.Second, true},
		{"0", 0, true},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"99999999999999999999999999", maxDeltaSeconds * time.Second, true}, // RFC 9111 section 1.2.2
		{"Thu, 01 Jan 2026 12:01:00 GMT", time.Minute, true},
		{"Thursday, 01-Jan-26 12:00:30 GMT", 30 * time.Second, true}, // RFC 850 form
		{"Thu Jan  1 12:00:10 2026", 10 * time.Second, true},         // asctime form
		{"Wed, 31 Dec 2025 12:00:00 GMT", 0, true},                   // in the past
	}
	for _, tt := range tests {
		got, ok := retryAfter(http.Header{"Retry-After": {tt.value}}, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

// After a pause has long ended, a new 429 starts the backoff afresh.
func TestPauseStartsAfresh(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &pacer{maxDelay: DefaultMaxDelay, backoff: DefaultBackoff, maxBackoff: time.Minute, maxHosts: 10, now: func() time.Time { return now }}
	for range 3 {
		p.pause("a.example", http.Header{})
	}
	h := p.hosts.get("a.example").value
	if got := h.notBefore.Sub(now); got != 4*DefaultBackoff {
		t.Errorf("after three 503s in a row, paused %v; want %v", got, 4*DefaultBackoff)
	}
	now = now.Add(time.Hour)
	p.pause("a.example", http.Header{})
	if got := h.notBefore.Sub(now); got != DefaultBackoff {
		t.Errorf("after a 503 an hour later, paused %v; want %v", got, DefaultBackoff)
	}
}
