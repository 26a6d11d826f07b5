package fetch_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// A site that enforces its own robots.txt matches the User-Agent of a
// request against the groups of that file, so a crawler's pages must go
// out under the name its robots.txt was fetched and obeyed for: the
// Transport gives a request without a User-Agent the Client's, and keeps
// one the caller set (an empty one included, which net/http sends as
// none). Before, pages went out as Go-http-client/1.1.
func TestTransportUserAgent(t *testing.T) {
	var mu sync.Mutex
	got := map[string][]string{} // path -> the User-Agent headers received
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.URL.Path] = r.Header.Values("User-Agent")
		mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
			return
		}
		if r.URL.Path == "/hop" {
			http.Redirect(w, r, "/after-hop", http.StatusFound)
			return
		}
		fmt.Fprint(w, "page")
	}))
	defer srv.Close()
	const ua = "ExampleBot/1.0 (+https://example.com/bot)"
	robots := &fetch.Client{UserAgent: ua, HTTPClient: srv.Client()}
	client := &http.Client{Transport: fetch.NewTransport(srv.Client().Transport, "ExampleBot", robots)}

	for _, tc := range []struct {
		path   string
		header []string // the User-Agent values set on the request; nil for none
		want   []string // what the server receives; nil for no header
	}{
		{"/none", nil, []string{ua}},
		{"/own", []string{"OwnName/2.0"}, []string{"OwnName/2.0"}},
		{"/empty", []string{""}, nil},
		{"/hop", nil, []string{ua}},
		{"/robots.txt", nil, []string{ua}},
	} {
		req, err := http.NewRequest(http.MethodGet, srv.URL+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.header != nil {
			req.Header["User-Agent"] = tc.header
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", tc.path, err)
		}
		resp.Body.Close()
		mu.Lock()
		received := got[tc.path]
		mu.Unlock()
		if diff := cmp.Diff(tc.want, received); diff != "" {
			t.Errorf("GET %s with User-Agent %q: the server received (-want +got):\n%s", tc.path, tc.header, diff)
		}
		if tc.header == nil && req.Header.Get("User-Agent") != "" {
			t.Errorf("GET %s: the Transport changed the caller's request", tc.path)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{ua}, got["/after-hop"]); diff != "" {
		t.Errorf("the redirect hop's User-Agent (-want +got):\n%s", diff)
	}
}
