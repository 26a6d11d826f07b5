package diff_test

import (
	"fmt"

	"github.com/seed50c7eacc/robotstxt/diff"
)

func ExampleCompare() {
	old := []byte(`User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: Googlebot
Disallow: /search
`)
	// The new version drops the press exception, and a typo in the
	// User-agent line sends Googlebot to the "*" group.
	new := []byte(`User-agent: *
Disallow: /private/

User-agent: Googlebt
Disallow: /search
`)
	report := diff.Compare(old, new)
	for _, c := range report.Crawlers {
		for _, ch := range c.Changes {
			fmt.Printf("%s %s: %s (%s)\n", c.Agent, ch.Path, ch.Becomes(), ch.Describe())
		}
	}
	fmt.Println("no longer named:", report.AgentsUnnamed)
	// Output:
	// Googlebot /search: disallowed → allowed (paths matching /search)
	// Googlebot /private/: allowed → disallowed (paths matching /private/)
	// Googlebt /search: allowed → disallowed (paths matching /search)
	// Googlebt /private/: disallowed → allowed (paths matching /private/ but not /private/press/)
	// * /private/press/: allowed → disallowed (paths matching /private/press/ and /private/)
	// no longer named: [Googlebot]
}

// A Content-Usage line now asks that nothing under /news/ be used to train
// AI models; the rest of the site keeps its preferences, and /private/,
// which no crawler may fetch, has none.
func ExampleCompare_usage() {
	old := []byte(`User-agent: *
Disallow: /private/
Content-Usage: train-ai=y
`)
	new := []byte(`User-agent: *
Disallow: /private/
Content-Usage: train-ai=y
Content-Usage: /news/ train-ai=n
`)
	report := diff.Compare(old, new)
	for _, c := range report.Crawlers {
		for _, u := range c.Usage {
			fmt.Printf("%s %s: %s (%s; line %d)\n", c.Agent, u.Path, u.Becomes(), u.Describe(), u.New.TrainAI.Line)
		}
		fmt.Println("every path compared:", c.UsageDecided)
	}
	// Output:
	// * /news/: train-ai: allow → disallow (paths matching /news/ that both versions let it fetch; line 4)
	// every path compared: true
}
