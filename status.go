package robotstxt

import (
	"errors"
	"fmt"
	"net/http"
)

// An Outcome is what a fetch of a robots.txt file means for crawling
// (RFC 9309 section 2.3.1, "Access Results"; Google's "How Google
// interprets the robots.txt specification", section "Handling of errors
// and HTTP status codes").
type Outcome int

const (
	// Rules: the file's rules apply. This is the outcome of Parse and of a
	// 2xx response; an empty file allows everything.
	Rules Outcome = iota
	// AllowAll: there is no usable robots.txt file (a 4xx other than 429,
	// or redirects that did not end), so everything may be crawled.
	AllowAll
	// DisallowAll: the file could not be had (a 5xx, 429, or a network
	// failure), so nothing may be crawled for now.
	DisallowAll
)

// String returns "rules", "allow all" or "disallow all" (Outcome(n) for
// any other value).
func (o Outcome) String() string {
	switch o {
	case Rules:
		return "rules"
	case AllowAll:
		return "allow all"
	case DisallowAll:
		return "disallow all"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Outcome returns what the Robots stands for: the rules of a file, or a
// blanket allow or disallow from an HTTP result. A DisallowAll Robots
// answers false to every question, with no rule; an AllowAll Robots
// answers true, as an empty file does.
func (r *Robots) Outcome() Outcome {
	if r == nil {
		return Rules
	}
	return Outcome(r.outcome)
}

// FromStatus returns the Robots for an HTTP status code and body, as Google
// treats them (RFC 9309 section 2.3.1 and Google's robots.txt
// documentation, https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt):
// a 2xx parses the body; a 3xx (that is, redirects
// that were not followed to the end) and a 4xx other than 429 allow
// everything; 429, a 5xx and any other code disallow everything.
func FromStatus(code int, body []byte) *Robots {
	if outcome := StatusOutcome(code); outcome != Rules {
		return blanket(outcome)
	}
	return Parse(body)
}

// StatusOutcome returns what an HTTP status code means for crawling, as
// FromStatus reads it, for callers that fetch robots.txt files themselves:
// Rules for a 2xx, AllowAll for a 3xx (redirects that were not followed to
// the end) and a 4xx other than 429, DisallowAll for 429, a 5xx and any
// other code.
func StatusOutcome(code int) Outcome {
	switch {
	case code >= 200 && code <= 299:
		return Rules
	case code >= 300 && code <= 499 && code != http.StatusTooManyRequests:
		return AllowAll
	default:
		return DisallowAll
	}
}

// FromResponse returns the Robots for an HTTP response to a robots.txt
// request, as FromStatus does for its status code. For a 2xx it reads at
// most DefaultMaxSize bytes of the body, and one more to learn whether the
// file goes on (then Truncated reports true, as it does for Parse of the
// whole body). It always closes the body. A body read to the length its
// response announced is kept as read, with no copy (ParseOwned).
//
// When the body cannot be read to the end (or to DefaultMaxSize), the
// result disallows everything, as a network failure does (RFC 9309
// section 2.3.1.4, "Unreachable" status), and
// the error says why.
func FromResponse(resp *http.Response) (*Robots, error) {
	if resp == nil {
		return blanket(DisallowAll), errors.New("robotstxt: nil HTTP response")
	}
	if resp.Body != nil {
		defer resp.Body.Close()
	}
	if outcome := StatusOutcome(resp.StatusCode); outcome != Rules {
		return blanket(outcome), nil
	}
	if resp.Body == nil {
		return Parse(nil), nil
	}
	// One byte past the limit tells a file cut at the limit from one that
	// ends there; Parse ignores it and reports the file truncated.
	body, err := readBody(resp.Body, resp.ContentLength, DefaultMaxSize+1)
	if err != nil {
		where := "robots.txt"
		if resp.Request != nil && resp.Request.URL != nil {
			where = resp.Request.URL.Redacted()
		}
		return blanket(DisallowAll), fmt.Errorf("robotstxt: reading %s: %w after %d bytes", where, err, len(body))
	}
	// Nothing else holds body: a body read to its Content-Length is kept
	// as it is, where a copy would write it again.
	return ParseOwned(body), nil
}

// blanket returns the Robots of a blanket answer: AllowAll answers as an
// empty file does, DisallowAll false to every question.
func blanket(outcome Outcome) *Robots {
	r := &Robots{outcome: uint8(outcome)}
	if outcome == DisallowAll {
		r.file.DisallowAll()
	}
	return r
}
