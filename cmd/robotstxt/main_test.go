package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
)

// A runTest is one run of the command, with what it must print and return.
type runTest struct {
	name       string
	args       []string
	stdin      string
	wantStatus int
	wantOut    string
	wantErr    string // a substring of standard error
}

func runTests(t *testing.T, tests []runTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d; stderr: %s", status, tt.wantStatus, stderr.String())
			}
			if diff := cmp.Diff(tt.wantOut, stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tt.wantErr)
			}
		})
	}
}

func TestRun(t *testing.T) {
	runTests(t, []runTest{
		{
			name:       "Googlebot uses its own group",
			args:       []string{"../../testdata/robots.txt", "https://example.com/", "https://example.com/private/x", "https://example.com/drafts/a"},
			wantStatus: exitDisallowed,
			wantOut: "ALLOWED    https://example.com/ (no rule applied)\n" +
				"ALLOWED    https://example.com/private/x (no rule applied)\n" +
				"DISALLOWED https://example.com/drafts/a (line 10: disallow: /drafts/)\n",
		},
		{
			name:       "other agents use the * group",
			args:       []string{"-agent", "SomeBot", "../../testdata/robots.txt", "https://example.com/private/press/x", "https://example.com/doc.pdf"},
			wantStatus: exitDisallowed,
			wantOut: "ALLOWED    https://example.com/private/press/x (line 4: allow: /private/press/)\n" +
				"DISALLOWED https://example.com/doc.pdf (line 5: disallow: /*.pdf$)\n",
		},
		{
			name:       "check subcommand, all allowed",
			args:       []string{"check", "-agent", "SomeBot", "../../testdata/robots.txt", "https://example.com/doc.pdf?x"},
			wantStatus: exitAllowed,
			wantOut:    "ALLOWED    https://example.com/doc.pdf?x (no rule applied)\n",
		},
		{
			name:       "standard input and raw UTF-8",
			args:       []string{"-agent", "a", "-", "/café", "/cafe"},
			stdin:      "User-agent: a\nDisallow: /caf%C3%A9\n",
			wantStatus: exitDisallowed,
			wantOut: "DISALLOWED /café (line 2: disallow: /caf%C3%A9)\n" +
				"ALLOWED    /cafe (no rule applied)\n",
		},
		{
			name:       "missing URL",
			args:       []string{"../../testdata/robots.txt"},
			wantStatus: exitError,
			wantErr:    "need a robots.txt FILE and at least one URL",
		},
		{
			name:       "unreadable file",
			args:       []string{"no-such-file", "/"},
			wantStatus: exitError,
			wantErr:    "no-such-file",
		},
		{
			name:       "bad flag",
			args:       []string{"-nope", "f", "/"},
			wantStatus: exitError,
			wantErr:    "flag provided but not defined",
		},
		{
			name:       "truncation is reported",
			args:       []string{"-max-size", "26", "-agent", "a", "-", "/bx"},
			stdin:      "User-agent: a\nDisallow: /bcd\n",
			wantStatus: exitDisallowed, // the cut leaves "Disallow: /b"
			wantOut:    "DISALLOWED /bx (line 2: disallow: /b)\n",
			wantErr:    "<stdin>: larger than 26 bytes: only the first 26 were read",
		},
		{
			// Issue 15: flags after FILE were read as URLs.
			name:       "flags after FILE are flags",
			args:       []string{"check", "../../testdata/robots.txt", "-agent", "BadBot", "https://example.com/"},
			wantStatus: exitDisallowed,
			wantOut:    "DISALLOWED https://example.com/ (line 14: disallow: /)\n",
		},
		{
			name:       "flags after the URLs are flags",
			args:       []string{"../../testdata/robots.txt", "https://example.com/", "-agent", "BadBot", "https://example.com/x", "-json"},
			wantStatus: exitDisallowed,
			wantOut: `{"url":"https://example.com/","allowed":false,"verdict":"disallowed","rule":{"line":14,"kind":"disallow","pattern":"/"}}` + "\n" +
				`{"url":"https://example.com/x","allowed":false,"verdict":"disallowed","rule":{"line":14,"kind":"disallow","pattern":"/"}}` + "\n",
		},
		{
			// After --, "-x" is a URL, not a flag: not a valid one.
			name:       "-- ends the flags",
			args:       []string{"-agent", "a", "-", "--", "-x", "/-y"},
			stdin:      "User-agent: a\nDisallow: /-y\n",
			wantStatus: exitError,
			wantOut:    "DISALLOWED /-y (line 2: disallow: /-y)\n",
			wantErr:    `robotstxt: "-x" is neither an absolute http(s) URL nor a path starting with "/"`,
		},
		{
			name:       "a flag's value may be --",
			args:       []string{"-agent", "--", "-", "/"},
			stdin:      "User-agent: *\nDisallow: /\n",
			wantStatus: exitDisallowed,
			wantOut:    "DISALLOWED / (line 2: disallow: /)\n", // FILE is -, the URL /
		},
		{
			name:       "an unknown flag after FILE is refused",
			args:       []string{"../../testdata/robots.txt", "https://example.com/", "-agnet", "BadBot"},
			wantStatus: exitError,
			wantErr:    "robotstxt: flag provided but not defined: -agnet\nusage: robotstxt [check]",
		},
		{
			name:       "-json, no rule applied",
			args:       []string{"-json", "../../testdata/robots.txt", "https://example.com/"},
			wantStatus: exitAllowed,
			wantOut:    `{"url":"https://example.com/","allowed":true,"verdict":"allowed","rule":null}` + "\n",
		},
		{
			name:       "URLs from standard input",
			args:       []string{"-agent", "SomeBot", "-urls", "-", "../../testdata/robots.txt"},
			stdin:      "https://example.com/private/x\n\n  https://example.com/ok  \r\n",
			wantStatus: exitDisallowed,
			wantOut: "DISALLOWED https://example.com/private/x (line 3: disallow: /private/)\n" +
				"ALLOWED    https://example.com/ok (no rule applied)\n",
		},
		{
			name:       "URLs from arguments, then from a file",
			args:       []string{"-agent", "SomeBot", "-urls", "testdata/urls.txt", "../../testdata/robots.txt", "https://example.com/a.pdf"},
			wantStatus: exitDisallowed,
			wantOut: "DISALLOWED https://example.com/a.pdf (line 5: disallow: /*.pdf$)\n" +
				"ALLOWED    https://example.com/private/press/x (line 4: allow: /private/press/)\n" +
				"DISALLOWED https://example.com/private/y (line 3: disallow: /private/)\n",
		},
		{
			name:       "standard input cannot be both",
			args:       []string{"-urls", "-", "-"},
			wantStatus: exitError,
			wantErr:    "standard input cannot hold both the robots.txt FILE and the -urls LIST",
		},
		{
			name:       "missing URL list",
			args:       []string{"-urls", "no-such-list", "../../testdata/robots.txt"},
			wantStatus: exitError,
			wantErr:    "no-such-list",
		},
		{
			name:       "a URL line too long",
			args:       []string{"-urls", "-", "../../testdata/robots.txt"},
			stdin:      "/ok\n/" + strings.Repeat("a", maxURLLine) + "\n",
			wantStatus: exitError,
			wantOut:    "ALLOWED    /ok (no rule applied)\n",
			wantErr:    "reading URLs from <stdin>: bufio.Scanner: token too long",
		},
		{
			name:       "control bytes are quoted",
			args:       []string{"-agent", "a", "-", "/\x1b[2Jx", "/\u009b31mz"},
			stdin:      "User-agent: a\nDisallow: /\x1b[2J\nDisallow: /\u009b31m\n",
			wantStatus: exitDisallowed,
			wantOut: `DISALLOWED "/\x1b[2Jx" (line 2: disallow: "/\x1b[2J")` + "\n" +
				`DISALLOWED "/\u009b31mz" (line 3: disallow: "/\u009b31m")` + "\n",
		},
		{
			name:       "an agent that is not a product token is warned about",
			args:       []string{"-agent", "BadBot/2.1", "../../testdata/robots.txt", "https://example.com/"},
			wantStatus: exitAllowed,
			wantOut:    "ALLOWED    https://example.com/ (no rule applied)\n",
			wantErr:    `robotstxt: warning: -agent: "BadBot/2.1" is not a product token (only letters, '-' and '_'): Google compares it whole with each group's token, so no group can name it and the * group answers; the token a crawler sending it obeys is "BadBot"`,
		},
		{
			name:       "a full User-Agent header is warned about",
			args:       []string{"-agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "../../testdata/robots.txt", "https://example.com/"},
			wantStatus: exitAllowed,
			wantOut:    "ALLOWED    https://example.com/ (no rule applied)\n",
			wantErr:    `the token a crawler sending it obeys is "Googlebot"`,
		},
		{
			name:    "no arguments",
			args:    []string{},
			wantErr: "usage: robotstxt [check]",
			// Like the go command: no command is a usage error.
			wantStatus: exitError,
		},
		{
			name:       "unknown help topic",
			args:       []string{"help", "nope"},
			wantStatus: exitError,
			wantErr:    `robotstxt: unknown command "nope"`,
		},
	})
}

func TestRunFetch(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	})
	site := httptest.NewServer(mux)
	defer site.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()

	// Issue 15: an unreachable site has its own exit status and says why.
	var stdout, stderr bytes.Buffer
	status := run([]string{"check", "-fetch", "-agent", "bot", site.URL + "/", site.URL + "/private/x", down.URL + "/", missing.URL + "/private/x"}, nil, &stdout, &stderr)
	want := "ALLOWED    " + site.URL + "/ (no rule applied)\n" +
		"DISALLOWED " + site.URL + "/private/x (line 2: disallow: /private/)\n" +
		"DISALLOWED " + down.URL + "/ (robots.txt unreachable: HTTP status 503; Google disallows the whole site)\n" +
		"ALLOWED    " + missing.URL + "/private/x (no robots.txt: HTTP status 404; everything is allowed)\n"
	if diff := cmp.Diff(want, stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if status != exitUnreachable {
		t.Errorf("status %d, want %d", status, exitUnreachable)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr %q", stderr.String())
	}

	// Only a real disallow: status 1.
	stdout.Reset()
	if status := run([]string{"-fetch", "-agent", "bot", site.URL + "/private/x"}, nil, &stdout, &stderr); status != exitDisallowed {
		t.Errorf("a disallowed URL: status %d, want %d", status, exitDisallowed)
	}

	// JSON, URLs from standard input.
	stdout.Reset()
	status = run([]string{"-fetch", "-json", "-agent", "bot", "-urls", "-"}, strings.NewReader(down.URL+"/x\n"+site.URL+"/private/\n"), &stdout, &stderr)
	wantJSON := `{"url":"` + down.URL + `/x","allowed":false,"verdict":"disallowed","rule":null,"reason":"robots.txt unreachable: HTTP status 503; Google disallows the whole site","robots_url":"` + down.URL + `/robots.txt","outcome":"disallow all"}` + "\n" +
		`{"url":"` + site.URL + `/private/","allowed":false,"verdict":"disallowed","rule":{"line":2,"kind":"disallow","pattern":"/private/"},"robots_url":"` + site.URL + `/robots.txt","outcome":"rules"}` + "\n"
	if diff := cmp.Diff(wantJSON, stdout.String()); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
	if status != exitUnreachable {
		t.Errorf("JSON: status %d, want %d", status, exitUnreachable)
	}

	// An invalid URL is an error, said once with one prefix.
	stderr.Reset()
	if status := run([]string{"-fetch", "mailto:x@y", site.URL + "/private/x"}, nil, &stdout, &stderr); status != exitError || !strings.Contains(stderr.String(), "mailto") {
		t.Errorf("invalid URL: status %d, stderr %q", status, stderr.String())
	}
	if strings.Contains(stderr.String(), "robotstxt: robotstxt:") || !strings.HasPrefix(stderr.String(), "robotstxt: ") {
		t.Errorf("invalid URL: prefix not given once: %q", stderr.String())
	}
	if status := run([]string{"-fetch"}, nil, &stdout, &stderr); status != exitError {
		t.Errorf("no URL: status %d", status)
	}
}

func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		want []string // substrings of standard output
	}{
		{[]string{"-h"}, []string{"usage: robotstxt [check]", "robotstxt lint [-json]", "  lint   report what Google will do", "robotstxt help COMMAND"}},
		{[]string{"--help"}, []string{"  check  say whether"}},
		{[]string{"help"}, []string{"  lint   report"}},
		{[]string{"help", "lint"}, []string{"usage: robotstxt lint", "-json"}},
		{[]string{"help", "check"}, []string{"usage: robotstxt [check]", "-urls LIST", "3 with -fetch"}},
		{[]string{"check", "-h"}, []string{"-agent token", "See also: robotstxt lint -h"}},
		{[]string{"-agent", "x", "-h"}, []string{"-max-size N"}},
		{[]string{"lint", "-help"}, []string{"usage: robotstxt lint"}},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if status := run(tt.args, nil, &stdout, &stderr); status != 0 {
			t.Errorf("%q: status %d, want 0 (Go's convention for asked-for help)", tt.args, status)
		}
		for _, w := range tt.want {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("%q: stdout lacks %q:\n%s", tt.args, w, stdout.String())
			}
		}
		if stderr.Len() != 0 {
			t.Errorf("%q: stderr %q", tt.args, stderr.String())
		}
	}
}

// Each command's -max-size help names one default, the flag package's
// "(default 512000)" (it once said "0: the default" too).
func TestMaxSizeHelpOneDefault(t *testing.T) {
	for _, cmd := range []string{"check", "lint", "audit"} {
		var stdout, stderr bytes.Buffer
		run([]string{cmd, "-h"}, nil, &stdout, &stderr)
		_, help, ok := strings.Cut(stdout.String(), "-max-size N\n")
		if !ok {
			t.Errorf("%s -h: no -max-size:\n%s", cmd, stdout.String())
			continue
		}
		help, _, _ = strings.Cut(help, "\n")
		if n := strings.Count(help, "default"); n != 1 || !strings.Contains(help, "(default 512000)") {
			t.Errorf("%s -h: -max-size help %q names %d defaults, want one, 512000", cmd, help, n)
		}
	}
}

// The README's first command.
func TestREADMEFirstCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := run([]string{"-agent", "Googlebot", "../../testdata/robots.txt", "https://example.com/private/x", "https://example.com/drafts/", "https://example.com/drafts/plan.html"}, nil, &stdout, &stderr)
	if status != exitDisallowed || strings.Count(stdout.String(), "\n") != 3 {
		t.Errorf("status %d, stdout:\n%s", status, stdout.String())
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "go run ./cmd/robotstxt -agent Googlebot testdata/robots.txt https://example.com/private/x https://example.com/drafts/ https://example.com/drafts/plan.html") {
		t.Error("README.md no longer shows the command this test runs")
	}
	if !strings.Contains(string(readme), "go install github.com/seed50c7eacc/robotstxt/cmd/robotstxt@latest") {
		t.Error("README.md has no go install line")
	}
}

// endless is standard input that never ends, counting what is read.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n += len(p)
	return len(p), nil
}

// Issue 14: the command reads at most the size limit and one byte more.
func TestReadsAtMostTheLimit(t *testing.T) {
	for _, args := range [][]string{
		{"check", "-max-size", "1000", "-", "/"},
		{"lint", "-max-size", "1000", "-"},
		{"check", "-", "/"}, // the default limit
	} {
		in := &endless{}
		var stdout, stderr bytes.Buffer
		run(args, in, &stdout, &stderr)
		limit := 1000
		if len(args) == 3 {
			limit = 512000
		}
		if in.n > limit+1 {
			t.Errorf("%q: read %d bytes, want at most %d", args, in.n, limit+1)
		}
		if !strings.Contains(stderr.String(), "larger than") && args[0] == "check" {
			t.Errorf("%q: stderr %q does not say the input was cut", args, stderr.String())
		}
	}
	// A file too.
	path := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(path, bytes.Repeat([]byte("Disallow: /x\n"), 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	data, limit, err := readRobots(path, nil, 100)
	if err != nil || len(data) != 101 || limit != 100 {
		t.Errorf("readRobots: %d bytes, limit %d, err %v; want 101, 100", len(data), limit, err)
	}
	if data, limit, _ := readRobots(path, nil, -1); len(data) != 13000 || limit != robotstxt.MaxParseSize {
		t.Errorf("readRobots with no limit: %d bytes, limit %d; want 13000, robotstxt.MaxParseSize", len(data), limit)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("device gone") }

func TestRunStdinError(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if status := run([]string{"-", "/"}, failingReader{}, &stdout, &stderr); status != exitError {
		t.Errorf("status %d, want %d", status, exitError)
	}
	if !strings.Contains(stderr.String(), "reading standard input: device gone") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// A robots.txt of 780,000 bytes fetched with -fetch is cut at 500 KiB as
// Googlebot cuts it (Google's robots.txt documentation), and the command
// says so, once per site, on standard error and in -json.
func TestRunFetchTruncated(t *testing.T) {
	const tail = "\nDisallow: /late\n"
	head := "User-agent: *\nDisallow: /private/\n"
	body := head + strings.Repeat("#", 780000-len(head)-len(tail)) + tail
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, body)
	}))
	defer site.Close()
	var stdout, stderr bytes.Buffer
	status := run([]string{"-fetch", "-agent", "bot", site.URL + "/late", site.URL + "/private/x"}, nil, &stdout, &stderr)
	wantErr := "robotstxt: " + site.URL + "/robots.txt: larger than 512000 bytes: only the first 512000 were read, as Googlebot does\n"
	if diff := cmp.Diff(wantErr, stderr.String()); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	if status != exitDisallowed || !strings.HasPrefix(stdout.String(), "ALLOWED    "+site.URL+"/late") {
		t.Errorf("status %d, stdout %q: want /late allowed (its rule is past the limit), /private/x not", status, stdout.String())
	}
	stdout.Reset()
	stderr.Reset()
	run([]string{"-fetch", "-json", "-agent", "bot", site.URL + "/late"}, nil, &stdout, &stderr)
	if !strings.Contains(stdout.String(), `"truncated":true`) {
		t.Errorf("-json: %q has no \"truncated\":true", stdout.String())
	}
}

// check on a body that is not a robots.txt (an HTML page, binary data)
// still answers as Google does (no rules: allowed), and warns, with lint's
// diagnosis, on standard error and in -json; with -fetch too. A real
// robots.txt gets no warning.
func TestCheckWarnsNotRobotsTxt(t *testing.T) {
	html := "<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>Disallow: /x</body></html>\n"
	binary := "\x00\x01\x02PK\x03\x04 Disallow: /x\n"
	tests := []struct {
		name, body, code string
	}{
		{"html", html, "looks-like-html"},
		{"binary", binary, "binary-content"},
		{"robots.txt", "User-agent: *\nDisallow: /private\n", ""},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		status := run([]string{"check", "-", "/x"}, strings.NewReader(tt.body), &stdout, &stderr)
		if status != exitAllowed {
			t.Errorf("%s: status %d, want %d", tt.name, status, exitAllowed)
		}
		if got := strings.Contains(stderr.String(), "warning: <stdin>: ") && strings.Contains(stderr.String(), "["+tt.code+"]"); got != (tt.code != "") {
			t.Errorf("%s: stderr %q; want a warning with [%s]: %v", tt.name, stderr.String(), tt.code, tt.code != "")
		}
		stdout.Reset()
		run([]string{"check", "-json", "-", "/x"}, strings.NewReader(tt.body), &stdout, &stderr)
		var v struct{ Warning string }
		if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
			t.Fatalf("%s: -json: %v: %q", tt.name, err, stdout.String())
		}
		if strings.Contains(v.Warning, "["+tt.code+"]") != (tt.code != "") || tt.code == "" && v.Warning != "" {
			t.Errorf("%s: -json warning %q, want one with [%s]", tt.name, v.Warning, tt.code)
		}
	}

	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, html) }))
	defer site.Close()
	var stdout, stderr bytes.Buffer
	if status := run([]string{"-fetch", site.URL + "/a", site.URL + "/b"}, nil, &stdout, &stderr); status != exitAllowed {
		t.Errorf("-fetch: status %d", status)
	}
	want := "robotstxt: warning: " + site.URL + "/robots.txt: "
	if strings.Count(stderr.String(), want) != 1 || !strings.Contains(stderr.String(), "[looks-like-html]") {
		t.Errorf("-fetch: stderr %q; want one warning for the site with [looks-like-html]", stderr.String())
	}
}
