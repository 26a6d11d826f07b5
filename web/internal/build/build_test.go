package build

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSite compiles the real site with the go command.
func TestSite(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the library to WebAssembly")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command in PATH")
	}
	dir := t.TempDir()
	if err := Site(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", "app.js", "style.css", "favicon.svg", "wasm_exec.js", "robotstxt.wasm", "robotstxt.wasm.gz"} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	wasm, _ := os.ReadFile(filepath.Join(dir, "robotstxt.wasm"))
	if !strings.HasPrefix(string(wasm), "\x00asm") {
		t.Error("robotstxt.wasm is not a WebAssembly module")
	}
	gz, _ := os.ReadFile(filepath.Join(dir, "robotstxt.wasm.gz"))
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(unzipped, wasm) {
		t.Errorf("robotstxt.wasm.gz does not hold robotstxt.wasm (err %v)", err)
	}
	t.Logf("robotstxt.wasm: %d bytes, gzipped %d (%.0f%%)", len(wasm), len(gz), 100*float64(len(gz))/float64(len(wasm)))
}
