package caddyguard_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/seed50c7eacc/robotstxt/guard/caddyguard"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/guardcases"
)

type discard struct{ header http.Header }

func (d discard) Header() http.Header       { return d.header }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}

// BenchmarkServeHTTP: what the handler adds to a request in Caddy, on a
// parsed file, the next handler doing nothing: a browser's request (the
// pass-through path) and a crawler's its group allows. A refusal is left
// out: it is logged through Caddy's logger, in a test zap's development
// logger writing to standard error, whose cost would be measured.
func BenchmarkServeHTTP(b *testing.B) {
	robots := filepath.Join(b.TempDir(), "robots.txt")
	writeFile(b, robots, guardcases.Robots)
	h := &caddyguard.Handler{Robots: robots}
	if _, err := provision(b, h); err != nil {
		b.Fatal(err)
	}
	next := caddyhttp.HandlerFunc(func(http.ResponseWriter, *http.Request) error { return nil })
	agents := guardcases.Agents()
	for _, bc := range []struct{ name, ua, target string }{
		{"browser", agents[3], "/private/x"},
		{"crawler-allowed", agents[1], "/products/item-1234?color=blue"},
	} {
		req := httptest.NewRequest(http.MethodGet, "http://site.test"+bc.target, nil)
		req.Header.Set("User-Agent", bc.ua)
		w := discard{http.Header{}}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if err := h.ServeHTTP(w, req, next); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
