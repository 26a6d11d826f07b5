package fetch

import (
	"encoding/json"
	"time"
)

// An Entry is what the Client remembers about one robots.txt URL: the last
// copy it fetched, and how fetching it has gone since. It is plain data:
// its wire form is the JSON of its fields under the names in their tags
// (see MarshalBinary), which any shared store can keep and give back to
// any crawler. The parsed rules are never part of it; the Client keeps
// them in its own memo.
type Entry struct {
	// Copy is false until a fetch has given a usable answer (2xx, 3xx or
	// 4xx); then Status, Body and FetchedAt describe that answer.
	Copy   bool `json:"copy"`
	Status int  `json:"status,omitempty"` // HTTP status code of the copy
	// Body is the body of the copy, for a 2xx: its first
	// robotstxt.DefaultMaxSize bytes, and one more when the file went on,
	// which parsing ignores but which makes the parsed copy report
	// Truncated. The Client parses it in place (robotstxt.ParseOwned):
	// an entry's Body is not written once the entry is made.
	Body      []byte    `json:"body,omitempty"`
	FetchedAt time.Time `json:"fetched_at,omitzero"` // when the copy was fetched (a 304 keeps it)

	// ETag and LastModified are the validators of the copy, sent back in
	// If-None-Match and If-Modified-Since when it is fetched again.
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`

	// Expires is when the URL should be fetched again: the end of the
	// copy's lifetime, or the next retry after a failure.
	Expires time.Time `json:"expires"`

	// FailingSince is when the current run of failed fetches (5xx, 429,
	// network errors) began; zero when the last fetch gave an answer.
	FailingSince time.Time `json:"failing_since,omitzero"`
	Failures     int       `json:"failures,omitempty"`   // failed fetches in the current run
	LastError    string    `json:"last_error,omitempty"` // why the last fetch failed, for logs
	// FailStatus is the HTTP status of the last fetch when it failed with
	// one (a 5xx or 429), and RetryAfter what that response's Retry-After
	// header asked for; both are zero after a network error, and after a
	// fetch that gave an answer.
	FailStatus int           `json:"fail_status,omitempty"`
	RetryAfter time.Duration `json:"retry_after,omitempty"`
}

// MarshalBinary returns the wire form of the entry (JSON).
func (e *Entry) MarshalBinary() ([]byte, error) {
	type plain Entry // without the methods, so no recursion
	return json.Marshal((*plain)(e))
}

// UnmarshalBinary reads the wire form of an entry.
func (e *Entry) UnmarshalBinary(data []byte) error {
	type plain Entry
	return json.Unmarshal(data, (*plain)(e))
}

// size is what an entry costs a cache that keeps it in memory, roughly:
// the body, the strings and the fixed fields.
func (e *Entry) size() int {
	return len(e.Body) + len(e.ETag) + len(e.LastModified) + len(e.LastError) + 192
}

// identity names the copy an entry holds, so that a parsed form can be
// reused for as long as the copy is the same, whichever store it came
// through.
type identity struct {
	copy       bool
	status     int
	fetchedAt  int64
	etag       string
	bodyLength int
}

func (e *Entry) identity() identity {
	return identity{e.Copy, e.Status, e.FetchedAt.UnixNano(), e.ETag, len(e.Body)}
}
