package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
)

// The generated spellings test: thousands of spellings of allowed and
// disallowed paths go through a Transport, directly and through redirect
// chains, to servers that log each request by the path they resolve it to.
// The promise checked: no request whose resolved path robots.txt
// disallows is received, and every request that each reading allows is.

// spellingRules are the robots.txt files of the two sites.
var spellingRules = map[string]string{
	"a.test": "User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /a/secret\nDisallow: /*/hidden/\n",
	"b.test": "User-agent: *\nDisallow: /\nAllow: /pub/\n",
	"r.test": "", // the redirector: allows everything
}

// unreserved holds every unreserved byte (RFC 3986 section 2.3), so that
// each is percent-encoded somewhere.
const unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"

// spellingBases are clean paths, allowed and disallowed, on each site.
var spellingBases = map[string][]string{
	"a.test": {"/public/x", "/private/x", "/private/open/y", "/privateer", "/a/secret/z", "/a/secre", "/p/hidden/q", "/hidden/q", "/x~y/z.-_", "/pub/x",
		"/public/" + unreserved, "/private/" + unreserved, "/" + unreserved + "/hidden/x"},
	"b.test": {"/pub/x", "/pub/private/x", "/private/x", "/publication"},
}

// spell writes a clean path some other way that servers read as the same
// path: dot segments ("/." and "/seg/.."), runs of slashes, and %xx for
// any unreserved byte and some slashes, in either case, all at random.
func spell(rng *rand.Rand, clean string) string {
	segs := strings.Split(clean, "/")[1:]
	var b strings.Builder
	for i, seg := range segs {
		if i < len(segs)-1 || seg != "" { // no dot segment at the end: trailing slashes stay as written
			switch rng.IntN(5) {
			case 0:
				b.WriteString("/.")
			case 1:
				fmt.Fprintf(&b, "/%s/..", []string{"private", "public", "x", "..."}[rng.IntN(4)])
			}
		}
		b.WriteString(strings.Repeat("/", 1+rng.IntN(4)/3*rng.IntN(3)))
		b.WriteString(seg)
	}
	// Percent-encode unreserved bytes (dots of the dot segments included).
	in := b.String()
	var out strings.Builder
	for i := 0; i < len(in); i++ {
		c := in[i]
		// Any unreserved byte; now and then a slash but the first, which
		// nginx decodes too (Go's server and Apache do not resolve it).
		if c != '/' && rng.IntN(4) == 0 || c == '/' && i > 0 && rng.IntN(8) == 0 {
			hex := fmt.Sprintf("%02X", c)
			if rng.IntN(2) == 0 {
				hex = strings.ToLower(hex)
			}
			out.WriteString("%" + hex)
			continue
		}
		out.WriteByte(c)
	}
	return out.String()
}

// mergeRuns merges runs of slashes, as nginx's merge_slashes does.
func mergeRuns(p string) string {
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	return p
}

// resolve returns the path a server reads an escaped path as: decoded,
// its slashes merged (or not), its dot segments removed.
func resolve(escaped string, merge bool) string {
	p, err := url.PathUnescape(escaped)
	if err != nil {
		return escaped
	}
	if merge {
		p = mergeRuns(p)
	}
	return fetch.RemoveDotSegmentsRFC(p)
}

// resolveKeepingSlashes is resolve as Apache reads a path: %2F stays
// encoded (a NUL byte stands for it while the rest is decoded).
func resolveKeepingSlashes(escaped string) string {
	kept := strings.NewReplacer("%2F", "%00", "%2f", "%00").Replace(escaped)
	return (&url.URL{Path: resolve(kept, true)}).EscapedPath()
}

// spellingTruth says whether a URL may be requested: robots.txt allows
// it as written (Google's matcher) and as servers resolve it: nginx with
// slashes merged or not, and Apache, which keeps %2F.
func spellingTruth(robots map[string]*robotstxt.Robots, u *url.URL) bool {
	r := robots[u.Hostname()]
	origin := u.Scheme + "://" + u.Host
	q := ""
	if u.RawQuery != "" {
		q = "?" + u.RawQuery
	}
	if u.EscapedPath() == "/robots.txt" && q == "" {
		return true // RFC 9309 section 2.2.2
	}
	escaped := func(p string) string { return (&url.URL{Path: p}).EscapedPath() }
	for _, p := range []string{
		u.EscapedPath(),
		escaped(resolve(u.EscapedPath(), true)),
		escaped(resolve(u.EscapedPath(), false)),
		strings.ReplaceAll(resolveKeepingSlashes(u.EscapedPath()), "%00", "%2F"),
	} {
		if !r.Allowed("bot", origin+p+q) {
			return false
		}
	}
	return true
}

// A spellingServer is the fetcher's view of the servers under test:
// where each host is, and the requests each received, by the path it
// resolved them to.
type spellingServer struct {
	addr map[string]string // host -> address
	mu   sync.Mutex
	got  map[string]string // request id -> host and resolved path
}

func (s *spellingServer) received(id, hostPath string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got[id] = hostPath
}

// newSpellingRedirector serves the redirector host r.test (and, when
// pages is true, a.test and b.test too): /robots.txt, /go?to=URL and
// /robots.txt?to=URL redirect to URL; any other path is a page, logged by
// the path Go resolves it to (decoded, slashes merged, dots removed).
func newSpellingRedirector(t *testing.T, s *spellingServer) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.Host)
		if r.URL.Path == "/robots.txt" && r.URL.RawQuery == "" {
			fmt.Fprint(w, spellingRules[host])
			return
		}
		id := r.URL.Query().Get("id")
		s.received(id, host+" "+resolve(r.URL.EscapedPath(), true))
		if to := r.URL.Query().Get("to"); to != "" {
			w.Header().Set("Location", to) // as is: http.Redirect would clean it
			w.WriteHeader(http.StatusFound)
			return
		}
		fmt.Fprint(w, "page")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// runSpellings sends n generated cases through a Transport to the
// servers and checks what they received, as fetchLog returns it: by
// request id, the host and the path the server resolved.
func runSpellings(t *testing.T, s *spellingServer, n int, fetchLog func() map[string]string) {
	robots := map[string]*robotstxt.Robots{}
	for host, body := range spellingRules {
		robots[host] = robotstxt.Parse([]byte(body))
	}
	var d net.Dialer
	base := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		return d.DialContext(ctx, network, s.addr[host])
	}}
	t.Cleanup(base.CloseIdleConnections)
	tr := fetch.NewTransport(base, "bot", &fetch.Client{HTTPClient: &http.Client{Transport: base}})
	client := &http.Client{Transport: tr}

	rng := rand.New(rand.NewPCG(21, uint64(n)))
	port := "8080" // every host is dialled by name; the port only names the origin
	urlOf := func(host, path string, id int, to string) string {
		u := "http://" + host + ":" + port + path + "?id=" + fmt.Sprint(id)
		if to != "" {
			u += "&to=" + url.QueryEscape(to)
		}
		return u
	}
	expectSent := map[string]bool{} // id -> whether it must be received
	urls := map[string]string{}     // id -> URL
	var sentDisallowed, sentAllowed, refused, allowedTotal, disallowedTotal, mustSend int
	id := 0
	for i := 0; i < n; i++ {
		host := []string{"a.test", "a.test", "b.test"}[rng.IntN(3)]
		bases := spellingBases[host]
		target := urlOf(host, spell(rng, bases[rng.IntN(len(bases))]), id, "")
		id++
		var chain []string // the URLs of the request and its hops
		switch rng.IntN(5) {
		case 0, 1: // direct
			chain = []string{target}
		case 2: // a redirect on the site itself
			chain = []string{urlOf(host, "/pub/go", id, target), target}
		case 3: // through a /robots.txt URL on the site (issue: that switched the check off)
			chain = []string{urlOf(host, "/robots.txt", id, target), target}
		case 4: // an open redirect on another host, then through its /robots.txt URL
			via := urlOf("r.test", "/robots.txt", id+1, target)
			chain = []string{urlOf("r.test", "/go", id, via), via, target}
			id++
		}
		id++
		// The http.Client resolves each Location against the URL it came
		// from, which removes literal dot segments (not %2E ones).
		for j := 1; j < len(chain); j++ {
			prev, _ := url.Parse(chain[j-1])
			loc, _ := url.Parse(chain[j])
			chain[j] = prev.ResolveReference(loc).String()
		}
		blocked := false
		for _, hop := range chain {
			u, _ := url.Parse(hop)
			allowed := spellingTruth(robots, u)
			if allowed {
				allowedTotal++
			} else {
				disallowedTotal++
			}
			expectSent[u.Query().Get("id")] = !blocked && allowed
			if !blocked && allowed {
				mustSend++
			}
			urls[u.Query().Get("id")] = hop
			blocked = blocked || !allowed
		}
		resp, err := client.Get(chain[0])
		var de *fetch.DisallowedError
		switch {
		case err == nil:
			resp.Body.Close()
		case errors.As(err, &de):
			refused++
		default:
			t.Fatalf("GET %s: %v", chain[0], err)
		}
	}

	got := fetchLog()
	for reqID, must := range expectSent {
		hostPath, ok := got[reqID]
		switch {
		case ok && !must:
			sentDisallowed++
			t.Errorf("request %s received (%s); robots.txt disallows it", reqID, hostPath)
		case !ok && must:
			t.Errorf("request %s (%s), which robots.txt allows, was not received", reqID, urls[reqID])
		case ok:
			sentAllowed++
		}
	}
	// Independently of the expectations: no request whose resolved path
	// is disallowed was received.
	var resolvedDisallowed int
	for reqID, hostPath := range got {
		host, p, _ := strings.Cut(hostPath, " ")
		if !robots[host].Allowed("bot", "http://"+host+(&url.URL{Path: p}).EscapedPath()) {
			resolvedDisallowed++
			t.Errorf("request %s received at %s, which robots.txt disallows", reqID, hostPath)
		}
	}
	t.Logf("%d cases, %d requests and hops: %d allowed and %d disallowed by some reading, %d to be sent (the rest follow a refused hop); received %d (%d allowed, %d disallowed, %d resolved to a disallowed path); %d refused with a DisallowedError",
		n, len(expectSent), allowedTotal, disallowedTotal, mustSend, len(got), sentAllowed, sentDisallowed, resolvedDisallowed, refused)
	if disallowedTotal < n/4 || allowedTotal < n/4 {
		t.Errorf("the generator gave %d allowed and %d disallowed requests: too few of one kind to prove anything", allowedTotal, disallowedTotal)
	}
}

// Go's server resolves the paths: every site is the one loopback server.
func TestTransportSpellingsLoopback(t *testing.T) {
	s := &spellingServer{got: map[string]string{}}
	srv := newSpellingRedirector(t, s)
	addr := srv.Listener.Addr().String()
	s.addr = map[string]string{"a.test": addr, "b.test": addr, "r.test": addr}
	runSpellings(t, s, 3000, func() map[string]string {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.got
	})
}
