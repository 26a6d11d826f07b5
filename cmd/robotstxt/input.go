package main

import (
	"bufio"
	"fmt"
	"io"
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
