package main

import (
	"encoding/json"
	"flag"
	"io"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/audit"
)

func auditUsage(w io.Writer) {
	fs, _, _ := newAuditFlags()
	printUsage(w, fs, "check -h, robotstxt lint", `usage: robotstxt audit [-json] [-max-size N] FILE [URL...]

Reports what robots.txt FILE (- for standard input) says to the well-known AI
and search crawlers: whether each may fetch each URL (default: the site root /),
its AI usage preferences there (Content-Usage, Content-Signal), and which names
Google's product-token rule reads differently from how they are written.
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
