package fetch

import (
	"errors"
	"sync/atomic"
	"time"
)

// Stats is a snapshot of a Client's counters since it was created, for a
// fleet to export (see the nested module
// github.com/seed50c7eacc/robotstxt/fetch/otelstats for OpenTelemetry).
// Counters only grow; MemoEntries is the number held now. Reading them
// costs a few atomic loads; counting costs an atomic add where it happens.
type Stats struct {
	// MemoryHits counts questions answered from the parsed copy held in
	// memory, with no store call and no fetch.
	MemoryHits int64
	// Joined counts callers that waited for a resolution of the same
	// robots.txt URL already under way in this process.
	Joined int64
	// StoreHits counts fresh entries read from the Cache; StoreMisses
	// reads that found none (missing, expired, or a store error).
	StoreHits, StoreMisses int64
	// LeaseWaits counts resolutions that waited on another process's
	// lease (see Leaser); StaleServed, those that served a stale copy
	// while another process fetched.
	LeaseWaits, StaleServed int64
	// StoreErrors counts failed store calls (get, put, lease, renew,
	// release), each reported as an Event with a *StoreError;
	// StoreDrops counts the copies not stored because too many were being
	// stored already (ErrStoreBusy on a put).
	StoreErrors, StoreDrops int64
	// Fetches counts robots.txt fetches; FetchFailures those that failed
	// (a 5xx, a 429, a network error, a body that could not be read).
	Fetches, FetchFailures int64
	// Purges counts calls of Purge.
	Purges int64
	// MemoEntries is how many robots.txt URLs the parsed memo holds now.
	MemoEntries int
}

// counters are a Client's Stats as they grow.
type counters struct {
	memoryHits, joined, storeHits, storeMisses, leaseWaits, staleServed atomic.Int64
	storeErrors, storeDrops, fetches, fetchFailures, purges             atomic.Int64
}

// Stats returns a snapshot of the Client's counters.
func (c *Client) Stats() Stats {
	c.init()
	n := &c.counters
	return Stats{
		MemoryHits: n.memoryHits.Load(), Joined: n.joined.Load(),
		StoreHits: n.storeHits.Load(), StoreMisses: n.storeMisses.Load(),
		LeaseWaits: n.leaseWaits.Load(), StaleServed: n.staleServed.Load(),
		StoreErrors: n.storeErrors.Load(), StoreDrops: n.storeDrops.Load(),
		Fetches: n.fetches.Load(), FetchFailures: n.fetchFailures.Load(),
		Purges:      n.purges.Load(),
		MemoEntries: c.memo.len(),
	}
}

// count counts what an event reports: a store error, a dropped copy.
func (n *counters) count(ev Event) {
	var se *StoreError
	if !errors.As(ev.Err, &se) {
		return
	}
	n.storeErrors.Add(1)
	if se.Op == "put" && errors.Is(se.Err, ErrStoreBusy) {
		n.storeDrops.Add(1)
	}
}

// TransportStats is a snapshot of a Transport's counters since it was
// created. The robots.txt fetches behind it are its Client's (Stats).
type TransportStats struct {
	// Requests counts the requests and redirect hops checked.
	Requests int64
	// Refused counts those refused because robots.txt disallows them (or
	// is unreachable): each failed with a *DisallowedError.
	Refused int64
	// Waits counts requests held back for their site's turn (Crawl-delay,
	// Request-rate, a pause after a 429 or 503), and WaitTime the time
	// they waited in all; Pauses counts those 429 and 503 responses.
	Waits    int64
	WaitTime time.Duration
	Pauses   int64
}

// transportCounters are a Transport's TransportStats as they grow.
type transportCounters struct {
	requests, refused atomic.Int64
}

// countRefusal counts a request refused because robots.txt disallows it.
func (n *transportCounters) countRefusal(err error) {
	var d *DisallowedError
	if errors.As(err, &d) {
		n.refused.Add(1)
	}
}

// Stats returns a snapshot of the Transport's counters.
func (t *Transport) Stats() TransportStats {
	t.init()
	return TransportStats{
		Requests: t.stats.requests.Load(),
		Refused:  t.stats.refused.Load(),
		Waits:    t.pacer.waits.Load(),
		WaitTime: time.Duration(t.pacer.waited.Load()),
		Pauses:   t.pacer.pauses.Load(),
	}
}
