package fetch_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"

	"github.com/seed50c7eacc/robotstxt/fetch"
)

// A plain net/http crawler that obeys robots.txt: the Transport checks
// every request, redirect hops included, and spaces out the requests to
// the site by its Crawl-delay.
func ExampleTransport() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.01\n")
		case "/":
			fmt.Fprint(w, `<a href="/about">About</a> <a href="/private/plans">Plans</a> <a href="/latest">Latest</a>`)
		case "/latest": // a redirect into a disallowed path
			http.Redirect(w, r, "/private/draft", http.StatusFound)
		default:
			fmt.Fprint(w, `<a href="/">Home</a>`)
		}
	}))
	defer site.Close()

	robots := &fetch.Client{UserAgent: "ExampleBot/1.0 (+https://example.com/bot)"}
	client := &http.Client{Transport: fetch.NewTransport(http.DefaultTransport, "ExampleBot", robots)}

	seen := map[string]bool{site.URL + "/": true}
	queue := []string{site.URL + "/"}
	for len(queue) > 0 {
		page := queue[0]
		queue = queue[1:]
		path := strings.TrimPrefix(page, site.URL)
		resp, err := client.Get(page)
		var disallowed *fetch.DisallowedError
		switch {
		case errors.As(err, &disallowed):
			fmt.Printf("%s: not fetched, %s disallowed by %q\n", path, strings.TrimPrefix(disallowed.URL, site.URL), disallowed.Verdict.Rule)
			continue
		case err != nil:
			fmt.Println(path, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%s: %s\n", path, resp.Status)
		for _, m := range regexp.MustCompile(`href="([^"]+)"`).FindAllStringSubmatch(string(body), -1) {
			ref, err := resp.Request.URL.Parse(m[1])
			if err != nil || seen[ref.String()] {
				continue
			}
			seen[ref.String()] = true
			queue = append(queue, (&url.URL{Scheme: ref.Scheme, Host: ref.Host, Path: ref.Path}).String())
		}
	}
	// Output:
	// /: 200 OK
	// /about: 200 OK
	// /private/plans: not fetched, /private/plans disallowed by "disallow: /private/"
	// /latest: not fetched, /private/draft disallowed by "disallow: /private/"
}
