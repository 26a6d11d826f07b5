package fetch

import (
	"context"
	"sync"
	"time"
)

// A Cache stores entries by robots.txt URL. Implementations must be safe
// for concurrent use. The Client never modifies an Entry after Put or one
// returned by Get; it stores a new one instead. Nor may a Cache modify an
// Entry it is given or returns: the Client's parsed rules read the Body
// of the entry they were parsed from, without a copy.
//
// Get returns (nil, nil) when it holds no entry for the URL. An error from
// Get or Put (a timeout, a lost connection) is reported (see Client.Logger
// and Client.OnEvent) and treated as a miss: the Client fetches, or keeps
// using the copy it holds in memory; a store error never becomes an
// answer. Entries may be evicted at any time: a missing entry only means
// one more fetch.
//
// To share robots.txt files across a crawl fleet, implement Cache over a
// shared store (Redis, memcached, a database), keeping each Entry in its
// wire form (Entry.MarshalBinary), or use the Redis store of the nested
// module github.com/seed50c7eacc/robotstxt/fetch/redisstore. The Client
// keeps the parsed rules of the copies it has seen in memory, so a shared
// store costs one parse per process per copy.
type Cache interface {
	Get(ctx context.Context, robotsURL string) (*Entry, error)
	Put(ctx context.Context, robotsURL string, e *Entry) error
}

// A Leaser is a Cache shared by several processes that can also grant a
// lease on a robots.txt URL, so that across the fleet only the holder
// fetches it. TryLease returns the lease, granted for ttl, or nil (and no
// error) while another process holds it; the grant must be atomic (Redis
// SET NX), so that of the processes asking at once one gets it.
//
// The Client asks for a short lease (Client.LeaseTTL), renews it every
// third of its TTL while it fetches, and releases it once the entry is
// stored. While another process holds the lease, the Client serves its
// stale copy, or waits (at most Client.LeaseWait) for the holder's entry,
// asking for the lease again as it waits: when the holder dies, its lease
// lapses and one waiter takes it over.
type Leaser interface {
	Cache
	TryLease(ctx context.Context, robotsURL string, ttl time.Duration) (Lease, error)
}

// A Lease is one process's hold on a robots.txt URL (see Leaser).
type Lease interface {
	// Renew extends the lease to ttl from now; it fails, and does not
	// take the lease, when the lease lapsed and another process holds it.
	Renew(ctx context.Context, ttl time.Duration) error
	// Release gives the lease back, if it is still this holder's.
	Release(ctx context.Context) error
}

// An LRU is an in-memory Cache bounded by a number of entries and by the
// bytes they hold (bodies, validators and fixed fields); the least recently
// used entries go first. Get and Put never fail.
type LRU struct {
	mu  sync.Mutex
	lru boundedLRU[*Entry]
}

// NewLRU returns an LRU holding at most maxEntries entries and maxBytes
// bytes; a limit of zero or less means no limit of that kind.
func NewLRU(maxEntries, maxBytes int) *LRU {
	return &LRU{lru: newBoundedLRU[*Entry](maxEntries, maxBytes)}
}

// Get returns the entry for a robots.txt URL, or nil, and marks it used.
func (c *LRU) Get(_ context.Context, robotsURL string) (*Entry, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if slot := c.lru.get(robotsURL); slot != nil {
		return slot.value, nil
	}
	return nil, nil
}

// Put stores the entry for a robots.txt URL, evicting others as needed.
func (c *LRU) Put(_ context.Context, robotsURL string, e *Entry) error {
	size := e.size() + len(robotsURL) + lruOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.set(robotsURL, e, size)
	return nil
}

// lruOverhead is the list element, map slot and item of one entry.
const lruOverhead = 128

// Len returns the number of entries held.
func (c *LRU) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.len()
}

// Bytes returns the bytes the entries held are counted as.
func (c *LRU) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.bytes
}
