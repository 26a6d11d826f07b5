package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/seed50c7eacc/robotstxt"
	robotslint "github.com/seed50c7eacc/robotstxt/lint"
)

// Exit statuses of lint.
const (
	exitClean   = 0 // no error-severity diagnostic
	exitLintErr = 1 // some diagnostic is an error
)

// lint runs "robotstxt lint [-json] [-max-size N] FILE".
func lint(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robotstxt lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report (diagnostics, per-line view, counts) as JSON")
	maxSize := fs.Int("max-size", robotstxt.DefaultMaxSize, "the size limit Googlebot applies, in `bytes` (0: the default; negative: none)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: robotstxt lint [-json] [-max-size N] FILE\n\n")
		fmt.Fprintf(stderr, "Reports what Google will do with robots.txt FILE (- for standard input), one\n")
		fmt.Fprintf(stderr, "FILE:LINE: severity: message [code] per finding.\n")
		fmt.Fprintf(stderr, "Exit status: 0 no errors, 1 some error found, 2 usage or read error.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitError
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "robotstxt lint: need exactly one robots.txt FILE")
		fs.Usage()
		return exitError
	}
	name := fs.Arg(0)
	data, err := readFile(name, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robotstxt: %v\n", err)
		return exitError
	}
	if name == "-" {
		name = "<stdin>"
	}
	report := robotslint.LintWith(data, robotslint.Options{MaxSize: *maxSize})
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := struct {
			File string `json:"file"`
			*robotslint.Report
		}{name, report}
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "robotstxt: %v\n", err)
			return exitError
		}
	} else {
		for _, d := range report.Diagnostics {
			fmt.Fprintf(stdout, "%s:%d: %s: %s [%s]\n", name, d.Line, d.Severity, d.Message, d.Code)
		}
	}
	if report.HasErrors() {
		return exitLintErr
	}
	return exitClean
}
