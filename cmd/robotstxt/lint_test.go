package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLint(t *testing.T) {
	runTests(t, []runTest{
		{
			name:       "findings like a compiler, no error",
			args:       []string{"lint", "../../testdata/robots.txt"},
			wantStatus: exitClean,
			wantOut:    "../../testdata/robots.txt:6: info: Google ignores \"crawl-delay\"; other crawlers may use it [unused-key]\n",
		},
		{
			name:       "an error sets the exit status",
			args:       []string{"lint", "-"},
			stdin:      "Disallow: /private/\nUser-agent: *\nDisallow: tmp/\n",
			wantStatus: exitLintErr,
			wantOut: "<stdin>:1: error: disallow: /private/ comes before any user-agent line, so it belongs to no group; Google ignores it [rule-outside-group]\n" +
				"<stdin>:3: error: disallow: tmp/ never matches: a path must start with '/' (or '*') [path-not-absolute]\n",
		},
		{
			name:       "a clean file prints nothing",
			args:       []string{"lint", "-"},
			stdin:      "User-agent: *\nDisallow: /private/\n",
			wantStatus: exitClean,
		},
		{
			name:       "size limit",
			args:       []string{"lint", "-max-size", "27", "-"},
			stdin:      "User-agent: *\nDisallow: /a\nDisallow: /b\n",
			wantStatus: exitLintErr,
			wantOut:    "<stdin>:3: error: the file is larger than 27 bytes; Googlebot reads only the first 27: line 3 and what follows are ignored (not read by this command) [content-past-limit]\n",
		},
		{
			name:       "size limit within a line",
			args:       []string{"lint", "-max-size", "20", "-"},
			stdin:      "User-agent: *\nDisallow: /a\nDisallow: /b\n",
			wantStatus: exitLintErr,
			// The fragment "Disall" is not reported as a line that is not a
			// directive: the file does not say it (issue 35).
			wantOut: "<stdin>:2: error: the file is larger than 20 bytes; Googlebot reads only the first 20: line 2 is cut there and what follows it is ignored (not read by this command) [content-past-limit]\n",
		},
		{
			name:       "flags after FILE",
			args:       []string{"lint", "-", "-max-size", "27"},
			stdin:      "User-agent: *\nDisallow: /a\n",
			wantStatus: exitClean,
		},
		{
			name:       "no file",
			args:       []string{"lint"},
			wantStatus: exitError,
			wantErr:    "need exactly one robots.txt FILE",
		},
		{
			name:       "two files",
			args:       []string{"lint", "a", "b"},
			wantStatus: exitError,
			wantErr:    "need exactly one robots.txt FILE",
		},
		{
			name:       "unreadable file",
			args:       []string{"lint", "no-such-file"},
			wantStatus: exitError,
			wantErr:    "no-such-file",
		},
		{
			name:       "bad flag",
			args:       []string{"lint", "f", "-nope"},
			wantStatus: exitError,
			wantErr:    "robotstxt: flag provided but not defined: -nope\nusage: robotstxt lint",
		},
	})
}

func TestLintJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := run([]string{"lint", "-", "-json"}, strings.NewReader("User-agent: *\nDisallow: x\n"), &stdout, &stderr)
	if status != exitLintErr {
		t.Errorf("status %d, want %d; stderr: %s", status, exitLintErr, stderr.String())
	}
	type diag struct {
		Line     int
		Severity string
		Code     string
	}
	type lineReport struct {
		Line      int
		Tag       string
		Directive bool
		Empty     bool
	}
	var got struct {
		File            string
		Diagnostics     []diag
		Lines           []lineReport
		ValidDirectives int `json:"valid_directives"`
		LastLine        int `json:"last_line"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("%v in %s", err, stdout.String())
	}
	want := struct {
		File            string
		Diagnostics     []diag
		Lines           []lineReport
		ValidDirectives int `json:"valid_directives"`
		LastLine        int `json:"last_line"`
	}{
		File:        "<stdin>",
		Diagnostics: []diag{{2, "error", "path-not-absolute"}},
		Lines: []lineReport{
			{Line: 1, Tag: "user-agent", Directive: true},
			{Line: 2, Tag: "disallow", Directive: true},
			{Line: 3, Tag: "unknown", Empty: true},
		},
		ValidDirectives: 2,
		LastLine:        3,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
}

// The check subcommand is unchanged by lint.
func TestCheckStillWorks(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := run([]string{"check", "-agent", "a", "-", "/x"}, strings.NewReader("User-agent: a\nDisallow: /x\n"), &stdout, &stderr)
	if status != exitDisallowed || stdout.String() != "DISALLOWED /x (line 2: disallow: /x)\n" {
		t.Errorf("status %d, stdout %q", status, stdout.String())
	}
}
