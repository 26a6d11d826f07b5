package fetch_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/servers"
)

// startNginx starts Debian's nginx binary on free loopback ports, with a
// config written in a temporary directory, and stops it at the test's
// end; without the binary it skips the test loudly (CI installs Debian's
// nginx package). Each of the test's sites is served twice: on the first
// port with merge_slashes on (nginx's default), on the second with it
// off. A site's /robots.txt is a file; /robots.txt?to= and /pub/go are
// passed to the redirector at redirector; any other path answers "page".
// Every request is logged as "$host $uri $arg_id", $uri being the path
// nginx resolved (decoded, dot segments removed, slashes merged when on).
func startNginx(t *testing.T, redirector string) (ports [2]string, accessLog string) {
	t.Helper()
	bin := servers.Find(t, "nginx", "nginx", "the Transport against a real server's reading of paths (merge_slashes on and off)", "/usr/sbin/nginx")
	dir := t.TempDir()
	for _, sub := range []string{"tmp", "www/a.test", "www/b.test"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for host, body := range spellingRules {
		if host != "r.test" {
			os.WriteFile(filepath.Join(dir, "www", host, "robots.txt"), []byte(body), 0o644)
		}
	}
	for i := range ports {
		ports[i] = servers.FreePort(t)
	}
	accessLog = filepath.Join(dir, "access.log")
	var serverBlocks strings.Builder
	for i, merge := range []string{"on", "off"} {
		for _, host := range []string{"a.test", "b.test"} {
			fmt.Fprintf(&serverBlocks, `
	server {
		listen 127.0.0.1:%s;
		server_name %s;
		merge_slashes %s;
		access_log %s spell;
		root %s;
		location = /robots.txt {
			if ($arg_to) {
				proxy_pass http://%s;
			}
		}
		location = /pub/go {
			proxy_pass http://%s;
		}
		location / {
			return 200 "page\n";
		}
	}`, ports[i], host, merge, accessLog, filepath.Join(dir, "www", host), redirector, redirector)
		}
	}
	conf := fmt.Sprintf(`%s
worker_processes 1;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log;
events { worker_connections 256; }
http {
	default_type text/plain;
	client_body_temp_path %[2]s/tmp/body;
	proxy_temp_path %[2]s/tmp/proxy;
	fastcgi_temp_path %[2]s/tmp/fastcgi;
	uwsgi_temp_path %[2]s/tmp/uwsgi;
	scgi_temp_path %[2]s/tmp/scgi;
	log_format spell '$host $uri $arg_id';
	%[3]s
}
`, servers.NginxUser(), dir, serverBlocks.String())
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	// nginx binds every listen socket before it serves, so once the first
	// port accepts, so does the second.
	servers.Run(t, "nginx", exec.Command(bin, "-p", dir, "-c", confPath, "-e", filepath.Join(dir, "error.log"), "-g", "daemon off;"), "127.0.0.1:"+ports[0], filepath.Join(dir, "error.log"))
	return ports, accessLog
}

// readNginxLog returns the requests an access log of startNginx holds, by
// request id: host and resolved path. The robots.txt fetches, which have
// no id, are left out.
func readNginxLog(t *testing.T, accessLog string) map[string]string {
	f, err := os.Open(accessLog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		host, rest, _ := strings.Cut(sc.Text(), " ")
		uri, id, _ := strings.Cut(rest, " ")
		if id == "-" {
			continue // the Client's own robots.txt fetches
		}
		got[id] = host + " " + uri
	}
	return got
}

// The generated spellings against a real nginx, which resolves each path
// itself: with merge_slashes on (its default) and off.
func TestTransportSpellingsNginx(t *testing.T) {
	s := &spellingServer{got: map[string]string{}}
	srv := newSpellingRedirector(t, s)
	ports, accessLog := startNginx(t, srv.Listener.Addr().String())
	for i, merge := range []string{"merge_slashes on", "merge_slashes off"} {
		t.Run(merge, func(t *testing.T) {
			s.mu.Lock()
			s.got = map[string]string{}
			s.mu.Unlock()
			nginx := "127.0.0.1:" + ports[i]
			s.addr = map[string]string{"a.test": nginx, "b.test": nginx, "r.test": srv.Listener.Addr().String()}
			if err := os.Truncate(accessLog, 0); err != nil { // nginx appends
				t.Fatal(err)
			}
			runSpellings(t, s, 2000+i, func() map[string]string {
				got := map[string]string{}
				s.mu.Lock()
				for id, hp := range s.got {
					if strings.HasPrefix(hp, "r.test ") { // nginx logs the rest, by its own reading
						got[id] = hp
					}
				}
				s.mu.Unlock()
				// nginx logs a request after it answers: read until the
				// log stops growing.
				all := readNginxLog(t, accessLog)
				for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
					time.Sleep(100 * time.Millisecond)
					again := readNginxLog(t, accessLog)
					if len(again) == len(all) {
						break
					}
					all = again
				}
				if len(all) == 0 {
					t.Fatal("nginx logged no request")
				}
				for id, hp := range all {
					got[id] = hp
				}
				return got
			})
		})
	}
}
