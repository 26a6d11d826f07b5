package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStaticFiles checks that the page's files load one another: the page
// its modules and style, the app the WebAssembly module and the worker,
// the worker Go's wasm_exec.js (which the serve command adds) and the
// engine's functions.
func TestStaticFiles(t *testing.T) {
	tests := []struct {
		file  string
		loads []string
	}{
		{"index.html", []string{`<script type="module" src="app.js">`, `href="style.css"`, `href="favicon.svg"`}},
		{"app.js", []string{`from "./dom.js"`, `from "./engine.js"`, `from "./audit.js"`, `from "./compare.js"`, `fetch("robotstxt.wasm")`}},
		{"engine.js", []string{`new Worker("worker.js")`}},
		{"worker.js", []string{`importScripts("wasm_exec.js")`, "robotstxtCheck", "robotstxtAudit", "robotstxtLines", "robotstxtCompare", "robotstxtWitness"}},
		{"audit.js", []string{`from "./dom.js"`}},
		{"compare.js", []string{`from "./dom.js"`, `from "./engine.js"`}},
		{"dom.js", nil},
		{"style.css", nil},
		{"favicon.svg", nil},
	}
	var want []string
	for _, tt := range tests {
		want = append(want, tt.file)
		data, err := fs.ReadFile(Static(), tt.file)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, s := range tt.loads {
			if !strings.Contains(string(data), s) {
				t.Errorf("%s lacks %s", tt.file, s)
			}
		}
	}
	// Every file served is one of these: no stray or forgotten file.
	var got []string
	fs.WalkDir(Static(), ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			got = append(got, path)
		}
		return err
	})
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("static files (-want +got):\n%s", diff)
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
