package fetch_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// A robots.txt in a content coding (RFC 9110 section 8.4) is read
// decoded, whether the RoundTripper asked for the coding and undid it or
// the server sent it unasked; one the Client cannot decode, or a corrupt
// one, is a failed fetch (RFC 9309 section 2.3.1.4: nothing is crawled),
// never a file without rules (everything would be). Before, a gzip
// robots.txt sent to a Transport with DisableCompression was parsed as
// it came, and GET /private/x was sent.
func TestRobotsContentEncoding(t *testing.T) {
	const file = "User-agent: *\nDisallow: /private\n"
	compress := func(newWriter func(io.Writer) (io.WriteCloser, error), data []byte) []byte {
		var b bytes.Buffer
		zw, err := newWriter(&b)
		if err != nil {
			t.Fatal(err)
		}
		zw.Write(data)
		zw.Close()
		return b.Bytes()
	}
	gzipWriter := func(w io.Writer) (io.WriteCloser, error) { return gzip.NewWriter(w), nil }
	gz := compress(gzipWriter, []byte(file))
	zl := compress(func(w io.Writer) (io.WriteCloser, error) { return zlib.NewWriter(w), nil }, []byte(file))
	raw := compress(func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestCompression) }, []byte(file))
	gzOfZl := compress(gzipWriter, zl) // deflate, then gzip

	sites := map[string]struct {
		coding string
		body   []byte
		rules  bool // the file is read; else the fetch fails
	}{
		"plain.test":    {"", []byte(file), true},
		"identity.test": {"identity", []byte(file), true},
		"gzip.test":     {"gzip", gz, true},
		"xgzip.test":    {"X-Gzip", gz, true},
		"zlib.test":     {"deflate", zl, true},
		"deflate.test":  {"deflate", raw, true},
		"two.test":      {"deflate, gzip", gzOfZl, true},
		"br.test":       {"br", []byte("\x1b\x20\x00\xf8\xa5\x40"), false},
		"corrupt.test":  {"gzip", gz[:len(gz)/2], false},
		"notgzip.test":  {"gzip", []byte(file), false},
	}
	var mu sync.Mutex
	var pages []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.Host)
		if r.URL.Path == "/robots.txt" {
			site := sites[host]
			if site.coding != "" {
				w.Header().Set("Content-Encoding", site.coding)
			}
			w.Write(site.body)
			return
		}
		mu.Lock()
		pages = append(pages, host+r.URL.Path)
		mu.Unlock()
	}))
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	for _, disable := range []bool{false, true} {
		base := &http.Transport{DisableCompression: disable, DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		}}
		client := &http.Client{Transport: fetch.NewTransport(base, "ExampleBot", &fetch.Client{HTTPClient: &http.Client{Transport: base}})}
		mu.Lock()
		pages = nil
		mu.Unlock()
		var want []string
		for host, site := range sites {
			for _, path := range []string{"/private/x", "/public"} {
				resp, err := client.Get("http://" + host + ":8080" + path)
				if err == nil {
					resp.Body.Close()
				}
				var de *fetch.DisallowedError
				switch {
				case site.rules && path == "/public":
					want = append(want, host+path)
					if err != nil {
						t.Errorf("DisableCompression %v: GET %s%s: %v", disable, host, path, err)
					}
				case site.rules:
					if !errors.As(err, &de) || de.Outcome != robotstxt.Rules {
						t.Errorf("DisableCompression %v: GET %s%s: %v; want disallowed by the rules", disable, host, path, err)
					}
				default:
					if !errors.As(err, &de) || de.Outcome != robotstxt.DisallowAll {
						t.Errorf("DisableCompression %v: GET %s%s: %v; want disallowed, the robots.txt unreachable", disable, host, path, err)
					}
					if host == "br.test" && !errors.Is(err, fetch.ErrContentEncoding) {
						t.Errorf("DisableCompression %v: GET %s%s: %v; want it to wrap ErrContentEncoding", disable, host, path, err)
					}
				}
			}
		}
		mu.Lock()
		got := append([]string(nil), pages...)
		mu.Unlock()
		slices.Sort(got)
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("DisableCompression %v: pages received (-want +got):\n%s", disable, diff)
		}
		base.CloseIdleConnections()
	}
}
