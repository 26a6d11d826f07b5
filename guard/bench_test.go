package guard_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/guard"
)

type discard struct{ http.ResponseWriter }

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}

// BenchmarkDecide: what the guard adds to a request, on a parsed file: a
// browser (the pass-through path), a crawler its group allows and one it
// refuses, and hostile User-Agent headers of 4 and 64 KiB (one run of
// token bytes, and many short tokens), whose cost grows linearly.
func BenchmarkDecide(b *testing.B) {
	g := guard.New([]byte(siteRobots))
	for _, bc := range []struct{ name, ua, target string }{
		{"browser", chrome, "/private/x"},
		{"crawler-allowed", googlebot, "/products/item-1234?color=blue"},
		{"crawler-refused", gptbot, "/products/item-1234"},
		{"hostile-run-4KiB", strings.Repeat("a", 4<<10), "/x"},
		{"hostile-run-64KiB", strings.Repeat("a", 64<<10), "/x"},
		{"hostile-tokens-4KiB", strings.Repeat("Ab/1 ", 4<<10/5), "/x"},
		{"hostile-tokens-64KiB", strings.Repeat("Ab/1 ", 64<<10/5), "/x"},
	} {
		req := httptest.NewRequest("GET", "http://site.test"+bc.target, nil)
		req.Header.Set("User-Agent", bc.ua)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.ua)))
			b.ReportAllocs()
			for range b.N {
				g.Decide(req)
			}
		})
	}
}

// BenchmarkHandler: the pass-through path of the middleware for a browser,
// which allocates nothing.
func BenchmarkHandler(b *testing.B) {
	g := guard.New([]byte(siteRobots))
	h := g.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	req := httptest.NewRequest("GET", "http://site.test/private/x", nil)
	req.Header.Set("User-Agent", chrome)
	w := discard{}
	b.ReportAllocs()
	for range b.N {
		h.ServeHTTP(w, req)
	}
}
