package robotstxt

import (
	"errors"
	"strconv"
)

// A URLError records a URL that a function of this package could not use,
// and why.
type URLError struct {
	Op  string // the function: "RobotsURL"
	URL string // the URL as given
	Err error  // why: one of the Err values, or a *url.Error from url.Parse
}

// Error returns "robotstxt: Op "URL": Err".
func (e *URLError) Error() string {
	return "robotstxt: " + e.Op + " " + strconv.Quote(e.URL) + ": " + e.Err.Error()
}

// Unwrap returns e.Err, so that errors.Is and errors.As see the cause.
func (e *URLError) Unwrap() error { return e.Err }

// Why a URL has no robots.txt file; a URLError wraps them.
var (
	// ErrNotAbsolute: the URL has no scheme, so no host to ask.
	ErrNotAbsolute = errors.New("not an absolute URL")
	// ErrUnsupportedScheme: only http, https and ftp URLs have robots.txt
	// files (RFC 9309 section 2.3).
	ErrUnsupportedScheme = errors.New("unsupported scheme")
	// ErrNoHost: the URL names no host ("http:///x").
	ErrNoHost = errors.New("no host")
	// ErrInvalidHost: the host is not a valid name or address, or has no
	// IDNA (punycode) form; the IDNA error, if any, is wrapped too.
	ErrInvalidHost = errors.New("invalid host")
	// ErrInvalidPort: the port is not a number from 1 to 65535.
	ErrInvalidPort = errors.New("invalid port")
)
