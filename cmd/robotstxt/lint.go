package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	robotslint "github.com/seed50c7eacc/robotstxt/lint"
)

// Exit statuses of lint.
const (
	exitClean   = 0 // no error-severity diagnostic
	exitLintErr = 1 // some diagnostic is an error
)

func lintUsage(w io.Writer) {
	fs, _, _ := newLintFlags()
	printUsage(w, fs, "check", `usage: robotstxt lint [-json] [-max-size N] FILE

Reports what Google will do with robots.txt FILE (- for standard input), one
FILE:LINE: severity: message [code] per finding.
Exit status: 0 no errors, 1 some error found, 2 usage or read error.
`)
}

func newLintFlags() (fs *flag.FlagSet, asJSON *bool, maxSize *int) {
	return newReportFlags("robotstxt lint", "print the report (diagnostics, per-line view, counts) as JSON")
}

// lint runs "robotstxt lint [-json] [-max-size N] FILE".
func lint(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, asJSON, maxSize := newLintFlags()
	positional, status, ok := parseOrExplain(fs, args, lintUsage, stdout, stderr)
	if !ok {
		return status
	}
	if len(positional) != 1 {
		return usageError(stderr, lintUsage, "lint: need exactly one robots.txt FILE")
	}
	name := positional[0]
	data, limit, err := readRobots(name, stdin, *maxSize)
	if err != nil {
		errorf(stderr, "%v", err)
		return exitError
	}
	cut := limit > 0 && len(data) > limit
	// The limit falls inside a line when neither the last byte read nor
	// the one past it ends a line.
	midLine := cut && !isLineEnd(data[limit-1]) && !isLineEnd(data[limit])
	if cut {
		data = data[:limit] // the byte past the limit only says that the file goes on
	}
	report := robotslint.LintWith(data, robotslint.Options{MaxSize: limit})
	if cut && !notRobotsTxt(report) {
		// What follows the limit was not read, so it cannot be described
		// as Lint would; say where Googlebot stops. A line cut there is
		// described by that alone: its fragment ("Disallo") is not what
		// the file says.
		where := fmt.Sprintf("line %d and what follows are", report.LastLine)
		if midLine {
			where = fmt.Sprintf("line %d is cut there and what follows it is", report.LastLine)
			kept := report.Diagnostics[:0]
			for _, d := range report.Diagnostics {
				if d.Line != report.LastLine {
					kept = append(kept, d)
				}
			}
			report.Diagnostics = kept
		}
		report.Diagnostics = append(report.Diagnostics, robotslint.Diagnostic{
			Line:     report.LastLine,
			Severity: robotslint.SeverityError,
			Code:     robotslint.CodeContentPastLimit,
			Message:  fmt.Sprintf("the file is larger than %d bytes; Googlebot reads only the first %d: %s ignored (not read by this command)", limit, limit, where),
		})
	}
	name = displayName(name)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := struct {
			File string `json:"file"`
			*robotslint.Report
		}{name, report}
		if err := enc.Encode(out); err != nil {
			errorf(stderr, "%v", err)
			return exitError
		}
	} else {
		for _, d := range report.Diagnostics {
			fmt.Fprintf(stdout, "%s:%d: %s: %s [%s]\n", display(name), d.Line, d.Severity, d.Message, d.Code)
		}
	}
	if report.HasErrors() {
		return exitLintErr
	}
	return exitClean
}

// isLineEnd reports whether c ends a line (RFC 9309 section 2.2: CR, LF).
func isLineEnd(c byte) bool { return c == '\n' || c == '\r' }

// notRobotsTxt reports whether lint found that the body is not a
// robots.txt file at all (HTML, binary, gzip, UTF-16): that diagnostic is
// reported alone, as the package documents, so nothing is added to it.
func notRobotsTxt(report *robotslint.Report) bool {
	for _, d := range report.Diagnostics {
		if aloneCodes[d.Code] {
			return true
		}
	}
	return false
}

// aloneCodes are the codes lint reports alone; TestAloneCodes checks them
// against the package's registry.
var aloneCodes = map[robotslint.Code]bool{
	robotslint.CodeLooksLikeHTML: true,
	robotslint.CodeBinary:        true,
	robotslint.CodeGzip:          true,
	robotslint.CodeUTF16:         true,
}
