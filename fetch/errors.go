package fetch

import (
	"fmt"
	"strings"
	"time"

	"github.com/seed50c7eacc/robotstxt"
)

// A DisallowedError is the error of a request that robots.txt does not
// allow, and that was therefore not sent.
type DisallowedError struct {
	URL   string // the request's URL
	Agent string // the agent whose rules applied (see robotstxt.Agent.Name)
	// Reading is the URL as a server may read the request's (see
	// Transport) that robots.txt disallows, when it is not the URL as
	// sent: http://site/private/x for http://site/public/%2E%2E/private/x.
	Reading string
	// Verdict is the rule that decided; its Rule.Line is 0 when no rule
	// did (Outcome is then DisallowAll).
	Verdict robotstxt.Verdict
	// Outcome is DisallowAll when the site's robots.txt is unreachable,
	// and Rules when a rule of the file disallows the URL.
	Outcome robotstxt.Outcome
	// Cause is why the robots.txt is unreachable when Outcome is
	// DisallowAll (an *UnreachableError), and nil otherwise.
	Cause error
}

// Error says which URL was not requested and why: the rule that
// disallows it, or why its robots.txt is unreachable.
func (e *DisallowedError) Error() string {
	if e.Outcome == robotstxt.DisallowAll {
		why := "its robots.txt is unreachable"
		if e.Cause != nil {
			why = e.Cause.Error()
		}
		return fmt.Sprintf("fetch: %s not requested (outcome %q): %s, so nothing may be crawled for now", e.URL, e.Outcome, why)
	}
	if e.Reading != "" {
		return fmt.Sprintf("fetch: robots.txt disallows %s for %s as a server may read it, %s: %v", e.URL, e.Agent, e.Reading, e.Verdict)
	}
	return fmt.Sprintf("fetch: robots.txt disallows %s for %s: %v", e.URL, e.Agent, e.Verdict)
}

// Unwrap returns the Cause, for errors.Is and errors.As: a refusal
// because of a refused connection matches *net.OpError.
func (e *DisallowedError) Unwrap() error { return e.Cause }

// An UnreachableError says why a robots.txt file could not be had: the
// HTTP status of the failed fetch (a 5xx or 429) and its Retry-After, or
// the network error. While it lasts, and the Client has no earlier copy,
// nothing of the site may be crawled (RFC 9309 section 2.3.1.4).
type UnreachableError struct {
	RobotsURL string
	// Status is the HTTP status of the last failed fetch; 0 when it got no
	// response (a network error or a timeout).
	Status int
	// RetryAfter is what the response's Retry-After header asked for; 0
	// when it had none.
	RetryAfter time.Duration
	// Since is when the failures began and Failures how many fetches
	// have failed since.
	Since    time.Time
	Failures int
	// Err is the failure: the network error itself when this process
	// fetched (errors.Is(err, context.DeadlineExceeded), errors.As with
	// *net.OpError), or an error holding its text when the entry came from
	// a shared store.
	Err error
}

// Error says which robots.txt is unreachable and why.
func (e *UnreachableError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "robots.txt %s unreachable: ", e.RobotsURL)
	switch {
	case e.Status != 0:
		fmt.Fprintf(&b, "HTTP status %d", e.Status)
		if e.RetryAfter > 0 {
			fmt.Fprintf(&b, ", Retry-After %v", e.RetryAfter)
		}
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString("unknown failure")
	}
	if e.Failures > 1 {
		fmt.Fprintf(&b, " (%d failures since %s)", e.Failures, e.Since.UTC().Format(time.RFC3339))
	}
	return b.String()
}

// Unwrap returns the failure, for errors.Is and errors.As.
func (e *UnreachableError) Unwrap() error { return e.Err }
