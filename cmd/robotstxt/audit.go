package main

import (
	"encoding/json"
	"flag"
	"io"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/app/audit"
)

func auditUsage(w io.Writer) {
	fs, _, _ := newAuditFlags()
	printUsage(w, fs, "check -h, robotstxt lint", `usage: robotstxt audit [-json] [-max-size N] FILE [URL...]

Reports what robots.txt FILE (- for standard input) says to the well-known AI
and search crawlers: whether each may fetch each URL (default: the site root /)
and the deciding rule as the file writes it, its AI usage preferences there
(Content-Usage train-ai, ai-use and search, as in draft-ietf-aipref-vocab-08;
Content-Signal ai-train, ai-input and search), and which names Google's
product-token rule reads differently from how they are written. Crawlers named
by a group of their own come first, then the others by purpose (AI training,
AI input, AI search, other AI, search) and name; -json keeps the list's order.
Exit status: 0 reported, 2 usage or read error.
`)
}

func newAuditFlags() (fs *flag.FlagSet, asJSON *bool, maxSize *int) {
	return newReportFlags("robotstxt audit", "print the report as JSON")
}

// auditCmd runs "robotstxt audit [-json] [-max-size N] FILE [URL...]".
func auditCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, asJSON, maxSize := newAuditFlags()
	positional, status, ok := parseOrExplain(fs, args, auditUsage, stdout, stderr)
	if !ok {
		return status
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
