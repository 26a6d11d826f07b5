// Package diffreport is the robotstxt diff command's view of a diff.Report,
// shared with the browser tester's compare view: the crawler classes in
// the order a site owner reads them (search crawlers first, then AI
// crawlers by purpose, as audit groups them), and the report's JSON form
// in the command's shape (snake_case keys; a rule is null or
// {"line", "kind", "pattern"}).
package diffreport

import (
	"sort"
	"strings"
	"time"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/diff"
	"github.com/seed50c7eacc/robotstxt/internal/app/audit"
	"github.com/seed50c7eacc/robotstxt/internal/crawlers"
)

// A Listed is a crawler class as the command and the page show it.
type Listed struct {
	diff.Crawler
	Purpose crawlers.Purpose // "" when the crawler list does not know it
}

// Order orders the crawler classes as a site owner reads them: search
// crawlers first, then AI crawlers by purpose (AI training, AI input, AI
// search, other AI) as audit groups them, then the agents the crawler
// list does not know, by name, then every other crawler (diff.Others).
func Order(cs []diff.Crawler) []Listed {
	purposes := map[string]crawlers.Purpose{}
	if list, _, err := crawlers.List(); err == nil {
		for _, e := range list {
			if e.Kind == crawlers.Crawler || e.Kind == crawlers.UsageToken {
				purposes[strings.ToLower(crawlers.GoogleToken(e.Name))] = e.Purpose
			}
		}
	}
	out := make([]Listed, len(cs))
	for i, c := range cs {
		out[i] = Listed{Crawler: c, Purpose: purposes[strings.ToLower(c.Agent)]}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rank(out[i]), rank(out[j]); ri != rj {
			return ri < rj
		}
		return strings.ToLower(out[i].Agent) < strings.ToLower(out[j].Agent)
	})
	return out
}

// rank is a class's place in Order.
func rank(c Listed) int {
	if c.Agent == diff.Others {
		return 7
	}
	switch c.Purpose {
	case crawlers.Search:
		return 0
	case crawlers.AITraining:
		return 1
	case crawlers.AIInput:
		return 2
	case crawlers.AISearch:
		return 3
	case crawlers.AIOther:
		return 4
	}
	return 6
}

// A Flip is a URL of a list whose verdict differs for one crawler.
type Flip struct {
	URL   string
	Agent string
	Old   robotstxt.Verdict
	New   robotstxt.Verdict
}

// Report is the JSON form of a comparison, as robotstxt diff -json prints
// it and the browser tester reads it.
type Report struct {
	Old             string            `json:"old"`
	New             string            `json:"new"`
	VerdictChanged  bool              `json:"verdict_changed"`
	Undecided       []string          `json:"undecided"`
	UsageUndecided  []string          `json:"usage_undecided"`
	Crawlers        []Crawler         `json:"crawlers"`
	SitemapsAdded   []string          `json:"sitemaps_added"`
	SitemapsRemoved []string          `json:"sitemaps_removed"`
	LicensesAdded   []string          `json:"licenses_added"`
	LicensesRemoved []string          `json:"licenses_removed"`
	AgentsNamed     []string          `json:"agents_named"`
	AgentsUnnamed   []string          `json:"agents_unnamed"`
	Lines           []diff.LineChange `json:"lines"`
	URLFlips        []JSONFlip        `json:"url_flips,omitempty"`
}

// A Crawler is one crawler class of a Report.
type Crawler struct {
	Agent        string           `json:"agent"`
	Purpose      crawlers.Purpose `json:"purpose,omitempty"`
	NamedOld     bool             `json:"named_old"`
	NamedNew     bool             `json:"named_new"`
	Decided      bool             `json:"decided"`
	Changes      []Change         `json:"changes"`
	CrawlDelay   *DurationChange  `json:"crawl_delay,omitempty"`
	RequestRate  *DurationChange  `json:"request_rate,omitempty"`
	UsageDecided bool             `json:"usage_decided"`
	Usage        []UsageChange    `json:"usage"`
}

// A UsageChange is one class of paths whose AI usage preferences change,
// with its witness: the preferences as robotstxt.Usage gives them in each
// version, the changes in words, and the class by its patterns.
type UsageChange struct {
	Path     string          `json:"path"`
	Old      robotstxt.Usage `json:"old"`
	New      robotstxt.Usage `json:"new"`
	Becomes  string          `json:"becomes"`
	Matching []string        `json:"matching"`
	Except   []string        `json:"except"`
	Describe string          `json:"describe"`
}

// A Change is one class of paths whose verdict changes, with its witness.
type Change struct {
	Path     string   `json:"path"`
	Old      Side     `json:"old"`
	New      Side     `json:"new"`
	Matching []string `json:"matching"`
	Except   []string `json:"except"`
	Describe string   `json:"describe"`
}

// A Side is a verdict in one version.
type Side struct {
	Allowed bool        `json:"allowed"`
	Verdict string      `json:"verdict"` // "allowed" or "disallowed"
	Rule    *audit.Rule `json:"rule"`
}

// A DurationChange is a crawl-delay or request-rate interval that
// differs, in seconds; null where the file sets none.
type DurationChange struct {
	Old *float64 `json:"old_seconds"`
	New *float64 `json:"new_seconds"`
}

// A JSONFlip is a Flip in JSON.
type JSONFlip struct {
	URL   string `json:"url"`
	Agent string `json:"agent"`
	Old   Side   `json:"old"`
	New   Side   `json:"new"`
}

// Word returns "allowed" or "disallowed".
func Word(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "disallowed"
}

// SideOf is a verdict in JSON.
func SideOf(v robotstxt.Verdict) Side {
	return Side{Allowed: v.Allowed, Verdict: Word(v.Allowed), Rule: audit.RuleOf(v.Rule)}
}

func seconds(d *time.Duration) *float64 {
	if d == nil {
		return nil
	}
	s := d.Seconds()
	return &s
}

func durationJSON(d *diff.DurationChange) *DurationChange {
	if d == nil {
		return nil
	}
	return &DurationChange{seconds(d.Old), seconds(d.New)}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// JSON returns the JSON form of r, whose crawler classes Order gave as
// cs, comparing the files named names[0] (old) and names[1] (new); flips
// are the URLs of a list whose verdict flips. Lists are empty, not null.
func JSON(names [2]string, r *diff.Report, cs []Listed, flips []Flip) Report {
	out := Report{
		Old: names[0], New: names[1], VerdictChanged: r.VerdictChanged(), Undecided: nonNil(r.Undecided()),
		UsageUndecided: nonNil(r.UsageUndecided()),
		SitemapsAdded:  nonNil(r.SitemapsAdded), SitemapsRemoved: nonNil(r.SitemapsRemoved),
		LicensesAdded: nonNil(r.LicensesAdded), LicensesRemoved: nonNil(r.LicensesRemoved),
		AgentsNamed: nonNil(r.AgentsNamed), AgentsUnnamed: nonNil(r.AgentsUnnamed), Lines: nonNil(r.Lines),
		Crawlers: []Crawler{},
	}
	for _, c := range cs {
		jc := Crawler{Agent: c.Agent, Purpose: c.Purpose, NamedOld: c.NamedOld, NamedNew: c.NamedNew, Decided: c.Decided,
			Changes: []Change{}, CrawlDelay: durationJSON(c.CrawlDelay), RequestRate: durationJSON(c.RequestRate),
			UsageDecided: c.UsageDecided, Usage: []UsageChange{}}
		for _, ch := range c.Changes {
			jc.Changes = append(jc.Changes, Change{Path: ch.Path, Old: SideOf(ch.Old), New: SideOf(ch.New),
				Matching: nonNil(ch.Matching), Except: nonNil(ch.Except), Describe: ch.Describe()})
		}
		for _, u := range c.Usage {
			jc.Usage = append(jc.Usage, UsageChange{Path: u.Path, Old: u.Old, New: u.New, Becomes: u.Becomes(),
				Matching: nonNil(u.Matching), Except: nonNil(u.Except), Describe: u.Describe()})
		}
		out.Crawlers = append(out.Crawlers, jc)
	}
	for _, f := range flips {
		out.URLFlips = append(out.URLFlips, JSONFlip{URL: f.URL, Agent: f.Agent, Old: SideOf(f.Old), New: SideOf(f.New)})
	}
	return out
}
