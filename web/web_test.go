package web

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheck(t *testing.T) {
	robots := "Disallow: /nowhere/\nUser-agent: *\nDisallow: /private/\nAllow: /private/press/\nCrawl-delay: 2.5\nSitemap: https://example.com/s.xml\n"
	got := Check(robots, "Googlebot", "https://example.com/private/x\n\n  https://example.com/private/press/y  \nhttps://example.com/other\n")
	// SPEC 4.2 (line 1 ignored), 5.4 (* applies), 6.6 (longest match wins).
	want := []Verdict{
		{URL: "https://example.com/private/x", Allowed: false, Line: 3, Rule: "disallow: /private/"},
		{URL: "https://example.com/private/press/y", Allowed: true, Line: 4, Rule: "allow: /private/press/"},
		{URL: "https://example.com/other", Allowed: true},
	}
	if diff := cmp.Diff(want, got.Verdicts); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	if got.Specific || got.CrawlDelay != 2.5 || len(got.Sitemaps) != 1 {
		t.Errorf("Specific = %v, CrawlDelay = %v, Sitemaps = %q", got.Specific, got.CrawlDelay, got.Sitemaps)
	}
	var codes []string
	for _, d := range got.Diagnostics {
		codes = append(codes, string(d.Code))
	}
	if !strings.Contains(strings.Join(codes, " "), "rule-outside-group") {
		t.Errorf("diagnostics %q lack rule-outside-group", codes)
	}
}

// Empty input gives empty lists, not JSON nulls, so the page need not check.
func TestCheckEmpty(t *testing.T) {
	got := Check("", "", "")
	if got.Verdicts == nil || got.Diagnostics == nil || got.Sitemaps == nil {
		t.Errorf("Check of nothing = %+v; want empty, non-nil lists", got)
	}
}

func TestStaticFiles(t *testing.T) {
	index, err := fs.ReadFile(Static(), "index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"app.js", "style.css"} {
		if _, err := fs.Stat(Static(), name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(string(index), name) {
			t.Errorf("index.html does not load %s", name)
		}
	}
	// Build adds these two; the page must load them.
	for _, name := range []string{"wasm_exec.js"} {
		if !strings.Contains(string(index), name) {
			t.Errorf("index.html does not load %s", name)
		}
	}
	app, _ := fs.ReadFile(Static(), "app.js")
	if !strings.Contains(string(app), "robotstxt.wasm") || !strings.Contains(string(app), "robotstxtCheck") {
		t.Error("app.js does not load robotstxt.wasm or call robotstxtCheck")
	}
}

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "robotstxt.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/robotstxt.wasm")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/wasm" {
		t.Errorf("Content-Type = %q, want application/wasm (browsers refuse to stream-compile otherwise)", ct)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control = %q", cc)
	}
}

// TestBuild compiles the real site with the go command.
func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the library to WebAssembly")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command in PATH")
	}
	dir := t.TempDir()
	if err := Build(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", "app.js", "style.css", "wasm_exec.js", "robotstxt.wasm"} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	wasm, _ := os.ReadFile(filepath.Join(dir, "robotstxt.wasm"))
	if !strings.HasPrefix(string(wasm), "\x00asm") {
		t.Error("robotstxt.wasm is not a WebAssembly module")
	}
}
