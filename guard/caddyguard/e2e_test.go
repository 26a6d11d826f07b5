package caddyguard_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/guardcases"
)

// buildCaddy builds Caddy with its standard modules and this one, as
// "xcaddy build --with github.com/seed50c7eacc/robotstxt/guard/caddyguard"
// does: a module of its own in a temporary directory, with
// testdata/caddy/main.go, requiring this module (replaced by the code
// here, as xcaddy does for a local --with) and, through it, Caddy from the
// module proxy. The main module is replaced by the code beside this one,
// as go.work replaces it. In the workspace, the build also requires the
// versions the workspace selects (go.work raises some, such as
// golang.org/x/sys and OpenTelemetry, above what this module names), so
// that the Caddy packages the tests already compiled come from the build
// cache instead of being compiled again. It skips loudly when the module
// proxy cannot be reached, unless ROBOTSTXT_REQUIRE_CADDY=1 (.ci/run sets
// it).
func buildCaddy(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build Caddy with: %v", err)
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(here, "..", "..")
	dir := t.TempDir()
	var gomod strings.Builder
	fmt.Fprintf(&gomod, "module example.com/caddy\n\ngo 1.25.0\n\nrequire github.com/seed50c7eacc/robotstxt/guard/caddyguard v0.0.0\n\n")
	fmt.Fprintf(&gomod, "replace github.com/seed50c7eacc/robotstxt/guard/caddyguard => %q\n\n", here)
	fmt.Fprintf(&gomod, "replace github.com/seed50c7eacc/robotstxt v0.1.0 => %q\n", repo)
	// Outside the workspace this fails (v0.1.0 is not published yet),
	// and the build takes the versions this module names.
	list := exec.Command(goBin, "list", "-m", "-f", "{{if not .Main}}{{.Path}} {{.Version}}{{end}}", "all")
	if selected, err := list.Output(); err == nil {
		gomod.WriteString("\nrequire (\n")
		for line := range strings.Lines(string(selected)) {
			if line = strings.TrimSpace(line); line != "" {
				fmt.Fprintf(&gomod, "\t%s\n", line)
			}
		}
		gomod.WriteString(")\n")
	}
	main, err := os.ReadFile(filepath.Join("testdata", "caddy", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"go.mod": []byte(gomod.String()), "main.go": main} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "caddy")
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", bin, "."}} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err == nil {
			continue
		}
		if unreachable.Match(out) && os.Getenv("ROBOTSTXT_REQUIRE_CADDY") != "1" {
			t.Skipf("\n#####################################################################\n"+
				"##  SKIPPED: Caddy could not be built with this module, because the\n"+
				"##  module proxy cannot be reached: the module is untested in a real\n"+
				"##  Caddy. go %s said:\n%s\n"+
				"#####################################################################", strings.Join(args, " "), out)
		}
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin
}

// unreachable matches what the go command says when it cannot download.
var unreachable = regexp.MustCompile(`dial tcp|no such host|connection refused|i/o timeout|TLS handshake timeout|network is unreachable`)

// startCaddy runs bin with caddyfile on a loopback port until the test
// ends, its log in log; it returns the site's URL.
func startCaddy(t *testing.T, bin, caddyfile string, log *bytes.Buffer) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	dir := t.TempDir()
	conf := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(conf, []byte(strings.ReplaceAll(caddyfile, "ADDR", addr)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--config", conf, "--adapter", "caddyfile")
	// Caddy keeps its state under these; a test's stay in its directory.
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting Caddy: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("Caddy exited: %v\n%s", err, log)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("Caddy did not listen on %s:\n%s", addr, log)
		}
	}
}

// A Caddy built with the module from the module proxy, serving a site
// directory on loopback with file_server behind robotstxt_guard, refuses
// and passes the requests of the shared table as package guard's
// middleware does (the same status and refusal body), serves /robots.txt
// from the guard's file, logs each refusal through Caddy's logger,
// exports its counts in Caddy's metrics, and applies a changed file.
func TestCaddyEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building Caddy takes minutes; .ci/run runs this test in its plain 'go test' step")
	}
	if raceEnabled {
		// The Caddy binary is built without -race and this test only
		// sends it requests: under -race it would test nothing more
		// than the plain run does, for another link of Caddy.
		t.Skip("-race: the Caddy binary is not built with the race detector; the plain run tests it")
	}
	bin := buildCaddy(t)

	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	writeFile(t, robots, guardcases.Robots)
	root := filepath.Join(dir, "www")
	files := map[string]string{
		"index.html":         "home\n",
		"public/x":           "public x\n",
		"private/x":          "private x\n",
		"robots.txt":         "User-agent: *\nAllow: /\n", // the guard answers /robots.txt from its own file
		"private/index.html": "private\n",                 // so that file_server redirects /private to /private/
	}
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, content)
	}
	var log bytes.Buffer
	siteURL := startCaddy(t, bin, fmt.Sprintf(`{
	admin off
	persist_config off
	auto_https off
	storage file_system %[1]q
}

http://ADDR {
	root * %[2]q
	robotstxt_guard {
		robots %[3]q
		check_interval 10ms
		metrics
	}
	metrics /metrics
	file_server
}
`, filepath.Join(dir, "data"), root, robots), &log)

	// What file_server answers the requests the guard passes.
	type answer struct {
		Status int
		Body   string
	}
	served := map[string]answer{
		"/":                    {200, "home\n"},
		"/public/x":            {200, "public x\n"},
		"/private/x":           {200, "private x\n"},
		"/public/../private/x": {200, "private x\n"},
		"/%70rivate/x":         {200, "private x\n"},
		"/robots.txt":          {200, guardcases.Robots},
		"/private":             {308, "<a href=\"/private/\">Permanent Redirect</a>.\n\n"}, // to /private/, as net/http.Redirect words it
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path, userAgent string) answer {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, siteURL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("User-Agent", userAgent)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return answer{resp.StatusCode, string(body)}
	}
	refused := 0
	for _, c := range guardcases.Cases() {
		got := get(c.Path, c.UserAgent)
		status, body := guardcases.Middleware(guardcases.Robots, c)
		want := served[c.Path]
		if status != http.StatusOK { // the middleware refuses: Caddy must, alike
			want = answer{status, body}
			refused++
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("GET %s as %q (-want +Caddy):\n%s", c.Path, c.UserAgent, diff)
		}
	}
	if refused != guardcases.Refused {
		t.Errorf("the middleware refused %d requests, want %d", refused, guardcases.Refused)
	}
	if n := strings.Count(log.String(), `"msg":"guard: refused"`); n != refused {
		t.Errorf("Caddy's log has %d refusals, want %d:\n%s", n, refused, log.String())
	}
	firefox := guardcases.Agents()[3]
	if m := get("/metrics", firefox); !strings.Contains(m.Body, fmt.Sprintf("caddy_robotstxt_guard_refused_total{robots=%q} %d\n", robots, refused)) {
		t.Errorf("Caddy's metrics do not count %d refusals:\n%s", refused, grepLines(m.Body, "robotstxt_guard"))
	}

	// The file changes: its rules apply, and it is what /robots.txt
	// serves, within the check interval (10 ms) and a request.
	writeFile(t, robots, guardcases.Changed)
	bingbot := guardcases.Agents()[2]
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if get("/public/x", bingbot).Status == http.StatusForbidden {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the changed robots.txt did not apply within 5 s")
		}
	}
	if got := get("/robots.txt", bingbot); got.Body != guardcases.Changed {
		t.Errorf("after the change /robots.txt is %q", got.Body)
	}
	if got := get("/public/x", firefox); got.Status != http.StatusOK {
		t.Errorf("after the change Firefox gets %d for /public/x, want 200: browsers always pass", got.Status)
	}
}

func grepLines(s, substr string) string {
	var out []string
	for line := range strings.Lines(s) {
		if strings.Contains(line, substr) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}
