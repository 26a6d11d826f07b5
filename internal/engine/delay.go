package engine

import (
	"strconv"
	"strings"
	"time"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// MaxDelay caps the delays that crawl-delay and request-rate lines set, so
// that a hostile or mistaken value can neither overflow a time.Duration nor
// stop a crawler for years: robotstxt.MaxCrawlDelay, one request a day.
const MaxDelay = 24 * time.Hour

// crawlDelay returns the first valid crawl-delay among fields. A valid
// value is a non-negative decimal number of seconds ("10", "0.5").
func crawlDelay(fields []Field) (time.Duration, bool) {
	for _, f := range fields {
		if !parse.IsKey(f.Key, "crawl-delay") {
			continue
		}
		if !parse.IsDecimal(f.Value) {
			continue
		}
		secs, err := strconv.ParseFloat(f.Value, 64)
		if err != nil {
			continue
		}
		if secs >= MaxDelay.Seconds() {
			return MaxDelay, true
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	return 0, false
}

// requestRate returns the interval of the first valid request-rate among
// fields: "n/T" with T in seconds or suffixed by s, m, h or d, optionally
// followed by white space and a time window, which is ignored.
func requestRate(fields []Field) (time.Duration, bool) {
	for _, f := range fields {
		if !parse.IsKey(f.Key, "request-rate") {
			continue
		}
		if d, ok := parseRequestRate(f.Value); ok {
			return d, true
		}
	}
	return 0, false
}

// parseRequestRate reads one request-rate value; see requestRate.
func parseRequestRate(v string) (time.Duration, bool) {
	if i := strings.IndexAny(v, " \t"); i >= 0 {
		v = v[:i] // the time window
	}
	count, period, ok := strings.Cut(v, "/")
	if !ok {
		return 0, false
	}
	unit := time.Second
	if n := len(period); n > 0 {
		switch period[n-1] | 0x20 {
		case 's':
			period = period[:n-1]
		case 'm':
			unit, period = time.Minute, period[:n-1]
		case 'h':
			unit, period = time.Hour, period[:n-1]
		case 'd':
			unit, period = 24*time.Hour, period[:n-1]
		}
	}
	if !parse.IsDigits(count) || !parse.IsDigits(period) {
		return 0, false
	}
	// Both are digits, so the only error is a range error, and the value
	// then saturates; the interval is capped below.
	n, _ := strconv.ParseUint(count, 10, 32)
	t, _ := strconv.ParseUint(period, 10, 32)
	if n == 0 || t == 0 {
		return 0, false
	}
	interval := float64(t) * float64(unit) / float64(n)
	if interval >= float64(MaxDelay) {
		return MaxDelay, true
	}
	return time.Duration(interval), true
}
