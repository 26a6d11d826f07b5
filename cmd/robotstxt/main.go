// Command robotstxt answers whether a crawler may fetch URLs under a
// robots.txt file, as Google's parser would, and says which line decided.
//
// Usage:
//
//	robotstxt [check] [-agent NAME] [-max-size N] FILE URL...
//	robotstxt [check] -fetch [-agent NAME] [-timeout D] URL...
//
// FILE is a robots.txt file, or - for standard input. For each URL it prints
// one line: ALLOWED or DISALLOWED, the URL, and the deciding line of the file
// with its rule as written, or that no rule applied. URLs may hold raw
// UTF-8; they are matched as a crawler would send them, percent-encoded.
//
// With -fetch there is no FILE: the robots.txt file of each URL's site is
// fetched over HTTP and cached as Google's crawler does (package fetch), and
// a site whose file is missing or unreachable is reported on standard error.
//
// The exit status is 0 when every URL is allowed, 1 when any is disallowed,
// and 2 for a usage or read error.
//
//	robotstxt lint [-json] [-max-size N] FILE
//
// lint reports what Google will do with FILE, like a compiler: one
// FILE:LINE: severity: message [code] line per finding (robotstxt.Lint
// lists the codes). -json prints the whole report, with Google's per-line
// view, as JSON. The exit status is 1 when any finding is an error, 0
// otherwise, and 2 for a usage or read error.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// Exit statuses.
const (
	exitAllowed    = 0
	exitDisallowed = 1
	exitError      = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command, with its environment passed in for tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "lint" {
		return lint(args[1:], stdin, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "check" {
		args = args[1:]
	}
	return check(args, stdin, stdout, stderr)
}

func check(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robotstxt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agent := fs.String("agent", "Googlebot", "the crawler's product `token`, as in a user-agent line")
	maxSize := fs.Int("max-size", robotstxt.DefaultMaxSize, "read at most `N` bytes of the file (0: the default; negative: all of it)")
	live := fs.Bool("fetch", false, "fetch each URL's robots.txt over HTTP instead of reading FILE")
	timeout := fs.Duration("timeout", fetch.DefaultTimeout, "with -fetch, the time limit of each fetch")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: robotstxt [check] [-agent NAME] [-max-size N] FILE URL...\n")
		fmt.Fprintf(stderr, "       robotstxt [check] -fetch [-agent NAME] [-timeout D] URL...\n\n")
		fmt.Fprintf(stderr, "Prints whether the agent may fetch each URL under robots.txt FILE (- for standard input),\n")
		fmt.Fprintf(stderr, "and which line decided. Exit status: 0 all allowed, 1 any disallowed, 2 error.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitError // the flag package has printed the problem, or the help
	}
	if *live {
		return checkLive(fs.Args(), *agent, *timeout, stdout, stderr)
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(stderr, "robotstxt: need a robots.txt FILE and at least one URL")
		fs.Usage()
		return exitError
	}
	name := fs.Arg(0)
	data, err := readFile(name, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robotstxt: %v\n", err)
		return exitError
	}
	robots := robotstxt.ParseWith(data, robotstxt.Options{MaxSize: *maxSize})
	if robots.Truncated() {
		fmt.Fprintf(stderr, "robotstxt: %s: only the first %d of %d bytes were read\n", name, robots.Size(), len(data))
	}
	status := exitAllowed
	a := robots.Agent(*agent)
	for _, url := range fs.Args()[1:] {
		if !report(stdout, url, a.Explain(url)) {
			status = exitDisallowed
		}
	}
	return status
}

// report prints the verdict for one URL and returns whether it is allowed.
func report(stdout io.Writer, url string, v robotstxt.Verdict) bool {
	word := "ALLOWED"
	if !v.Allowed {
		word = "DISALLOWED"
	}
	why := "no rule applied"
	if v.Rule.Line != 0 {
		why = fmt.Sprintf("line %d: %s", v.Rule.Line, v.Rule)
	}
	fmt.Fprintf(stdout, "%-10s %s (%s)\n", word, url, why)
	return v.Allowed
}

// checkLive checks URLs against their sites' live robots.txt files.
func checkLive(urls []string, agent string, timeout time.Duration, stdout, stderr io.Writer) int {
	if len(urls) == 0 {
		fmt.Fprintln(stderr, "robotstxt: -fetch needs at least one URL")
		return exitError
	}
	client := &fetch.Client{Timeout: timeout}
	ctx := context.Background()
	status := exitAllowed
	for _, url := range urls {
		robotsURL, err := robotstxt.RobotsURL(url)
		if err != nil {
			fmt.Fprintf(stderr, "robotstxt: %v\n", err)
			status = exitError
			continue
		}
		entry, err := client.Entry(ctx, robotsURL)
		if err != nil {
			fmt.Fprintf(stderr, "robotstxt: %s: %v\n", robotsURL, err)
			status = exitError
			continue
		}
		robots, err := client.Robots(ctx, url)
		if err != nil {
			fmt.Fprintf(stderr, "robotstxt: %s: %v\n", robotsURL, err)
			status = exitError
			continue
		}
		if o := robots.Outcome(); o != robotstxt.Rules {
			why := fmt.Sprintf("HTTP status %d", entry.Status)
			if entry.LastError != "" {
				why = entry.LastError
			}
			fmt.Fprintf(stderr, "robotstxt: %s: %s (%s)\n", robotsURL, o, why)
		}
		if !report(stdout, url, robots.Explain(agent, url)) && status == exitAllowed {
			status = exitDisallowed
		}
	}
	return status
}

// readFile reads the named file, or standard input for "-".
func readFile(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return data, nil
	}
	return os.ReadFile(name)
}
