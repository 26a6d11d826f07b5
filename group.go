package robotstxt

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A group is a run of user-agent lines and the lines that follow them, up to
// the next user-agent line that comes after a rule. This is the structure
// Google's streaming matcher implies: its flags accumulate over user-agent
// lines and reset at the first user-agent line after an allow or disallow
// line, and lines of any other kind (sitemap, unknown, invalid) leave them
// alone.
type group struct {
	line     int      // line of the group's first user-agent line
	agents   []string // user-agent values as written
	tokens   []string // lower-cased product tokens of the non-global agents
	global   bool     // some agent is "*"
	rules    []Rule
	fields   []Field
	hasRules bool
}

// A ruleSet is every rule that can decide for one agent, compiled for
// matching.
type ruleSet struct {
	// rules are ordered so that the first one that matches a path decides:
	// by priority (longer patterns first), allow before disallow at equal
	// priority, then by line. See ruleSet.decide.
	rules         []compiledRule
	crawlDelay    time.Duration
	hasCrawlDelay bool
}

// A compiledRule is a rule as Google's matcher sees it.
type compiledRule struct {
	pattern string // the value in wire form; its length is the priority
	rule    Rule   // the rule as written
}

// build parses body (already cut to the size limit) into r.
func (r *Robots) build(body string) {
	tok := newTokenizer(body)
	var l line
	cur := -1 // index of the group being read, -1 before the first user-agent line
	for tok.next(&l) {
		if l.flags&lineHasDirective == 0 {
			continue
		}
		switch l.kind {
		case keyUserAgent:
			if cur < 0 || r.groups[cur].hasRules {
				r.groups = append(r.groups, group{line: l.num})
				cur = len(r.groups) - 1
			}
			r.groups[cur].addAgent(l.value)
		case keyAllow, keyDisallow:
			if cur < 0 {
				continue // a rule before any user-agent line belongs to no group
			}
			g := &r.groups[cur]
			g.rules = append(g.rules, Rule{Allow: l.kind == keyAllow, Pattern: l.value, Line: l.num})
			g.hasRules = true
		case keySitemap:
			if l.value != "" {
				r.sitemaps = append(r.sitemaps, l.value)
			}
		default:
			f := Field{Key: l.key, Value: l.value, Line: l.num}
			r.fields = append(r.fields, f)
			if cur >= 0 {
				r.groups[cur].fields = append(r.groups[cur].fields, f)
			}
		}
	}
	r.compile()
}

func (g *group) addAgent(value string) {
	g.agents = append(g.agents, value)
	if isGlobalAgent(value) {
		g.global = true
		return
	}
	token := []byte(productToken(value))
	for i, c := range token {
		token[i] = lowerASCII(c)
	}
	if !slices.Contains(g.tokens, string(token)) {
		g.tokens = append(g.tokens, string(token))
	}
}

// isGlobalAgent reports whether a user-agent value names every crawler:
// "*" alone or followed by white space (Google reads "* foo" as "*").
func isGlobalAgent(value string) bool {
	return len(value) > 0 && value[0] == '*' && (len(value) == 1 || isSpace(value[1]))
}

// productToken returns the leading run of ASCII letters, '-' and '_' of a
// user-agent value: "Googlebot/2.1" is "Googlebot", "AB42bot" is "AB" and
// "*foo" is "".
func productToken(value string) string {
	for i := 0; i < len(value); i++ {
		if !isTokenByte(value[i]) {
			return value[:i]
		}
	}
	return value
}

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

// compile builds the per-agent rule sets from the groups.
func (r *Robots) compile() {
	byToken := make(map[string][]int)
	var global []int
	for i := range r.groups {
		g := &r.groups[i]
		for _, t := range g.tokens {
			byToken[t] = append(byToken[t], i)
		}
		if g.global {
			global = append(global, i)
		}
	}
	r.global = r.newRuleSet(global)
	if len(byToken) > 0 {
		r.specific = make(map[string]*ruleSet, len(byToken))
		for t, groups := range byToken {
			r.specific[t] = r.newRuleSet(groups)
		}
	}
}

// newRuleSet merges the rules and crawl delays of the given groups, which
// are in file order.
func (r *Robots) newRuleSet(groups []int) *ruleSet {
	rs := &ruleSet{}
	n := 0
	for _, gi := range groups {
		n += len(r.groups[gi].rules)
	}
	rs.rules = make([]compiledRule, 0, n)
	for _, gi := range groups {
		g := &r.groups[gi]
		for _, rule := range g.rules {
			pattern := escapePattern(rule.Pattern)
			rs.rules = append(rs.rules, compiledRule{pattern: pattern, rule: rule})
			if rule.Allow {
				if dir, ok := indexDirectory(pattern); ok {
					rs.rules = append(rs.rules, compiledRule{pattern: dir, rule: rule})
				}
			}
		}
		if !rs.hasCrawlDelay {
			rs.crawlDelay, rs.hasCrawlDelay = crawlDelay(g.fields)
		}
	}
	slices.SortFunc(rs.rules, func(a, b compiledRule) int {
		if c := cmp.Compare(len(b.pattern), len(a.pattern)); c != 0 {
			return c
		}
		if a.rule.Allow != b.rule.Allow {
			if a.rule.Allow {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.rule.Line, b.rule.Line)
	})
	return rs
}

// indexDirectory returns the extra pattern Google derives from an allow
// pattern whose last path segment starts with "index.htm": allowing
// "/d/index.html" also allows "/d/" (as "/d/$"). Google tries the derived
// pattern only when the original does not match; since it is always
// shorter, trying both and keeping the longer match decides the same.
func indexDirectory(pattern string) (string, bool) {
	slash := strings.LastIndexByte(pattern, '/')
	if slash < 0 || !strings.HasPrefix(pattern[slash:], "/index.htm") {
		return "", false
	}
	return pattern[:slash+1] + "$", true
}

// crawlDelay returns the first valid crawl-delay among fields. A valid
// value is a non-negative decimal number of seconds ("10", "0.5").
func crawlDelay(fields []Field) (time.Duration, bool) {
	for _, f := range fields {
		if len(f.Key) != len("crawl-delay") || !hasPrefixFold(f.Key, "crawl-delay") {
			continue
		}
		if !isDecimal(f.Value) {
			continue
		}
		secs, err := strconv.ParseFloat(f.Value, 64)
		if err != nil {
			continue
		}
		if secs >= float64(math.MaxInt64)/float64(time.Second) {
			return time.Duration(math.MaxInt64), true
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	return 0, false
}

// isDecimal reports whether s is digits with at most one '.' and at least
// one digit.
func isDecimal(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}
