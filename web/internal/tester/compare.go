package tester

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/diff"
	"github.com/seed50c7eacc/robotstxt/internal/app/diffreport"
)

// Compare is the page's compare view of two versions of a robots.txt
// file: what changes for each crawler when new replaces old, as package
// diff reports it within the work budget maxWork (diff.DefaultMaxWork
// when zero; a crawler class that exhausts it is reported not decided),
// in the shape robotstxt diff -json prints, its crawler classes in the
// command's order.
func Compare(old, new string, maxWork int64) diffreport.Report {
	r := diff.CompareWith([]byte(old), []byte(new), diff.Options{MaxWork: maxWork})
	return diffreport.JSON([2]string{"old", "new"}, r, diffreport.Order(r.Crawlers), nil)
}

// A WitnessResult is one URL answered for one crawler by both versions.
type WitnessResult struct {
	Agent string      `json:"agent"`
	URL   string      `json:"url"`
	Old   WitnessSide `json:"old"`
	New   WitnessSide `json:"new"`
}

// A WitnessSide is the answer of one version: the verdict with its
// deciding rule, and whether a group of that version names the crawler.
type WitnessSide struct {
	Verdict
	Specific bool `json:"specific"`
}

// witnessBase is the origin a path is tested under, as package diff
// checks its witnesses: a path starting with "//" is then not read as a
// host.
const witnessBase = "https://example.com"

// Witness answers url for agent on both versions, as Check answers it on
// one; agent diff.Others ("*") is every crawler neither version names,
// which obeys the "*" groups. A url that is a path ("/private/") is
// answered as a path on the site.
func Witness(old, new, agent, url string) WitnessResult {
	url = strings.TrimSpace(url)
	asked := url
	if strings.HasPrefix(asked, "/") {
		asked = witnessBase + asked
	}
	res := WitnessResult{Agent: agent, URL: url}
	for i, body := range [2]string{old, new} {
		r := robotstxt.ParseString(body)
		a := r.Agent()
		if agent != diff.Others {
			a = r.Agent(agent)
		}
		side := WitnessSide{Verdict: verdictOf(a, asked), Specific: a.Specific()}
		side.URL = url
		if i == 0 {
			res.Old = side
		} else {
			res.New = side
		}
	}
	return res
}
