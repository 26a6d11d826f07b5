package robotstxt

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const statusBody = "User-agent: *\nDisallow: /private\n"

// SPEC 2.2-2.5: what each status class means.
func TestFromStatus(t *testing.T) {
	tests := []struct {
		code    int
		outcome Outcome
		public  bool // may /public be fetched
		private bool // may /private be fetched
	}{
		{200, Rules, true, false},
		{204, Rules, true, false},
		{299, Rules, true, false},
		{301, AllowAll, true, true}, // SPEC 2.3: redirects not followed to the end count as 404
		{304, AllowAll, true, true},
		{400, AllowAll, true, true}, // SPEC 2.4
		{401, AllowAll, true, true},
		{403, AllowAll, true, true},
		{404, AllowAll, true, true},
		{410, AllowAll, true, true},
		{429, DisallowAll, false, false}, // SPEC 2.5
		{500, DisallowAll, false, false},
		{503, DisallowAll, false, false},
		{599, DisallowAll, false, false},
		{100, DisallowAll, false, false}, // SPEC 2.6: an invalid response is a server error
		{600, DisallowAll, false, false},
		{0, DisallowAll, false, false},
	}
	for _, tt := range tests {
		r := FromStatus(tt.code, []byte(statusBody))
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
	r := FromStatus(503, nil)
	want := Verdict{Allowed: false}
	if v := r.Explain("x", "/"); v != want {
		t.Errorf("Explain = %+v, want %+v", v, want)
	}
	if n := testing.AllocsPerRun(100, func() { r.Allowed("x", "/") }); n != 0 {
		t.Errorf("Allowed on DisallowAll allocated %v times", n)
	}
	if Parse(nil).Outcome() != Rules || (*Robots)(nil).Outcome() != Rules {
		t.Error("a parsed or nil Robots is not Rules")
	}
	if got := fmt.Sprint(Rules, AllowAll, DisallowAll, Outcome(9)); got != "rules allow all disallow all Outcome(9)" {
		t.Errorf("Outcome strings: %q", got)
	}
}

// FromResponse over real HTTP on loopback.
func TestFromResponse(t *testing.T) {
	big := statusBody + strings.Repeat("# padding\n", DefaultMaxSize/10) + "Disallow: /late\n"
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
		outcome Outcome
		errText string
		check   func(t *testing.T, r *Robots)
	}{
		{"/ok", Rules, "", func(t *testing.T, r *Robots) {
			if r.Allowed("x", "/private") || !r.Allowed("x", "/public") {
				t.Error("rules of the body not applied")
			}
		}},
		{"/big", Rules, "", func(t *testing.T, r *Robots) {
			if !r.Allowed("x", "/late") || r.Size() != DefaultMaxSize {
				t.Errorf("a rule past 500 KiB applied, or size %d", r.Size())
			}
		}},
		{"/missing", AllowAll, "", nil},
		{"/busy", DisallowAll, "", nil},
		{"/down", DisallowAll, "", nil},
		{"/cut", DisallowAll, "unexpected EOF", nil},
	}
	for _, tt := range tests {
		resp, err := http.Get(srv.URL + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		body := &closeRecorder{ReadCloser: resp.Body}
		resp.Body = body
		r, err := FromResponse(resp)
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
	r, err := FromResponse(nil)
	if err == nil || r.Outcome() != DisallowAll {
		t.Errorf("nil response: %v, %v", r.Outcome(), err)
	}
	r, err = FromResponse(&http.Response{StatusCode: 200})
	if err != nil || r.Outcome() != Rules || !r.Allowed("x", "/") {
		t.Errorf("no body: %v, %v", r.Outcome(), err)
	}
	r, err = FromResponse(&http.Response{StatusCode: 200, Body: &failingBody{}})
	if err == nil || !strings.Contains(err.Error(), "connection reset by peer") || r.Outcome() != DisallowAll {
		t.Errorf("failing body: %v, %v", r.Outcome(), err)
	}
}
