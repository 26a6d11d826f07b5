// Package tester answers the browser tester's questions: Check, for one
// crawler and a list of URLs, with the linter's findings, and Audit, for
// the well-known AI and search crawlers. The page calls them through
// robotstxt compiled to WebAssembly (web/wasm), in a Web Worker, and reads
// their results as JSON, so it answers exactly as the library does and
// needs no server once loaded.
package tester

import (
	"bytes"
	"strings"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/app/agenthint"
	"github.com/seed50c7eacc/robotstxt/internal/app/audit"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/lint"
)

// A Result is the page's view of one robots.txt file, one agent and a list
// of URLs.
type Result struct {
	Agent       string            `json:"agent"`
	Specific    bool              `json:"specific"` // some group names the agent; otherwise the * group or none applies
	CrawlDelay  float64           `json:"crawl_delay,omitempty"`
	Verdicts    []Verdict         `json:"verdicts"`
	Diagnostics []lint.Diagnostic `json:"diagnostics"`
	Sitemaps    []string          `json:"sitemaps"`
	Lines       int               `json:"lines"` // lines of the file as Google numbers them
	Truncated   bool              `json:"truncated"`
	// AgentWarning is set when Agent is not a product token
	// (robotstxt.ValidAgent): it says that the * group answers and which
	// token was probably meant.
	AgentWarning string `json:"agent_warning,omitempty"`
	// Cut says where Googlebot stops reading a file longer than its
	// limit; nil when the whole file is read.
	Cut *Cut `json:"cut,omitempty"`
}

// A Cut is where Googlebot stops reading a file: what follows is ignored.
type Cut struct {
	Limit int    `json:"limit"` // bytes read
	Line  int    `json:"line"`  // the line the cut falls in
	Kept  string `json:"kept"`  // the part of that line that is read
	// GroupLine is the line of a group naming the agent that lies past the
	// cut, when no group before it does: Google never sees it. 0 otherwise.
	GroupLine int `json:"group_line,omitempty"`
}

// A Verdict is the answer for one URL.
type Verdict struct {
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	// Rule is the deciding rule in the form every report of the robotstxt
	// command uses; nil (JSON null) when none applied.
	Rule *audit.Rule `json:"rule"`
	// Says is the deciding rule as robotstxt.Rule.String writes it, such
	// as "disallow: /x"; empty when none applied.
	Says string `json:"says,omitempty"`
}

// Check parses robots and answers for agent and each line of urls (blank
// lines skipped, surrounding white space removed). It never fails: any
// text is a robots.txt file and any string a URL.
func Check(robots, agent, urls string) Result {
	data := []byte(robots)
	r := robotstxt.Parse(data)
	report := lint.Lint(data)
	a := r.Agent(agent)
	res := Result{
		Agent:       agent,
		Specific:    a.Specific(),
		Verdicts:    []Verdict{},
		Diagnostics: report.Diagnostics,
		Sitemaps:    r.Sitemaps(),
		Lines:       report.LastLine,
		Truncated:   r.Truncated(),

		AgentWarning: agenthint.Warning(agent),
	}
	if r.Truncated() {
		res.Cut = cutOf(data, r.Size(), agent, a.Specific())
	}
	if res.Diagnostics == nil {
		res.Diagnostics = []lint.Diagnostic{}
	}
	if res.Sitemaps == nil {
		res.Sitemaps = []string{}
	}
	if d, ok := a.CrawlDelay(); ok {
		res.CrawlDelay = d.Seconds()
	}
	for _, u := range strings.Split(urls, "\n") {
		u = strings.TrimSpace(u)
		if u == "" {
			continue
		}
		res.Verdicts = append(res.Verdicts, verdictOf(a, u))
	}
	return res
}

// verdictOf answers u for a.
func verdictOf(a *robotstxt.Agent, u string) Verdict {
	v := a.Explain(u)
	out := Verdict{URL: u, Allowed: v.Allowed, Rule: audit.RuleOf(v.Rule)}
	if out.Rule != nil {
		out.Says = v.Rule.String()
	}
	return out
}

// cutOf describes where Googlebot stops reading data, after limit bytes,
// and finds a group naming agent past it when none before it does.
func cutOf(data []byte, limit int, agent string, specific bool) *Cut {
	read := data[:limit]
	start := bytes.LastIndexByte(read, '\n') + 1 // the page holds only LF line ends
	c := &Cut{
		Limit: limit,
		Line:  bytes.Count(read, []byte{'\n'}) + 1,
		Kept:  string(read[start:]),
	}
	if specific || !robotstxt.ValidAgent(agent) {
		return c
	}
	whole := robotstxt.ParseWith(data, robotstxt.Options{MaxSize: -1})
	for _, g := range whole.Groups() {
		for _, name := range g.Agents {
			if parse.EqualFold(parse.ProductToken(name), agent) && g.Line >= c.Line {
				c.GroupLine = g.Line
				return c
			}
		}
	}
	return c
}
