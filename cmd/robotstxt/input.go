package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed50c7eacc/robotstxt"
)

// readRobots reads the robots.txt file name, or standard input for "-", up
// to maxSize bytes and one more, to know that the file goes on: the rest is
// never read (Googlebot reads only the first 500 KiB). maxSize 0 means
// robotstxt.DefaultMaxSize; a negative maxSize reads everything, up to
// robotstxt.MaxParseSize. The returned limit is what to pass as
// Options.MaxSize.
func readRobots(name string, stdin io.Reader, maxSize int) (data []byte, limit int, err error) {
	limit = robotstxt.Options{MaxSize: maxSize}.Limit()
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, limit, err
		}
		defer f.Close()
		r = f
	}
	r = io.LimitReader(r, int64(limit)+1)
	data, err = io.ReadAll(r)
	if err != nil {
		if name == "-" {
			return nil, limit, fmt.Errorf("reading standard input: %w", err)
		}
		return nil, limit, err
	}
	return data, limit, nil
}

// displayName is how a file is named in messages.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// maxURLLine is the longest line a URL list may hold.
const maxURLLine = 1 << 20

// eachURL calls f for each URL in args, then for each line of the URL list
// named list ("" for none, "-" for standard input), blank lines skipped and
// surrounding white space removed. The list is read as it is used, so a
// long list takes no memory.
func eachURL(args []string, list string, stdin io.Reader, f func(url string)) error {
	for _, u := range args {
		f(u)
	}
	if list == "" {
		return nil
	}
	r := stdin
	if list != "-" {
		file, err := os.Open(list)
		if err != nil {
			return err
		}
		defer file.Close()
		r = file
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxURLLine)
	for sc.Scan() {
		if u := strings.TrimSpace(sc.Text()); u != "" {
			f(u)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading URLs from %s: %w", displayName(list), err)
	}
	return nil
}

// display returns s as it is when it is printable UTF-8, and quoted with
// Go's escapes otherwise, so that a control byte from a file or a URL list
// (ESC, DEL, a C1 CSI U+009B, invalid UTF-8) never reaches the terminal.
func display(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// checkURL returns nil when s is something the robots.txt rules can be
// checked against: a path starting with "/", or an absolute http or https
// URL with a valid host and port (RFC 9309 section 2.3: a robots.txt file
// governs the URLs of its scheme, host and port). With absolute true
// (-fetch), a path is refused too: it names no site to fetch from. The
// error names s as typed and says what is wrong.
func checkURL(s string, absolute bool) error {
	if strings.HasPrefix(s, "/") {
		if absolute {
			return fmt.Errorf("%q is a path, not an absolute http(s) URL: it names no site whose robots.txt could be fetched", s)
		}
		return nil
	}
	// Only the scheme, host and port are checked: the path, query and
	// fragment are matched byte for byte, whatever they hold ("/%zz"
	// included), as they are in a path given alone.
	origin := s
	if i := strings.Index(s, "://"); i >= 0 {
		if j := strings.IndexAny(s[i+3:], "/?#"); j >= 0 {
			origin = s[:i+3+j]
		}
	}
	_, err := robotstxt.RobotsURL(origin)
	var parseErr *url.Error
	var urlErr *robotstxt.URLError
	switch {
	case err == nil:
		if scheme, _, _ := strings.Cut(s, ":"); !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
			return fmt.Errorf("%q is not an http or https URL", s)
		}
		return nil
	case errors.Is(err, robotstxt.ErrNotAbsolute):
		if absolute {
			return fmt.Errorf("%q is not an absolute http(s) URL", s)
		}
		return fmt.Errorf("%q is neither an absolute http(s) URL nor a path starting with \"/\"", s)
	case errors.Is(err, robotstxt.ErrUnsupportedScheme):
		return fmt.Errorf("%q is not an http or https URL", s)
	case errors.As(err, &parseErr):
		return fmt.Errorf("%q is not a valid URL: %v", s, parseErr.Err)
	case errors.As(err, &urlErr):
		return fmt.Errorf("%q is not a valid URL: %v", s, urlErr.Err)
	}
	return fmt.Errorf("%q is not a valid URL: %v", s, err)
}

// isFile reports whether name is what a FILE argument names: standard
// input, or a file that exists.
func isFile(name string) bool {
	if name == "-" {
		return true
	}
	_, err := os.Stat(name)
	return err == nil
}
