package robotstxt

import (
	"fmt"
	"time"

	"github.com/seed50c7eacc/robotstxt/internal/engine"
)

// Allowed reports whether the crawler agent may fetch url. It returns
// exactly what Google's RobotsMatcher::OneAgentAllowedByRobots returns for
// the same file, the same agent and the URL in wire form. It does not
// allocate unless url holds bytes that need escaping and its path is longer
// than 2 KiB once escaped.
func (r *Robots) Allowed(agent, url string) bool {
	if r == nil {
		return true // an empty file
	}
	return r.file.Allowed(agent, url)
}

// Explain returns the verdict for agent and url, with the rule that decided
// it. The rule's line is the one Google's RobotsMatcher::matching_line
// reports.
func (r *Robots) Explain(agent, url string) Verdict {
	if r == nil {
		return Verdict{Allowed: true}
	}
	return verdictOf(r.file.Explain(agent, url))
}

// A Verdict is the answer for one URL with the rule that decided it.
type Verdict struct {
	Allowed bool `json:"allowed"`
	// Rule is the rule that decided. Its Line is 0 when no rule applied.
	//
	// As in Google's library, an empty "disallow:" that is the only rule
	// to match names its line although it allows everything.
	Rule Rule `json:"rule"`
}

// verdictOf returns the engine's verdict as the API's.
func verdictOf(v engine.Verdict) Verdict { return Verdict{Allowed: v.Allowed, Rule: Rule(v.Rule)} }

// String describes the verdict, for logs.
func (v Verdict) String() string {
	word := "DISALLOWED"
	if v.Allowed {
		word = "ALLOWED"
	}
	if v.Rule.Line == 0 {
		return word + " (no rule applied)"
	}
	return fmt.Sprintf("%s by line %d: %s", word, v.Rule.Line, v.Rule)
}

// Agent resolves the rules that apply to one crawler, so that many URLs can
// be checked without looking the agent up again.
//
// A crawler may answer to several product tokens, most specific first:
// Google's image crawler obeys a "Googlebot-Image" group when the file has
// one, else a "Googlebot" group, else the "*" groups; Apple's Applebot obeys
// Googlebot's rules when the file names Applebot nowhere. Agent takes the
// tokens in that order: the first one that some group of the file names
// decides which groups apply (they are never mixed), and when none is named
// the "*" groups apply. With no names at all, the "*" groups apply.
func (r *Robots) Agent(names ...string) *Agent {
	// Small enough to inline, so that an Agent used only within its
	// caller's frame need not be allocated.
	a := new(Agent)
	r.resolve(a, names)
	return a
}

// resolve sets a to the rules for names; see Agent.
func (r *Robots) resolve(a *Agent, names []string) {
	if r == nil {
		*a = Agent{rules: engine.NoRules()}
		if len(names) > 0 {
			a.name = names[0]
		}
		return
	}
	a.name, a.rules, a.specific = r.file.Resolve(names)
}

// rulesFor returns the rules that decide for agent; a nil Robots has none.
func (r *Robots) rulesFor(agent string) *engine.RuleSet {
	if r == nil {
		return engine.NoRules()
	}
	rs, _ := r.file.Rules(agent)
	return rs
}

// An Agent is the set of rules that apply to one crawler in one file. It is
// immutable and safe for concurrent use.
type Agent struct {
	name     string
	rules    *engine.RuleSet
	specific bool
}

// Name returns the agent name the Agent was resolved for: of the names
// given to Robots.Agent, the first that some group names, or the first name
// when none is named.
func (a *Agent) Name() string {
	if a == nil {
		return ""
	}
	return a.name
}

// Specific reports whether some group of the file names this agent. When
// it does, only those groups apply, even if they hold no rules; otherwise
// the "*" groups apply.
func (a *Agent) Specific() bool { return a != nil && a.specific }

// Allowed reports whether the agent may fetch url; see Robots.Allowed.
func (a *Agent) Allowed(url string) bool { return a.ruleSet().Allowed(url) }

// Explain returns the verdict for url with the rule that decided it; see
// Robots.Explain.
func (a *Agent) Explain(url string) Verdict { return verdictOf(a.ruleSet().Verdict(url)) }

// ruleSet returns the agent's rules; a zero or nil Agent has none.
func (a *Agent) ruleSet() *engine.RuleSet {
	if a == nil || a.rules == nil {
		return engine.NoRules()
	}
	return a.rules
}

// MaxCrawlDelay caps the delays that CrawlDelay and RequestRate report, so
// that a hostile or mistaken value ("Crawl-delay: 99999999999999") can
// neither overflow a time.Duration nor stop a crawler for years: a larger
// value reads as MaxCrawlDelay, one request a day. Crawlers usually apply a
// much lower cap of their own (package fetch's Transport: 30 seconds).
const MaxCrawlDelay = 24 * time.Hour

// CrawlDelay returns the crawl-delay that applies to the agent, read from
// the same groups its rules come from: the first valid value (a
// non-negative decimal number of seconds), in file order, capped at
// MaxCrawlDelay. ok is false when no group that applies sets one. Google
// ignores crawl-delay; other crawlers (Bing, Yandex) honour it.
func (a *Agent) CrawlDelay() (delay time.Duration, ok bool) { return a.ruleSet().CrawlDelay() }

// RequestRate returns the request-rate that applies to the agent, read like
// CrawlDelay from the groups its rules come from: the first valid value, in
// file order. A valid value is "n/T": n requests per T seconds, where T may
// end in s, m, h or d for seconds, minutes, hours or days ("1/5",
// "10/1m"); a time window after it ("1/10m 0600-0845") is ignored. The
// returned interval is T/n, capped at MaxCrawlDelay. ok is false when no
// group that applies sets a valid one. Google ignores request-rate; some
// other crawlers honour it.
func (a *Agent) RequestRate() (interval time.Duration, ok bool) { return a.ruleSet().RequestRate() }
