package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// Issue 15: stopping the server removes the site it built.
func TestRunRemovesTheSite(t *testing.T) {
	// The real build is tested in web/internal/build and, served, by the
	// browser test; here a stand-in writes one file.
	fakeBuild := func(dir string) error {
		return os.WriteFile(filepath.Join(dir, "favicon.svg"), []byte("<svg/>"), 0o644)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, "127.0.0.1:0", "", pw, fakeBuild)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no serving line: %v (run: %v)", err, <-done)
	}
	m := regexp.MustCompile(`^serving (http://\S+) from (\S+)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("serving line %q", line)
	}
	url, dir := m[1], m[2]
	go io.Copy(io.Discard, pr)
	resp, err := http.Get(url + "favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("favicon.ico: status %d", resp.StatusCode)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("while serving: %v", err)
	}
	cancel() // as SIGINT or SIGTERM do
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not stop")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there after the server stopped (err %v)", dir, err)
	}
}

// A failed build still removes the temporary directory.
func TestRunRemovesTheSiteAfterAFailedBuild(t *testing.T) {
	var dir string
	failing := func(d string) error {
		dir = d
		os.WriteFile(filepath.Join(d, "partial"), []byte("x"), 0o644)
		return errors.New("no go command")
	}
	if err := run(context.Background(), "127.0.0.1:0", "", io.Discard, failing); err == nil || err.Error() != "no go command" {
		t.Errorf("run: %v, want the build's error", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there after a failed build (err %v)", dir, err)
	}
}
