package caddyguard

import (
	"strconv"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

// Directive is the Caddyfile directive of the handler.
const Directive = "robotstxt_guard"

func init() {
	httpcaddyfile.RegisterHandlerDirective(Directive, parseCaddyfile)
	// After header, so that a refusal carries the site's response
	// headers; before every directive that redirects, rewrites or
	// answers (redir, rewrite, uri, try_files, basic_auth, respond,
	// reverse_proxy, file_server, ...), so that the guard reads the path
	// the crawler asked for, as robots.txt rules are written for it.
	httpcaddyfile.RegisterDirectiveOrder(Directive, httpcaddyfile.After, "header")
}

func parseCaddyfile(h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	m := new(Handler)
	err := m.UnmarshalCaddyfile(h.Dispenser)
	return m, err
}

// UnmarshalCaddyfile sets up the handler from Caddyfile tokens:
//
//	robotstxt_guard [<matcher>] [<robots_file>] {
//		robots           <robots_file>
//		check_interval   <duration>
//		status           <code>
//		pass_robots_txt
//		impostors        unnamed|refuse
//		verify_dns
//		ip_ranges        <file_or_url> <crawler...>
//		published_ranges
//		ranges_refresh   <duration>
//		metrics
//	}
//
// ip_ranges may be given more than once. Caddy reads a first argument
// that begins with "/" as a path matcher: write the file in the block, or
// after a matcher (robotstxt_guard * /srv/www/robots.txt).
func (h *Handler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // the directive's name
	if d.NextArg() {
		h.Robots = d.Val()
	}
	if d.NextArg() {
		return d.ArgErr()
	}
	for d.NextBlock(0) {
		switch d.Val() {
		case "robots":
			if !d.AllArgs(&h.Robots) {
				return d.ArgErr()
			}
		case "check_interval", "ranges_refresh":
			name := d.Val()
			var s string
			if !d.AllArgs(&s) {
				return d.ArgErr()
			}
			dur, err := caddy.ParseDuration(s)
			if err != nil {
				return d.Errf("%s %q: %v", name, s, err)
			}
			if name == "check_interval" {
				h.CheckInterval = caddy.Duration(dur)
			} else {
				h.RangesRefresh = caddy.Duration(dur)
			}
		case "status":
			var s string
			if !d.AllArgs(&s) {
				return d.ArgErr()
			}
			code, err := strconv.Atoi(s)
			if err != nil {
				return d.Errf("status %q: not a number", s)
			}
			h.Status = code
		case "impostors":
			if !d.AllArgs(&h.Impostors) {
				return d.ArgErr()
			}
			if h.Impostors != "unnamed" && h.Impostors != "refuse" {
				return d.Errf("impostors %q: want unnamed or refuse", h.Impostors)
			}
		case "ip_ranges":
			args := d.RemainingArgs()
			if len(args) < 2 {
				return d.ArgErr()
			}
			h.IPRanges = append(h.IPRanges, RangeList{Source: args[0], Crawlers: args[1:]})
		case "pass_robots_txt", "verify_dns", "published_ranges", "metrics":
			name := d.Val()
			if d.NextArg() {
				return d.ArgErr()
			}
			switch name {
			case "pass_robots_txt":
				h.PassRobotsTxt = true
			case "verify_dns":
				h.VerifyDNS = true
			case "published_ranges":
				h.PublishedRanges = true
			case "metrics":
				h.Metrics = true
			}
		default:
			return d.Errf("unknown subdirective %q", d.Val())
		}
	}
	if h.Robots == "" {
		// The usual slip: Caddy reads a first argument that begins with
		// "/" as a path matcher, and the directive never sees it.
		return d.Err("robotstxt_guard needs a robots.txt file: 'robots <file>' in its block, or an argument after a matcher ('robotstxt_guard * /srv/www/robots.txt': a first argument that begins with / is a path matcher)")
	}
	return nil
}

var _ caddyfile.Unmarshaler = (*Handler)(nil)
