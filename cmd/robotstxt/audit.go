package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/app/audit"
	"github.com/seed50c7eacc/robotstxt/internal/crawlers"
)

func auditUsage(w io.Writer) {
	fs, _, _, _ := newAuditFlags()
	printUsage(w, fs, "check -h, robotstxt lint", `usage: robotstxt audit [-json] [-max-size N] [-crawler TEXT] [-purpose LIST] [-blocked] FILE [URL...]

Reports what robots.txt FILE (- for standard input) says to the well-known AI
and search crawlers: whether each may fetch each URL (default: the site root /)
and the deciding rule as the file writes it, its AI usage preferences there
(Content-Usage train-ai, ai-use and search, as in draft-ietf-aipref-vocab-08;
Content-Signal ai-train, ai-input and search), and which names Google's
product-token rule reads differently from how they are written. Crawlers named
by a group of their own come first, then the others by purpose (AI training,
AI input, AI search, other AI, search) and name; -json keeps the list's order.
-crawler, -purpose and -blocked keep some of the crawlers, as the web page's
filters do; the counts then are of the crawlers kept.
Exit status: 0 reported, 2 usage or read error.
`)
}

// auditFilter keeps the crawlers a report shows, as the web page's
// filters do: a name, purposes, only those blocked somewhere.
type auditFilter struct {
	crawler  string
	purposes string
	blocked  bool
}

func newAuditFlags() (fs *flag.FlagSet, asJSON *bool, maxSize *int, f *auditFilter) {
	fs, asJSON, maxSize = newReportFlags("robotstxt audit", "print the report as JSON")
	f = &auditFilter{}
	fs.StringVar(&f.crawler, "crawler", "", "show only the crawlers whose name or product token contains `TEXT` (any case)")
	fs.StringVar(&f.purposes, "purpose", "", "show only the crawlers of the purposes in `LIST`, comma-separated: "+strings.Join(purposeNames(), ", "))
	fs.BoolVar(&f.blocked, "blocked", false, "show only the crawlers that may not fetch some URL")
	return fs, asJSON, maxSize, f
}

// purposeNames are the purposes -purpose takes, in the report's order.
func purposeNames() []string {
	return []string{string(crawlers.AITraining), string(crawlers.AIInput), string(crawlers.AISearch), string(crawlers.AIOther), string(crawlers.Search)}
}

// parsePurposes reads -purpose's list.
func (f *auditFilter) parsePurposes() (map[crawlers.Purpose]bool, error) {
	if f.purposes == "" {
		return nil, nil
	}
	want := map[crawlers.Purpose]bool{}
	for _, p := range strings.Split(f.purposes, ",") {
		p = strings.TrimSpace(p)
		if !slices.Contains(purposeNames(), p) {
			return nil, fmt.Errorf("-purpose: %q is not a purpose (%s)", p, strings.Join(purposeNames(), ", "))
		}
		want[crawlers.Purpose(p)] = true
	}
	return want, nil
}

// apply keeps the crawlers of rep that pass the filter.
func (f *auditFilter) apply(rep *audit.Report, purposes map[crawlers.Purpose]bool) {
	text := strings.ToLower(f.crawler)
	kept := rep.Crawlers[:0]
	for _, c := range rep.Crawlers {
		if purposes != nil && !purposes[c.Purpose] {
			continue
		}
		if text != "" && !strings.Contains(strings.ToLower(c.Name), text) && !strings.Contains(strings.ToLower(c.Token), text) {
			continue
		}
		if f.blocked && !slices.ContainsFunc(c.Results, func(r audit.Result) bool { return !r.Allowed }) {
			continue
		}
		kept = append(kept, c)
	}
	rep.Crawlers = kept
}

// auditCmd runs "robotstxt audit [-json] [-max-size N] [-crawler TEXT] [-purpose LIST] [-blocked] FILE [URL...]".
func auditCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, asJSON, maxSize, filter := newAuditFlags()
	positional, status, ok := parseOrExplain(fs, args, auditUsage, stdout, stderr)
	if !ok {
		return status
	}
	purposes, err := filter.parsePurposes()
	if err != nil {
		return usageError(stderr, auditUsage, "audit: %v", err)
	}
	if len(positional) < 1 {
		return usageError(stderr, auditUsage, "audit: need a robots.txt FILE")
	}
	name, urls := positional[0], positional[1:]
	bad := false
	for _, u := range urls {
		if err := checkURL(u, false); err != nil {
			errorf(stderr, "%v", err)
			bad = true
		}
	}
	if bad {
		return exitError
	}
	data, limit, err := readRobots(name, stdin, *maxSize)
	if err != nil {
		errorf(stderr, "%v", err)
		return exitError
	}
	rep, err := audit.Run(data, robotstxt.Options{MaxSize: limit}, urls)
	if err != nil {
		errorf(stderr, "%v", err)
		return exitError
	}
	filter.apply(rep, purposes)
	name = displayName(name)
	if rep.Truncated {
		errorf(stderr, "%s: larger than %d bytes: only the first %d were read, as Googlebot does", display(name), rep.Limit, rep.Limit)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(struct {
			File string `json:"file"`
			*audit.Report
		}{name, rep})
	} else {
		err = rep.WriteText(stdout, display(name), display)
	}
	if err != nil {
		errorf(stderr, "%v", err)
		return exitError
	}
	return exitAllowed
}
