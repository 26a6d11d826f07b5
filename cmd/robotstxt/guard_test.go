package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt/internal/app/httpserve"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/guardcases"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/servers"
)

// startNginxSite starts Debian's nginx on a loopback port, answering every
// path with "site" and the path it resolved; it skips loudly without the
// binary (.ci/run installs it) and is stopped when the test ends.
func startNginxSite(t *testing.T) string {
	t.Helper()
	bin := servers.Find(t, "nginx", "nginx", "the guard's reverse proxy in front of a real server", "/usr/sbin/nginx")
	dir := t.TempDir()
	addr := "127.0.0.1:" + servers.FreePort(t)
	conf := fmt.Sprintf(`%s
worker_processes 1;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log;
events { worker_connections 64; }
http {
	access_log off;
	client_body_temp_path %[2]s/body;
	proxy_temp_path %[2]s/proxy;
	fastcgi_temp_path %[2]s/fastcgi;
	uwsgi_temp_path %[2]s/uwsgi;
	scgi_temp_path %[2]s/scgi;
	server {
		listen %[3]s;
		location / { return 200 "site $uri\n"; }
	}
}
`, servers.NginxUser(), dir, addr)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	servers.Run(t, "nginx", exec.Command(bin, "-p", dir, "-c", confPath, "-e", filepath.Join(dir, "error.log"), "-g", "daemon off;"), addr, filepath.Join(dir, "error.log"))
	return addr
}

// The reverse proxy in front of a real nginx refuses and passes the same
// requests as the middleware, serves /robots.txt from its file, and reads
// the file again when it changes.
func TestGuardProxyInFrontOfNginx(t *testing.T) {
	site := startNginxSite(t)
	robotsPath := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(robotsPath, []byte(guardcases.Robots), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	h, err := newGuardProxy(&guardFlags{robots: robotsPath, upstream: "http://" + site, impostors: "unnamed", status: http.StatusForbidden}, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- httpserve.Until(ctx, l, h) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("httpserve.Until: %v", err)
		}
	}()
	proxyURL := "http://" + l.Addr().String()

	// The table shared with the Caddy module's test (internal/testsupport/guardcases).
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	refused := 0
	for _, c := range guardcases.Cases() {
		req, _ := http.NewRequest("GET", proxyURL+c.Path, nil)
		req.Header.Set("User-Agent", c.UserAgent)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()

		wantStatus, wantBody := guardcases.Middleware(guardcases.Robots, c)
		if resp.StatusCode != wantStatus {
			t.Errorf("GET %s as %q: the proxy answers %d %q, the middleware %d %q", c.Path, c.UserAgent, resp.StatusCode, body, wantStatus, wantBody)
		}
		switch {
		case resp.StatusCode == http.StatusForbidden:
			refused++
			if string(body) != wantBody {
				t.Errorf("GET %s as %q: refusal body %q, the middleware's %q", c.Path, c.UserAgent, body, wantBody)
			}
		case c.Path == "/robots.txt":
			if string(body) != guardcases.Robots {
				t.Errorf("GET /robots.txt: %q, want the file", body)
			}
		case !strings.HasPrefix(string(body), "site "):
			t.Errorf("GET %s as %q: %d %q, not from the upstream", c.Path, c.UserAgent, resp.StatusCode, body)
		}
	}
	if refused != guardcases.Refused {
		t.Errorf("%d requests refused, want %d", refused, guardcases.Refused)
	}
	if n := strings.Count(logs.String(), "guard: refused"); n != refused {
		t.Errorf("%d refusals logged, %d made", n, refused)
	}

	// A new file applies, and is served, once it changes.
	if err := os.WriteFile(robotsPath, []byte(guardcases.Changed), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		req, _ := http.NewRequest("GET", proxyURL+"/public/x", nil)
		req.Header.Set("User-Agent", guardcases.Agents()[2]) // bingbot
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusForbidden {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the changed robots.txt did not apply within 5 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The command's usage errors.
func TestGuardUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-robots", "x"},
		{"-robots", "/nonexistent/robots.txt", "-upstream", "http://127.0.0.1:1"},
		{"-robots", "../../testdata/robots.txt", "-upstream", "ftp://x"},
		{"-robots", "../../testdata/robots.txt", "-upstream", "http://x", "-impostors", "maybe"},
		{"-robots", "../../testdata/robots.txt", "-upstream", "http://x", "extra"},
		{"-robots", "../../testdata/robots.txt", "-upstream", "http://x", "-listen", "256.0.0.1:1"},
	} {
		var stdout, stderr bytes.Buffer
		if status := run(append([]string{"guard"}, args...), nil, &stdout, &stderr); status != exitError || !strings.Contains(stderr.String(), "guard: ") {
			t.Errorf("guard %q: status %d, stderr %q", args, status, stderr.String())
		}
	}
}
