// Package caddyguard is a Caddy module that enforces a site's robots.txt:
// package guard's middleware as the HTTP handler
// http.handlers.robotstxt_guard, with the Caddyfile directive
// robotstxt_guard. A crawler that asks for what its own group of the
// file disallows is answered 403 (or the status the site chooses) with a
// one-line body naming the rule; browsers, every request its group
// allows, and /robots.txt pass. See guard for how a crawler and its
// group are found.
//
// Build Caddy with it with xcaddy:
//
//	xcaddy build --with github.com/seed50c7eacc/robotstxt/guard/caddyguard
//
// and enforce the site's file in front of whatever serves it:
//
//	example.com {
//		root * /srv/www
//		robotstxt_guard {
//			robots /srv/www/robots.txt
//		}
//		file_server
//	}
//
// The directive is ordered after header and before redir, rewrite and
// every handler that answers, so that it reads the path the crawler
// asked for; inside a route block, place it first. The file is read again
// when it changes. See Handler.UnmarshalCaddyfile for the subdirectives:
// the refusal status, impostor verification (reverse DNS, the IP ranges
// operators publish) and what an impostor gets, and Caddy metrics.
// Refusals are logged through Caddy's logger, at INFO.
package caddyguard
