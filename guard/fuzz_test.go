package guard_test

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/guard"
)

// FuzzDecide: any robots.txt, User-Agent and path give a decision without
// a panic; the crawler read is a word of the header; a request that
// names no crawler passes; and a refusal is the verdict of the group that
// robotstxt.Robots.Agent gives the crawler's group name, on the path the
// guard reports.
func FuzzDecide(f *testing.F) {
	f.Add("User-agent: *\nDisallow: /private/\n", gptbot, "/private/x")
	f.Add("User-agent: GPTBot\nDisallow: /\n", "GPTBot/1.0", "/")
	f.Add("User-agent: Googlebot\nDisallow: /a$\n", imagebot, "/a")
	f.Add("User-agent: Mozilla\nDisallow: /\n", chrome, "/%70rivate/../x")
	f.Fuzz(func(t *testing.T, body, ua, path string) {
		u, err := url.Parse("http://site.test/" + strings.TrimPrefix(path, "/"))
		if err != nil {
			return
		}
		req := httptest.NewRequest("GET", "http://site.test/", nil)
		req.URL, req.RequestURI = u, u.RequestURI()
		req.Header.Set("User-Agent", ua)
		d := guard.New([]byte(body)).Decide(req)
		if d.Crawler != "" && !strings.Contains(ua, d.Crawler) {
			t.Fatalf("crawler %q is not in the header %q", d.Crawler, ua)
		}
		if d.Crawler == "" && !d.Allowed {
			t.Fatalf("%q names no crawler but is refused", ua)
		}
		if !d.Allowed {
			if v := robotstxt.Parse([]byte(body)).Agent(d.Agent).Explain(d.Path); v != d.Verdict {
				t.Fatalf("refused %s for %q with %+v; the group %q says %+v", d.Path, ua, d.Verdict, d.Agent, v)
			}
		}
	})
}
