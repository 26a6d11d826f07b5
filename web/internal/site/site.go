// Package site is the browser tester's static site: the page's files
// (Static) and the handler that serves the site the serve command builds
// (Handler).
package site

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// static holds the page: index.html, app.js, style.css and favicon.svg.
//
//go:embed static
var static embed.FS

// Static returns the page's files, without robotstxt.wasm and wasm_exec.js,
// which the serve command builds with the Go toolchain.
func Static() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}

// Handler serves the static site in dir, as the serve command writes it.
//
// Every response carries an ETag (a hash of its bytes) and
// "Cache-Control: no-cache": a browser revalidates each time and gets a
// 304 until the site is rebuilt. robotstxt.wasm is served from
// robotstxt.wasm.gz, with "Content-Encoding: gzip", to a browser that
// accepts gzip (about a quarter of the bytes), and with
// "Vary: Accept-Encoding" either way. /favicon.ico is the page's SVG icon.
func Handler(dir string) http.Handler {
	h := &handler{root: http.Dir(dir), tags: make(map[string]etag)}
	return h
}

type handler struct {
	root http.FileSystem

	mu   sync.Mutex
	tags map[string]etag // by file name
}

// etag is the hash of a file as it was at modTime with size bytes.
type etag struct {
	modTime time.Time
	size    int64
	tag     string
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := path.Clean("/" + r.URL.Path)
	switch {
	case name == "/":
		name = "/index.html"
	case name == "/favicon.ico":
		name = "/favicon.svg"
	}
	w.Header().Set("Cache-Control", "no-cache")
	file := name
	if strings.HasSuffix(name, ".wasm") {
		// Browsers compile streamed WebAssembly only with this type.
		w.Header().Set("Content-Type", "application/wasm")
		w.Header().Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			if f, err := h.root.Open(name + ".gz"); err == nil {
				f.Close()
				file = name + ".gz"
				w.Header().Set("Content-Encoding", "gzip")
			}
		}
	}
	if strings.HasSuffix(name, ".svg") {
		w.Header().Set("Content-Type", "image/svg+xml")
	}
	f, err := h.root.Open(file)
	if err != nil {
		w.Header().Del("Content-Encoding")
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.IsDir() {
		w.Header().Del("Content-Encoding")
		http.NotFound(w, r)
		return
	}
	tag, err := h.etag(file, f, info)
	if err != nil {
		http.Error(w, "cannot read "+name, http.StatusInternalServerError)
		return
	}
	w.Header().Set("ETag", tag)
	// ServeContent answers If-None-Match with 304, and ranges.
	http.ServeContent(w, r, name, info.ModTime(), f)
}

// etag returns the ETag of the file, hashing it again only when it
// changed, and leaves f at its start.
func (h *handler) etag(name string, f http.File, info fs.FileInfo) (string, error) {
	h.mu.Lock()
	e, ok := h.tags[name]
	h.mu.Unlock()
	if ok && e.modTime.Equal(info.ModTime()) && e.size == info.Size() {
		return e.tag, nil
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	tag := `"` + hex.EncodeToString(sum.Sum(nil)[:12]) + `"`
	h.mu.Lock()
	h.tags[name] = etag{modTime: info.ModTime(), size: info.Size(), tag: tag}
	h.mu.Unlock()
	return tag, nil
}

// acceptsGzip reports whether an Accept-Encoding header accepts gzip: it
// names gzip (or *) without q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		if strings.HasPrefix(q, "q=0") && strings.Trim(strings.TrimPrefix(q, "q="), "0.") == "" {
			return false
		}
		return true
	}
	return false
}
