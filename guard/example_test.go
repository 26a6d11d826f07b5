package guard_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/seed50c7eacc/robotstxt/guard"
)

func Example() {
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page\n") })
	g := guard.New([]byte("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"))
	h := g.Handler(site)

	for _, ua := range []string{
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	} {
		req := httptest.NewRequest("GET", "https://example.com/private/report", nil)
		req.Header.Set("User-Agent", ua)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		fmt.Print(rec.Code, " ", rec.Body.String())
	}
	// Output:
	// 403 refused: robots.txt disallows /private/report for GPTBot (line 2: disallow: /)
	// 403 refused: robots.txt disallows /private/report for bingbot (line 5: disallow: /private/)
	// 200 page
}
