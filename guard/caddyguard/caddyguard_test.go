package caddyguard_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/seed50c7eacc/robotstxt/guard/caddyguard"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/guardcases"
)

// site is the handler after the guard: every request it gets is answered
// 200 "site", as guardcases.Middleware's site answers.
var site = caddyhttp.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) error {
	_, err := io.WriteString(w, "site")
	return err
})

// provision provisions h as Caddy does (Provision, then Validate) in a
// context of its own, cancelled when the test ends.
func provision(t testing.TB, h *caddyguard.Handler) (caddy.Context, error) {
	t.Helper()
	ctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
	t.Cleanup(cancel)
	if err := h.Provision(ctx); err != nil {
		return ctx, err
	}
	return ctx, h.Validate()
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// serve sends a GET of target with userAgent through h, from the client
// address clientIP as Caddy's server records it, and returns the status
// and body.
func serve(h *caddyguard.Handler, target, userAgent, clientIP string) (int, string, error) {
	req := httptest.NewRequest(http.MethodGet, "http://site.test"+target, nil)
	req.Header.Set("User-Agent", userAgent)
	if clientIP != "" {
		req = req.WithContext(context.WithValue(req.Context(), caddyhttp.VarsCtxKey, map[string]any{caddyhttp.ClientIPVarKey: clientIP}))
	}
	rec := httptest.NewRecorder()
	err := h.ServeHTTP(rec, req, site)
	return rec.Code, rec.Body.String(), err
}

// In-process, the handler refuses and passes the requests of the shared
// table as package guard's middleware does, answers /robots.txt from its
// file, reads the file again when it changes, and counts in Caddy's
// metrics.
func TestHandlerAnswersAsTheMiddleware(t *testing.T) {
	robots := filepath.Join(t.TempDir(), "robots.txt")
	writeFile(t, robots, guardcases.Robots)
	h := &caddyguard.Handler{Robots: robots, CheckInterval: caddy.Duration(time.Millisecond), Metrics: true}
	ctx, err := provision(t, h)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, c := range guardcases.Cases() {
		status, body, err := serve(h, c.Path, c.UserAgent, "")
		if err != nil {
			t.Fatalf("GET %s as %q: %v", c.Path, c.UserAgent, err)
		}
		wantStatus, wantBody := guardcases.Middleware(guardcases.Robots, c)
		if c.Path == "/robots.txt" {
			wantBody = guardcases.Robots // answered from the file, not passed on
		}
		if diff := cmp.Diff(struct {
			Status int
			Body   string
		}{wantStatus, wantBody}, struct {
			Status int
			Body   string
		}{status, body}); diff != "" {
			t.Errorf("GET %s as %q (-middleware +handler):\n%s", c.Path, c.UserAgent, diff)
		}
		if status == http.StatusForbidden {
			refused++
		}
	}
	if refused != guardcases.Refused {
		t.Errorf("%d requests refused, want %d", refused, guardcases.Refused)
	}
	reg := ctx.GetMetricsRegistry()
	if got, err := testutil.GatherAndCount(reg, "caddy_robotstxt_guard_refused_total"); err != nil || got != 1 {
		t.Errorf("caddy_robotstxt_guard_refused_total: %d series, %v; want 1", got, err)
	}
	want := `# HELP caddy_robotstxt_guard_refused_total Requests refused by the crawler's group of robots.txt, or as an impostor's.
# TYPE caddy_robotstxt_guard_refused_total counter
caddy_robotstxt_guard_refused_total{robots="` + robots + `"} 9
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "caddy_robotstxt_guard_refused_total"); err != nil {
		t.Error(err)
	}

	// The file changes (another size): its rules apply, and it is served.
	writeFile(t, robots, guardcases.Changed)
	time.Sleep(5 * time.Millisecond) // past CheckInterval
	bingbot := guardcases.Agents()[2]
	if status, body, _ := serve(h, "/public/x", bingbot, ""); status != http.StatusForbidden {
		t.Errorf("after the change, bingbot's GET /public/x: %d %q, want 403", status, body)
	}
	if _, body, _ := serve(h, "/robots.txt", bingbot, ""); body != guardcases.Changed {
		t.Errorf("after the change, /robots.txt is %q", body)
	}
}

// With pass_robots_txt, /robots.txt goes to the next handler; with a
// status, refusals use it.
func TestHandlerOptions(t *testing.T) {
	robots := filepath.Join(t.TempDir(), "robots.txt")
	writeFile(t, robots, guardcases.Robots)
	h := &caddyguard.Handler{Robots: robots, PassRobotsTxt: true, Status: http.StatusTooManyRequests}
	if _, err := provision(t, h); err != nil {
		t.Fatal(err)
	}
	gptbot := guardcases.Agents()[0]
	for _, tc := range []struct {
		target     string
		wantStatus int
		wantBody   string
	}{
		{"/robots.txt", 200, "site"},
		{"/public/x", 429, "refused: robots.txt disallows /public/x for GPTBot (line 5: disallow: /)\n"},
	} {
		status, body, err := serve(h, tc.target, gptbot, "")
		if err != nil || status != tc.wantStatus || body != tc.wantBody {
			t.Errorf("GET %s as GPTBot: %d %q %v, want %d %q", tc.target, status, body, err, tc.wantStatus, tc.wantBody)
		}
	}
}

// A claim to be Googlebot is checked against its IP ranges from the
// client address Caddy determined (which honours trusted_proxies); an
// impostor gets what impostors says.
func TestHandlerImpostors(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	writeFile(t, robots, "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /private/\n")
	ranges := filepath.Join(dir, "googlebot.json")
	// The published form (Google's "Verifying Googlebot"), with
	// documentation ranges (RFC 5737, RFC 3849).
	writeFile(t, ranges, `{"creationTime":"2026-01-01T00:00:00","prefixes":[{"ipv4Prefix":"203.0.113.0/24"},{"ipv6Prefix":"2001:db8::/32"}]}`)
	googlebot := guardcases.Agents()[1]
	for _, tc := range []struct {
		impostors, clientIP, target string
		wantStatus                  int
	}{
		{"refuse", "203.0.113.7", "/private/x", 200},        // genuine: its group allows everything
		{"refuse", "2001:db8::1", "/x", 200},                // genuine, IPv6
		{"refuse", "198.51.100.7", "/x", 403},               // impostor: refused outright
		{"unnamed", "198.51.100.7", "/x", 200},              // impostor as a browser: passes
		{"unnamed", "198.51.100.7", "/private/x", 200},      // even where "*" disallows: browsers pass
		{"refuse", "::ffff:203.0.113.7", "/private/x", 200}, // an IPv4-mapped address is the IPv4 one
		{"refuse", "", "/x", 403},                           // no client IP var: the peer (192.0.2.1 in httptest) is outside the ranges
		{"unnamed", "198.51.100.9", "/robots.txt", 200},     // /robots.txt always
		{"refuse", "198.51.100.9", "/robots.txt", 200},      // /robots.txt always
		{"refuse", "not an address", "/x", 403},             // a bad var: the peer is used
	} {
		h := &caddyguard.Handler{Robots: robots, Impostors: tc.impostors, IPRanges: []caddyguard.RangeList{{Source: ranges, Crawlers: []string{"Googlebot"}}}}
		if _, err := provision(t, h); err != nil {
			t.Fatal(err)
		}
		status, body, err := serve(h, tc.target, googlebot, tc.clientIP)
		if err != nil || status != tc.wantStatus {
			t.Errorf("impostors %s, Googlebot from %q asks %s: %d %q %v, want %d", tc.impostors, tc.clientIP, tc.target, status, body, err, tc.wantStatus)
		}
		if status == http.StatusForbidden && !strings.Contains(body, "does not come from its operator") {
			t.Errorf("impostors %s, Googlebot from %q: refusal %q", tc.impostors, tc.clientIP, body)
		}
	}
}

// Provision and Validate reject what cannot work.
func TestHandlerErrors(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	writeFile(t, robots, guardcases.Robots)
	for _, tc := range []struct {
		name string
		h    caddyguard.Handler
		want string
	}{
		{"no file", caddyguard.Handler{}, "no robots.txt file"},
		{"missing file", caddyguard.Handler{Robots: filepath.Join(dir, "missing.txt")}, "no such file"},
		{"status 200", caddyguard.Handler{Robots: robots, Status: 200}, "status 200"},
		{"impostors", caddyguard.Handler{Robots: robots, Impostors: "maybe"}, `impostors "maybe"`},
		{"ranges file", caddyguard.Handler{Robots: robots, IPRanges: []caddyguard.RangeList{{Source: filepath.Join(dir, "missing.json"), Crawlers: []string{"Googlebot"}}}}, "missing.json"},
		{"ranges without crawlers", caddyguard.Handler{Robots: robots, IPRanges: []caddyguard.RangeList{{Source: "https://example.com/r.json"}}}, "at least one crawler"},
	} {
		_, err := provision(t, &tc.h)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// The Caddyfile directive and its subdirectives.
func TestUnmarshalCaddyfile(t *testing.T) {
	for _, tc := range []struct {
		input   string
		want    caddyguard.Handler
		wantErr string
	}{
		{input: `robotstxt_guard /srv/robots.txt`, want: caddyguard.Handler{Robots: "/srv/robots.txt"}},
		{input: `robotstxt_guard {
			robots /srv/robots.txt
			check_interval 5s
			status 429
			pass_robots_txt
			impostors refuse
			verify_dns
			ip_ranges /etc/googlebot.json Googlebot Googlebot-Image
			ip_ranges https://openai.com/gptbot.json GPTBot
			published_ranges
			ranges_refresh 12h
			metrics
		}`, want: caddyguard.Handler{
			Robots: "/srv/robots.txt", CheckInterval: caddy.Duration(5 * time.Second), Status: 429, PassRobotsTxt: true,
			Impostors: "refuse", VerifyDNS: true,
			IPRanges: []caddyguard.RangeList{
				{Source: "/etc/googlebot.json", Crawlers: []string{"Googlebot", "Googlebot-Image"}},
				{Source: "https://openai.com/gptbot.json", Crawlers: []string{"GPTBot"}},
			},
			PublishedRanges: true, RangesRefresh: caddy.Duration(12 * time.Hour), Metrics: true,
		}},
		{input: `robotstxt_guard`, wantErr: "needs a robots.txt file"},
		{input: `robotstxt_guard a b`, wantErr: "wrong argument count"},
		{input: "robotstxt_guard /r {\nstatus\n}", wantErr: "wrong argument count"},
		{input: "robotstxt_guard /r {\nstatus teapot\n}", wantErr: `status "teapot"`},
		{input: "robotstxt_guard /r {\ncheck_interval soon\n}", wantErr: `check_interval "soon"`},
		{input: "robotstxt_guard /r {\nimpostors maybe\n}", wantErr: `impostors "maybe"`},
		{input: "robotstxt_guard /r {\nip_ranges /g.json\n}", wantErr: "wrong argument count"},
		{input: "robotstxt_guard /r {\nmetrics on\n}", wantErr: "wrong argument count"},
		{input: "robotstxt_guard /r {\nblock_everyone\n}", wantErr: `unknown subdirective "block_everyone"`},
	} {
		var got caddyguard.Handler
		err := got.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.input))
		if !errorAsWanted(t, tc.input, err, tc.wantErr) || tc.wantErr != "" {
			continue
		}
		if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreUnexported(caddyguard.Handler{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.input, diff)
		}
	}
}

// Through Caddy's Caddyfile adapter: an absolute path is an argument
// after a matcher, since a first argument that begins with "/" is a path
// matcher (and the error says so).
func TestDirectiveThroughTheAdapter(t *testing.T) {
	for _, tc := range []struct {
		directive, want, wantErr string
	}{
		{directive: "robotstxt_guard * /srv/robots.txt", want: `{"handler":"robotstxt_guard","robots":"/srv/robots.txt"}`},
		{directive: "robotstxt_guard robots.txt", want: `{"handler":"robotstxt_guard","robots":"robots.txt"}`},
		{directive: "robotstxt_guard {\nrobots /srv/robots.txt\n}", want: `{"handler":"robotstxt_guard","robots":"/srv/robots.txt"}`},
		{directive: "robotstxt_guard /srv/robots.txt", wantErr: "a first argument that begins with / is a path matcher"},
	} {
		cfg, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(":8080\n"+tc.directive+"\n"), nil)
		if !errorAsWanted(t, tc.directive, err, tc.wantErr) || tc.wantErr != "" {
			continue
		}
		if !strings.Contains(string(cfg), tc.want) {
			t.Errorf("%q adapts to %s, without %s", tc.directive, cfg, tc.want)
		}
	}
}

// Requests served at once, while the file changes and the metrics are
// read, answer as one file or the other says (and, under -race, share
// nothing unguarded).
func TestHandlerConcurrent(t *testing.T) {
	robots := filepath.Join(t.TempDir(), "robots.txt")
	writeFile(t, robots, guardcases.Robots)
	h := &caddyguard.Handler{Robots: robots, CheckInterval: caddy.Duration(time.Millisecond), Metrics: true}
	ctx, err := provision(t, h)
	if err != nil {
		t.Fatal(err)
	}
	reg := ctx.GetMetricsRegistry()
	bingbot := guardcases.Agents()[2]
	var wg sync.WaitGroup
	errs := make(chan string, 8*200)
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				switch {
				case w == 0 && i%50 == 0:
					content := guardcases.Robots
					if i%100 == 0 {
						content = guardcases.Changed
					}
					if err := os.WriteFile(robots, []byte(content), 0o644); err != nil {
						errs <- err.Error()
					}
				case w == 1 && i%20 == 0:
					if _, err := reg.Gather(); err != nil {
						errs <- err.Error()
					}
				}
				// /public/x: allowed for bingbot by Robots, refused by Changed.
				status, body, err := serve(h, "/public/x", bingbot, "")
				if err != nil || (status != 200 && status != 403) || (status == 200) != (body == "site") {
					errs <- fmt.Sprintf("%d %q %v", status, body, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// errorAsWanted reports whether err is as a table case wants: an error
// containing wantErr, or none when wantErr is empty. It reports a failure
// of the case named input otherwise.
func errorAsWanted(t *testing.T, input string, err error, wantErr string) bool {
	t.Helper()
	switch {
	case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
		t.Errorf("%q: error %v, want one with %q", input, err, wantErr)
		return false
	case wantErr == "" && err != nil:
		t.Errorf("%q: %v", input, err)
		return false
	}
	return true
}
