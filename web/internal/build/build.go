// Package build writes the browser tester's static site: the page, the
// library compiled to WebAssembly by the go command, and the go command's
// wasm_exec.js. It runs the go command, so it is internal to web/: only
// the serve command (and the tests) use it.
package build

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/seed50c7eacc/robotstxt/web/internal/site"
)

// wasmPackage is the import path of the page's WebAssembly program.
const wasmPackage = "github.com/seed50c7eacc/robotstxt/web/wasm"

// Site writes the static site to dir: the page, robotstxt.wasm compiled by
// the go command found in PATH, and the wasm_exec.js of that same Go
// installation (the two must match). It also writes robotstxt.wasm.gz,
// which site.Handler serves to browsers that accept gzip (and which a
// static host can serve the same way). It must run inside this module.
func Site(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := fs.WalkDir(site.Static(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(site.Static(), path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path), data, 0o644)
	})
	if err != nil {
		return fmt.Errorf("build: writing the page: %w", err)
	}
	wasm := filepath.Join(dir, "robotstxt.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, wasmPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build: compiling %s: %v\n%s", wasmPackage, err, out)
	}
	if err := gzipFile(wasm); err != nil {
		return err
	}
	support, err := wasmExecJS()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), support, 0o644)
}

// gzipFile writes name.gz beside name, at the best compression: it is
// written once and served many times.
func gzipFile(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	f, err := os.Create(name + ".gz")
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		f.Close()
		return err
	}
	if _, err := zw.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// wasmExecJS returns the JavaScript support file of the Go installation,
// found where Go 1.24 and later keep it or where older releases did.
func wasmExecJS() ([]byte, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("build: go env GOROOT: %v", err)
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
	return nil, fmt.Errorf("build: no wasm_exec.js under %s", root)
}
