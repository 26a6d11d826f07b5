package fetch

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Defaults of the Transport's politeness settings.
const (
	// DefaultMaxDelay caps the wait a robots.txt may ask for between two
	// requests to a host (Crawl-delay, Request-rate), as Apache Nutch and
	// StormCrawler cap it by default.
	DefaultMaxDelay = 30 * time.Second
	// DefaultMaxBackoff caps how long a host is left alone after a 429 or
	// 503 response, whatever its Retry-After says.
	DefaultMaxBackoff = 10 * time.Minute
	// DefaultBackoff is the first pause after a 429 or 503 response without
	// a usable Retry-After; it doubles while such responses go on.
	DefaultBackoff = 5 * time.Second
	// DefaultMaxHosts bounds how many hosts the Transport keeps pacing state
	// for (a few hundred bytes each).
	DefaultMaxHosts = 100000
)

// A pacer spaces out the requests to each host: one token bucket
// (rate.Limiter, burst 1) per host, and a time before which the host is
// left alone after it asked for a pause. Callers wait in their own
// goroutine; the pacer starts none. Hosts are kept in LRU order and the
// least recently used are forgotten beyond maxHosts: a host forgotten
// after its last request is more than its interval old loses nothing,
// since its bucket would be full again.
type pacer struct {
	minDelay, maxDelay  time.Duration
	backoff, maxBackoff time.Duration
	maxHosts            int
	now                 func() time.Time
	sleep               func(ctx context.Context, d time.Duration) error

	mu    sync.Mutex
	hosts boundedLRU[*hostPace] // made on first use, bounded by maxHosts

	// For TransportStats: requests held back, the nanoseconds they were
	// held back in all, and the 429 and 503 responses that paused a host.
	waits, waited, pauses atomic.Int64
}

// A hostPace is the pacing state of one host.
type hostPace struct {
	limiter  *rate.Limiter
	interval time.Duration // the interval limiter was set to
	// notBefore is when the host may be asked again after a 429 or 503.
	notBefore time.Time
	pauses    int // 429 and 503 responses in a row (see pause)
}

// clamp bounds the interval a robots.txt asks for.
func (p *pacer) clamp(d time.Duration) time.Duration {
	return min(max(d, p.minDelay), p.maxDelay)
}

// hostLocked returns the state of host, creating it and forgetting the
// least recently used hosts as needed. p.mu must be held.
func (p *pacer) hostLocked(host string) *hostPace {
	if p.hosts.items == nil {
		p.hosts = newBoundedLRU[*hostPace](max(p.maxHosts, 1), 0)
	}
	if slot := p.hosts.get(host); slot != nil {
		return slot.value
	}
	h := &hostPace{limiter: rate.NewLimiter(rate.Inf, 1)}
	p.hosts.set(host, h, 0)
	return h
}

// wait blocks until a request to host may be sent, given the interval its
// robots.txt asks for (before clamping). It returns an error, and gives
// the slot back, when ctx ends first.
func (p *pacer) wait(ctx context.Context, host string, interval time.Duration) error {
	interval = p.clamp(interval)
	now := p.now()
	p.mu.Lock()
	h := p.hostLocked(host)
	if interval != h.interval {
		h.limiter.SetLimitAt(now, rate.Every(interval))
		h.interval = interval
	}
	at := now
	if h.notBefore.After(at) {
		at = h.notBefore
	}
	slot := h.limiter.ReserveN(at, 1)
	p.mu.Unlock()
	delay := slot.DelayFrom(now)
	if delay <= 0 {
		return nil
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < delay {
		slot.CancelAt(now)
		return fmt.Errorf("fetch: the next request to %s may go in %v, after the request's deadline: %w", host, delay, context.DeadlineExceeded)
	}
	p.waits.Add(1)
	p.waited.Add(int64(delay))
	if err := p.sleep(ctx, delay); err != nil {
		slot.CancelAt(p.now())
		return err
	}
	return nil
}

// pause leaves host alone after a 429 or 503 response: for the response's
// Retry-After, or else for a backoff that doubles with each such response
// in a row, within maxBackoff.
func (p *pacer) pause(host string, h http.Header) {
	p.pauses.Add(1)
	now := p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	hp := p.hostLocked(host)
	// A pause that ended long ago does not count as "in a row".
	if now.Sub(hp.notBefore) > p.maxBackoff {
		hp.pauses = 0
	}
	hp.pauses++
	d, ok := retryAfter(h, now)
	if !ok {
		d = doubling(p.backoff, p.maxBackoff, hp.pauses)
	}
	d = min(d, p.maxBackoff)
	if until := now.Add(d); until.After(hp.notBefore) {
		hp.notBefore = until
	}
}

// len returns how many hosts the pacer holds state for.
func (p *pacer) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hosts.len()
}

// sleepContext waits for d or until ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
