package web

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// static holds the page: index.html, app.js and style.css.
//
//go:embed static
var static embed.FS

// Static returns the page's files, without robotstxt.wasm and wasm_exec.js,
// which Build makes with the Go toolchain.
func Static() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}

// wasmPackage is the import path of the page's WebAssembly program.
const wasmPackage = "github.com/seed50c7eacc/robotstxt/web/wasm"

// Build writes the static site to dir: the page, robotstxt.wasm compiled
// by the go command found in PATH, and the wasm_exec.js of that same Go
// installation (the two must match). It must run inside this module.
func Build(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := fs.WalkDir(Static(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(Static(), path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path), data, 0o644)
	})
	if err != nil {
		return fmt.Errorf("web: writing the page: %w", err)
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "robotstxt.wasm"), wasmPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("web: building %s: %v\n%s", wasmPackage, err, out)
	}
	support, err := wasmExecJS()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), support, 0o644)
}

// wasmExecJS returns the JavaScript support file of the Go installation,
// found where Go 1.24 and later keep it or where older releases did.
func wasmExecJS() ([]byte, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("web: go env GOROOT: %v", err)
	}
	root := strings.TrimSpace(string(out))
	for _, rel := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err == nil {
			return data, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("web: no wasm_exec.js under %s", root)
}

// Handler serves a site written by Build. Nothing is cached, so that a
// rebuilt site shows at once.
func Handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			// Browsers compile streamed WebAssembly only with this type.
			w.Header().Set("Content-Type", "application/wasm")
		}
		files.ServeHTTP(w, r)
	})
}
