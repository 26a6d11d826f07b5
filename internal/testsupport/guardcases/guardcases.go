// Package guardcases holds the requests that every way of running package
// guard is checked with, so that the reverse proxy of cmd/robotstxt and
// the Caddy module of guard/caddyguard are shown to refuse and pass the
// same requests as the middleware, from one table. It is for tests.
package guardcases

import (
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/seed50c7eacc/robotstxt/guard"
)

// Robots is the site's robots.txt: GPTBot is refused everything, Googlebot
// nothing, and every other crawler /private/ (RFC 9309 section 2.2.1:
// a crawler obeys the group that names it, else the "*" groups).
const Robots = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n"

// Changed is the robots.txt the site changes Robots to: every crawler is
// refused everything.
const Changed = "User-agent: *\nDisallow: /\n"

// Agents are the User-Agent headers of the table: real headers of
// GPTBot, Googlebot and bingbot (each as its operator documents it), of
// Firefox, and none at all.
func Agents() []string {
	return []string{
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
		"",
	}
}

// Paths are the request targets of the table, as sent: /private/x also
// spelled with a dot segment and with a percent-encoded letter (which a
// file server resolves to the same file), /robots.txt (always served,
// RFC 9309 section 2.2.2), and /private, which "Disallow: /private/" does
// not match.
func Paths() []string {
	return []string{"/", "/public/x", "/private/x", "/public/../private/x", "/%70rivate/x", "/robots.txt", "/private"}
}

// Refused is how many of the table's requests Robots refuses: GPTBot's
// for every path but /robots.txt (6), and bingbot's for the three
// spellings of /private/x (3).
const Refused = 9

// A Case is one request of the table.
type Case struct {
	UserAgent string
	Path      string
}

// Cases returns every pair of Agents and Paths.
func Cases() []Case {
	var cs []Case
	for _, ua := range Agents() {
		for _, p := range Paths() {
			cs = append(cs, Case{ua, p})
		}
	}
	return cs
}

// Middleware returns the status and body that package guard's middleware,
// enforcing robots in front of a site that answers every request 200
// "site", gives c.
func Middleware(robots string, c Case) (status int, body string) {
	h := guard.New([]byte(robots)).Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "site") }))
	req := httptest.NewRequest(http.MethodGet, "http://site.test"+c.Path, nil)
	req.Header.Set("User-Agent", c.UserAgent)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}
