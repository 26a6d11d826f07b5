// Package redisstore keeps the robots.txt entries of fetch.Client in Redis,
// so that a crawl fleet shares them, and grants leases so that across the
// fleet one process fetches each robots.txt URL per lifetime.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	client := &fetch.Client{Cache: redisstore.New(rdb, "robots:")}
//
// It lives in its own module so that users of robotstxt who do not use
// Redis never download a Redis client.
package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// DefaultRetention is how long an entry is kept in Redis past its
// expiry: long enough to serve the last copy through 30 days of failures
// (fetch.UnreachableLimit), with a margin.
const DefaultRetention = fetch.UnreachableLimit + 24*time.Hour

// A Store is a fetch.Cache and fetch.Leaser over Redis. Entries are kept
// in their wire form (fetch.Entry.MarshalBinary) under Prefix + the
// robots.txt URL; leases under Prefix + "lease:" + the URL. It is safe for
// concurrent use.
type Store struct {
	rdb    redis.UniversalClient
	prefix string
	// Retention is how long an entry stays in Redis after it expires, so
	// that it can still serve as the last copy; zero means
	// DefaultRetention. Set it before first use.
	Retention time.Duration
	// Now tells the time for the keys' lifetimes; nil means time.Now.
	Now func() time.Time
}

// New returns a Store over rdb whose keys start with prefix.
func New(rdb redis.UniversalClient, prefix string) *Store {
	return &Store{rdb: rdb, prefix: prefix}
}

var (
	_ fetch.Cache  = (*Store)(nil)
	_ fetch.Leaser = (*Store)(nil)
)

// Get returns the entry stored for robotsURL, or nil.
func (s *Store) Get(ctx context.Context, robotsURL string) (*fetch.Entry, error) {
	data, err := s.rdb.Get(ctx, s.prefix+robotsURL).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	e := new(fetch.Entry)
	if err := e.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return e, nil
}

// Put stores e for robotsURL until Retention after it expires.
func (s *Store) Put(ctx context.Context, robotsURL string, e *fetch.Entry) error {
	data, err := e.MarshalBinary()
	if err != nil {
		return err
	}
	now := time.Now()
	if s.Now != nil {
		now = s.Now()
	}
	retention := s.Retention
	if retention <= 0 {
		retention = DefaultRetention
	}
	ttl := max(e.Expires.Sub(now), 0) + retention
	return s.rdb.Set(ctx, s.prefix+robotsURL, data, ttl).Err()
}

// releaseScript deletes a lease only if this holder still holds it, so that
// a holder whose lease expired cannot release the next holder's.
var releaseScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// TryLease asks for the lease on robotsURL for ttl (SET NX PX): granted is
// true when no other process holds it. release gives it back; it is nil
// when the lease was not granted.
func (s *Store) TryLease(ctx context.Context, robotsURL string, ttl time.Duration) (bool, func(), error) {
	var token [16]byte
	rand.Read(token[:])
	tok := hex.EncodeToString(token[:])
	key := s.prefix + "lease:" + robotsURL
	ok, err := s.rdb.SetNX(ctx, key, tok, ttl).Result()
	if err != nil || !ok {
		return false, nil, err
	}
	release := func() {
		// Released with a fresh context: the fetch's may have ended. A
		// failure only leaves the lease to expire.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		releaseScript.Run(ctx, s.rdb, []string{key}, tok)
	}
	return true, release, nil
}
