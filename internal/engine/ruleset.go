package engine

import "time"

// A RuleSet is every rule that can decide for one agent, compiled for
// matching.
type RuleSet struct {
	// compiled is ordered so that the first rule that matches a path
	// decides: by priority (longer patterns first), allow before disallow
	// at equal priority, then in file order. See RuleSet.decide.
	compiled []compiledRule
	text     string     // the file's string block, which compiled rules' patterns are spans of
	index    *lazyIndex // nil for small sets
	// extras are what the groups say besides rules, nil when they say
	// nothing: most sets, which then take 64 bytes rather than 96.
	extras      *setExtras
	disallowAll bool // the file is a blanket disallow
	// counted: text is the file's copy, and the lines of the rules are
	// counted in it (a scoped set whose patterns are spans of the copy),
	// not kept in it (see compiledRule.asWritten).
	counted bool
}

// setExtras are a rule set's crawl-delay, request-rate and preferences.
type setExtras struct {
	crawlDelay      time.Duration
	requestInterval time.Duration
	hasCrawlDelay   bool
	hasRequestRate  bool
	usage           *usagePreferences // Content-Usage and Content-Signal lines; see buildUsage
}

// setExtras sets the extras of rs to x, or to none when x says nothing.
func (rs *RuleSet) setExtras(x setExtras) {
	if x == (setExtras{}) {
		rs.extras = nil
		return
	}
	rs.extras = &x
}

// preferences returns the set's Content-Usage and Content-Signal
// preferences, or nil.
func (rs *RuleSet) preferences() *usagePreferences {
	if rs.extras == nil {
		return nil
	}
	return rs.extras.usage
}

// setPreferences sets the set's preferences to p, in extras of its own.
func (rs *RuleSet) setPreferences(p *usagePreferences) {
	var x setExtras
	if rs.extras != nil {
		x = *rs.extras
	}
	x.usage = p
	rs.setExtras(x)
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
func (rs *RuleSet) CrawlDelay() (time.Duration, bool) {
	if rs.extras == nil {
		return 0, false
	}
	return rs.extras.crawlDelay, rs.extras.hasCrawlDelay
}

// RequestRate returns the interval of the first valid request-rate of the
// groups the rule set comes from (see delay.go).
func (rs *RuleSet) RequestRate() (time.Duration, bool) {
	if rs.extras == nil {
		return 0, false
	}
	return rs.extras.requestInterval, rs.extras.hasRequestRate
}

// Allowed reports whether rs allows url (decideURL answers for a blanket
// disallow too).
func (rs *RuleSet) Allowed(url string) bool {
	c := rs.decideURL(url)
	return c == nil || c.allows()
}

// blanketRule is what decideURL returns for a blanket disallow, which
// has no rules: a rule that disallows. It is never written.
var blanketRule = compiledRule{n: 1}

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
		return Verdict{Allowed: c.allows(), Rule: c.asWritten(rs.text, rs.compiled, rs.counted)}
	}
	return Verdict{Allowed: true}
}

// decideURL returns the rule that decides for url, or nil; for a blanket
// disallow, blanketRule.
func (rs *RuleSet) decideURL(url string) *compiledRule {
	if len(rs.compiled) == 0 {
		if rs.disallowAll { // a blanket disallow has no rules
			return &blanketRule
		}
		return nil
	}
	// A set whose first rule in deciding order matches every path (most
	// often a lone "disallow: /" for a crawler the file shuts out) is
	// decided by it whatever the URL: its path is not looked for.
	if c := &rs.compiled[0]; c.matchesEveryPath(rs.text) {
		return c
	}
	if path, ok := plainPath(url); ok {
		return rs.decide(path)
	}
	return rs.decideOtherURL(url)
}

// decideOtherURL is decideURL for a URL plainPath does not read: a call
// of its own, so that the buffer a rewrite may need is not in the frame of
// every question.
func (rs *RuleSet) decideOtherURL(url string) *compiledRule {
	path, n, rewrite := scanPath(url)
	if !rewrite {
		return rs.decide(path)
	}
	// Declared here, not above: the array is zeroed wherever it is declared.
	var buf [pathBufSize]byte
	return rs.decide(rewritePath(path, n, &buf))
}
