// Package audit tells a site owner what a robots.txt file says to the
// well-known AI and search crawlers of internal/crawlers: whether each may
// fetch each URL, its AI usage preferences there, and which names Google's
// product-token rule reads differently from how they are written. It
// serves the robotstxt audit command and the browser tester.
package audit

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/guard"
	"github.com/seed50c7eacc/robotstxt/internal/crawlers"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// A Report is the audit of one file. Its JSON form, with snake_case keys,
// is what the robotstxt command's audit -json prints and what the browser
// tester reads.
type Report struct {
	Source crawlers.SourceInfo `json:"source"` // the crawler list's snapshot
	URLs   []string            `json:"urls"`
	// Truncated reports that the file was longer than Limit bytes, so
	// that only its first Limit bytes were read, as Googlebot reads only
	// the first 500 KiB.
	Truncated bool `json:"truncated"`
	Limit     int  `json:"limit"` // the size limit the file was read with
	// PreferenceLines counts the file's Content-Usage and Content-Signal
	// lines, in groups or not.
	PreferenceLines int `json:"preference_lines"`
	// PreferencesOutsideGroups are the lines of the Content-Usage and
	// Content-Signal lines that stand before the first user-agent line:
	// they belong to no group, so they apply to no crawler (see
	// docs/aipref.md); [] when none.
	PreferencesOutsideGroups []int `json:"preferences_outside_groups"`
	// Licenses are the values of the file's License lines (RSL 1.0), in
	// file order; empty, not nil, when there are none.
	Licenses []string `json:"licenses"`
	// Crawlers are in the order of the crawler list (internal/crawlers,
	// crawlers.json), which the JSON keeps for programs that read it;
	// ByGroup returns them in the order WriteText and the browser tester
	// show them.
	Crawlers []Crawler `json:"crawlers"`
}

// A Crawler is the audit of one name of the list.
type Crawler struct {
	Name    string           `json:"name"`
	Purpose crawlers.Purpose `json:"purpose"`
	Kind    crawlers.Kind    `json:"kind"`
	// Token is what Google's product-token rule reads of Name, the token
	// the audit asks with; ReadAs is set when it differs from Name.
	Token  string `json:"token"`
	ReadAs string `json:"read_as,omitempty"`
	// NamedOnLines are the user-agent lines written as Name (ignoring
	// case): for a name read differently, the lines that do not mean
	// what they say.
	NamedOnLines []int `json:"named_on_lines,omitempty"`
	// Specific reports whether some group names Token; otherwise the "*"
	// groups apply.
	Specific bool     `json:"specific"`
	Results  []Result `json:"results"` // one per URL, in order
}

// A Result is one crawler's answer for one URL.
type Result struct {
	URL     string          `json:"url"`
	Allowed bool            `json:"allowed"`
	Rule    *Rule           `json:"rule"` // the deciding rule; nil (null) when none applied
	Usage   robotstxt.Usage `json:"usage"`
	// GuardRefuses says whether package guard, enforcing the file on a
	// site, answers 403 to the crawler asking for the URL with the
	// User-Agent "Name/1.0": its own group, with the fallbacks its
	// operator documents (Applebot obeys Googlebot's group when the file
	// names Applebot nowhere), which the verdict above, asked by the
	// token alone, does not follow. Always false for a usage-only token,
	// which no crawler sends.
	GuardRefuses bool `json:"guard_refuses"`
}

// A Rule is the rule that decided an answer, in the one form every report
// of the robotstxt command and the browser tester uses: in JSON,
// {"line": 12, "kind": "disallow", "pattern": "/private/"}, and null
// (a nil *Rule) when no rule applied.
type Rule struct {
	Line    int    `json:"line"`    // 1-based line number in the file
	Kind    string `json:"kind"`    // "allow" or "disallow"
	Pattern string `json:"pattern"` // the path pattern as written
	// Written is the rule's line as the file writes it: its key and
	// value, each as written, joined by ": " ("DISALLOW: /Private" for
	// "  DISALLOW :  /Private  # note"). Run sets it; RuleOf cannot, and
	// leaves it empty. It is not in the JSON, whose readers have the
	// file (the browser tester shows the line itself).
	Written string `json:"-"`
}

// RuleOf returns the report form of r, or nil when r is no rule (Line 0,
// as in a Verdict that no rule decided).
func RuleOf(r robotstxt.Rule) *Rule {
	if r.Line == 0 {
		return nil
	}
	kind := "disallow"
	if r.Allow {
		kind = "allow"
	}
	return &Rule{Line: r.Line, Kind: kind, Pattern: r.Pattern}
}

// String returns the rule as a robots.txt line: as written when Written
// is set, such as "Disallow: /x", else as Kind and Pattern, such as
// "disallow: /x".
func (r *Rule) String() string {
	if r.Written != "" {
		return r.Written
	}
	return r.Kind + ": " + r.Pattern
}

// Run audits a robots.txt file, parsed with opts, for urls ("/" when
// there are none). Each name of the list is asked once, names differing
// only in case counting as one, the first kept.
func Run(data []byte, opts robotstxt.Options, urls []string) (*Report, error) {
	robots := robotstxt.ParseWith(data, opts)
	if limit := opts.Limit(); len(data) > limit {
		data = data[:limit] // what the parse read
	}
	list, source, err := crawlers.List()
	if err != nil {
		return nil, err
	}
	if len(urls) == 0 {
		urls = []string{"/"}
	}
	rep := &Report{Source: source, URLs: urls, Truncated: robots.Truncated(), Limit: opts.Limit(), Licenses: robots.Licenses()}
	if rep.Licenses == nil {
		rep.Licenses = []string{}
	}
	for _, f := range robots.Fields() {
		if isPreferenceKey(f.Key) {
			rep.PreferenceLines++
		}
	}
	named, outside, written := scanLines(data)
	site := guard.New(data)
	rep.PreferencesOutsideGroups = outside
	seen := map[string]bool{}
	for _, e := range list {
		key := strings.ToLower(e.Name)
		if seen[key] {
			continue
		}
		seen[key] = true
		c := Crawler{Name: e.Name, Purpose: e.Purpose, Kind: e.Kind, Token: crawlers.GoogleToken(e.Name)}
		if c.Token == "" {
			c.Token = e.Name // nothing Google could read: ask as written, which no group names
		}
		if c.Token != e.Name {
			c.ReadAs = c.Token
		}
		c.NamedOnLines = named[key]
		agent := robots.Agent(c.Token)
		c.Specific = agent.Specific()
		for _, u := range urls {
			v := agent.Explain(u)
			rule := RuleOf(v.Rule)
			if rule != nil {
				rule.Written = written[rule.Line]
			}
			res := Result{URL: u, Allowed: v.Allowed, Rule: rule, Usage: agent.Usage(u)}
			if e.Kind == crawlers.Crawler {
				res.GuardRefuses = guardRefuses(site, e.Name, u)
			}
			c.Results = append(c.Results, res)
		}
		rep.Crawlers = append(rep.Crawlers, c)
	}
	return rep, nil
}

// guardRefuses reports whether g refuses the crawler name asking for u,
// a path or an absolute URL, with the User-Agent "name/1.0".
func guardRefuses(g *guard.Guard, name, u string) bool {
	if strings.HasPrefix(u, "/") {
		u = "http://site.test" + u
	}
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return false
	}
	req.RequestURI = req.URL.RequestURI()
	req.Header.Set("User-Agent", name+"/1.0")
	return !g.Decide(req).Allowed
}

// scanLines reads data with the parser's tokenizer and returns, for each
// user-agent value as written (lower-cased), the lines it stands on; the
// preference lines before the first user-agent line ([] when none); and
// each allow and disallow line as written (see Rule.Written), by line.
func scanLines(data []byte) (named map[string][]int, outside []int, written map[int]string) {
	named = map[string][]int{}
	outside = []int{}
	written = map[int]string{}
	seenAgent := false
	tok := parse.NewTokenizer(string(data))
	var l parse.Line
	for tok.Next(&l) {
		if l.Flags&parse.LineHasDirective == 0 {
			continue
		}
		switch {
		case l.Kind == parse.KeyUserAgent:
			seenAgent = true
			k := strings.ToLower(l.Value)
			named[k] = append(named[k], l.Num)
		case l.Kind == parse.KeyAllow || l.Kind == parse.KeyDisallow:
			written[l.Num] = l.Key + ": " + l.Value
		case !seenAgent && l.Kind == parse.KeyUnknown && isPreferenceKey(l.Key):
			outside = append(outside, l.Num)
		}
	}
	return named, outside, written
}

func isPreferenceKey(key string) bool {
	return parse.EqualFold(key, "content-usage") || parse.EqualFold(key, "content-signal")
}

// Blocked returns how many crawlers of the given purposes (all when none
// is given) may not fetch the i-th URL.
func (r *Report) Blocked(i int, purposes ...crawlers.Purpose) int {
	n := 0
	for _, c := range r.Crawlers {
		if len(purposes) > 0 && !hasPurpose(purposes, c.Purpose) {
			continue
		}
		if !c.Results[i].Allowed {
			n++
		}
	}
	return n
}

// purposeOrder is the order in which ByGroup, and the browser tester's
// audit view (web/internal/site/static/audit.js), show the purposes.
var purposeOrder = []crawlers.Purpose{crawlers.AITraining, crawlers.AIInput, crawlers.AISearch, crawlers.AIOther, crawlers.Search}

// purposeRank is p's place in purposeOrder, or after it for a purpose
// it does not know.
func purposeRank(p crawlers.Purpose) int {
	for i, q := range purposeOrder {
		if q == p {
			return i
		}
	}
	return len(purposeOrder)
}

// ByGroup returns the report's crawlers in the order a site owner reads
// them, which WriteText and the browser tester use: those a group of the
// file names (Specific) first; then by purpose: AI training, AI input, AI
// search, AI (other), search; then by name, ignoring case. Report.Crawlers
// is left in the list's order.
func (r *Report) ByGroup() []Crawler {
	out := append([]Crawler(nil), r.Crawlers...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Specific != b.Specific {
			return a.Specific
		}
		if ra, rb := purposeRank(a.Purpose), purposeRank(b.Purpose); ra != rb {
			return ra < rb
		}
		if la, lb := strings.ToLower(a.Name), strings.ToLower(b.Name); la != lb {
			return la < lb
		}
		return a.Name < b.Name
	})
	return out
}

func hasPurpose(ps []crawlers.Purpose, p crawlers.Purpose) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// WriteText writes the report for a person: the file's License URLs; per
// URL one line per crawler, in ByGroup's order (own groups first, then by
// purpose and name), with its verdict and the deciding rule as the file
// writes it ("line 2: Disallow: /private/"); then the names Google reads
// differently. show renders text taken from the file or the URLs (a rule,
// a URL) for the terminal, such as quoting control bytes; nil leaves it as
// it is.
func (r *Report) WriteText(w io.Writer, file string, show func(string) string) error {
	if show == nil {
		show = func(s string) string { return s }
	}
	ew := &errWriter{w: w}
	ew.printf("%s: %d crawlers from %s (%s, %s, %s); %d Content-Usage/Content-Signal lines\n",
		file, len(r.Crawlers), r.Source.Name, short(r.Source.Commit), r.Source.Date, r.Source.License, r.PreferenceLines)
	if n := len(r.PreferencesOutsideGroups); n > 0 {
		what := "Preference line " + joinInts(r.PreferencesOutsideGroups) + " stands"
		if n > 1 {
			what = "Preference lines " + joinInts(r.PreferencesOutsideGroups) + " stand"
		}
		ew.printf("%s before the first user-agent line: in no group, so for no crawler (to mean every crawler, write it in the User-agent: * group)\n", what)
	}
	for _, l := range r.Licenses {
		ew.printf("License (RSL 1.0, for every crawler; not fetched here): %s\n", show(l))
	}
	ordered := r.ByGroup()
	for i, u := range r.URLs {
		ew.printf("\n%s: %d of %d crawlers may not fetch it\n", show(u), r.Blocked(i), len(r.Crawlers))
		for _, c := range ordered {
			res := c.Results[i]
			verdict := "allowed   "
			if !res.Allowed {
				verdict = "DISALLOWED"
			}
			why := "no rule"
			if res.Rule != nil {
				why = fmt.Sprintf("line %d: %s", res.Rule.Line, show(res.Rule.String()))
			}
			group := "group *"
			if c.Specific {
				group = "own group"
			}
			note := ""
			switch {
			case res.GuardRefuses && res.Allowed:
				note = "; the guard refuses it (the crawler's documented fallback group)"
			case !res.GuardRefuses && !res.Allowed && c.Kind == crawlers.Crawler:
				note = "; the guard lets it through"
			}
			ew.printf("  %s %-28s %-11s %-9s %s%s%s\n", verdict, c.Name, c.Purpose, group, why, usageText(res.Usage), note)
		}
	}
	var differs []string
	for _, c := range r.Crawlers {
		if c.ReadAs == "" {
			continue
		}
		s := fmt.Sprintf("%s as %q", c.Name, c.ReadAs)
		if len(c.NamedOnLines) > 0 {
			s += fmt.Sprintf(" (named on line %s of this file)", joinInts(c.NamedOnLines))
		}
		differs = append(differs, s)
	}
	if len(differs) > 0 {
		ew.printf("\nGoogle's product-token rule (leading letters, '-' and '_') reads %d names differently from how they are written:\n", len(differs))
		for _, d := range differs {
			ew.printf("  %s\n", d)
		}
	}
	return ew.err
}

// usageText describes the preferences that some line says yes or no to,
// or "": the Content-Usage categories of draft-ietf-aipref-vocab-08
// (train-ai, ai-use, search), then the Content-Signal ones.
func usageText(u robotstxt.Usage) string {
	var parts []string
	for _, d := range []struct {
		name string
		d    robotstxt.Decision
	}{
		{"train-ai", u.TrainAI}, {"ai-use", u.AIUse}, {"search", u.Search},
		{"signal search", u.Signal.Search}, {"signal ai-input", u.Signal.AIInput}, {"signal ai-train", u.Signal.AITrain},
	} {
		if d.d.Preference != robotstxt.PreferenceUnknown {
			parts = append(parts, fmt.Sprintf("%s=%s (line %d)", d.name, d.d.Preference, d.d.Line))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ")
}

func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}

func joinInts(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, fmt.Sprint(n))
	}
	return strings.Join(s, ", ")
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
