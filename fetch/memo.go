package fetch

import (
	"bytes"
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
	mu  sync.Mutex
	lru boundedLRU[memoItem]
}

type memoItem struct {
	entry  *Entry
	id     identity
	robots *robotstxt.Robots // nil unless entry.Copy
	cause  error             // the fetch's error, when this process fetched entry and it failed
	// normal is robots as RFC 9309 compares patterns (see
	// normalizedRules), once normalDone.
	normal     *normalRules
	normalDone bool
}

func newMemo(maxEntries, maxBytes int) *memo {
	return &memo{lru: newBoundedLRU[memoItem](maxEntries, maxBytes)}
}

// get returns the entry held for a URL and its parsed rules.
func (m *memo) get(key string) (*Entry, *robotstxt.Robots) {
	m.mu.Lock()
	defer m.mu.Unlock()
	slot := m.lru.get(key)
	if slot == nil {
		return nil, nil
	}
	return slot.value.entry, slot.value.robots
}

// parsedCost estimates, from above, the memory of a body and its parsed
// form: the body, which the parsed form shares (parseEntry), and a copy
// of it when ParseOwned makes one (a body with more than an eighth of its
// length to spare, or cut at the size limit), which the parsed form holds
// until the whole file is compiled (for most files, never: the rules of
// the agents asked are compiled alone, beside it); and up to costPerLine
// per line for the compiled rules and groups (measured on files of
// one-line groups, the costliest kind per byte; a typical file's compiled
// form is smaller than its body).
func parsedCost(body []byte) int {
	held := len(body)
	if hasSpareRoom(body) || len(body) > robotstxt.DefaultMaxSize {
		held += len(body)
	}
	return held + costPerLine*(bytes.Count(body, []byte{'\n'})+1) + 1024
}

const costPerLine = 144

// cause returns the error of the failed fetch that gave e, when this
// process fetched it and still holds it.
func (m *memo) cause(key string, e *Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if slot := m.lru.get(key); slot != nil && slot.value.entry == e {
		return slot.value.cause
	}
	return nil
}

// put records e as the entry of key, with the error of the fetch that
// gave it (nil when it did not fail or was not fetched here), and returns
// its parsed rules, reusing the parsed form held when e holds the same
// copy.
func (m *memo) put(key string, e *Entry, cause error) *robotstxt.Robots {
	id := e.identity()
	m.mu.Lock()
	if slot := m.lru.get(key); slot != nil && slot.value.id == id {
		slot.value.entry = e // same copy, maybe a new lifetime or failure state
		slot.value.cause = cause
		robots := slot.value.robots
		m.mu.Unlock()
		return robots
	}
	m.mu.Unlock()

	// Parse outside the lock: other URLs need not wait for it.
	var robots *robotstxt.Robots
	if e.Copy {
		robots = parseEntry(e)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lru.set(key, memoItem{entry: e, id: id, robots: robots, cause: cause}, parsedCost(e.Body)+len(key))
	return robots
}

// normal returns the rules of key's copy e, parsed as parsed, with their
// patterns normalized (see normalizedRules), building them once per copy
// held; nil when no pattern changes.
func (m *memo) normal(key string, e *Entry, parsed *robotstxt.Robots) *normalRules {
	m.mu.Lock()
	if slot := m.lru.get(key); slot != nil && slot.value.robots == parsed && slot.value.normalDone {
		n := slot.value.normal
		m.mu.Unlock()
		return n
	}
	m.mu.Unlock()
	n := normalizedRules(e.Body, parsed) // outside the lock, as a parse
	m.mu.Lock()
	defer m.mu.Unlock()
	if slot := m.lru.get(key); slot != nil && slot.value.robots == parsed && !slot.value.normalDone {
		v, size := slot.value, slot.size
		v.normal, v.normalDone = n, true
		if n != nil {
			size += parsedCost(e.Body)
		}
		m.lru.set(key, v, size)
	}
	return n
}

// len returns the number of entries held.
func (m *memo) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lru.len()
}
