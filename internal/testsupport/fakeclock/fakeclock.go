// Package fakeclock is a clock for tests of code that waits (the fetch
// client's pacing and leases, the Redis store's polls): it moves only when
// the test moves it, so no test waits on the wall clock for a time it
// means to pass.
package fakeclock

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Clock is a clock that moves only when Advance is called. Sleep waits
// until Advance has moved it past the wake-up time. Its methods are safe
// for concurrent use. Its Now and Sleep methods fit the fetch package's
// Client.Now and Client.Sleep fields.
type Clock struct {
	mu       sync.Mutex
	now      time.Time
	sleepers map[*sleeper]bool
}

type sleeper struct {
	ctx   context.Context
	d     time.Duration // as asked
	until time.Time
	wake  chan struct{}
}

// New returns a Clock that reads 2026-01-01 00:00 UTC.
func New() *Clock {
	return &Clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d and wakes the sleepers whose time has
// come.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for s := range c.sleepers {
		if !c.now.Before(s.until) {
			close(s.wake)
			delete(c.sleepers, s)
		}
	}
}

// Sleep waits until the clock has moved d on, or until ctx ends, when it
// returns ctx's error.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	c.mu.Lock()
	s := &sleeper{ctx: ctx, d: d, until: c.now.Add(d), wake: make(chan struct{})}
	if c.sleepers == nil {
		c.sleepers = map[*sleeper]bool{}
	}
	c.sleepers[s] = true
	c.mu.Unlock()
	select {
	case <-s.wake:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.sleepers, s)
		c.mu.Unlock()
		return ctx.Err()
	}
}

// Asleep returns a condition that holds while goroutines sleep on the
// clock for each of the durations given (a sleep counts by the duration
// it asked for, until it wakes; a sleep whose context has ended does not
// count).
func (c *Clock) Asleep(ds ...time.Duration) func() bool {
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		have := map[time.Duration]int{}
		for s := range c.sleepers {
			if s.ctx.Err() == nil {
				have[s.d]++
			}
		}
		for _, d := range ds {
			if have[d]--; have[d] < 0 {
				return false
			}
		}
		return true
	}
}

// AsleepAny reports whether any goroutine sleeps on the clock (with a
// context that has not ended).
func (c *Clock) AsleepAny() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for s := range c.sleepers {
		if s.ctx.Err() == nil {
			return true
		}
	}
	return false
}

// RunUntil moves the clock on by step each time ready reports that the
// goroutines expected are asleep on it, until done reports true, and
// returns how far it moved it: at most max, where it stops whatever done
// says. It never waits on the wall clock: between steps it only yields.
// It fails the test when ready has not held for 10 s of the wall clock (a
// test that hangs).
func (c *Clock) RunUntil(t testing.TB, done, ready func() bool, step, max time.Duration) time.Duration {
	t.Helper()
	var moved time.Duration
	stuck := time.Now().Add(10 * time.Second)
	for !done() && moved < max {
		if !ready() {
			if time.Now().After(stuck) {
				t.Fatalf("the goroutines expected were not asleep on the fake clock for 10 s (moved %v)", moved)
			}
			runtime.Gosched()
			continue
		}
		c.Advance(step)
		moved += step
		stuck = time.Now().Add(10 * time.Second)
	}
	return moved
}
