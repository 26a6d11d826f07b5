package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantStatus int
		wantOut    string
		wantErr    string // a substring of standard error
	}{
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
			name:       "help",
			args:       []string{"-h"},
			wantStatus: exitError,
			wantErr:    "usage: robotstxt",
		},
		{
			name:       "truncation is reported",
			args:       []string{"-max-size", "26", "-agent", "a", "-", "/bx"},
			stdin:      "User-agent: a\nDisallow: /bcd\n",
			wantStatus: exitDisallowed, // the cut leaves "Disallow: /b"
			wantOut:    "DISALLOWED /bx (line 2: disallow: /b)\n",
			wantErr:    "only the first 26 of 29 bytes were read",
		},
	}
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

	var stdout, stderr bytes.Buffer
	status := run([]string{"check", "-fetch", "-agent", "bot", site.URL + "/", site.URL + "/private/x", down.URL + "/"}, nil, &stdout, &stderr)
	want := "ALLOWED    " + site.URL + "/ (no rule applied)\n" +
		"DISALLOWED " + site.URL + "/private/x (line 2: disallow: /private/)\n" +
		"DISALLOWED " + down.URL + "/ (no rule applied)\n"
	if diff := cmp.Diff(want, stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if status != exitDisallowed {
		t.Errorf("status %d, want %d", status, exitDisallowed)
	}
	if !strings.Contains(stderr.String(), down.URL+"/robots.txt: disallow all (HTTP status 503)") {
		t.Errorf("stderr %q does not report the unreachable file", stderr.String())
	}

	stderr.Reset()
	if status := run([]string{"-fetch", "mailto:x@y"}, nil, &stdout, &stderr); status != exitError || !strings.Contains(stderr.String(), "mailto") {
		t.Errorf("invalid URL: status %d, stderr %q", status, stderr.String())
	}
	if status := run([]string{"-fetch"}, nil, &stdout, &stderr); status != exitError {
		t.Errorf("no URL: status %d", status)
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
