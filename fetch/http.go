package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/seed50c7eacc/robotstxt"
)

// fetch gets robotsURL and returns the new entry, given the previous one
// (or nil), and the fetch's error, and reports the fetch. Its requests
// carry the mark by which a Transport knows them (see markRobotsFetch).
func (c *Client) fetch(ctx context.Context, robotsURL string, prev *Entry) (*Entry, error) {
	now := c.now()
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, orDefault(c.Timeout, DefaultTimeout))
	defer cancel()
	mctx, endMark := markRobotsFetch(ctx)
	e, status, err := c.fetchEntry(mctx, robotsURL, prev, now)
	endMark()
	c.counters.fetches.Add(1)
	if err != nil {
		c.counters.fetchFailures.Add(1)
	}
	c.report(ctx, Event{RobotsURL: robotsURL, Fetched: true, Status: status, Outcome: c.outcomeName(e), Duration: time.Since(start), Err: err})
	return e, err
}

// unreachable returns why key's robots.txt is unreachable, from its entry.
func (c *Client) unreachable(key string, e *Entry) *UnreachableError {
	u := &UnreachableError{RobotsURL: key, Status: e.FailStatus, RetryAfter: e.RetryAfter, Since: e.FailingSince, Failures: e.Failures}
	u.Err = c.memo.cause(key, e)
	if u.Err == nil && e.LastError != "" {
		u.Err = errors.New(e.LastError)
	}
	return u
}

func (c *Client) fetchEntry(ctx context.Context, robotsURL string, prev *Entry, now time.Time) (*Entry, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, robotsURL, nil)
	if err != nil {
		return c.failed(prev, now, err, 0), 0, err
	}
	req.Header.Set("User-Agent", c.userAgent())
	revalidate := prev != nil && prev.Copy && (prev.ETag != "" || prev.LastModified != "")
	if revalidate {
		if prev.ETag != "" {
			req.Header.Set("If-None-Match", prev.ETag)
		}
		if prev.LastModified != "" {
			req.Header.Set("If-Modified-Since", prev.LastModified)
		}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return c.failed(prev, now, err, 0), 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified && revalidate {
		// RFC 9110 15.4.5: the copy is still valid; renew its lifetime.
		e := *prev
		e.Expires = now.Add(c.lifetime(resp.Header))
		e.FailingSince, e.Failures, e.LastError, e.FailStatus, e.RetryAfter = time.Time{}, 0, "", 0, 0
		if v := resp.Header.Get("ETag"); v != "" {
			e.ETag = v
		}
		if v := resp.Header.Get("Last-Modified"); v != "" {
			e.LastModified = v
		}
		return &e, resp.StatusCode, nil
	}
	var body []byte
	success := resp.StatusCode >= 200 && resp.StatusCode <= 299
	if success {
		var r io.Reader
		r, err = decodedBody(resp)
		if err == nil {
			// One byte past the limit is kept, so that every copy of a
			// file cut at the limit says so (Robots.Truncated).
			body, err = io.ReadAll(io.LimitReader(r, maxBodyKept))
			body = withoutSpare(body)
		}
		if err != nil {
			err = fmt.Errorf("reading the body: %w", err)
			return c.failed(prev, now, err, 0), resp.StatusCode, err
		}
	}
	// FromStatus classifies the other codes; a 2xx is never a failure, and
	// its empty parse would be wasted.
	if !success && robotstxt.StatusOutcome(resp.StatusCode) == robotstxt.DisallowAll {
		err := fmt.Errorf("HTTP status %d", resp.StatusCode)
		wait, _ := retryAfter(resp.Header, now)
		e := c.failed(prev, now, err, wait)
		e.FailStatus, e.RetryAfter = resp.StatusCode, wait
		return e, resp.StatusCode, err
	}
	e := &Entry{
		Copy:      true,
		Status:    resp.StatusCode,
		Body:      body,
		FetchedAt: now,
		Expires:   now.Add(c.lifetime(resp.Header)),
	}
	if success {
		e.ETag, e.LastModified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	}
	return e, resp.StatusCode, nil
}

// withoutSpare returns body, or a copy of it without the room that
// io.ReadAll's doubling left when that room is more than ParseOwned keeps
// (an eighth of the length): the entry and its parsed rules then share
// one array of the body's size (see parseEntry).
func withoutSpare(body []byte) []byte {
	if !hasSpareRoom(body) {
		return body
	}
	exact := make([]byte, len(body))
	copy(exact, body)
	return exact
}

// hasSpareRoom reports whether body has more than an eighth of its length
// to spare, which robotstxt.ParseOwned copies rather than keep the room.
func hasSpareRoom(body []byte) bool { return cap(body)-len(body) > len(body)/8 }

// maxBodyKept is how many bytes of a body an Entry keeps: the
// robotstxt.DefaultMaxSize that are parsed and one more, present only when
// the file goes on past them.
const maxBodyKept = robotstxt.DefaultMaxSize + 1

// failed returns the entry after a failed fetch: the previous copy, if any,
// is kept; the next try is spaced out by exponential backoff, or by the
// server's Retry-After (wait > 0), within RetryMin and RetryMax.
func (c *Client) failed(prev *Entry, now time.Time, err error, wait time.Duration) *Entry {
	var e Entry
	if prev != nil {
		e = *prev
	}
	if e.FailingSince.IsZero() {
		e.FailingSince, e.Failures = now, 0 // a new run of failures
	}
	e.Failures++
	e.LastError = err.Error()
	e.FailStatus, e.RetryAfter = 0, 0
	floor := orDefault(c.RetryMin, DefaultRetryMin)
	ceiling := orDefault(c.RetryMax, DefaultRetryMax)
	delay := doubling(floor, ceiling, e.Failures)
	if wait > 0 {
		delay = min(max(floor, wait), ceiling)
	}
	e.Expires = now.Add(delay)
	return &e
}

// doubling returns first doubled for each of the n-1 events after the
// first, at most ceiling: the exponential backoff of the Client's retries
// and of the Transport's pauses.
func doubling(first, ceiling time.Duration, n int) time.Duration {
	d := first
	for i := 1; i < n && d < ceiling; i++ {
		d *= 2
	}
	return min(d, ceiling)
}

// retryAfter returns the delay a Retry-After header asks for (RFC 9110
// section 10.2.3): a number of seconds, or an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, maxDeltaSeconds)) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// maxDeltaSeconds is what an overflowing delta-seconds value counts as
// (RFC 9111 section 1.2.2).
const maxDeltaSeconds = math.MaxInt32 + 1 // 2^31

// lifetime is how long a copy is kept: the max-age of its Cache-Control
// header within MinTTL and MaxTTL, or TTL (Google keeps a robots.txt up to
// 24 hours, longer when the response's caching headers say so).
func (c *Client) lifetime(h http.Header) time.Duration {
	ttl := orDefault(c.TTL, DefaultTTL)
	if age, ok := maxAge(h); ok {
		ttl = max(orDefault(c.MinTTL, DefaultMinTTL), min(age, orDefault(c.MaxTTL, DefaultMaxTTL)))
	}
	return ttl
}

// maxAge returns the max-age directive of the Cache-Control headers. A
// value above 2^31 seconds, or too large to parse, is 2^31 seconds (RFC
// 9111 section 1.2.2).
func maxAge(h http.Header) (time.Duration, bool) {
	for _, v := range h.Values("Cache-Control") {
		for _, directive := range strings.Split(v, ",") {
			name, value, ok := strings.Cut(strings.TrimSpace(directive), "=")
			if !ok || !strings.EqualFold(name, "max-age") {
				continue
			}
			value = strings.Trim(value, `"`)
			secs, err := strconv.ParseInt(value, 10, 64)
			if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(value, "-") {
				secs, err = maxDeltaSeconds, nil
			}
			if err != nil || secs < 0 {
				continue
			}
			return time.Duration(min(secs, maxDeltaSeconds)) * time.Second, true
		}
	}
	return 0, false
}
