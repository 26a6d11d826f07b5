package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/jsonkeys"
	robotslint "github.com/seed50c7eacc/robotstxt/lint"
)

// TestOneVoice checks that the commands agree (issue 25): a string that
// is neither an absolute http(s) URL nor a path starting with "/" is an
// error in check and audit as with -fetch; errors name what was typed, in
// the command's words; lint reports a body that is not robots.txt alone;
// audit warns, as check does, when the file was cut; help help works.
func TestOneVoice(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /private/\n"
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantStatus int
		wantOut    string   // standard output, exactly
		wantErr    []string // substrings of standard error
		notErr     []string // what standard error must not hold
	}{
		{"check: not a URL", []string{"check", "-", "not a url", "/private/x"}, robots, exitError,
			"DISALLOWED /private/x (line 2: disallow: /private/)\n",
			[]string{`robotstxt: "not a url" is neither an absolute http(s) URL nor a path starting with "/"`}, nil},
		{"check: empty string", []string{"check", "-", ""}, robots, exitError, "",
			[]string{`robotstxt: "" is neither an absolute http(s) URL nor a path starting with "/"`}, nil},
		{"check: a URL that does not parse", []string{"check", "-", "http://[::1"}, robots, exitError, "",
			[]string{`robotstxt: "http://[::1" is not a valid URL: missing ']' in host`}, []string{"parse "}},
		{"check: another scheme", []string{"check", "-", "ftp://example.com/x", "mailto:a@example.com"}, robots, exitError, "",
			[]string{`"ftp://example.com/x" is not an http or https URL`, `"mailto:a@example.com" is not an http or https URL`}, nil},
		{"check: a bad host", []string{"check", "-", "https://exa mple.com/"}, robots, exitError, "",
			[]string{`"https://exa mple.com/" is not a valid URL`}, nil},
		{"check: good URLs still answer", []string{"check", "-", "HTTPS://Example.COM/private/", "http://[::1]:8080/", "/", "https://example.com/private/%zz a?q#f"}, robots, exitDisallowed,
			"DISALLOWED HTTPS://Example.COM/private/ (line 2: disallow: /private/)\nALLOWED    http://[::1]:8080/ (no rule applied)\nALLOWED    / (no rule applied)\n" +
				"DISALLOWED https://example.com/private/%zz a?q#f (line 2: disallow: /private/)\n", nil, nil},
		{"check: a bad port", []string{"check", "-", "https://example.com:99999/"}, robots, exitError, "",
			[]string{`"https://example.com:99999/" is not a valid URL: invalid port "99999"`}, nil},
		{"check -json: an error object", []string{"check", "-json", "-", "not a url"}, robots, exitError,
			`{"url":"not a url","allowed":false,"verdict":"error","rule":null,"error":"\"not a url\" is neither an absolute http(s) URL nor a path starting with \"/\""}` + "\n", nil, nil},
		{"check -urls: a bad line", []string{"check", "-urls", "-", "../../testdata/robots.txt"}, "/ok\nnot a url\n", exitError,
			"ALLOWED    /ok (no rule applied)\n", []string{`"not a url" is neither`}, nil},
		{"audit: not a URL", []string{"audit", "-", "/", "not a url", ""}, robots, exitError, "",
			[]string{`robotstxt: "not a url" is neither an absolute http(s) URL nor a path starting with "/"`, `robotstxt: "" is neither`}, nil},
		{"audit: a URL that does not parse", []string{"audit", "-json", "-", "http://[::1"}, robots, exitError, "",
			[]string{`"http://[::1" is not a valid URL: missing ']' in host`}, nil},
		{"-fetch: not a URL", []string{"check", "-fetch", "not a url"}, "", exitError, "",
			[]string{`robotstxt: "not a url" is not an absolute http(s) URL`}, []string{"RobotsURL", "robots.txt"}},
		{"-fetch: does not parse", []string{"check", "-fetch", "http://[::1"}, "", exitError, "",
			[]string{`robotstxt: "http://[::1" is not a valid URL: missing ']' in host`}, []string{"RobotsURL", "parse "}},
		{"-fetch: another scheme is named as typed", []string{"check", "-fetch", "ftp://example.com/x"}, "", exitError, "",
			[]string{`robotstxt: "ftp://example.com/x" is not an http or https URL`}, []string{"robots.txt"}},
		{"-fetch: a path", []string{"check", "-fetch", "/private/x"}, "", exitError, "",
			[]string{`"/private/x" is a path, not an absolute http(s) URL`}, nil},
		{"-fetch: a FILE is not a URL", []string{"check", "-fetch", "../../testdata/robots.txt", "https://example.com/"}, "", exitError, "",
			[]string{`-fetch fetches each URL's robots.txt and takes no FILE, but "../../testdata/robots.txt" is a file: drop -fetch`}, []string{"RobotsURL", "unreachable"}},
		{"-fetch: standard input is not a URL", []string{"check", "-fetch", "-", "https://example.com/"}, "", exitError, "",
			[]string{`takes no FILE, but "-" is a file`}, nil},
		{"lint: binary content alone, past the limit", []string{"lint", "-max-size", "100", "-"}, strings.Repeat("\x00\x01", 100), exitLintErr,
			"<stdin>:1: error: the file is binary data, not text (it holds NUL or other control bytes); Google finds no rules in it [binary-content]\n", nil, nil},
		{"lint: HTML alone, past the limit", []string{"lint", "-max-size", "100", "-"}, "<!DOCTYPE html>\n<html>" + strings.Repeat("<p>x</p>\n", 50), exitLintErr,
			"<stdin>:1: error: the file looks like an HTML page, not robots.txt (an error page served with status 200?); Google finds no rules in it [looks-like-html]\n", nil, nil},
		{"audit: a cut file is warned about", []string{"audit", "-max-size", "30", "-"}, robots + "User-agent: GPTBot\nDisallow: /\n", exitAllowed, "",
			[]string{"robotstxt: <stdin>: larger than 30 bytes: only the first 30 were read, as Googlebot does"}, nil},
		{"help help", []string{"help", "help"}, "", exitAllowed, "", nil, []string{"unknown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d; stderr: %s", status, tt.wantStatus, stderr.String())
			}
			if tt.wantOut != "" || tt.args[0] != "audit" && tt.args[0] != "help" {
				if diff := cmp.Diff(tt.wantOut, stdout.String()); diff != "" {
					t.Errorf("stdout (-want +got):\n%s", diff)
				}
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr %q lacks %q", stderr.String(), s)
				}
			}
			for _, s := range tt.notErr {
				if strings.Contains(stderr.String(), s) {
					t.Errorf("stderr %q holds %q", stderr.String(), s)
				}
			}
		})
	}
}

// TestAuditShowsLicenses checks that audit's text lists the file's
// License lines (RSL 1.0), quoted when they hold control bytes.
func TestAuditShowsLicenses(t *testing.T) {
	var stdout, stderr bytes.Buffer
	file := "License: https://example.com/license.xml\nUser-agent: *\nLicense: https://example.com/\x1b[2J.xml\nDisallow: /\n"
	if status := run([]string{"audit", "-"}, strings.NewReader(file), &stdout, &stderr); status != exitAllowed {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	for _, want := range []string{
		"\nLicense (RSL 1.0, for every crawler; not fetched here): https://example.com/license.xml\n",
		`License (RSL 1.0, for every crawler; not fetched here): "https://example.com/\x1b[2J.xml"` + "\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
}

func TestHelpHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if status := run([]string{"help", "help"}, nil, &stdout, &stderr); status != exitAllowed || !strings.Contains(stdout.String(), "robotstxt help [COMMAND]") || stderr.Len() != 0 {
		t.Errorf("help help: status %d, stdout %q, stderr %q", status, stdout.String(), stderr.String())
	}
}

// TestOneRuleShape checks that check -json and audit -json write a rule
// the same way: null when no rule applied, else {line, kind, pattern};
// and that every key of both is snake_case.
func TestOneRuleShape(t *testing.T) {
	const robots = "License: https://example.com/license.xml\nUser-agent: *\nAllow: /\nDisallow: /private/\nUser-agent: GPTBot\nDisallow: /private/\n"
	rules := func(t *testing.T, args ...string) []any {
		t.Helper()
		var stdout, stderr bytes.Buffer
		run(args, strings.NewReader(robots), &stdout, &stderr)
		var got []any
		dec := json.NewDecoder(&stdout)
		for dec.More() {
			var doc any
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("%q: %v", args, err)
			}
			jsonkeys.CheckSnakeCase(t, "", doc)
			m := doc.(map[string]any)
			if crawlers, ok := m["crawlers"]; ok {
				for _, c := range crawlers.([]any) {
					if c.(map[string]any)["name"] == "GPTBot" {
						for _, r := range c.(map[string]any)["results"].([]any) {
							got = append(got, r.(map[string]any)["rule"])
						}
					}
				}
				if diff := cmp.Diff([]any{"https://example.com/license.xml"}, m["licenses"]); diff != "" {
					t.Errorf("audit licenses (-want +got):\n%s", diff)
				}
				continue
			}
			got = append(got, m["rule"])
		}
		return got
	}
	want := []any{nil, map[string]any{"line": 6.0, "kind": "disallow", "pattern": "/private/"}}
	check := rules(t, "check", "-json", "-agent", "GPTBot", "-", "/", "/private/x")
	audit := rules(t, "audit", "-json", "-", "/", "/private/x")
	if diff := cmp.Diff(want, check); diff != "" {
		t.Errorf("check -json rules (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, audit); diff != "" {
		t.Errorf("audit -json rules (-want +got):\n%s", diff)
	}
}

// TestAloneCodes checks the command's list of the codes lint reports
// alone against the package's registry, which documents them.
func TestAloneCodes(t *testing.T) {
	want := map[robotslint.Code]bool{}
	for _, c := range robotslint.Codes() {
		if strings.Contains(c.Doc, "reported alone") {
			want[c.Code] = true
		}
	}
	if diff := cmp.Diff(want, aloneCodes); diff != "" {
		t.Errorf("aloneCodes (-registry +command):\n%s", diff)
	}
}

// TestLintJSONSnakeCase checks that lint -json, too, writes snake_case
// keys.
func TestLintJSONSnakeCase(t *testing.T) {
	var stdout, stderr bytes.Buffer
	run([]string{"lint", "-json", "-"}, strings.NewReader("User-agent *\nLicense: x\nDisallow: /a\n"), &stdout, &stderr)
	var doc any
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	jsonkeys.CheckSnakeCase(t, "", doc)
}
