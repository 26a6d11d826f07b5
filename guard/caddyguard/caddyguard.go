package caddyguard

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/seed50c7eacc/robotstxt/guard"
)

func init() {
	caddy.RegisterModule(Handler{})
}

// Handler is the Caddy HTTP handler module http.handlers.robotstxt_guard:
// package guard's middleware, enforcing the robots.txt file at Robots on
// the requests it handles. A crawler that asks for what its own group of
// the file disallows is answered with Status and a one-line body naming
// the rule; every other request goes to the next handler. /robots.txt is
// answered from Robots itself (unless PassRobotsTxt), so that crawlers
// read the rules the handler enforces.
type Handler struct {
	// Robots is the path of the robots.txt file to enforce. Caddy's
	// global placeholders ({env.*}) are replaced. The file is read again
	// when its size or modification time changes (see guard.FileSource).
	Robots string `json:"robots,omitempty"`
	// CheckInterval is how often the file is looked at for a change;
	// zero means once a second.
	CheckInterval caddy.Duration `json:"check_interval,omitempty"`
	// Status is the HTTP status of a refusal, 400 to 599; zero means 403.
	Status int `json:"status,omitempty"`
	// PassRobotsTxt passes requests for /robots.txt to the next handler
	// instead of answering them from Robots: for a site whose own
	// /robots.txt is the file at Robots.
	PassRobotsTxt bool `json:"pass_robots_txt,omitempty"`
	// Impostors is what a request gets that claims a crawler it does not
	// come from: "unnamed" (it passes, as a browser's; the default) or
	// "refuse". It needs a way to verify (VerifyDNS, IPRanges or
	// PublishedRanges).
	Impostors string `json:"impostors,omitempty"`
	// VerifyDNS verifies the crawlers whose operators publish their
	// domains (guard.PublishedDomains: Googlebot, bingbot, Applebot, ...)
	// by reverse DNS confirmed forward.
	VerifyDNS bool `json:"verify_dns,omitempty"`
	// IPRanges are lists of IP ranges, in the JSON form the operators
	// publish, each for the crawlers it names. A list in a file is read
	// when the handler is provisioned (an error fails the config); a list
	// at a URL is fetched in the background, then again every
	// RangesRefresh.
	IPRanges []RangeList `json:"ip_ranges,omitempty"`
	// PublishedRanges adds the lists the operators publish
	// (guard.PublishedRanges: Google, Bing, OpenAI, Perplexity, Apple),
	// fetched from their URLs.
	PublishedRanges bool `json:"published_ranges,omitempty"`
	// RangesRefresh is how often the lists at URLs are fetched again;
	// zero means every 24 hours.
	RangesRefresh caddy.Duration `json:"ranges_refresh,omitempty"`
	// Metrics exports the guard's counts (guard.Stats) in Caddy's
	// metrics, as caddy_robotstxt_guard_*_total with the file's path as
	// the label "robots".
	Metrics bool `json:"metrics,omitempty"`

	guard  *guard.Guard
	robots func() []byte
}

// A RangeList is one list of IP ranges (see guard.RangeList).
type RangeList struct {
	// Source is the list's file path or http(s) URL.
	Source string `json:"source"`
	// Crawlers are the product tokens the list is for.
	Crawlers []string `json:"crawlers"`
}

// CaddyModule returns the module's information.
func (Handler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "http.handlers.robotstxt_guard",
		New: func() caddy.Module { return new(Handler) },
	}
}

// Provision reads the robots.txt file and sets up the guard.
func (h *Handler) Provision(ctx caddy.Context) error {
	path := caddy.NewReplacer().ReplaceKnown(h.Robots, "")
	if path == "" {
		return fmt.Errorf("robotstxt_guard: no robots.txt file")
	}
	src, err := guard.FileSource(path, time.Duration(h.CheckInterval))
	if err != nil {
		return fmt.Errorf("robotstxt_guard: %w", err)
	}
	g := guard.NewFunc(src)
	g.Status = h.Status
	g.Logger = ctx.Slogger()
	g.ClientAddr = clientAddr
	if h.Impostors == "refuse" {
		g.Impostors = guard.Refuse
	}
	var verifiers guard.Verifiers
	if ranges, err := h.provisionRanges(ctx, g); err != nil {
		return err
	} else if ranges != nil {
		verifiers = append(verifiers, ranges)
	}
	if h.VerifyDNS {
		verifiers = append(verifiers, &guard.ReverseDNS{})
	}
	if len(verifiers) > 0 {
		g.Verifier = verifiers
	}
	if h.Metrics {
		if err := registerMetrics(ctx.GetMetricsRegistry(), path, g); err != nil {
			return fmt.Errorf("robotstxt_guard: metrics: %w", err)
		}
	}
	h.guard, h.robots = g, src
	return nil
}

// provisionRanges loads the IP range lists in files now and starts
// fetching those at URLs, again every RangesRefresh until ctx (the
// config's life) ends. It returns nil when there are no lists.
func (h *Handler) provisionRanges(ctx caddy.Context, g *guard.Guard) (*guard.IPRanges, error) {
	var files, urls []guard.RangeList
	for _, l := range h.IPRanges {
		gl := guard.RangeList{Crawlers: l.Crawlers, Source: l.Source}
		if isURL(l.Source) {
			urls = append(urls, gl)
		} else {
			files = append(files, gl)
		}
	}
	if h.PublishedRanges {
		urls = append(urls, guard.PublishedRanges...)
	}
	if len(files) == 0 && len(urls) == 0 {
		return nil, nil
	}
	ranges := &guard.IPRanges{}
	if err := ranges.Load(ctx, nil, files); err != nil {
		return nil, fmt.Errorf("robotstxt_guard: %w", err)
	}
	if len(urls) > 0 {
		refresh := time.Duration(h.RangesRefresh)
		if refresh <= 0 {
			refresh = 24 * time.Hour
		}
		// In the background: a publisher that is slow or down must not
		// hold up the server's start. Until a list loads, its crawlers
		// are unverified, and taken at their word.
		go refreshRanges(ctx, ranges, urls, refresh, g)
	}
	return ranges, nil
}

// refreshRanges fetches lists now and every interval until ctx ends.
func refreshRanges(ctx context.Context, ranges *guard.IPRanges, lists []guard.RangeList, interval time.Duration, g *guard.Guard) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		load, cancel := context.WithTimeout(ctx, time.Minute)
		if err := ranges.Load(load, nil, lists); err != nil && ctx.Err() == nil {
			g.Logger.Warn("robotstxt_guard: IP ranges", "err", err)
		}
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// Validate checks the handler's settings.
func (h *Handler) Validate() error {
	if h.Status != 0 && (h.Status < 400 || h.Status > 599) {
		return fmt.Errorf("robotstxt_guard: status %d: want 400 to 599", h.Status)
	}
	switch h.Impostors {
	case "", "unnamed", "refuse":
	default:
		return fmt.Errorf("robotstxt_guard: impostors %q: want unnamed or refuse", h.Impostors)
	}
	for _, l := range h.IPRanges {
		if l.Source == "" || len(l.Crawlers) == 0 {
			return fmt.Errorf("robotstxt_guard: ip_ranges %q: want a source and at least one crawler", l.Source)
		}
	}
	return nil
}

// ServeHTTP answers /robots.txt from the file, refuses what the
// requesting crawler's group disallows, and passes every other request
// to next.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	if r.URL.Path == "/robots.txt" && !h.PassRobotsTxt && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		body := h.robots()
		hdr := w.Header()
		hdr.Set("Content-Type", "text/plain; charset=utf-8")
		hdr.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			_, err := w.Write(body)
			return err
		}
		return nil
	}
	if !h.guard.Enforce(w, r) {
		return nil
	}
	return next.ServeHTTP(w, r)
}

// clientAddr is the address the guard verifies a crawler's claim
// against: the client IP Caddy determined, which honours the server's
// trusted_proxies, else the connection's peer.
func clientAddr(r *http.Request) (netip.Addr, bool) {
	if s, ok := caddyhttp.GetVar(r.Context(), caddyhttp.ClientIPVarKey).(string); ok {
		if a, err := netip.ParseAddr(s); err == nil {
			return a.Unmap(), true
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	return a.Unmap(), err == nil
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*Handler)(nil)
	_ caddy.Validator             = (*Handler)(nil)
	_ caddyhttp.MiddlewareHandler = (*Handler)(nil)
)
