package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
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
	for _, name := range []string{"app.js", "style.css", "favicon.svg"} {
		if _, err := fs.Stat(Static(), name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(string(index), name) {
			t.Errorf("index.html does not load %s", name)
		}
	}
	// The serve command adds these; the page must load them.
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
	wasm := bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00"), 100)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(wasm)
	zw.Close()
	files := map[string][]byte{"robotstxt.wasm": wasm, "robotstxt.wasm.gz": gz.Bytes(), "index.html": []byte("<!doctype html>"), "favicon.svg": []byte("<svg/>")}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	// The transport would add Accept-Encoding and decode: set it by hand.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, body
	}

	resp, body := get("/robotstxt.wasm", "Accept-Encoding", "gzip, deflate, br")
	if ct := resp.Header.Get("Content-Type"); ct != "application/wasm" {
		t.Errorf("Content-Type = %q, want application/wasm (browsers refuse to stream-compile otherwise)", ct)
	}
	if ce, vary := resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"); ce != "gzip" || vary != "Accept-Encoding" {
		t.Errorf("Content-Encoding %q, Vary %q; want gzip, Accept-Encoding", ce, vary)
	}
	if !bytes.Equal(body, gz.Bytes()) {
		t.Errorf("gzip body: %d bytes, want the %d of robotstxt.wasm.gz", len(body), gz.Len())
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control = %q", cc)
	}
	tag := resp.Header.Get("ETag")
	if !strings.HasPrefix(tag, `"`) {
		t.Errorf("ETag = %q", tag)
	}
	resp, body = get("/robotstxt.wasm", "Accept-Encoding", "gzip", "If-None-Match", tag)
	if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Errorf("revalidation: status %d, %d bytes; want 304", resp.StatusCode, len(body))
	}

	for _, ae := range []string{"", "identity", "gzip;q=0", "br"} {
		resp, body = get("/robotstxt.wasm", "Accept-Encoding", ae)
		if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, wasm) || resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, Vary %q, %d bytes; want the plain file", ae, resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"), len(body))
		}
		if resp.Header.Get("ETag") == tag {
			t.Errorf("Accept-Encoding %q: the plain file has the gzip file's ETag", ae)
		}
	}

	resp, body = get("/favicon.ico")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || string(body) != "<svg/>" {
		t.Errorf("favicon.ico: status %d, type %q, body %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if resp, _ = get("/"); resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("/: status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if resp, _ = get("/nope.js", "Accept-Encoding", "gzip"); resp.StatusCode != 404 {
		t.Errorf("/nope.js: status %d", resp.StatusCode)
	}
	if resp, _ = get("/../../etc/passwd"); resp.StatusCode != 404 {
		t.Errorf("/../../etc/passwd: status %d", resp.StatusCode)
	}
}

func TestAcceptsGzip(t *testing.T) {
	for header, want := range map[string]bool{
		"gzip": true, "gzip, deflate, br": true, "br;q=1.0, gzip;q=0.8": true, "*": true, "GZIP": true,
		"": false, "br": false, "gzip;q=0": false, "gzip; q=0.000": false, "identity": false,
	} {
		if got := acceptsGzip(header); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
}

func TestCheckAgentWarning(t *testing.T) {
	robots := "User-agent: Googlebot\nDisallow: /\n"
	if got := Check(robots, "Googlebot", "/"); got.AgentWarning != "" || !got.Specific {
		t.Errorf("Googlebot: warning %q, specific %v", got.AgentWarning, got.Specific)
	}
	got := Check(robots, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/")
	if !strings.Contains(got.AgentWarning, `"Googlebot"`) || got.Specific || !got.Verdicts[0].Allowed {
		t.Errorf("a User-Agent header: warning %q, specific %v, verdicts %+v", got.AgentWarning, got.Specific, got.Verdicts)
	}
}

// Issue 15: the part past the 500 KiB limit, and a group there.
func TestCheckCut(t *testing.T) {
	filler := "# " + strings.Repeat("x", 97) + "\n" // 100 bytes a line
	robots := "User-agent: *\nDisallow: /private/\n" + strings.Repeat(filler, 5120) + "User-agent: Googlebot\nDisallow: /\n"
	got := Check(robots, "Googlebot", "/private/x\n/x")
	const head = 14 + 20 // the first two lines
	want := &Cut{Limit: 512000, Line: 2 + (512000-head)/100 + 1, Kept: filler[:(512000-head)%100], GroupLine: 2 + 5120 + 1}
	if diff := cmp.Diff(want, got.Cut); diff != "" {
		t.Errorf("cut (-want +got):\n%s", diff)
	}
	if got.Specific || got.Verdicts[0].Allowed || !got.Verdicts[1].Allowed {
		t.Errorf("the * group should answer: specific %v, verdicts %+v", got.Specific, got.Verdicts)
	}
	if got := Check("User-agent: *\nDisallow: /\n", "Googlebot", "/"); got.Cut != nil {
		t.Errorf("a short file has a cut: %+v", got.Cut)
	}
	// A group before the cut: no GroupLine.
	got = Check("User-agent: Googlebot\nDisallow: /a\n"+strings.Repeat(filler, 5200), "Googlebot", "/a")
	if got.Cut == nil || got.Cut.GroupLine != 0 || !got.Specific {
		t.Errorf("group before the cut: %+v", got.Cut)
	}
}
