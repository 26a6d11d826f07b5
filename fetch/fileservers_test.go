package fetch_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/servers"
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

// startNginxFiles serves root with nginx's defaults for static files
// (merge_slashes on).
func startNginxFiles(t *testing.T, root string) string {
	bin := servers.Find(t, "nginx", "nginx", "the Transport against nginx's reading of paths", "/usr/sbin/nginx")
	dir := servers.Dir(t)
	port := servers.FreePort(t)
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o755); err != nil {
		t.Fatal(err)
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
`, servers.NginxUser(), dir, port, root)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + port
	servers.Run(t, "nginx", exec.Command(bin, "-p", dir, "-c", confPath, "-e", filepath.Join(dir, "error.log"), "-g", "daemon off;"), addr, filepath.Join(dir, "error.log"))
	return addr
}

// startApache serves root with Apache's httpd as Debian builds it, with
// its default AllowEncodedSlashes Off (a %2F in a path answers 404), or
// On (a %2F is decoded as any other escape).
func startApache(encodedSlashes bool) func(t *testing.T, root string) string {
	return func(t *testing.T, root string) string {
		bin := servers.Find(t, "apache2", "apache2", "the Transport against apache2's reading of paths", "/usr/sbin/apache2")
		dir := servers.Dir(t)
		port := servers.FreePort(t)
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
		servers.Run(t, "apache2", exec.Command(bin, "-f", confPath, "-DFOREGROUND"), addr, filepath.Join(dir, "error.log"))
		return addr
	}
}

// startLighttpd serves root with lighttpd's defaults.
func startLighttpd(t *testing.T, root string) string {
	bin := servers.Find(t, "lighttpd", "lighttpd", "the Transport against lighttpd's reading of paths", "/usr/sbin/lighttpd")
	dir := servers.Dir(t)
	port := servers.FreePort(t)
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
	servers.Run(t, "lighttpd", exec.Command(bin, "-D", "-f", confPath), addr, filepath.Join(dir, "error.log"))
	return addr
}

// startCaddy serves root with Caddy's file_server, its admin endpoint
// and automatic HTTPS off.
func startCaddy(t *testing.T, root string) string {
	bin := servers.Find(t, "caddy", "caddy", "the Transport against caddy's reading of paths", "/usr/bin/caddy")
	dir := servers.Dir(t)
	port := servers.FreePort(t)
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
	servers.Run(t, "caddy", cmd, addr, "")
	return addr
}

// startPython serves root with python3 -m http.server.
func startPython(t *testing.T, root string) string {
	bin := servers.Find(t, "python3", "python3", "the Transport against python3's reading of paths", "/usr/bin/python3")
	port := servers.FreePort(t)
	addr := "127.0.0.1:" + port
	servers.Run(t, "python3 -m http.server", exec.Command(bin, "-m", "http.server", port, "--bind", "127.0.0.1", "--directory", root), addr, "")
	return addr
}
