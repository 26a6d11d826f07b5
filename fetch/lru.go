package fetch

import "container/list"

// boundedLRU is the least-recently-used core shared by LRU and memo: values
// by key, bounded by a number of entries and by the bytes they are counted
// as. It does no locking; its owner holds its own mutex around every call.
type boundedLRU[V any] struct {
	maxEntries, maxBytes int // zero or less: no limit of that kind

	order *list.List // front: most recently used; values are *lruSlot[V]
	items map[string]*list.Element
	bytes int
}

type lruSlot[V any] struct {
	key   string
	value V
	size  int // bytes the value is counted as, key included
}

func newBoundedLRU[V any](maxEntries, maxBytes int) boundedLRU[V] {
	return boundedLRU[V]{maxEntries: maxEntries, maxBytes: maxBytes, order: list.New(), items: make(map[string]*list.Element)}
}

// get returns the slot of key, marked most recently used, or nil. The
// caller may change the slot's value but not its size.
func (l *boundedLRU[V]) get(key string) *lruSlot[V] {
	el, ok := l.items[key]
	if !ok {
		return nil
	}
	l.order.MoveToFront(el)
	return el.Value.(*lruSlot[V])
}

// set stores value for key, counted as size bytes, and evicts the least
// recently used others until both bounds hold again. The newest value is
// always kept, even alone over the byte bound, so that it can be used.
func (l *boundedLRU[V]) set(key string, value V, size int) {
	if el, ok := l.items[key]; ok {
		slot := el.Value.(*lruSlot[V])
		l.bytes += size - slot.size
		slot.value, slot.size = value, size
		l.order.MoveToFront(el)
	} else {
		l.items[key] = l.order.PushFront(&lruSlot[V]{key, value, size})
		l.bytes += size
	}
	for l.order.Len() > 1 && (l.maxEntries > 0 && l.order.Len() > l.maxEntries || l.maxBytes > 0 && l.bytes > l.maxBytes) {
		oldest := l.order.Back()
		slot := oldest.Value.(*lruSlot[V])
		l.order.Remove(oldest)
		delete(l.items, slot.key)
		l.bytes -= slot.size
	}
}

// len returns the number of values held.
func (l *boundedLRU[V]) len() int { return l.order.Len() }

// remove drops key's value, if held.
func (l *boundedLRU[V]) remove(key string) {
	if el, ok := l.items[key]; ok {
		slot := el.Value.(*lruSlot[V])
		l.order.Remove(el)
		delete(l.items, key)
		l.bytes -= slot.size
	}
}
