package guard

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// A Guard enforces a site's robots.txt on the crawlers that ask it for
// pages. Create one with New or NewFunc, set its fields before its first
// use, and wrap the site's handler with Handler. A Guard is safe for
// concurrent use.
type Guard struct {
	// Status is the status of a refusal; zero means 403 Forbidden.
	Status int
	// Verifier checks that a request claiming a crawler comes from its
	// operator; nil checks nothing, and every claim is taken at its
	// word.
	Verifier Verifier
	// Impostors says what a request gets when Verifier finds it does not
	// come from the crawler it names.
	Impostors ImpostorPolicy
	// ClientAddr returns the address a request comes from, for Verifier;
	// nil means the host of Request.RemoteAddr. Behind a proxy of the
	// site's own, read the address the proxy writes (and only then: a
	// header any client may write is no proof).
	ClientAddr func(*http.Request) (netip.Addr, bool)
	// Logger receives an event per refusal and per impostor, at Info;
	// nil means none.
	Logger *slog.Logger

	current func() []byte
	mu      sync.Mutex // held while a new copy is parsed
	state   atomic.Pointer[state]
	counts  counters
}

// state is one copy of the robots.txt and what the guard reads from it.
type state struct {
	body   []byte
	robots *robotstxt.Robots
	named  map[string]bool // the lower-cased product tokens the groups name
}

// ImpostorPolicy says what a request gets that claims a crawler it does
// not come from.
type ImpostorPolicy int

const (
	// AsUnnamed treats an impostor as a client that names no crawler:
	// its request passes, as a browser's does. The default.
	AsUnnamed ImpostorPolicy = iota
	// Refuse answers an impostor with the refusal status, whatever its
	// crawler's group allows.
	Refuse
)

// New returns a Guard that enforces robots, the bytes of a robots.txt
// file. The Guard keeps robots: do not change it afterwards.
func New(robots []byte) *Guard {
	return NewFunc(func() []byte { return robots })
}

// NewFunc returns a Guard that enforces the robots.txt that current
// returns, asking it on every request: when it returns another slice
// than the time before (another array or length), the new copy is parsed,
// once, and applies from then on. current must be cheap and safe for
// concurrent use; see FileSource for a file on disk.
func NewFunc(current func() []byte) *Guard {
	return &Guard{current: current}
}

// load returns the state of the current copy, parsing it when it changed.
func (g *Guard) load() *state {
	body := g.current()
	if s := g.state.Load(); s != nil && sameSlice(s.body, body) {
		return s
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if s := g.state.Load(); s != nil && sameSlice(s.body, body) {
		return s
	}
	s := &state{body: body, robots: robotstxt.Parse(body), named: map[string]bool{}}
	for _, grp := range s.robots.Groups() {
		for _, a := range grp.Agents {
			if tok := parse.ProductToken(a); tok != "" {
				s.named[strings.ToLower(tok)] = true
			}
		}
	}
	g.state.Store(s)
	return s
}

// sameSlice reports whether a and b are the same slice of the same array.
func sameSlice(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0]
}

// A Decision is what the guard does with a request, and why.
type Decision struct {
	// Crawler is the product token the User-Agent names its crawler by;
	// "" when it names none.
	Crawler string
	// Agent is the name of the group that applies (see
	// robotstxt.Agent.Name), when Crawler is set.
	Agent string
	// Verification is what the Verifier found, when there is one and
	// Crawler is set.
	Verification Verification
	// Allowed is false when the request is refused.
	Allowed bool
	// Verdict is the verdict of the crawler's group on the request's
	// path; its Rule is the rule that refused it, when a rule did.
	Verdict robotstxt.Verdict
	// Path is the request's path and query as the verdict read it.
	Path string
}

// Decide returns what the guard does with r: it reads the crawler r names,
// checks it with the Verifier when there is one, and asks the crawler's
// group about r's path. It does not count or log; Handler does.
func (g *Guard) Decide(r *http.Request) Decision {
	if r.URL.Path == "/robots.txt" {
		return Decision{Allowed: true} // RFC 9309 section 2.2.2
	}
	s := g.load()
	token, obeys := identify(r.Header.Get("User-Agent"), s.named)
	if token == "" {
		return Decision{Allowed: true}
	}
	d := Decision{Crawler: token, Allowed: true}
	if g.Verifier != nil {
		d.Verification = g.verify(r.Context(), token, r)
		if d.Verification == Impostor {
			d.Allowed = g.Impostors != Refuse
			return d
		}
	}
	agent := s.robots.Agent(obeys...)
	d.Agent = agent.Name()
	for _, p := range requestPaths(r) {
		v := agent.Explain(p)
		if !v.Allowed {
			d.Allowed, d.Verdict, d.Path = false, v, p
			return d
		}
		if d.Path == "" {
			d.Verdict, d.Path = v, p
		}
	}
	return d
}

// requestPaths returns the paths r is checked as: the request target as
// received, and, when it differs, its path as a static file server
// resolves it (decoded, dot segments and repeated slashes removed by
// path.Clean) with the query as received, so that /public/../private/x
// and /%70rivate/x meet Disallow: /private/.
func requestPaths(r *http.Request) []string {
	target := r.RequestURI
	if target == "" || target[0] != '/' {
		target = r.URL.RequestURI()
	}
	clean := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(r.URL.Path, "/") && clean != "/" {
		clean += "/"
	}
	resolved := (&url.URL{Path: clean, RawQuery: r.URL.RawQuery, ForceQuery: r.URL.ForceQuery}).RequestURI()
	if resolved == target {
		return []string{target}
	}
	return []string{target, resolved}
}

// verify asks the Verifier about token and r's client address. A failure
// to verify takes the claim at its word: the crawler's own group then
// applies, which the real crawler obeys anyway.
func (g *Guard) verify(ctx context.Context, token string, r *http.Request) Verification {
	addr, ok := g.clientAddr(r)
	if !ok {
		g.counts.verifyErrors.Add(1)
		return Unverified
	}
	v, err := g.Verifier.Verify(ctx, token, addr)
	if err != nil {
		g.counts.verifyErrors.Add(1)
		if g.Logger != nil {
			g.Logger.LogAttrs(ctx, slog.LevelWarn, "guard: verification failed", slog.String("crawler", token), slog.String("addr", addr.String()), slog.Any("err", err))
		}
		return Unverified
	}
	return v
}

func (g *Guard) clientAddr(r *http.Request) (netip.Addr, bool) {
	if g.ClientAddr != nil {
		return g.ClientAddr(r)
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	return a.Unmap(), err == nil
}

// Handler returns next guarded: a request that its crawler's group
// disallows (or an impostor's, with Refuse) is answered with the
// refusal status and a one-line body that says which rule; every other
// request, and every request for /robots.txt, goes to next.
func (g *Guard) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.Enforce(w, r) {
			next.ServeHTTP(w, r)
		}
	})
}

// Enforce does for r what Handler's handler does, short of passing r
// on: it counts r, logs a refusal or an impostor, answers a refused r
// with the refusal, and reports whether r may go on, in which case it
// has written nothing. It is for servers whose handlers do not chain as
// http.Handler does (a Caddy module's returns an error).
func (g *Guard) Enforce(w http.ResponseWriter, r *http.Request) bool {
	g.counts.requests.Add(1)
	d := g.Decide(r)
	if d.Crawler != "" {
		g.counts.crawlers.Add(1)
	}
	if d.Verification == Impostor {
		g.counts.impostors.Add(1)
		if g.Logger != nil {
			g.Logger.LogAttrs(r.Context(), slog.LevelInfo, "guard: impostor", slog.String("crawler", d.Crawler), slog.String("remote", r.RemoteAddr), slog.Bool("refused", !d.Allowed))
		}
	}
	if d.Allowed {
		return true
	}
	g.counts.refused.Add(1)
	status := g.Status
	if status == 0 {
		status = http.StatusForbidden
	}
	msg := refusalMessage(d)
	if g.Logger != nil {
		g.Logger.LogAttrs(r.Context(), slog.LevelInfo, "guard: refused", slog.String("crawler", d.Crawler), slog.String("agent", d.Agent), slog.String("path", d.Path), slog.Int("line", d.Verdict.Rule.Line), slog.String("rule", d.Verdict.Rule.String()), slog.String("remote", r.RemoteAddr))
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	fmt.Fprintln(w, msg)
	return false
}

// refusalMessage is the one-line body of a refusal.
func refusalMessage(d Decision) string {
	if d.Verification == Impostor {
		return fmt.Sprintf("refused: this request claims to be %s but does not come from its operator", d.Crawler)
	}
	return fmt.Sprintf("refused: robots.txt disallows %s for %s (line %d: %s)", d.Path, d.Crawler, d.Verdict.Rule.Line, d.Verdict.Rule)
}

// counters are the guard's counts, read by Stats.
type counters struct {
	requests, crawlers, refused, impostors, verifyErrors atomic.Int64
}

// Stats are the counts of a Guard's Handler since it was made, for a
// site's metrics.
type Stats struct {
	Requests     int64 // requests seen
	Crawlers     int64 // requests that named a crawler (those for /robots.txt are not read)
	Refused      int64 // requests refused
	Impostors    int64 // requests the Verifier found do not come from the crawler they name
	VerifyErrors int64 // requests whose claim could not be verified (taken at its word)
}

// Stats returns the guard's counts so far.
func (g *Guard) Stats() Stats {
	return Stats{
		Requests:     g.counts.requests.Load(),
		Crawlers:     g.counts.crawlers.Load(),
		Refused:      g.counts.refused.Load(),
		Impostors:    g.counts.impostors.Load(),
		VerifyErrors: g.counts.verifyErrors.Load(),
	}
}
