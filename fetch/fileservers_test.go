package fetch_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Real servers, each started on a loopback port to serve a directory of
// files, for the Transport's promise on every common server: the file
// servers of Go (http.FileServer alone and behind http.ServeMux) run in
// the test; nginx, Apache, lighttpd and Caddy are Debian's packages, and
// Python's http.server is python3's; each test skips loudly without its
// binary (.ci/run installs them). Every server is stopped when its test
// ends.

// A fileServer is one server under test: its name and how to start it
// on a document root, returning the address it listens on.
type fileServer struct {
	name  string
	start func(t *testing.T, root string) (addr string)
}

// fileServers lists the servers the generated spellings run against.
var fileServers = []fileServer{
	{"go-fileserver", startGoFileServer(false)},
	{"go-servemux", startGoFileServer(true)},
	{"nginx", startNginxFiles},
	{"apache", startApache(false)},
	{"apache-encoded-slashes", startApache(true)},
	{"lighttpd", startLighttpd},
	{"caddy", startCaddy},
	{"python-http.server", startPython},
}

// startGoFileServer serves root with http.FileServer, behind an
// http.ServeMux (which cleans a path and redirects to the clean one)
// when mux is true.
func startGoFileServer(mux bool) func(t *testing.T, root string) string {
	return func(t *testing.T, root string) string {
		var h http.Handler = http.FileServer(http.Dir(root))
		if mux {
			m := http.NewServeMux()
			m.Handle("/", h)
			h = m
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.Listener.Addr().String()
	}
}

// findServer returns the path of a server's binary, looked up in PATH and
// then in the places Debian installs it, or skips the test loudly.
func findServer(t *testing.T, name, pkg string, places ...string) string {
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
		"##  SKIPPED: %s is not installed, so the Transport is untested\n"+
		"##  against its reading of paths. Install it:\n"+
		"##  apt-get install -y %s\n"+
		"#####################################################################", name, pkg)
	return ""
}

// freePort returns a loopback port free now.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
}

// serverDir returns a temporary directory for a server's configuration
// and logs, readable by a server that drops root for another user.
func serverDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	openUp(t, dir)
	return dir
}

// openUp makes dir and its parent (t.TempDir's, made 0700) readable and
// searchable by every user, for servers whose workers run as www-data.
func openUp(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// runServer starts cmd in its own process group, waits until addr
// accepts connections, and kills the group when the test ends; logs
// names a file whose content is shown if the server does not listen.
func runServer(t *testing.T, name string, cmd *exec.Cmd, addr, logs string) {
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

// startNginxFiles serves root with nginx's defaults for static files
// (merge_slashes on).
func startNginxFiles(t *testing.T, root string) string {
	bin := findServer(t, "nginx", "nginx", "/usr/sbin/nginx")
	dir := serverDir(t)
	port := freePort(t)
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	conf := fmt.Sprintf(`%s
worker_processes 1;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log;
events { worker_connections 256; }
http {
	default_type text/plain;
	access_log off;
	client_body_temp_path %[2]s/tmp/body;
	proxy_temp_path %[2]s/tmp/proxy;
	fastcgi_temp_path %[2]s/tmp/fastcgi;
	uwsgi_temp_path %[2]s/tmp/uwsgi;
	scgi_temp_path %[2]s/tmp/scgi;
	server {
		listen 127.0.0.1:%[3]s;
		root %[4]s;
	}
}
`, user, dir, port, root)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + port
	runServer(t, "nginx", exec.Command(bin, "-p", dir, "-c", confPath, "-e", filepath.Join(dir, "error.log"), "-g", "daemon off;"), addr, filepath.Join(dir, "error.log"))
	return addr
}

// startApache serves root with Apache's httpd as Debian builds it, with
// its default AllowEncodedSlashes Off (a %2F in a path answers 404), or
// On (a %2F is decoded as any other escape).
func startApache(encodedSlashes bool) func(t *testing.T, root string) string {
	return func(t *testing.T, root string) string {
		bin := findServer(t, "apache2", "apache2", "/usr/sbin/apache2")
		dir := serverDir(t)
		port := freePort(t)
		modules := "/usr/lib/apache2/modules"
		allow := "Off"
		if encodedSlashes {
			allow = "On"
		}
		user := ""
		if os.Geteuid() == 0 {
			user = "User www-data\nGroup www-data"
		}
		conf := fmt.Sprintf(`ServerRoot %[1]s
DefaultRuntimeDir %[1]s
PidFile %[1]s/httpd.pid
ErrorLog %[1]s/error.log
LogLevel warn
ServerName site.test
Listen 127.0.0.1:%[2]s
LoadModule mpm_event_module %[3]s/mod_mpm_event.so
LoadModule authz_core_module %[3]s/mod_authz_core.so
LoadModule dir_module %[3]s/mod_dir.so
LoadModule mime_module %[3]s/mod_mime.so
%[6]s
TypesConfig /dev/null
DirectoryIndex index.html
DocumentRoot %[4]s
<Directory />
	Require all denied
	AllowOverride None
</Directory>
<Directory %[4]s>
	Require all granted
	Options None
</Directory>
AllowEncodedSlashes %[5]s
`, dir, port, modules, root, allow, user)
		confPath := filepath.Join(dir, "httpd.conf")
		if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		addr := "127.0.0.1:" + port
		runServer(t, "apache2", exec.Command(bin, "-f", confPath, "-DFOREGROUND"), addr, filepath.Join(dir, "error.log"))
		return addr
	}
}

// startLighttpd serves root with lighttpd's defaults.
func startLighttpd(t *testing.T, root string) string {
	bin := findServer(t, "lighttpd", "lighttpd", "/usr/sbin/lighttpd")
	dir := serverDir(t)
	port := freePort(t)
	user := ""
	if os.Geteuid() == 0 {
		user = `server.username = "www-data"` + "\n" + `server.groupname = "www-data"`
	}
	conf := fmt.Sprintf(`server.document-root = "%s"
server.bind = "127.0.0.1"
server.port = %s
index-file.names = ( "index.html" )
mimetype.assign = ( "" => "text/plain" )
%s
`, root, port, user)
	confPath := filepath.Join(dir, "lighttpd.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + port
	runServer(t, "lighttpd", exec.Command(bin, "-D", "-f", confPath), addr, filepath.Join(dir, "error.log"))
	return addr
}

// startCaddy serves root with Caddy's file_server, its admin endpoint
// and automatic HTTPS off.
func startCaddy(t *testing.T, root string) string {
	bin := findServer(t, "caddy", "caddy", "/usr/bin/caddy")
	dir := serverDir(t)
	port := freePort(t)
	conf := fmt.Sprintf(`{
	admin off
	auto_https off
	storage file_system %[1]s/data
}
http://:%[2]s {
	root * %[3]s
	file_server
}
`, dir, port, root)
	confPath := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--config", confPath, "--adapter", "caddyfile")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir+"/config", "XDG_DATA_HOME="+dir+"/data")
	addr := "127.0.0.1:" + port
	runServer(t, "caddy", cmd, addr, "")
	return addr
}

// startPython serves root with python3 -m http.server.
func startPython(t *testing.T, root string) string {
	bin := findServer(t, "python3", "python3", "/usr/bin/python3")
	port := freePort(t)
	addr := "127.0.0.1:" + port
	runServer(t, "python3 -m http.server", exec.Command(bin, "-m", "http.server", port, "--bind", "127.0.0.1", "--directory", root), addr, "")
	return addr
}
