package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/diff"
	"github.com/seed50c7eacc/robotstxt/fetch"
	"github.com/seed50c7eacc/robotstxt/internal/app/diffreport"
	"github.com/seed50c7eacc/robotstxt/internal/crawlers"
)

// Exit status of diff when some crawler class was not decided and no
// verdict change was found: no change is not proven.
const exitUndecided = 3

func diffUsage(w io.Writer) {
	fs, _ := newDiffFlags()
	printUsage(w, fs, "audit -h, robotstxt lint", `usage: robotstxt diff [flags] OLD NEW
       robotstxt diff -fetch URL [flags] NEW

Reports what changes when robots.txt NEW replaces OLD (files; - for standard
input), exactly, for every crawler: each class of URL paths whose verdict
changes, with a witness path that the two versions answer differently (checked
on both), the deciding rules before and after, and the class described by
patterns. The comparison covers every path, not a sample (package
github.com/seed50c7eacc/robotstxt/diff). Then: sitemaps and License lines added
or removed, crawl-delay and request-rate changes, agents newly named or no
longer named, lines newly ignored or no longer ignored, and, as exactly as the
verdicts, each class of paths both versions let a crawler fetch whose AI usage
preferences (Content-Usage, Content-Signal) change, with a witness path.
With -fetch, OLD is the live robots.txt of URL's site.

Crawlers are listed search crawlers first, then AI crawlers by purpose (AI
training, AI input, AI search, other AI), then other named agents, then every
crawler neither version names. -urls answers each URL of a list on both
versions and lists those whose verdict flips.

Exit status: 0 no verdict changes; 1 some verdict changes (with -fail-on-block:
some path becomes disallowed for a compared crawler); 2 usage, read or fetch
error; 3 no change found, but some crawler was not decided within the budget.
AI usage changes do not set the status.
`)
}

type diffFlags struct {
	asJSON      bool
	maxSize     int
	agents      string
	failOnBlock bool
	urls        string
	live        string
	timeout     time.Duration
	maxWork     int64
}

func newDiffFlags() (*flag.FlagSet, *diffFlags) {
	f := &diffFlags{}
	fs := newFlagSet("robotstxt diff")
	fs.BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	fs.IntVar(&f.maxSize, "max-size", robotstxt.DefaultMaxSize, maxSizeUsage)
	fs.StringVar(&f.agents, "agents", "", "compare only these `crawlers`, comma-separated product tokens (\"*\": every crawler neither version names)")
	fs.BoolVar(&f.failOnBlock, "fail-on-block", false, "for CI gates: exit 1 only when some path becomes disallowed for a compared crawler")
	fs.StringVar(&f.urls, "urls", "", "also answer each URL of `LIST` (one per line; - for standard input) on both versions and list those that flip")
	fs.StringVar(&f.live, "fetch", "", "compare NEW with the live robots.txt of `URL`'s site")
	fs.DurationVar(&f.timeout, "timeout", fetch.DefaultTimeout, "with -fetch, the time limit of the fetch")
	fs.Int64Var(&f.maxWork, "max-work", diff.DefaultMaxWork, "the comparison's work budget, in steps of pattern positions")
	return fs, f
}

// diffCmd runs "robotstxt diff".
func diffCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, f := newDiffFlags()
	positional, status, ok := parseOrExplain(fs, args, diffUsage, stdout, stderr)
	if !ok {
		return status
	}
	want := 2
	if f.live != "" {
		want = 1
	}
	if len(positional) != want {
		if f.live != "" {
			return usageError(stderr, diffUsage, "diff: with -fetch, need the NEW file alone")
		}
		return usageError(stderr, diffUsage, "diff: need OLD and NEW robots.txt files")
	}
	stdins := 0
	for _, p := range positional {
		if p == "-" {
			stdins++
		}
	}
	if f.urls == "-" {
		stdins++
	}
	if stdins > 1 {
		return usageError(stderr, diffUsage, "diff: standard input can be read once: give one - at most")
	}
	var names [2]string
	var data [2][]byte
	if f.live != "" {
		body, robotsURL, err := fetchLive(f.live, f.timeout)
		if err != nil {
			errorf(stderr, "%v", err)
			return exitError
		}
		names[0], data[0] = robotsURL, body
		names[1] = positional[0]
	} else {
		names[0], names[1] = positional[0], positional[1]
	}
	for i := range names {
		if data[i] != nil || (i == 0 && f.live != "") {
			continue
		}
		d, limit, err := readRobots(names[i], stdin, f.maxSize)
		if err != nil {
			errorf(stderr, "%v", err)
			return exitError
		}
		if len(d) > limit {
			errorf(stderr, "%s: larger than %d bytes: only the first %d were read, as Googlebot does", display(displayName(names[i])), limit, limit)
			d = d[:limit]
		}
		data[i] = d
		names[i] = displayName(names[i])
	}
	opts := diff.Options{MaxWork: f.maxWork}
	if f.agents != "" {
		for _, a := range strings.Split(f.agents, ",") {
			if a = strings.TrimSpace(a); a != "" {
				opts.Agents = append(opts.Agents, a)
			}
		}
	}
	report := diff.CompareWith(data[0], data[1], opts)
	crawlerList := diffreport.Order(report.Crawlers)
	var flips []diffreport.Flip
	if f.urls != "" {
		var err error
		flips, err = urlFlips(f.urls, stdin, data, crawlerList)
		if err != nil {
			errorf(stderr, "%v", err)
			return exitError
		}
	}
	site := ""
	if f.live != "" {
		site = strings.TrimSuffix(names[0], "/robots.txt")
	}
	var err error
	if f.asJSON {
		err = writeDiffJSON(stdout, names, report, crawlerList, flips)
	} else {
		err = writeDiffText(stdout, names, site, report, crawlerList, flips)
	}
	if err != nil {
		errorf(stderr, "%v", err)
		return exitError
	}
	return diffStatus(report, f.failOnBlock)
}

// diffStatus is the exit status of a comparison.
func diffStatus(r *diff.Report, failOnBlock bool) int {
	changed := false
	for _, c := range r.Crawlers {
		for _, ch := range c.Changes {
			if !failOnBlock || ch.Old.Allowed && !ch.New.Allowed {
				changed = true
			}
		}
	}
	switch {
	case changed:
		return exitDisallowed
	case len(r.Undecided()) > 0:
		return exitUndecided
	}
	return exitAllowed
}

// fetchLive fetches the robots.txt of url's site, as check -fetch does.
func fetchLive(url string, timeout time.Duration) (body []byte, robotsURL string, err error) {
	if err := checkURL(url, true); err != nil {
		return nil, "", err
	}
	robotsURL, err = robotstxt.RobotsURL(url)
	if err != nil {
		return nil, "", err
	}
	client := &fetch.Client{Timeout: timeout}
	entry, err := client.Entry(context.Background(), robotsURL)
	if err != nil {
		return nil, "", fmt.Errorf("%s: fetching its robots.txt: %w", display(url), err)
	}
	switch {
	case !entry.Copy:
		return nil, "", fmt.Errorf("%s: robots.txt unreachable (%s): Google disallows the whole site, and there is no file to compare", robotsURL, fetchReason(entry))
	case entry.Status >= 400:
		// No robots.txt: everything allowed, as an empty file.
		return []byte{}, robotsURL, nil
	}
	return entry.Body, robotsURL, nil
}

// crawlerTitle names a crawler class with its purpose.
func crawlerTitle(c diffreport.Listed) string {
	if c.Agent == diff.Others {
		return "every other crawler (the \"*\" groups)"
	}
	t := display(c.Agent)
	if c.Purpose != "" {
		t += " (" + string(c.Purpose) + ")"
	}
	return t
}

// urlFlips answers every URL of the list on both versions, for every
// crawler compared.
func urlFlips(list string, stdin io.Reader, data [2][]byte, cs []diffreport.Listed) ([]diffreport.Flip, error) {
	robots := [2]*robotstxt.Robots{robotstxt.Parse(data[0]), robotstxt.Parse(data[1])}
	agents := make([][2]*robotstxt.Agent, len(cs))
	for i, c := range cs {
		for f := range robots {
			if c.Agent == diff.Others {
				agents[i][f] = robots[f].Agent()
			} else {
				// As the diff reads an agent: by its product token.
				agents[i][f] = robots[f].Agent(crawlers.GoogleToken(c.Agent))
			}
		}
	}
	var flips []diffreport.Flip
	var bad error
	err := eachURL(nil, list, stdin, func(url string) {
		if err := checkURL(url, false); err != nil {
			if bad == nil {
				bad = err
			}
			return
		}
		for i, c := range cs {
			o, n := agents[i][0].Explain(url), agents[i][1].Explain(url)
			if o.Allowed != n.Allowed {
				flips = append(flips, diffreport.Flip{URL: url, Agent: c.Agent, Old: o, New: n})
			}
		}
	})
	if err == nil {
		err = bad
	}
	return flips, err
}

// ruleText describes a verdict's deciding rule: "line 4 disallow: /x",
// or "no rule".
func ruleText(v robotstxt.Verdict) string {
	if v.Rule.Line == 0 {
		return "no rule"
	}
	return fmt.Sprintf("line %d %q", v.Rule.Line, v.Rule.String())
}

// maxShownExceptions bounds the exceptions a text line lists.
const maxShownExceptions = 4

// describe describes a change's class of paths, for text.
func describe(ch diff.Change) string {
	short := ch
	more := 0
	if len(short.Except) > maxShownExceptions {
		more = len(short.Except) - maxShownExceptions
		short.Except = short.Except[:maxShownExceptions]
	}
	s := display(short.Describe())
	if more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

func durationText(d *time.Duration) string {
	if d == nil {
		return "none"
	}
	return d.String()
}

// writeDiffText prints the report for a reader.
func writeDiffText(w io.Writer, names [2]string, site string, r *diff.Report, cs []diffreport.Listed, flips []diffreport.Flip) error {
	ew := &errWriter{w: w}
	ew.printf("%s → %s\n", display(names[0]), display(names[1]))
	// Crawlers whose changes read alike are listed together.
	type block struct {
		titles []string
		body   string
	}
	var blocks []*block
	bySig := map[string]*block{}
	unchanged := 0
	for _, c := range cs {
		settings := c.CrawlDelay != nil || c.RequestRate != nil || len(c.Usage) > 0 || !c.UsageDecided
		if c.Decided && !c.Changed() && !settings {
			unchanged++
			continue
		}
		var b strings.Builder
		if !c.Decided {
			b.WriteString("  NOT DECIDED: the budget ran out; the changes below may not be all\n")
		}
		for _, ch := range c.Changes {
			fmt.Fprintf(&b, "  %-23s %s  now %s, was %s; %s\n", ch.Becomes(), display(site+ch.Path), ruleText(ch.New), ruleText(ch.Old), describe(ch))
		}
		if d := c.CrawlDelay; d != nil {
			fmt.Fprintf(&b, "  crawl-delay %s → %s\n", durationText(d.Old), durationText(d.New))
		}
		if d := c.RequestRate; d != nil {
			fmt.Fprintf(&b, "  request-rate interval %s → %s\n", durationText(d.Old), durationText(d.New))
		}
		if !c.UsageDecided {
			b.WriteString("  AI USAGE NOT DECIDED: the budget ran out; the usage changes below may not be all\n")
		}
		for _, u := range c.Usage {
			fmt.Fprintf(&b, "  AI usage %s  %s; %s (%s)\n", display(site+u.Path), u.Becomes(), u.Describe(), usageLines(u))
		}
		if bl, ok := bySig[b.String()]; ok {
			bl.titles = append(bl.titles, crawlerTitle(c))
			continue
		}
		bl := &block{titles: []string{crawlerTitle(c)}, body: b.String()}
		bySig[bl.body] = bl
		blocks = append(blocks, bl)
	}
	for _, bl := range blocks {
		ew.printf("\n%s\n%s", strings.Join(bl.titles, ", "), bl.body)
	}
	if unchanged > 0 {
		noun := "classes"
		if unchanged == 1 {
			noun = "class"
		}
		ew.printf("\n%d other crawler %s: no change\n", unchanged, noun)
	}
	list := func(title string, vs []string) {
		for _, v := range vs {
			ew.printf("%s %s\n", title, display(v))
		}
	}
	if len(r.SitemapsAdded)+len(r.SitemapsRemoved)+len(r.LicensesAdded)+len(r.LicensesRemoved)+len(r.AgentsNamed)+len(r.AgentsUnnamed)+len(r.Lines) > 0 {
		ew.printf("\n")
	}
	list("sitemap added:", r.SitemapsAdded)
	list("sitemap removed:", r.SitemapsRemoved)
	list("License added:", r.LicensesAdded)
	list("License removed:", r.LicensesRemoved)
	if len(r.AgentsNamed) > 0 {
		ew.printf("agents now named by a group: %s\n", display(strings.Join(r.AgentsNamed, ", ")))
	}
	if len(r.AgentsUnnamed) > 0 {
		ew.printf("agents no longer named by any group (they now obey the \"*\" groups): %s\n", display(strings.Join(r.AgentsUnnamed, ", ")))
	}
	for _, l := range r.Lines {
		if l.New > 0 {
			ew.printf("new finding, line %d: %s [%s]: %s\n", l.New, display(l.Text), l.Code, display(l.Issue))
		} else {
			ew.printf("finding gone, old line %d: %s [%s]\n", l.Old, display(l.Text), l.Code)
		}
	}
	if len(flips) > 0 {
		ew.printf("\nURLs whose verdict flips:\n")
		for _, f := range flips {
			ew.printf("  %-23s %s for %s: %s, was %s\n", diffreport.Word(f.Old.Allowed)+" → "+diffreport.Word(f.New.Allowed), display(f.URL), display(f.Agent), ruleText(f.New), ruleText(f.Old))
		}
	}
	return ew.err
}

// usageLines names the lines that decide a usage change's preferences in
// each version.
func usageLines(u diff.UsageChange) string {
	lines := func(x robotstxt.Usage) string {
		var ls []int
		for _, d := range []robotstxt.Decision{x.TrainAI, x.AIUse, x.Search, x.Signal.AITrain, x.Signal.AIInput, x.Signal.Search} {
			if d.Line > 0 && !slices.Contains(ls, d.Line) {
				ls = append(ls, d.Line)
			}
		}
		slices.Sort(ls)
		if len(ls) == 0 {
			return "none"
		}
		var parts []string
		for _, l := range ls {
			parts = append(parts, strconv.Itoa(l))
		}
		return strings.Join(parts, ", ")
	}
	return "lines now " + lines(u.New) + ", were " + lines(u.Old)
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// writeDiffJSON prints the report in the command's JSON shape, which
// the browser tester's compare view reads too (internal/app/diffreport).
func writeDiffJSON(w io.Writer, names [2]string, r *diff.Report, cs []diffreport.Listed, flips []diffreport.Flip) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(diffreport.JSON(names, r, cs, flips))
}
