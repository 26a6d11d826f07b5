package fetch

import (
	"context"
	"time"
)

// The Client's clock. Now dates entries (their lifetimes and failures);
// the waits of the leases and of the store's budget (a lease's renewals,
// the polls of a process waiting on another's lease, how long a store
// call may take) are timed by the wall clock unless Sleep is set, and
// then by Now and Sleep together, so that a test can run them on a fake
// clock.

// waitNow is the time by which the Client's waits are measured.
func (c *Client) waitNow() time.Time {
	if c.Sleep != nil {
		return c.now()
	}
	return time.Now()
}

// sleep waits for d on the Client's clock, or until ctx ends.
func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	return sleepContext(ctx, d)
}

// withTimeout is context.WithTimeout on the Client's clock. On a clock of
// the caller's (Sleep set) the context is cancelled with the cause
// context.DeadlineExceeded once d has passed on it.
func (c *Client) withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if c.Sleep == nil {
		return context.WithTimeout(ctx, d)
	}
	tctx, cancel := context.WithCancelCause(ctx)
	go func() {
		if c.Sleep(tctx, d) == nil {
			cancel(context.DeadlineExceeded)
		}
	}()
	return tctx, func() { cancel(context.Canceled) }
}

// after returns a channel closed once d has passed on the Client's clock,
// and a function that stops the wait.
func (c *Client) after(d time.Duration) (<-chan struct{}, func()) {
	ctx, cancel := c.withTimeout(context.Background(), d)
	return ctx.Done(), cancel
}
