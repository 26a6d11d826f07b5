// Package redisstore keeps the robots.txt entries of fetch.Client in Redis,
// so that a crawl fleet shares them, and grants leases so that across the
// fleet one process fetches each robots.txt URL per lifetime. A lease is
// short and renewed by its holder while it fetches (see fetch.Leaser): when
// the holder dies, one of the processes waiting takes over as soon as it
// lapses.
//
// The fetch.Client bounds the time a caller waits on Redis by its Timeout
// whatever the Redis client's own timeouts: a stalled server costs a
// caller at most that, and a copy that cannot be stored, or a lease that
// cannot be had, only costs a fetch per process.
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
// robots.txt URL; leases under Prefix + "lease:" + the URL, holding a
// random token of their holder (SET NX PX), which only that holder can
// renew or delete. It is safe for concurrent use.
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
	_ fetch.Purger = (*Store)(nil)
)

// Delete removes the entry of a robots.txt URL (fetch.Client.Purge): every
// process sharing the store fetches it again once its copy in memory
// expires or is purged. A lease on the URL is left to its holder.
func (s *Store) Delete(ctx context.Context, robotsURL string) error {
	return s.rdb.Del(ctx, s.prefix+robotsURL).Err()
}

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

// renewScript extends a lease only if this holder still holds it.
var renewScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`)

// ErrLeaseLost is the error of renewing a lease that lapsed (and that
// another process may hold since).
var ErrLeaseLost = errors.New("redisstore: the lease lapsed")

// TryLease asks for the lease on robotsURL for ttl (SET NX PX, atomic): it
// returns nil, and no error, while another process holds it.
func (s *Store) TryLease(ctx context.Context, robotsURL string, ttl time.Duration) (fetch.Lease, error) {
	var token [16]byte
	rand.Read(token[:])
	l := &lease{s: s, key: s.prefix + "lease:" + robotsURL, token: hex.EncodeToString(token[:])}
	ok, err := s.rdb.SetNX(ctx, l.key, l.token, ttl).Result()
	if err != nil || !ok {
		return nil, err
	}
	return l, nil
}

// A lease is one holder's lease, known by its random token.
type lease struct {
	s     *Store
	key   string
	token string
}

// Renew extends the lease to ttl from now, if it is still this holder's.
func (l *lease) Renew(ctx context.Context, ttl time.Duration) error {
	n, err := renewScript.Run(ctx, l.s.rdb, []string{l.key}, l.token, ttl.Milliseconds()).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrLeaseLost
	}
	return nil
}

// Release deletes the lease, if it is still this holder's.
func (l *lease) Release(ctx context.Context) error {
	return releaseScript.Run(ctx, l.s.rdb, []string{l.key}, l.token).Err()
}
