package fakeclock

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSleepWakesOnlyWhenAdvancedPast(t *testing.T) {
	c := New()
	start := c.Now()
	woke := make(chan error, 1)
	go func() { woke <- c.Sleep(context.Background(), time.Second) }()
	for !c.Asleep(time.Second)() {
		time.Sleep(time.Millisecond)
	}
	c.Advance(999 * time.Millisecond)
	select {
	case err := <-woke:
		t.Fatalf("woke %v before the clock reached the wake-up time", err)
	case <-time.After(20 * time.Millisecond):
	}
	c.Advance(time.Millisecond)
	if err := <-woke; err != nil {
		t.Fatalf("Sleep: %v", err)
	}
	if got := c.Now().Sub(start); got != time.Second {
		t.Errorf("the clock moved %v, want 1s", got)
	}
	if c.AsleepAny() {
		t.Error("a sleeper is still counted after it woke")
	}
}

func TestSleepEndsWithItsContext(t *testing.T) {
	c := New()
	ctx, cancel := context.WithCancel(context.Background())
	woke := make(chan error, 1)
	go func() { woke <- c.Sleep(ctx, time.Hour) }()
	for !c.AsleepAny() {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-woke; !errors.Is(err, context.Canceled) {
		t.Fatalf("Sleep returned %v, want context.Canceled", err)
	}
	if c.AsleepAny() {
		t.Error("a sleep whose context ended is still counted")
	}
	if err := c.Sleep(ctx, 0); err != nil {
		t.Errorf("Sleep of 0 returned %v, want nil at once", err)
	}
}

func TestRunUntilStepsWhileReady(t *testing.T) {
	c := New()
	done := make(chan struct{})
	go func() {
		for i := 0; i < 3; i++ {
			if err := c.Sleep(context.Background(), 10*time.Millisecond); err != nil {
				t.Error(err)
			}
		}
		close(done)
	}()
	finished := func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	moved := c.RunUntil(t, finished, c.Asleep(10*time.Millisecond), 10*time.Millisecond, time.Second)
	if moved != 30*time.Millisecond {
		t.Errorf("RunUntil moved the clock %v, want 30ms (three sleeps of 10ms)", moved)
	}
}
