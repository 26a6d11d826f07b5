package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Two versions of a file: the press exception is dropped, /search is
// opened for Googlebot, and Bingbot gets a crawl-delay.
const (
	diffOld = "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: Googlebot\nDisallow: /search\nDisallow: /private/\n\nSitemap: https://example.com/a.xml\n"
	diffNew = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /private/\n\nUser-agent: Bingbot\nCrawl-delay: 5\nDisallow: /private/\n\nSitemap: https://example.com/b.xml\n"
	// diffSame says what diffOld says, rewritten.
	diffSame = "user-agent: googlebot\ndisallow: /private/\ndisallow: /search\n\nuser-agent: *\nallow: /private/press/\ndisallow: /private/\nsitemap: https://example.com/a.xml\n"
)

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDiff(t *testing.T) {
	old, new, same := writeTemp(t, "old.txt", diffOld), writeTemp(t, "new.txt", diffNew), writeTemp(t, "same.txt", diffSame)
	urls := writeTemp(t, "urls.txt", "https://example.com/search?q=1\n/private/press/x\n/public\n")
	// AI usage preferences (draft-ietf-aipref-attach-05 section 3.1: the
	// longest matching Content-Usage path applies): /news/ now forbids
	// training, and a Content-Signal line applies to every path.
	usageOld := writeTemp(t, "usage-old.txt", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /news/ train-ai=y\nDisallow: /private/\n")
	usageNew := writeTemp(t, "usage-new.txt", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /news/ train-ai=n\nContent-Signal: search=yes\nDisallow: /private/\n")
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantStatus int
		wantOut    []string // substrings of standard output
		wantErr    string   // a substring of standard error
	}{
		{"changes, search crawlers first", []string{"diff", old, new}, "", exitDisallowed, []string{
			"\nGooglebot (search)\n  disallowed → allowed    /search  now no rule, was line 6 \"disallow: /search\"; paths matching /search\n",
			"  allowed → disallowed    /private/press/  now line 2 \"disallow: /private/\", was line 3 \"allow: /private/press/\"",
			"Bingbot (search)\n",
			"crawl-delay none → 5s",
			"every other crawler (the \"*\" groups)\n",
			"sitemap added: https://example.com/b.xml\nsitemap removed: https://example.com/a.xml\n",
			"agents now named by a group: Bingbot\n",
		}, ""},
		{"a rewrite changes nothing", []string{"diff", old, same}, "", exitAllowed, []string{"2 other crawler classes: no change"}, ""},
		{"standard input", []string{"diff", "-", new}, diffOld, exitDisallowed, []string{"<stdin> → "}, ""},
		{"-agents restricts", []string{"diff", "-agents", "GPTBot", old, new}, "", exitDisallowed, []string{"\nGPTBot (ai-training)\n  allowed → disallowed    /private/press/"}, ""},
		{"-fail-on-block passes what only opens", []string{"diff", "-fail-on-block", "-agents", "Googlebot", old, new}, "", exitAllowed, []string{"disallowed → allowed    /search"}, ""},
		{"-fail-on-block fails on a new block", []string{"diff", "-fail-on-block", "-agents", "Googlebot,*", old, new}, "", exitDisallowed, nil, ""},
		{"-urls lists flips", []string{"diff", "-urls", urls, old, new}, "", exitDisallowed, []string{
			"URLs whose verdict flips:\n",
			"disallowed → allowed    https://example.com/search?q=1 for Googlebot: no rule, was line 6 \"disallow: /search\"",
			"allowed → disallowed    /private/press/x for *:",
		}, ""},
		{"an agent with a version is read by its token", []string{"diff", "-agents", "Googlebot/2.1", "-urls", urls, old, new}, "", exitDisallowed, []string{"https://example.com/search?q=1 for Googlebot/2.1"}, ""},
		{"not decided and nothing found", []string{"diff", "-max-work", "1", old, new}, "", exitUndecided, []string{"NOT DECIDED: the budget ran out"}, ""},
		{"AI usage per class of paths", []string{"diff", usageOld, usageNew}, "", exitAllowed, []string{
			"every other crawler (the \"*\" groups)\n",
			"  AI usage /  signal search: unknown → allow; all paths but not /news/ that both versions let it fetch (lines now 2, 4, were 2)\n",
			"  AI usage /news/  train-ai: allow → disallow, signal search: unknown → allow; paths matching /news/ that both versions let it fetch (lines now 3, 4, were 3)\n",
		}, ""},
		{"AI usage not decided", []string{"diff", "-max-work", "1", usageOld, usageNew}, "", exitAllowed, []string{"AI USAGE NOT DECIDED: the budget ran out"}, ""},
		{"one file", []string{"diff", old}, "", exitError, nil, "diff: need OLD and NEW"},
		{"stdin twice", []string{"diff", "-", "-"}, "", exitError, nil, "standard input can be read once"},
		{"missing file", []string{"diff", old, "/nonexistent/robots.txt"}, "", exitError, nil, "nonexistent"},
		{"help", []string{"help", "diff"}, "", exitAllowed, []string{"usage: robotstxt diff [flags] OLD NEW", "-fail-on-block"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d; stderr %q\n%s", status, tt.wantStatus, stderr.String(), stdout.String())
			}
			for _, s := range tt.wantOut {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout.String())
				}
			}
			if tt.wantErr != "" && !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tt.wantErr)
			}
		})
	}
}

func TestDiffJSON(t *testing.T) {
	old, new := writeTemp(t, "old.txt", diffOld), writeTemp(t, "new.txt", diffNew)
	var stdout, stderr bytes.Buffer
	if status := run([]string{"diff", "-json", "-agents", "Googlebot", old, new}, nil, &stdout, &stderr); status != exitDisallowed {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	var out struct {
		VerdictChanged bool     `json:"verdict_changed"`
		Undecided      []string `json:"undecided"`
		Crawlers       []struct {
			Agent   string `json:"agent"`
			Purpose string `json:"purpose"`
			Decided bool   `json:"decided"`
			Changes []struct {
				Path string          `json:"path"`
				Old  json.RawMessage `json:"old"`
				New  json.RawMessage `json:"new"`
			} `json:"changes"`
		} `json:"crawlers"`
		SitemapsAdded []string `json:"sitemaps_added"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if !out.VerdictChanged || len(out.Undecided) != 0 || len(out.Crawlers) != 1 || out.Crawlers[0].Purpose != "search" || !out.Crawlers[0].Decided {
		t.Fatalf("unexpected report:\n%s", stdout.String())
	}
	got := map[string]string{}
	for _, ch := range out.Crawlers[0].Changes {
		got[ch.Path] = string(ch.Old) + " → " + string(ch.New)
	}
	want := map[string]string{
		"/search": `{"allowed":false,"verdict":"disallowed","rule":{"line":6,"kind":"disallow","pattern":"/search"}} → {"allowed":true,"verdict":"allowed","rule":null}`,
	}
	var compact = func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			var b bytes.Buffer
			for _, part := range strings.Split(v, " → ") {
				json.Compact(&b, []byte(part))
				b.WriteString(" → ")
			}
			out[k] = strings.TrimSuffix(b.String(), " → ")
		}
		return out
	}
	if d := cmp.Diff(want, compact(got)); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"https://example.com/b.xml"}, out.SitemapsAdded); d != "" {
		t.Errorf("sitemaps (-want +got):\n%s", d)
	}
}

func TestDiffFetch(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, diffOld)
	}))
	defer site.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	new := writeTemp(t, "new.txt", diffNew)
	var stdout, stderr bytes.Buffer
	status := run([]string{"diff", "-fetch", site.URL + "/", "-agents", "Googlebot", new}, nil, &stdout, &stderr)
	if status != exitDisallowed || !strings.Contains(stdout.String(), site.URL+"/search") {
		t.Errorf("status %d, stderr %q, stdout:\n%s", status, stderr.String(), stdout.String())
	}
	stderr.Reset()
	if status := run([]string{"diff", "-fetch", down.URL + "/", new}, nil, &stdout, &stderr); status != exitError || !strings.Contains(stderr.String(), "unreachable") {
		t.Errorf("unreachable: status %d, stderr %q", status, stderr.String())
	}
	if status := run([]string{"diff", "-fetch", site.URL + "/", new, new}, nil, &stdout, &stderr); status != exitError {
		t.Errorf("-fetch with two files: status %d", status)
	}
}
