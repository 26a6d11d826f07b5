package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

// Issue 15: stopping the server removes the site it built.
func TestRunRemovesTheSite(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the library to WebAssembly")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command in PATH")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, "127.0.0.1:0", "", pw)
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
