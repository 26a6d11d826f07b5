package robotstxt_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
)

// "Google's docs" below is Google's robots.txt documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt.

const statusBody = "User-agent: *\nDisallow: /private\n"

// What each status class means: RFC 9309 section 2.3.1 and Google's docs,
// "Handling of errors and HTTP status codes" (429 is a server error).
func TestFromStatus(t *testing.T) {
	tests := []struct {
		code    int
		outcome robotstxt.Outcome
		public  bool // may /public be fetched
		private bool // may /private be fetched
	}{
		{200, robotstxt.Rules, true, false},
		{204, robotstxt.Rules, true, false},
		{299, robotstxt.Rules, true, false},
		{301, robotstxt.AllowAll, true, true}, // RFC 9309 section 2.3.1.2: redirects not followed to the end count as 404
		{304, robotstxt.AllowAll, true, true},
		{400, robotstxt.AllowAll, true, true}, // RFC 9309 section 2.3.1.3
		{401, robotstxt.AllowAll, true, true},
		{403, robotstxt.AllowAll, true, true},
		{404, robotstxt.AllowAll, true, true},
		{410, robotstxt.AllowAll, true, true},
		{429, robotstxt.DisallowAll, false, false}, // RFC 9309 section 2.3.1.4; Google's docs: 429 is a server error
		{500, robotstxt.DisallowAll, false, false},
		{503, robotstxt.DisallowAll, false, false},
		{599, robotstxt.DisallowAll, false, false},
		{100, robotstxt.DisallowAll, false, false}, // RFC 9309 section 2.3.1.4: an invalid response is a server error
		{600, robotstxt.DisallowAll, false, false},
		{0, robotstxt.DisallowAll, false, false},
	}
	for _, tt := range tests {
		r := robotstxt.FromStatus(tt.code, []byte(statusBody))
		if got := r.Outcome(); got != tt.outcome {
			t.Errorf("FromStatus(%d).Outcome() = %v, want %v", tt.code, got, tt.outcome)
		}
		if got := r.Allowed("Googlebot", "http://example.com/public"); got != tt.public {
			t.Errorf("FromStatus(%d): /public allowed = %v, want %v", tt.code, got, tt.public)
		}
		if got := r.Agent("Googlebot").Allowed("http://example.com/private"); got != tt.private {
			t.Errorf("FromStatus(%d): /private allowed = %v, want %v", tt.code, got, tt.private)
		}
	}
}

func TestDisallowAllVerdict(t *testing.T) {
	r := robotstxt.FromStatus(503, nil)
	want := robotstxt.Verdict{Allowed: false}
	if v := r.Explain("x", "/"); v != want {
		t.Errorf("Explain = %+v, want %+v", v, want)
	}
	if n := testing.AllocsPerRun(100, func() { r.Allowed("x", "/") }); n != 0 {
		t.Errorf("Allowed on DisallowAll allocated %v times", n)
	}
	if robotstxt.Parse(nil).Outcome() != robotstxt.Rules || (*robotstxt.Robots)(nil).Outcome() != robotstxt.Rules {
		t.Error("a parsed or nil Robots is not Rules")
	}
	if got := fmt.Sprint(robotstxt.Rules, robotstxt.AllowAll, robotstxt.DisallowAll, robotstxt.Outcome(9)); got != "rules allow all disallow all Outcome(9)" {
		t.Errorf("Outcome strings: %q", got)
	}
}

// FromResponse over real HTTP on loopback.
func TestFromResponse(t *testing.T) {
	big := statusBody + strings.Repeat("# padding\n", robotstxt.DefaultMaxSize/10) + "Disallow: /late\n"
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, statusBody) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, big) })
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusNotFound) })
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "later", http.StatusTooManyRequests) })
	mux.HandleFunc("/down", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", http.StatusServiceUnavailable) })
	mux.HandleFunc("/cut", func(w http.ResponseWriter, r *http.Request) {
		// Promise more than is sent, then drop the connection.
		w.Header().Set("Content-Length", "1000")
		io.WriteString(w, statusBody)
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	tests := []struct {
		path    string
		outcome robotstxt.Outcome
		errText string
		check   func(t *testing.T, r *robotstxt.Robots)
	}{
		{"/ok", robotstxt.Rules, "", func(t *testing.T, r *robotstxt.Robots) {
			if r.Allowed("x", "/private") || !r.Allowed("x", "/public") {
				t.Error("rules of the body not applied")
			}
		}},
		{"/big", robotstxt.Rules, "", func(t *testing.T, r *robotstxt.Robots) {
			if !r.Allowed("x", "/late") || r.Size() != robotstxt.DefaultMaxSize || !r.Truncated() {
				t.Errorf("a rule past 500 KiB applied, or size %d, or Truncated() %v", r.Size(), r.Truncated())
			}
		}},
		{"/missing", robotstxt.AllowAll, "", nil},
		{"/busy", robotstxt.DisallowAll, "", nil},
		{"/down", robotstxt.DisallowAll, "", nil},
		{"/cut", robotstxt.DisallowAll, "unexpected EOF", nil},
	}
	for _, tt := range tests {
		resp, err := http.Get(srv.URL + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		body := &closeRecorder{ReadCloser: resp.Body}
		resp.Body = body
		r, err := robotstxt.FromResponse(resp)
		if tt.errText == "" && err != nil || tt.errText != "" && (err == nil || !strings.Contains(err.Error(), tt.errText)) {
			t.Errorf("%s: error %v, want one containing %q", tt.path, err, tt.errText)
		}
		if tt.errText != "" && err != nil && !strings.Contains(err.Error(), srv.URL+tt.path) {
			t.Errorf("%s: error %q does not name the URL", tt.path, err)
		}
		if r.Outcome() != tt.outcome {
			t.Errorf("%s: outcome %v, want %v", tt.path, r.Outcome(), tt.outcome)
		}
		if !body.closed {
			t.Errorf("%s: body not closed", tt.path)
		}
		if tt.check != nil {
			tt.check(t, r)
		}
	}
}

type closeRecorder struct {
	io.ReadCloser
	closed bool
}

func (c *closeRecorder) Close() error {
	c.closed = true
	return c.ReadCloser.Close()
}

type failingBody struct{ sent bool }

func (f *failingBody) Read(p []byte) (int, error) {
	if !f.sent {
		f.sent = true
		return copy(p, "User-agent: *\n"), nil
	}
	return 0, errors.New("connection reset by peer")
}
func (f *failingBody) Close() error { return nil }

func TestFromResponseEdgeCases(t *testing.T) {
	r, err := robotstxt.FromResponse(nil)
	if err == nil || r.Outcome() != robotstxt.DisallowAll {
		t.Errorf("nil response: %v, %v", r.Outcome(), err)
	}
	r, err = robotstxt.FromResponse(&http.Response{StatusCode: 200})
	if err != nil || r.Outcome() != robotstxt.Rules || !r.Allowed("x", "/") {
		t.Errorf("no body: %v, %v", r.Outcome(), err)
	}
	r, err = robotstxt.FromResponse(&http.Response{StatusCode: 200, Body: &failingBody{}})
	if err == nil || !strings.Contains(err.Error(), "connection reset by peer") || r.Outcome() != robotstxt.DisallowAll {
		t.Errorf("failing body: %v, %v", r.Outcome(), err)
	}
}

// A body cut at the limit says so, as Parse of the same bytes does; a body
// of exactly the limit is whole (RFC 9309 section 2.5: a crawler may cut
// a file at a limit of at least 500 KiB; Google's documentation: 500 KiB).
func TestFromResponseTruncated(t *testing.T) {
	for _, size := range []int{780000, robotstxt.DefaultMaxSize + 1, robotstxt.DefaultMaxSize, 1000} {
		body := []byte(statusBody + strings.Repeat("#", size-len(statusBody)))
		resp := &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(string(body)))}
		r, err := robotstxt.FromResponse(resp)
		if err != nil {
			t.Fatalf("%d bytes: %v", size, err)
		}
		want := robotstxt.Parse(body)
		if r.Truncated() != want.Truncated() || r.Size() != want.Size() {
			t.Errorf("%d bytes: FromResponse Truncated() %v Size() %d; Parse of the same bytes %v %d", size, r.Truncated(), r.Size(), want.Truncated(), want.Size())
		}
		if r.Truncated() != (size > robotstxt.DefaultMaxSize) {
			t.Errorf("%d bytes: Truncated() %v", size, r.Truncated())
		}
	}
}
