package fetch

import (
	"container/list"
	"sync"
	"time"

	"github.com/seed50c7eacc/robotstxt"
)

// An Entry is what the Client remembers about one robots.txt URL: the last
// copy it fetched, and how fetching it has gone since. All fields but
// Robots are plain data, so a shared store can serialize an Entry (as JSON,
// say) and give it back to any crawler.
type Entry struct {
	// Copy is false until a fetch has given a usable answer (2xx, 3xx or
	// 4xx); then Status, Body and FetchedAt describe that answer.
	Copy      bool
	Status    int       // HTTP status code of the copy
	Body      []byte    // body of the copy, for a 2xx (at most robotstxt.DefaultMaxSize bytes)
	FetchedAt time.Time // when the copy was fetched

	// Expires is when the URL should be fetched again: the end of the
	// copy's lifetime, or the next retry after a failure.
	Expires time.Time

	// FailingSince is when the current run of failed fetches (5xx, 429,
	// network errors) began; zero when the last fetch gave an answer.
	FailingSince time.Time
	Failures     int    // failed fetches in the current run
	LastError    string // why the last fetch failed, for logs

	// Robots is Body parsed, kept by in-memory caches to spare parsing. A
	// shared store need not keep it; the Client parses Body again when it
	// is nil.
	Robots *robotstxt.Robots
}

// size is what an entry costs a cache, roughly.
func (e *Entry) size() int { return len(e.Body) + 256 }

// A Cache stores entries by robots.txt URL. Implementations must be safe
// for concurrent use. The Client never modifies an Entry after Put or one
// returned by Get; it stores a new one instead.
//
// To share robots.txt files across a crawl fleet, implement Cache over a
// shared store (Redis, memcached, a database): Put serializes the Entry's
// data fields under the key, Get reads them back. Leave Robots nil on the
// way back; the Client parses Body. Entries may be evicted at any time: a
// missing entry only means one more fetch.
type Cache interface {
	Get(robotsURL string) (*Entry, bool)
	Put(robotsURL string, e *Entry)
}

// An LRU is an in-memory Cache bounded by a number of entries and by the
// bytes of the bodies it holds; the least recently used entries go first.
type LRU struct {
	maxEntries int
	maxBytes   int

	mu    sync.Mutex
	order *list.List // front: most recently used; values are *lruItem
	items map[string]*list.Element
	bytes int
}

type lruItem struct {
	key   string
	entry *Entry
}

// NewLRU returns an LRU holding at most maxEntries entries and maxBytes
// bytes of bodies; a limit of zero or less means no limit of that kind.
func NewLRU(maxEntries, maxBytes int) *LRU {
	return &LRU{maxEntries: maxEntries, maxBytes: maxBytes, order: list.New(), items: make(map[string]*list.Element)}
}

// Get returns the entry for a robots.txt URL and marks it used.
func (c *LRU) Get(robotsURL string) (*Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[robotsURL]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruItem).entry, true
}

// Put stores the entry for a robots.txt URL, evicting others as needed.
func (c *LRU) Put(robotsURL string, e *Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[robotsURL]; ok {
		item := el.Value.(*lruItem)
		c.bytes += e.size() - item.entry.size()
		item.entry = e
		c.order.MoveToFront(el)
	} else {
		c.items[robotsURL] = c.order.PushFront(&lruItem{robotsURL, e})
		c.bytes += e.size()
	}
	for c.order.Len() > 1 && (c.maxEntries > 0 && c.order.Len() > c.maxEntries || c.maxBytes > 0 && c.bytes > c.maxBytes) {
		oldest := c.order.Back()
		item := oldest.Value.(*lruItem)
		c.order.Remove(oldest)
		delete(c.items, item.key)
		c.bytes -= item.entry.size()
	}
}

// Len returns the number of entries held.
func (c *LRU) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
