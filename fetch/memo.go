package fetch

import (
	"bytes"
	"container/list"
	"sync"

	"github.com/seed50c7eacc/robotstxt"
)

// A memo keeps, per robots.txt URL, the last entry the Client saw and its
// parsed rules, in front of the Cache: questions about a fresh copy are
// answered from it without asking the store, and a copy read back from a
// shared store is parsed only when it differs from the one held. It is
// bounded by entries and by an estimate of the bytes held (the body and
// its parsed form).
type memo struct {
	maxEntries, maxBytes int

	mu    sync.Mutex
	order *list.List // front: most recently used; values are *memoItem
	items map[string]*list.Element
	bytes int
}

type memoItem struct {
	key    string
	entry  *Entry
	id     identity
	robots *robotstxt.Robots // nil unless entry.Copy
	size   int
}

func newMemo(maxEntries, maxBytes int) *memo {
	return &memo{maxEntries: maxEntries, maxBytes: maxBytes, order: list.New(), items: make(map[string]*list.Element)}
}

// get returns the entry held for a URL and its parsed rules.
func (m *memo) get(key string) (*Entry, *robotstxt.Robots) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.items[key]
	if !ok {
		return nil, nil
	}
	m.order.MoveToFront(el)
	item := el.Value.(*memoItem)
	return item.entry, item.robots
}

// parsedCost estimates, from above, the memory of a body and its parsed
// form: the body, plus up to costPerLine per line for the rules and groups
// the parse builds (measured on files of one-line groups, the costliest
// kind per byte; a typical file's parsed form is smaller than its body).
func parsedCost(body []byte) int {
	return len(body) + costPerLine*(bytes.Count(body, []byte{'\n'})+1) + 1024
}

const costPerLine = 144

// put records e as the entry of key and returns its parsed rules, reusing
// the parsed form held when e holds the same copy.
func (m *memo) put(key string, e *Entry) *robotstxt.Robots {
	id := e.identity()
	m.mu.Lock()
	if el, ok := m.items[key]; ok {
		item := el.Value.(*memoItem)
		if item.id == id {
			item.entry = e // same copy, maybe a new lifetime or failure state
			m.order.MoveToFront(el)
			m.mu.Unlock()
			return item.robots
		}
	}
	m.mu.Unlock()

	// Parse outside the lock: other URLs need not wait for it.
	var robots *robotstxt.Robots
	if e.Copy {
		robots = robotstxt.FromStatus(e.Status, e.Body)
	}
	item := &memoItem{key: key, entry: e, id: id, robots: robots, size: parsedCost(e.Body) + len(key)}

	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.items[key]; ok {
		old := el.Value.(*memoItem)
		m.bytes += item.size - old.size
		el.Value = item
		m.order.MoveToFront(el)
	} else {
		m.items[key] = m.order.PushFront(item)
		m.bytes += item.size
	}
	for m.order.Len() > 1 && (m.maxEntries > 0 && m.order.Len() > m.maxEntries || m.maxBytes > 0 && m.bytes > m.maxBytes) {
		oldest := m.order.Back()
		old := oldest.Value.(*memoItem)
		m.order.Remove(oldest)
		delete(m.items, old.key)
		m.bytes -= old.size
	}
	return robots
}

// len returns the number of entries held.
func (m *memo) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.order.Len()
}
