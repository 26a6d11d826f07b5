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

// The three categories of draft-ietf-aipref-vocab-08: AI Training
// (train-ai), AI Use (ai-use: content fed to a generative model without
// the user handing it over) and Search. Search overrides the other two
// for a use that qualifies as search (section 4.3), so a crawler decides
// first whether its use is search, and only otherwise reads the category
// of its use.
func ExampleUsage_search() {
	robots := robotstxt.Parse([]byte(`User-agent: *
Allow: /
Content-Usage: train-ai=n, ai-use=n, search=y
`))
	u := robots.Usage("ExampleBot", "https://example.com/article")
	decide := func(isSearch bool, category robotstxt.Decision) robotstxt.Preference {
		if isSearch {
			return u.Search.Preference
		}
		return category.Preference
	}
	fmt.Println("search results that link to the article:", decide(true, u.AIUse))
	fmt.Println("a generated answer grounded on the article:", decide(false, u.AIUse))
	fmt.Println("training a generative model:", decide(false, u.TrainAI))
	// Output:
	// search results that link to the article: allow
	// a generated answer grounded on the article: disallow
	// training a generative model: disallow
}
