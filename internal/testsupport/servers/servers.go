// Package servers starts real servers (nginx, Apache, lighttpd, Caddy,
// Redis: Debian's packages) for tests: each on a loopback port, with its
// configuration and logs in a temporary directory, in a process group of
// its own that is killed when the test ends. A test whose server is not
// installed skips loudly; .ci/run installs them all, so CI runs every such
// test.
package servers

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Find returns the path of a server's binary, looked up in PATH and then
// in places (where Debian installs it outside a user's PATH). Without it
// the test is skipped with a banner that says what goes untested and which
// Debian package to install.
func Find(t testing.TB, name, pkg, untested string, places ...string) string {
	t.Helper()
	if bin, err := exec.LookPath(name); err == nil {
		return bin
	}
	for _, p := range places {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("\n#####################################################################\n"+
		"##  SKIPPED: %s is not installed.\n"+
		"##  Untested: %s.\n"+
		"##  Install it: apt-get install -y %s\n"+
		"#####################################################################", name, untested, pkg)
	return ""
}

// FreePort returns a loopback port that is free now.
func FreePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
}

// Dir returns a temporary directory for a server's configuration and
// logs, readable by a server that drops root for another user.
func Dir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	OpenUp(t, dir)
	return dir
}

// OpenUp makes dir and its parent (t.TempDir's, made 0700) readable and
// searchable by every user, for servers whose workers run as www-data.
func OpenUp(t testing.TB, dir string) {
	t.Helper()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// Run starts cmd in its own process group, waits until addr accepts
// connections, and kills the group when the test ends. logs names a file
// whose content is shown, with the server's output, if it exits or does
// not listen within 15 s.
func Run(t testing.TB, name string, cmd *exec.Cmd, addr, logs string) {
	t.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its workers go with it
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return
		}
		select {
		case err := <-exited:
			exited <- err
			logged, _ := os.ReadFile(logs)
			t.Fatalf("%s exited (%v) before listening on %s; its output:\n%s\n%s", name, err, addr, out.String(), logged)
		default:
		}
		if time.Now().After(deadline) {
			logged, _ := os.ReadFile(logs)
			t.Fatalf("%s did not listen on %s within 15 s; its output:\n%s\n%s", name, addr, out.String(), logged)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// NginxUser is the user directive an nginx configuration needs: nginx
// run as root must be told to keep its workers as root (Debian's default
// user, www-data, cannot read a test's temporary directory).
func NginxUser() string {
	if os.Geteuid() == 0 {
		return "user root;"
	}
	return ""
}
