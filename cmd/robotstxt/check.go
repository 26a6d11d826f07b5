package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
	"github.com/seed50c7eacc/robotstxt/internal/app/agenthint"
	"github.com/seed50c7eacc/robotstxt/internal/app/audit"
)

// checkFlags are the flags of check.
type checkFlags struct {
	agent   string
	maxSize int
	live    bool
	timeout time.Duration
	urls    string
	json    bool
}

func newCheckFlags() (*flag.FlagSet, *checkFlags) {
	fs := newFlagSet("robotstxt check")
	f := &checkFlags{}
	fs.StringVar(&f.agent, "agent", "Googlebot", "the crawler's product `token`, as in a user-agent line (letters, '-' and '_')")
	fs.IntVar(&f.maxSize, "max-size", robotstxt.DefaultMaxSize, maxSizeUsage)
	fs.BoolVar(&f.live, "fetch", false, "fetch each URL's robots.txt over HTTP instead of reading FILE")
	fs.DurationVar(&f.timeout, "timeout", fetch.DefaultTimeout, "with -fetch, the time limit of each fetch")
	fs.StringVar(&f.urls, "urls", "", "also check the URLs listed one per line in file `LIST` (- for standard input)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per URL: url, allowed, verdict, rule {line, kind, pattern} or null")
	return fs, f
}

func checkUsage(w io.Writer) {
	fs, _ := newCheckFlags()
	printUsage(w, fs, "lint", `usage: robotstxt [check] [flags] FILE [URL...]
       robotstxt [check] -fetch [flags] [URL...]

Prints whether the agent may fetch each URL under robots.txt FILE (- for standard
input), and which line decided. URLs come from the arguments and from -urls LIST.
Flags may follow FILE and the URLs; -- ends them.

Exit status: 0 every URL allowed, 1 some URL disallowed, 2 usage or read error,
3 with -fetch, some site's robots.txt could not be fetched (its URLs are disallowed).
`)
}

// check runs "robotstxt [check] ...".
func check(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, f := newCheckFlags()
	positional, status, ok := parseOrExplain(fs, args, checkUsage, stdout, stderr)
	if !ok {
		return status
	}
	if hint := agenthint.Warning(f.agent); hint != "" {
		errorf(stderr, "warning: -agent: %s", hint)
	}
	out := newPrinter(stdout, f.json)
	if f.live {
		if len(positional) == 0 && f.urls == "" {
			return usageError(stderr, checkUsage, "-fetch needs at least one URL, or -urls")
		}
		if len(positional) > 0 && checkURL(positional[0], true) != nil && isFile(positional[0]) {
			return usageError(stderr, checkUsage, "-fetch fetches each URL's robots.txt and takes no FILE, but %q is a file: drop -fetch to check URLs against it", positional[0])
		}
		return checkLive(positional, f, stdin, out, stderr)
	}
	if len(positional) == 0 || len(positional) < 2 && f.urls == "" {
		return usageError(stderr, checkUsage, "need a robots.txt FILE and at least one URL (or -urls LIST)")
	}
	name := positional[0]
	if name == "-" && f.urls == "-" {
		return usageError(stderr, checkUsage, "standard input cannot hold both the robots.txt FILE and the -urls LIST")
	}
	data, limit, err := readRobots(name, stdin, f.maxSize)
	if err != nil {
		errorf(stderr, "%v", err)
		return exitError
	}
	robots := robotstxt.ParseWith(data, robotstxt.Options{MaxSize: limit})
	if robots.Truncated() {
		errorf(stderr, "%s: larger than %d bytes: only the first %d were read, as Googlebot does", displayName(name), robots.Size(), robots.Size())
	}
	warning := notRobotsWarning(data, limit)
	if warning != "" {
		errorf(stderr, "warning: %s: %s", displayName(name), warning)
	}
	a := robots.Agent(f.agent)
	return checkEach(positional[1:], f.urls, stdin, stderr, func(url string) int {
		if err := checkURL(url, false); err != nil {
			errorf(stderr, "%v", err)
			out.failure(url, err)
			return exitError
		}
		v := a.Explain(url)
		out.verdict(url, v, "", warning)
		return verdictStatus(v)
	})
}

// checkLive checks URLs against their sites' live robots.txt files.
func checkLive(urls []string, f *checkFlags, stdin io.Reader, out *printer, stderr io.Writer) int {
	client := &fetch.Client{Timeout: f.timeout}
	ctx := context.Background()
	warned := map[string]string{} // robots.txt URLs warned about: their warning, if any
	return checkEach(urls, f.urls, stdin, stderr, func(url string) int {
		if err := checkURL(url, true); err != nil {
			errorf(stderr, "%v", err)
			out.failure(url, err)
			return exitError
		}
		robotsURL, err := robotstxt.RobotsURL(url)
		if err != nil { // checkURL accepts only what RobotsURL does
			errorf(stderr, "%q: %v", url, err)
			out.failure(url, err)
			return exitError
		}
		var robots *robotstxt.Robots
		entry, err := client.Entry(ctx, robotsURL)
		if err == nil {
			robots, err = client.Robots(ctx, url) // from the entry just cached
		}
		if err != nil {
			errorf(stderr, "%s: fetching its robots.txt: %v", display(url), err)
			out.failure(url, err)
			return exitError
		}
		warning, seen := warned[robotsURL]
		if !seen {
			if robots.Truncated() {
				errorf(stderr, "%s: larger than %d bytes: only the first %d were read, as Googlebot does", robotsURL, robots.Size(), robots.Size())
			}
			if robots.Outcome() == robotstxt.Rules {
				warning = notRobotsWarning(entry.Body, robotstxt.DefaultMaxSize)
			}
			if warning != "" {
				errorf(stderr, "warning: %s: %s", robotsURL, warning)
			}
			warned[robotsURL] = warning
		}
		v := robots.Explain(f.agent, url)
		status, why := verdictStatus(v), ""
		switch robots.Outcome() {
		case robotstxt.AllowAll:
			why = fmt.Sprintf("no robots.txt: %s; everything is allowed", fetchReason(entry))
		case robotstxt.DisallowAll:
			why = fmt.Sprintf("robots.txt unreachable: %s; Google disallows the whole site", fetchReason(entry))
			status = worse(status, exitUnreachable)
		}
		out.live(url, v, why, warning, robotsURL, robots)
		return status
	})
}

// checkEach calls check for each URL of args and of the URL list named
// list (see eachURL), and returns the worst exit status it returned, or
// exitError if the list could not be read.
func checkEach(args []string, list string, stdin io.Reader, stderr io.Writer, check func(url string) int) int {
	status := exitAllowed
	err := eachURL(args, list, stdin, func(url string) { status = worse(status, check(url)) })
	if err != nil {
		errorf(stderr, "%v", err)
		return exitError
	}
	return status
}

// verdictStatus is the exit status of one verdict.
func verdictStatus(v robotstxt.Verdict) int {
	if v.Allowed {
		return exitAllowed
	}
	return exitDisallowed
}

// fetchReason says why a fetch gave no rules: its error or its status.
func fetchReason(e *fetch.Entry) string {
	if e.LastError != "" {
		return e.LastError
	}
	return fmt.Sprintf("HTTP status %d", e.Status)
}

// worse returns the exit status that wins: an error, then an unreachable
// site, then a disallowed URL.
func worse(a, b int) int {
	rank := func(s int) int {
		switch s {
		case exitError:
			return 3
		case exitUnreachable:
			return 2
		case exitDisallowed:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// A printer writes verdicts as lines or as JSON objects.
type printer struct {
	w    io.Writer
	json *json.Encoder // nil for lines
}

func newPrinter(w io.Writer, asJSON bool) *printer {
	p := &printer{w: w}
	if asJSON {
		p.json = json.NewEncoder(w)
	}
	return p
}

// jsonVerdict is the JSON form of one answer.
type jsonVerdict struct {
	URL     string      `json:"url"`
	Allowed bool        `json:"allowed"`
	Verdict string      `json:"verdict"`          // "allowed" or "disallowed"
	Rule    *audit.Rule `json:"rule"`             // null when no rule applied
	Reason  string      `json:"reason,omitempty"` // with -fetch, why the site has no rules

	RobotsURL string `json:"robots_url,omitempty"` // with -fetch
	Outcome   string `json:"outcome,omitempty"`    // with -fetch: "rules", "allow all" or "disallow all"
	Truncated bool   `json:"truncated,omitempty"`  // with -fetch, the file was cut at the size limit
	Error     string `json:"error,omitempty"`      // the URL could not be checked
	Warning   string `json:"warning,omitempty"`    // the body is not a robots.txt (HTML, binary): why
}

func (p *printer) verdict(url string, v robotstxt.Verdict, why, warning string) {
	j := jsonOf(url, v, why)
	j.Warning = warning
	p.write(j)
}

func (p *printer) live(url string, v robotstxt.Verdict, why, warning, robotsURL string, robots *robotstxt.Robots) {
	j := jsonOf(url, v, why)
	j.Warning = warning
	j.RobotsURL = robotsURL
	j.Outcome = robots.Outcome().String()
	j.Truncated = robots.Truncated()
	p.write(j)
}

// failure records a URL that could not be checked: a JSON object, or
// nothing in lines (the error is on standard error).
func (p *printer) failure(url string, err error) {
	if p.json != nil {
		p.json.Encode(jsonVerdict{URL: url, Verdict: "error", Error: err.Error()})
	}
}

func jsonOf(url string, v robotstxt.Verdict, why string) jsonVerdict {
	j := jsonVerdict{URL: url, Allowed: v.Allowed, Verdict: "disallowed", Reason: why}
	if v.Allowed {
		j.Verdict = "allowed"
	}
	j.Rule = audit.RuleOf(v.Rule)
	return j
}

func (p *printer) write(j jsonVerdict) {
	if p.json != nil {
		p.json.Encode(j)
		return
	}
	word := "ALLOWED"
	if !j.Allowed {
		word = "DISALLOWED"
	}
	why := "no rule applied"
	if j.Rule != nil {
		why = fmt.Sprintf("line %d: %s: %s", j.Rule.Line, j.Rule.Kind, display(j.Rule.Pattern))
	}
	if j.Reason != "" {
		why = display(j.Reason)
	}
	fmt.Fprintf(p.w, "%-10s %s (%s)\n", word, display(j.URL), why)
}
