package fetch

import "context"

// A Purger is a Cache that can delete the entry of one robots.txt URL, so
// that Client.Purge reaches it. LRU and the Redis store are Purgers.
type Purger interface {
	Delete(ctx context.Context, robotsURL string) error
}

// Purge forgets the copy of the robots.txt that governs pageURL (a page of
// the site, or its robots.txt URL): the parsed copy in memory, and the
// entry in the Cache when it is a Purger. The next question about the
// site fetches the file again (a site owner fixed a mistake; a crawler
// must not wait out the copy's lifetime). Other processes sharing the
// Cache drop their copy in memory when it expires, or when they are
// purged too. A fetch under way when Purge is called may store its copy
// after it. A store error is returned as a *StoreError.
func (c *Client) Purge(ctx context.Context, pageURL string) error {
	key, err := robotsKey(pageURL)
	if err != nil {
		return err
	}
	c.init()
	c.counters.purges.Add(1)
	c.memo.delete(key)
	if p, ok := c.cache.(Purger); ok {
		if err := p.Delete(ctx, key); err != nil {
			return &StoreError{"delete", key, err}
		}
	}
	return nil
}

// Delete removes the entry of a robots.txt URL, if any.
func (c *LRU) Delete(_ context.Context, robotsURL string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.remove(robotsURL)
	return nil
}

// delete forgets the entry held for a URL.
func (m *memo) delete(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lru.remove(key)
}
