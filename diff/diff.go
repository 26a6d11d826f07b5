package diff

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/pathdiff"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// DefaultMaxWork is the work budget of a comparison when Options.MaxWork
// is zero: 80 million steps (a step is a pattern position read, or a
// rule looked at), about half a second on a current core when all of it is
// spent. Most real pairs need a small part of it (the median pair of a
// corpus of real sites about 1.5 ms); files of thousands of wildcard rules
// exhaust it and are reported as not decided.
const DefaultMaxWork = 80_000_000

// classShare is the part of the budget one crawler class may use at most,
// so that one hard class leaves the others theirs.
const classShare = 3

// Options control a comparison. The zero value compares every crawler
// class with the default budget.
type Options struct {
	// Agents restricts the crawlers compared to these product tokens
	// ("Googlebot", "GPTBot"); each is compared under the groups that
	// apply to it in each file. Empty means every product token either
	// file names, and every other crawler.
	Agents []string

	// MaxWork bounds the work of the comparison, in steps of pattern
	// positions (each also bounds memory: a state's positions are kept);
	// zero means DefaultMaxWork. One crawler class may use a third of
	// it. A class whose exploration runs out is reported with Decided
	// false.
	MaxWork int64
}

// Others is the Crawler.Agent of the class of crawlers that no group of
// either file names: they obey the "*" groups (RFC 9309 section 2.2.1).
const Others = "*"

// A Report is what changes between two versions of a robots.txt file.
type Report struct {
	// Crawlers has one entry per crawler class compared: the product
	// tokens either file names, in alphabetical order of their lower-case
	// form, then Others; or, with Options.Agents, the agents asked for in
	// that order.
	Crawlers []Crawler `json:"crawlers"`

	// SitemapsAdded and SitemapsRemoved are sitemap URLs, as written,
	// that only the new or only the old file lists.
	SitemapsAdded   []string `json:"sitemaps_added,omitempty"`
	SitemapsRemoved []string `json:"sitemaps_removed,omitempty"`

	// LicensesAdded and LicensesRemoved are the values of License lines
	// (RSL 1.0) that only the new or only the old file has.
	LicensesAdded   []string `json:"licenses_added,omitempty"`
	LicensesRemoved []string `json:"licenses_removed,omitempty"`

	// AgentsNamed and AgentsUnnamed are product tokens that some group of
	// the new file names and no group of the old one does, and the
	// reverse: a crawler no longer named falls back to the "*" groups, and
	// a User-agent line whose product token changed (a typo, a version
	// written without '/') shows here.
	AgentsNamed   []string `json:"agents_named,omitempty"`
	AgentsUnnamed []string `json:"agents_unnamed,omitempty"`

	// Lines are lines that became ignored, or stopped being ignored, as
	// package lint reports them.
	Lines []LineChange `json:"lines,omitempty"`
}

// A Crawler is what changes for one crawler class.
type Crawler struct {
	// Agent is the product token as first written in the new file (else
	// the old one), the name asked for with Options.Agents, or Others.
	Agent string `json:"agent"`
	// Named is the product token's class as each file reads it: true
	// when some group of that file names it, false when the crawler
	// obeys the "*" groups there.
	NamedOld bool `json:"named_old"`
	NamedNew bool `json:"named_new"`

	// Decided is true when every path was compared: then Changes lists
	// every class of paths whose verdict differs, and no Changes means no
	// path changes verdict. False when the work budget ran out first;
	// the Changes found so far are genuine, but there may be more.
	Decided bool `json:"decided"`

	// Changes are the classes of paths whose verdict differs, shortest
	// witness first.
	Changes []Change `json:"changes,omitempty"`

	// CrawlDelay and RequestRate are set when the crawl-delay or the
	// request-rate interval that applies to the crawler differs.
	CrawlDelay  *DurationChange `json:"crawl_delay,omitempty"`
	RequestRate *DurationChange `json:"request_rate,omitempty"`

	// UsageDecided is true when every path was compared for AI usage
	// preferences: then Usage lists every class of paths, fetchable under
	// both versions, whose preferences differ, and no Usage means none
	// does. False when the work budget ran out first; the Usage found so
	// far is genuine, but there may be more.
	UsageDecided bool `json:"usage_decided"`

	// Usage are the classes of paths that both versions let the crawler
	// fetch and whose AI usage preferences (Content-Usage and
	// Content-Signal lines, as Robots.Usage answers) differ, shortest
	// witness first. Paths whose verdict changes are in Changes instead.
	Usage []UsageChange `json:"usage,omitempty"`
}

// Changed reports whether some path changes verdict for the crawler, or
// the crawler was not decided.
func (c *Crawler) Changed() bool { return len(c.Changes) > 0 }

// A Change is a class of paths whose verdict differs: those for which the
// same old rule and the same new rule decide.
type Change struct {
	// Path is a witness: the shortest path of the class, built from the
	// patterns' own bytes, such as "/private/". Parse(old) and Parse(new)
	// answer it as Old and New say; that was checked before reporting.
	Path string `json:"path"`
	// Old and New are the verdicts for Path, as Explain gives them.
	Old robotstxt.Verdict `json:"old"`
	New robotstxt.Verdict `json:"new"`
	// Matching are the patterns (in wire form) of the deciding rules,
	// which every path of the class matches; Except are patterns of rules
	// that decide instead for some paths those patterns match. Together
	// they describe the class: "paths matching /private/ but not
	// /private/press/".
	Matching []string `json:"matching,omitempty"`
	Except   []string `json:"except,omitempty"`
}

// Becomes returns "allowed → disallowed" or the reverse.
func (c Change) Becomes() string {
	return word(c.Old.Allowed) + " → " + word(c.New.Allowed)
}

func word(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "disallowed"
}

// Describe describes the class of paths by patterns.
func (c Change) Describe() string {
	return describeClass(c.Matching, c.Except)
}

// describeClass names a class of paths by the patterns its paths match
// and those that decide instead for some of them.
func describeClass(matching, except []string) string {
	var b strings.Builder
	if len(matching) == 0 {
		b.WriteString("all paths")
	} else {
		b.WriteString("paths matching ")
		b.WriteString(strings.Join(matching, " and "))
	}
	if len(except) > 0 {
		b.WriteString(" but not ")
		b.WriteString(strings.Join(except, ", "))
	}
	return b.String()
}

// A DurationChange is a crawl-delay or request-rate interval that
// differs; nil means the file sets none for the crawler.
type DurationChange struct {
	Old *time.Duration `json:"old"`
	New *time.Duration `json:"new"`
}

// A LineChange is a lint finding on a line, present in only one version.
type LineChange struct {
	Text  string `json:"text"`  // the line as written
	Code  string `json:"code"`  // the lint code, such as "unknown-key"
	Old   int    `json:"old"`   // its line number in the old file, 0 if absent
	New   int    `json:"new"`   // its line number in the new file, 0 if absent
	Issue string `json:"issue"` // the lint message
}

// VerdictChanged reports whether some path changes verdict for some
// crawler compared.
func (r *Report) VerdictChanged() bool {
	for i := range r.Crawlers {
		if r.Crawlers[i].Changed() {
			return true
		}
	}
	return false
}

// Undecided returns the agents whose comparison ran out of budget.
func (r *Report) Undecided() []string {
	var out []string
	for _, c := range r.Crawlers {
		if !c.Decided {
			out = append(out, c.Agent)
		}
	}
	return out
}

// UsageUndecided returns the agents whose comparison of AI usage
// preferences ran out of budget.
func (r *Report) UsageUndecided() []string {
	var out []string
	for _, c := range r.Crawlers {
		if !c.UsageDecided {
			out = append(out, c.Agent)
		}
	}
	return out
}

// Compare reports what changes between the old and new versions of a
// robots.txt file, for every crawler class; see CompareWith.
func Compare(old, new []byte) *Report { return CompareWith(old, new, Options{}) }

// CompareWith reports what changes between the old and new versions of a
// robots.txt file. Both are read as Parse reads them.
func CompareWith(old, new []byte, opts Options) *Report {
	if opts.MaxWork <= 0 {
		opts.MaxWork = DefaultMaxWork
	}
	files := [2]*fileView{newFileView(old), newFileView(new)}
	r := &Report{}
	type class struct {
		agent string
		token string // lower-cased; "" for Others
	}
	var classes []class
	if len(opts.Agents) > 0 {
		for _, a := range opts.Agents {
			classes = append(classes, class{a, lowerToken(a)})
		}
	} else {
		var tokens []string
		for _, f := range files {
			for t := range f.named {
				if !slices.Contains(tokens, t) {
					tokens = append(tokens, t)
				}
			}
		}
		sort.Strings(tokens)
		for _, t := range tokens {
			name := files[1].named[t]
			if name == "" {
				name = files[0].named[t]
			}
			classes = append(classes, class{name, t})
		}
		classes = append(classes, class{Others, ""})
	}
	cache := map[string]*Crawler{}
	usageCache := map[string]usageResult{}
	// The usage comparison has a budget of its own, so that it never
	// takes from the verdicts'.
	left, usageLeft := opts.MaxWork, opts.MaxWork
	for _, c := range classes {
		token := c.token
		if files[0].named[token] == "" && files[1].named[token] == "" {
			token = "" // obeys the "*" groups in both
		}
		cr := compareClass(files, c.agent, token, min(left, opts.MaxWork/classShare), &left, cache)
		u, spent := compareUsage(files, token, min(usageLeft, opts.MaxWork/classShare), usageCache)
		usageLeft -= spent
		cr.UsageDecided, cr.Usage = u.decided, u.changes
		r.Crawlers = append(r.Crawlers, cr)
	}
	r.fileChanges(files, old, new)
	return r
}

// lowerToken returns the lower-cased product token of an agent name.
func lowerToken(agent string) string {
	return strings.ToLower(parse.ProductToken(agent))
}

// agentIn returns the rules of file f for the token ("" for the "*"
// groups) through the public API, for checking witnesses.
func agentIn(f *fileView, token string) *robotstxt.Agent {
	if token == "" {
		return f.robots.Agent()
	}
	return f.robots.Agent(token)
}

// witnessBase is the origin witnesses are checked under.
const witnessBase = "https://example.com"

// compareClass compares one crawler class.
func compareClass(files [2]*fileView, agent, token string, budget int64, left *int64, cache map[string]*Crawler) Crawler {
	lists := [2]ruleList{files[0].rulesFor(token), files[1].rulesFor(token)}
	cr := Crawler{Agent: agent, NamedOld: token != "" && files[0].named[token] != "", NamedNew: token != "" && files[1].named[token] != ""}
	agents := [2]*robotstxt.Agent{agentIn(files[0], token), agentIn(files[1], token)}
	key := lists[0].signature() + "\x01" + lists[1].signature()
	if prev, ok := cache[key]; ok {
		cr.Decided, cr.Changes = prev.Decided, prev.Changes
	} else {
		var spent int64
		cr.Decided, cr.Changes, spent = comparePaths(lists, agents, budget)
		*left -= spent
		cache[key] = &cr
	}
	cr.CrawlDelay = durationChange(agents[0].CrawlDelay, agents[1].CrawlDelay)
	cr.RequestRate = durationChange(agents[0].RequestRate, agents[1].RequestRate)
	return cr
}

// noFallback turns the pairwise check off, for tests of the automaton
// alone; forceFallback gives the automaton no budget, for tests of the
// pairwise check alone (SetPaths, in tests).
var noFallback, forceFallback bool

// comparePaths explores the two rule lists and returns the classes of
// paths whose verdict differs, each witness checked with the public API.
func comparePaths(lists [2]ruleList, agents [2]*robotstxt.Agent, budget int64) (decided bool, changes []Change, spent int64) {
	rules := [2][]pathdiff.Rule{lists[0].pathRules(), lists[1].pathRules()}
	if pathdiff.Same(rules[0], rules[1]) {
		return true, nil, 0
	}
	if budget <= 0 {
		return false, nil, 0
	}
	var byLine [2]map[lineKind][]int32
	for f := range lists {
		byLine[f] = map[lineKind][]int32{}
		for i, r := range lists[f] {
			k := lineKind{r.written.Line, r.allow}
			byLine[f][k] = append(byLine[f][k], int32(i))
		}
	}
	res := pathdiff.Compare(rules[0], rules[1], pathdiff.Options{
		Budget:       budget,
		Exceptions:   true,
		NoFallback:   noFallback,
		AutomatonOff: forceFallback,
		// The fallback's candidates are decided by the files' own
		// matcher.
		Decide: func(f int, path string) (int32, int64) {
			return decideWith(agents[f], lists[f], byLine[f], path)
		},
	})
	decided, spent = res.Decided, res.Work
	for _, c := range res.Classes {
		// An absolute URL, so that a witness starting with "//" is not
		// read as a host.
		url := witnessBase + c.Witness
		ch := Change{Path: c.Witness, Old: agents[0].Explain(url), New: agents[1].Explain(url)}
		if ch.Old.Allowed != c.Allowed[0] || ch.New.Allowed != c.Allowed[1] {
			// The automaton and the matcher disagree: never report
			// what was not checked, nor claim the class decided.
			decided = false
			continue
		}
		for f := range c.Decider {
			if d := c.Decider[f]; d >= 0 {
				// "/", "*", "/*" and "" match every path: they say nothing.
				if p := lists[f][d].wire; !matchesAll(p) && !slices.Contains(ch.Matching, p) {
					ch.Matching = append(ch.Matching, p)
				}
			}
		}
		for f := range c.Except {
			for _, d := range c.Except[f] {
				if p := lists[f][d].wire; !slices.Contains(ch.Except, p) && !slices.Contains(ch.Matching, p) {
					ch.Except = append(ch.Except, p)
				}
			}
		}
		changes = append(changes, ch)
	}
	return decided, changes, spent
}

// A lineKind is a rule's line and kind.
type lineKind struct {
	line  int
	allow bool
}

// decideWith returns the deciding rule of list for path, asking the file's
// matcher (Explain) and finding its rule in the list: by line and kind,
// and, for an allow of ".../index.htm..." and the directory it also
// allows (one line, two rules), by which of the two matches. It returns
// the work done, in the units of the budget.
func decideWith(agent *robotstxt.Agent, list ruleList, byLine map[lineKind][]int32, path string) (int32, int64) {
	// A question costs the matcher about a step per rule that can match
	// the path; a step per 16 rules is charged besides the fixed cost.
	cost := int64(64 + len(list)/16)
	v := agent.Explain(witnessBase + path)
	if v.Rule.Line == 0 {
		return -1, cost
	}
	idx := byLine[lineKind{v.Rule.Line, v.Rule.Allow}]
	if len(idx) == 2 && !pattern.Match(list[idx[0]].wire, path) {
		return idx[1], cost
	}
	return idx[0], cost
}

// matchesAll reports whether a pattern in wire form matches every path,
// which all start with '/'.
func matchesAll(p string) bool {
	return p == "" || p == "/" || p == "*" || p == "/*"
}

func durationChange(old, new func() (time.Duration, bool)) *DurationChange {
	o, okO := old()
	n, okN := new()
	if okO == okN && o == n {
		return nil
	}
	c := &DurationChange{}
	if okO {
		c.Old = &o
	}
	if okN {
		c.New = &n
	}
	return c
}
