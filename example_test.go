package robotstxt_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/seed50c7eacc/robotstxt"
)

func ExampleParse() {
	robots := robotstxt.Parse([]byte(`
User-agent: *
Disallow: /private/
Allow: /private/press/

Sitemap: https://example.com/sitemap.xml
`))
	fmt.Println(robots.Allowed("Googlebot", "https://example.com/private/plans.html"))
	fmt.Println(robots.Allowed("Googlebot", "https://example.com/private/press/launch.html"))
	fmt.Println(robots.Sitemaps())
	// Output:
	// false
	// true
	// [https://example.com/sitemap.xml]
}

// A program that asks one question of a file, such as a link checker
// that meets each site once, need not keep it.
func ExampleAllowed() {
	body := []byte("User-agent: *\nDisallow: /drafts/\n\nUser-agent: Googlebot-Image\nDisallow: /\n")
	fmt.Println(robotstxt.Allowed(body, "Googlebot", "https://example.com/drafts/plan.html"))
	fmt.Println(robotstxt.Allowed(body, "Googlebot", "https://example.com/index.html"))
	fmt.Println(robotstxt.Allowed(body, "Googlebot-Image", "https://example.com/logo.png"))
	// Output:
	// false
	// true
	// false
}

func ExampleRobots_Explain() {
	robots := robotstxt.Parse([]byte("User-agent: *\nDisallow: /search\nAllow: /search/about\n"))
	for _, url := range []string{"/search?q=go", "/search/about", "/maps"} {
		v := robots.Explain("Googlebot", url)
		fmt.Printf("%-14s %v\n", url, v)
	}
	// Output:
	// /search?q=go   DISALLOWED by line 2: disallow: /search
	// /search/about  ALLOWED by line 3: allow: /search/about
	// /maps          ALLOWED (no rule applied)
}

func ExampleRobots_Agent() {
	robots := robotstxt.Parse([]byte("User-agent: *\nDisallow: /\n\nUser-agent: Bingbot\nCrawl-delay: 2\nDisallow: /cgi-bin/\n"))
	bing := robots.Agent("bingbot")
	delay, ok := bing.CrawlDelay()
	fmt.Println(bing.Specific(), delay, ok)
	for _, url := range []string{"https://example.com/", "https://example.com/cgi-bin/x"} {
		fmt.Println(url, bing.Allowed(url))
	}
	// Output:
	// true 2s true
	// https://example.com/ true
	// https://example.com/cgi-bin/x false
}

// A crawler that answers to several product tokens passes them most
// specific first: Google's image crawler obeys a googlebot-image group if
// the file has one, else the googlebot group, else "*".
func ExampleRobots_Agent_tokens() {
	robots := robotstxt.Parse([]byte(`User-agent: googlebot-news
Disallow: /archive/

User-agent: *
Disallow: /

User-agent: googlebot
Disallow: /search
Crawl-delay: 1
`))
	images := robots.Agent("Googlebot-Image", "Googlebot")
	fmt.Println(images.Name(), images.Allowed("https://example.com/photos/cat.jpg"), images.Allowed("https://example.com/search?q=cat"))
	apple := robots.Agent("Applebot", "Googlebot") // Applebot follows Googlebot's rules when not named
	fmt.Println(apple.Name(), apple.Allowed("https://example.com/photos/cat.jpg"))
	other := robots.Agent("ExampleBot")
	fmt.Println(other.Specific(), other.Allowed("https://example.com/photos/cat.jpg"))
	// Output:
	// Googlebot true false
	// Googlebot true
	// false false
}

func ExampleParseWith() {
	data := []byte("User-agent: *\nDisallow: /\n")
	robots := robotstxt.ParseWith(data, robotstxt.Options{MaxSize: -1}) // read the whole file, however large
	fmt.Println(robots.Allowed("Googlebot", "https://example.com/"), robots.Truncated())
	// Output: false false
}

// A crawler that keeps the bodies it fetched as strings, in a cache or a
// store, parses them without copying them.
func ExampleParseString() {
	bodies := map[string]string{ // host → robots.txt, as a cache keeps them
		"example.com": "User-agent: *\nDisallow: /private/\n",
	}
	robots := robotstxt.ParseString(bodies["example.com"])
	fmt.Println(robots.Allowed("Googlebot", "https://example.com/private/plans.html"))
	fmt.Println(robots.Allowed("Googlebot", "https://example.com/about"))
	// Output:
	// false
	// true
}

// A crawler that reads a body itself hands it over rather than have it
// copied: nothing else writes the slice io.ReadAll returned.
func ExampleParseOwned() {
	resp := strings.NewReader("User-agent: *\nDisallow: /private/\n") // a response body
	body, err := io.ReadAll(io.LimitReader(resp, robotstxt.DefaultMaxSize))
	if err != nil {
		fmt.Println(err)
		return
	}
	robots := robotstxt.ParseOwned(body) // body is not used after this
	fmt.Println(robots.Allowed("Googlebot", "https://example.com/private/plans.html"))
	// Output: false
}

// What an HTTP result means for a crawler: a server error keeps it out of
// the whole site, a missing file lets it in everywhere.
func ExampleFromStatus() {
	for _, code := range []int{http.StatusOK, http.StatusNotFound, http.StatusServiceUnavailable} {
		robots := robotstxt.FromStatus(code, []byte("User-agent: *\nDisallow: /private/\n"))
		fmt.Println(code, robots.Outcome(), robots.Allowed("Googlebot", "https://example.com/private/x"), robots.Allowed("Googlebot", "https://example.com/"))
	}
	// Output:
	// 200 rules false true
	// 404 allow all true true
	// 503 disallow all false false
}

func ExampleFromResponse() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/robots.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	robots, err := robotstxt.FromResponse(resp)
	fmt.Println(robots.Outcome(), err)
	fmt.Println(robots.Allowed("Googlebot", srv.URL+"/"))
	// Output:
	// disallow all <nil>
	// false
}

func ExampleRobotsURL() {
	for _, page := range []string{
		"https://www.Example.com:443/shop/cart?id=1",
		"http://www.müller.eu:8080/",
		"mailto:someone@example.com",
	} {
		u, err := robotstxt.RobotsURL(page)
		fmt.Println(u, err)
	}
	// Output:
	// https://www.example.com/robots.txt <nil>
	// http://www.xn--mller-kva.eu:8080/robots.txt <nil>
	//  robotstxt: RobotsURL "mailto:someone@example.com": unsupported scheme "mailto": only http, https and ftp URLs have robots.txt files
}

func ExampleGoverns() {
	fmt.Println(robotstxt.Governs("http://example.com/robots.txt", "http://example.com:80/page"))
	fmt.Println(robotstxt.Governs("http://example.com/robots.txt", "https://example.com/page"))
	fmt.Println(robotstxt.Governs("http://example.com/robots.txt", "http://www.example.com/page"))
	// Output:
	// true
	// false
	// false
}

// Errors from RobotsURL say why with errors.Is.
func ExampleURLError() {
	_, err := robotstxt.RobotsURL("http:///no-host")
	var ue *robotstxt.URLError
	fmt.Println(errors.Is(err, robotstxt.ErrNoHost), errors.As(err, &ue) && ue.Op == "RobotsURL")
	// Output: true true
}
