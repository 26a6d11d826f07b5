package engine

import "time"

// A RuleSet is every rule that can decide for one agent, compiled for
// matching.
type RuleSet struct {
	// compiled is ordered so that the first rule that matches a path
	// decides: by priority (longer patterns first), allow before disallow
	// at equal priority, then in file order. See RuleSet.decide.
	compiled        []compiledRule
	text            string     // the file's string block, which compiled rules' patterns are spans of
	index           *lazyIndex // nil for small sets
	crawlDelay      time.Duration
	hasCrawlDelay   bool
	requestInterval time.Duration
	hasRequestRate  bool
	disallowAll     bool              // the file is a blanket disallow
	usage           *usagePreferences // Content-Usage and Content-Signal lines; see buildUsage
}

// The rule sets of files without rules for an agent, and of a blanket
// disallow. They are never written.
var (
	noRules         RuleSet
	blanketDisallow = RuleSet{disallowAll: true}
)

// NoRules returns the empty rule set, which allows everything. It must not
// be modified.
func NoRules() *RuleSet { return &noRules }

// CrawlDelay returns the first valid crawl-delay of the groups the rule
// set comes from (see delay.go).
func (rs *RuleSet) CrawlDelay() (time.Duration, bool) { return rs.crawlDelay, rs.hasCrawlDelay }

// RequestRate returns the interval of the first valid request-rate of the
// groups the rule set comes from (see delay.go).
func (rs *RuleSet) RequestRate() (time.Duration, bool) {
	return rs.requestInterval, rs.hasRequestRate
}

// Allowed reports whether rs allows url.
func (rs *RuleSet) Allowed(url string) bool {
	if rs.disallowAll {
		return false
	}
	if c := rs.decideURL(url); c != nil {
		return c.allows()
	}
	return true
}

// allowsPath reports whether rs allows a path in wire form, as Allowed
// does for the URL it comes from.
func (rs *RuleSet) allowsPath(path string) bool {
	if rs.disallowAll {
		return false
	}
	if len(rs.compiled) == 0 {
		return true
	}
	c := rs.decide(path)
	return c == nil || c.allows()
}

// Verdict returns the verdict of rs for url, with the deciding rule.
func (rs *RuleSet) Verdict(url string) Verdict {
	if rs.disallowAll {
		return Verdict{}
	}
	if c := rs.decideURL(url); c != nil {
		return Verdict{Allowed: c.allows(), Rule: c.asWritten(rs.text, rs.compiled)}
	}
	return Verdict{Allowed: true}
}

// decideURL returns the rule that decides for url, or nil.
func (rs *RuleSet) decideURL(url string) *compiledRule {
	if len(rs.compiled) == 0 {
		return nil
	}
	path, n, rewrite := findPath(url)
	if !rewrite {
		return rs.decide(path)
	}
	// Declared here, not above: the array is zeroed wherever it is declared.
	var buf [pathBufSize]byte
	return rs.decide(rewritePath(path, n, &buf))
}
