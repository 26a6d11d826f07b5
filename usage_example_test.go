package robotstxt_test

import (
	"fmt"

	"github.com/seed50c7eacc/robotstxt"
)

// A crawler asks whether it may fetch a URL and what the site lets it do
// with the content: Content-Usage lines (IETF aipref drafts) and
// Content-Signal lines (Cloudflare's Content Signals Policy) of the group
// that applies to it.
func ExampleRobots_Usage() {
	robots := robotstxt.Parse([]byte(`User-agent: *
Allow: /
Disallow: /private/
Content-Usage: train-ai=n
Content-Usage: /blog/ train-ai=y
Content-Signal: search=yes, ai-train=no
`))
	for _, url := range []string{"/", "/blog/post", "/private/x"} {
		u := robots.Usage("ExampleBot", url)
		fmt.Printf("%-12s fetch=%-5v train-ai=%v (line %d) signal ai-train=%v\n",
			url, u.Fetchable, u.TrainAI.Preference, u.TrainAI.Line, u.Signal.AITrain.Preference)
	}
	// Output:
	// /            fetch=true  train-ai=disallow (line 4) signal ai-train=disallow
	// /blog/post   fetch=true  train-ai=allow (line 5) signal ai-train=disallow
	// /private/x   fetch=false train-ai=unknown (line 0) signal ai-train=unknown
}

// Agent.Usage answers for one crawler resolved once, here a token that
// controls use rather than fetching.
func ExampleAgent_Usage() {
	robots := robotstxt.Parse([]byte(`User-agent: Google-Extended
Allow: /
Content-Usage: train-ai=n
`))
	agent := robots.Agent("Google-Extended")
	fmt.Println(agent.Usage("https://example.com/page").TrainAI.Preference)
	// Output: disallow
}
