package main

import (
	"archive/zip"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A go.mod with a replace is refused (the Go Modules Reference, "replace
// directive": replace directives apply only in the main module's go.mod
// and are ignored in other modules).
func TestCheckGoModRefusesReplace(t *testing.T) {
	m := module{Path: "example.com/r/sub", Version: "v0.1.0", Subdir: "sub"}
	tests := []struct {
		gomod string
		err   error
	}{
		{"module example.com/r/sub\n\ngo 1.25.0\n\nrequire example.com/r v0.1.0\n", nil},
		{"module example.com/r/sub\n\ngo 1.25.0\n\nrequire example.com/r v0.0.0\n\nreplace example.com/r => ../\n", ErrReplace},
	}
	for _, tt := range tests {
		if err := checkGoMod(m, []byte(tt.gomod)); !errors.Is(err, tt.err) {
			t.Errorf("checkGoMod(%q) = %v, want %v", tt.gomod, err, tt.err)
		}
	}
	if err := checkGoMod(m, []byte("module example.com/other\n")); err == nil {
		t.Error("a go.mod naming another module was accepted")
	}
}

// publish writes what the module proxy protocol (the Go Modules
// Reference, "GOPROXY protocol") serves: list, .info, .mod and .zip; the
// root's zip leaves the nested module and uncommitted files out.
func TestPublish(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write("go.mod", "module example.com/r\n\ngo 1.25.0\n")
	write("r.go", "package r\n")
	write("sub/go.mod", "module example.com/r/sub\n\ngo 1.25.0\n\nrequire example.com/r v0.1.0\n")
	write("sub/s.go", "package sub\n")
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "x")
	write("uncommitted.go", "package r\n")

	out := t.TempDir()
	for _, m := range []module{{"example.com/r", "v0.1.0", "."}, {"example.com/r/sub", "v0.1.0", "sub"}} {
		if err := publish(out, repo, "HEAD", m); err != nil {
			t.Fatal(err)
		}
	}
	files := func(zipPath string) []string {
		t.Helper()
		zr, err := zip.OpenReader(zipPath)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
		}
		slices.Sort(names)
		return names
	}
	if diff := cmp.Diff([]string{"example.com/r@v0.1.0/go.mod", "example.com/r@v0.1.0/r.go"}, files(filepath.Join(out, "example.com/r/@v/v0.1.0.zip"))); diff != "" {
		t.Errorf("root zip (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"example.com/r/sub@v0.1.0/go.mod", "example.com/r/sub@v0.1.0/s.go"}, files(filepath.Join(out, "example.com/r/sub/@v/v0.1.0.zip"))); diff != "" {
		t.Errorf("nested zip (-want +got):\n%s", diff)
	}
	for _, name := range []string{"list", "v0.1.0.info", "v0.1.0.mod"} {
		if _, err := os.Stat(filepath.Join(out, "example.com/r/sub/@v", name)); err != nil {
			t.Error(err)
		}
	}
	// Published twice, the version is listed once.
	if err := publish(out, repo, "HEAD", module{"example.com/r", "v0.1.0", "."}); err != nil {
		t.Fatal(err)
	}
	if list, _ := os.ReadFile(filepath.Join(out, "example.com/r/@v/list")); string(list) != "v0.1.0\n" {
		t.Errorf("list %q", list)
	}
}
