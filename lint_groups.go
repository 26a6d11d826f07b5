package robotstxt

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Lint's checks of groups and rules as Google's matcher forms them:
// empty and joined groups, merged agents, and rules that can never decide.

// A lintGroup is a group as Google's matcher forms them (see group in
// group.go), with the lines the linter needs for its messages.
type lintGroup struct {
	line     int
	agents   []lintAgent
	global   bool
	rules    []lintRule
	hasRules bool
	// While the group has no rules: the first line after a user-agent line
	// that may look like the end of a group (a blank line, or a line that is
	// not a user-agent line), and the user-agent line before it.
	sep, sepAgent int
	sepBlank      bool
	sepWhat       string
	joins         []groupJoin
}

type lintAgent struct {
	line  int
	token string // lower-cased product token; "" for the global "*"
	value string
}

type lintRule struct {
	allow   bool
	raw     string // as written
	pattern string // wire form
	line    int
}

type groupJoin struct {
	agents       int    // how many agents the group has before the line
	line         int    // the separating line
	blank        bool   // it is a blank line
	what         string // what the line is
	before, next int    // the user-agent lines around it
}

// group builds the groups from the lines, exactly as Robots.build does.
func (l *linter) group(ln *line) {
	cur := len(l.groups) - 1
	if ln.flags&lineHasDirective != 0 {
		switch ln.kind {
		case keyUserAgent:
			if cur < 0 || l.groups[cur].hasRules {
				l.groups = append(l.groups, lintGroup{line: ln.num})
				cur++
			}
			g := &l.groups[cur]
			if g.sep != 0 {
				g.joins = append(g.joins, groupJoin{agents: len(g.agents), line: g.sep, blank: g.sepBlank, what: g.sepWhat, before: g.sepAgent, next: ln.num})
				g.sep = 0
			}
			a := lintAgent{line: ln.num, value: ln.value}
			if isGlobalAgent(ln.value) {
				g.global = true
			} else {
				a.token = strings.ToLower(productToken(ln.value))
				// Only ASCII letters, '-' and '_' are in a token, so
				// strings.ToLower is ASCII lower-casing here.
			}
			g.agents = append(g.agents, a)
			return
		case keyAllow, keyDisallow:
			if cur < 0 {
				return
			}
			g := &l.groups[cur]
			g.rules = append(g.rules, lintRule{allow: ln.kind == keyAllow, raw: ln.value, pattern: escapePattern(ln.value), line: ln.num})
			g.hasRules = true
			g.sep = 0
			return
		}
	}
	if cur < 0 {
		return
	}
	g := &l.groups[cur]
	if g.hasRules || ln.flags&lineIsComment != 0 {
		return
	}
	blank := ln.flags&lineEmpty != 0
	// A directive (sitemap, crawl-delay, ...) is a better explanation than a
	// blank line before it.
	if g.sep == 0 || (g.sepBlank && !blank) {
		g.sep, g.sepBlank = ln.num, blank
		g.sepAgent = g.agents[len(g.agents)-1].line
		switch {
		case blank:
			g.sepWhat = "a blank line"
		case ln.flags&lineHasDirective == 0:
			g.sepWhat = "a line that is not a directive"
		case ln.kind == keySitemap:
			g.sepWhat = "a sitemap line"
		default:
			g.sepWhat = "a " + quote(ln.key) + " line"
		}
	}
}

// An agentSet is the merged rules that decide for some agents: those of
// every group naming them.
type agentSet struct {
	groups []int
	names  []string // the agents using this set: tokens, and "*" for the global set
	rules  []setRule
}

type setRule struct {
	lintRule
	group, index int // the rule is l.groups[group].rules[index]
	derived      bool
}

type ruleKey struct{ group, index int }

// finding says why a rule never decides within one agent set.
type finding struct {
	set   *agentSet
	by    lintRule
	same  bool // by has the same pattern
	found bool
}

func (l *linter) checkGroups() {
	groups := l.groups
	for gi := range groups {
		g := &groups[gi]
		if !g.hasRules {
			continue
		}
		for _, j := range g.joins {
			if !agentsLeft(g.agents[:j.agents], g.agents[j.agents:]) {
				continue // the same agents on both sides: joining changes nothing
			}
			l.add(j.line, SeverityWarning, CodeGroupsJoined, "%s between user-agent lines %d and %d does not end a group: the agents of both get the rules that follow", j.what, j.before, j.next)
		}
	}

	// The groups of each agent, in file order.
	byToken := make(map[string][]int)
	var tokens []string
	var global []int
	for gi := range groups {
		seen := map[string]bool{}
		for _, a := range groups[gi].agents {
			name := a.token
			if a.token == "" && isGlobalAgent(a.value) {
				if len(global) == 0 || global[len(global)-1] != gi {
					global = append(global, gi)
					if len(global) > 1 {
						l.add(a.line, SeverityInfo, CodeGroupsMerged, "another group for \"*\" starts at line %d; Google merges the rules of all of them", groups[global[0]].line)
					}
				}
				continue
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			if _, ok := byToken[name]; !ok {
				tokens = append(tokens, name)
			} else {
				first := groups[byToken[name][0]].line
				l.add(a.line, SeverityInfo, CodeGroupsMerged, "another group for %s starts at line %d; Google merges the rules of all of them", strconv.Quote(name), first)
			}
			byToken[name] = append(byToken[name], gi)
		}
	}

	// An agent whose groups have no rules overrides the global rules.
	globalRules := 0
	for _, gi := range global {
		for _, r := range groups[gi].rules {
			if r.raw != "" {
				globalRules = r.line
				break
			}
		}
		if globalRules != 0 {
			break
		}
	}
	if globalRules != 0 && len(groups) > 0 && !groups[len(groups)-1].hasRules {
		// Only the last group can have no rules: any other ends at a
		// user-agent line after a rule.
		g := &groups[len(groups)-1]
		var names []string
		at := 0
		for _, a := range g.agents {
			if a.token == "" || len(byToken[a.token]) > 1 {
				continue // no crawler's name, or the agent has rules elsewhere
			}
			if !slices.Contains(names, strconv.Quote(a.token)) {
				names = append(names, strconv.Quote(a.token))
				if at == 0 {
					at = a.line
				}
			}
		}
		if len(names) == 1 {
			l.add(at, SeverityWarning, CodeEmptyGroupOverrides, "the group for %s has no rules, so Google lets that crawler fetch everything: the \"*\" rules (from line %d) no longer apply to it", names[0], globalRules)
		} else if len(names) > 1 {
			l.add(at, SeverityWarning, CodeEmptyGroupOverrides, "the group for %s has no rules, so Google lets those crawlers fetch everything: the \"*\" rules (from line %d) no longer apply to them", agentList(names), globalRules)
		}
	}

	// Merge the rules of each agent; agents with the same groups share a set.
	var sets []*agentSet
	byKey := make(map[string]*agentSet)
	setOf := func(name string, gs []int) *agentSet {
		var kb strings.Builder
		for _, gi := range gs {
			kb.WriteString(strconv.Itoa(gi))
			kb.WriteByte(',')
		}
		key := kb.String()
		s := byKey[key]
		if s == nil {
			s = &agentSet{groups: gs}
			byKey[key] = s
			sets = append(sets, s)
		}
		s.names = append(s.names, name)
		return s
	}
	if len(global) > 0 {
		setOf(`"*"`, global)
	}
	for _, t := range tokens {
		setOf(strconv.Quote(t), byToken[t])
	}
	// The number of sets each group's rules are in.
	inSets := make([]int, len(groups))
	for _, s := range sets {
		for _, gi := range s.groups {
			inSets[gi]++
		}
	}
	findings := make(map[ruleKey][]finding)
	budget := shadowBudget
	for _, s := range sets {
		if budget <= 0 {
			break
		}
		for _, gi := range s.groups {
			budget -= len(groups[gi].rules)
			for ri, r := range groups[gi].rules {
				s.rules = append(s.rules, setRule{lintRule: r, group: gi, index: ri})
				if r.allow {
					if dir, ok := indexDirectory(r.pattern); ok {
						d := r
						d.pattern = dir + "$"
						s.rules = append(s.rules, setRule{lintRule: d, group: gi, index: ri, derived: true})
					}
				}
			}
		}
		for k, f := range shadowed(s, &budget) {
			findings[k] = append(findings[k], f)
		}
	}
	var keys []ruleKey
	for k := range findings {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].group != keys[j].group {
			return keys[i].group < keys[j].group
		}
		return keys[i].index < keys[j].index
	})
	for _, k := range keys {
		fs := findings[k]
		r := groups[k.group].rules[k.index]
		f := fs[0]
		qual := ""
		if len(fs) < inSets[k.group] {
			var names []string
			for _, f := range fs {
				names = append(names, f.set.names...)
			}
			qual = " for " + agentList(names)
		}
		rt := ruleString(r)
		if f.same {
			l.add(r.line, SeverityWarning, CodeSamePattern, "%s never applies%s: %s on line %d has the same pattern, and allow wins ties", rt, qual, ruleString(f.by), f.by.line)
			continue
		}
		why := "a longer pattern"
		if len(f.by.pattern) == len(r.pattern) {
			why = "a pattern as long, and allow wins ties"
		}
		l.add(r.line, SeverityWarning, CodeRuleShadowed, "%s never decides%s: %s on line %d matches every path it matches and has %s", rt, qual, ruleString(f.by), f.by.line, why)
	}
}

// agentsLeft reports whether some agent of before is not named in after.
func agentsLeft(before, after []lintAgent) bool {
	name := func(a lintAgent) string {
		if a.token == "" && isGlobalAgent(a.value) {
			return "*"
		}
		return "=" + a.token
	}
	names := make(map[string]bool, len(after))
	for _, a := range after {
		names[name(a)] = true
	}
	for _, a := range before {
		if !names[name(a)] {
			return true
		}
	}
	return false
}

func ruleString(r lintRule) string {
	short, cut := shorten(r.raw)
	q := strconv.Quote(short)
	q = q[1 : len(q)-1]
	if cut {
		q += "..."
	}
	if r.allow {
		return "allow: " + q
	}
	return "disallow: " + q
}

func agentList(names []string) string {
	const max = 5
	if len(names) > max {
		return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
	}
	return strings.Join(names, ", ")
}

// shadowBudget bounds the pattern comparisons of one Lint call, so that a
// file built to be slow cannot make it so; past it, fewer shadowed rules
// are reported, never wrong ones.
const shadowBudget = 1 << 20

// shadowed returns the rules of s that never decide, each with a rule that
// takes precedence wherever it matches.
func shadowed(s *agentSet, budget *int) map[ruleKey]finding {
	// Candidate shadowers by their literal prefix.
	byPrefix := make(map[string][]int)
	var lengths []int
	haveLen := make(map[int]bool)
	sameAllow := make(map[string]int) // wire pattern -> first allow rule with it
	for i, r := range s.rules {
		if !matchable(r.pattern) {
			continue
		}
		p, _ := literalPrefix(r.pattern)
		byPrefix[p] = append(byPrefix[p], i)
		if !haveLen[len(p)] {
			haveLen[len(p)] = true
			lengths = append(lengths, len(p))
		}
		if r.allow && !r.derived {
			if _, ok := sameAllow[r.pattern]; !ok {
				sameAllow[r.pattern] = i
			}
		}
	}
	sort.Ints(lengths)

	type state struct {
		entries, shadowed int
		f                 finding
	}
	var states map[ruleKey]*state
	for i := range s.rules {
		r := &s.rules[i]
		k := ruleKey{r.group, r.index}
		if states == nil {
			states = make(map[ruleKey]*state)
		}
		st := states[k]
		if st == nil {
			st = &state{}
			states[k] = st
		}
		st.entries++
		if !matchable(r.pattern) {
			continue
		}
		if !r.allow && !r.derived {
			if j, ok := sameAllow[r.pattern]; ok {
				st.shadowed++
				if !st.f.found {
					st.f = finding{set: s, by: s.rules[j].lintRule, same: true, found: true}
				}
				continue
			}
		}
		text := coverText(r.pattern)
		t0 := textPrefix(text)
		by := -1
	search:
		for _, n := range lengths {
			if n > len(t0) || *budget <= 0 {
				break
			}
			for _, j := range byPrefix[t0[:n]] {
				o := &s.rules[j]
				if o.allow == r.allow || !(len(o.pattern) > len(r.pattern) || len(o.pattern) == len(r.pattern) && o.allow) {
					continue
				}
				*budget -= 1 + len(o.pattern)/64
				if matchPattern(o.pattern, text) {
					by = j
					break search
				}
			}
		}
		if by >= 0 {
			st.shadowed++
			if !st.f.found {
				st.f = finding{set: s, by: s.rules[by].lintRule, found: true}
			}
		}
	}
	out := make(map[ruleKey]finding)
	for k, st := range states {
		if st.shadowed == st.entries && st.f.found {
			out[k] = st.f
		}
	}
	return out
}

// matchable reports whether a pattern can match some path, which always
// starts with '/'.
func matchable(p string) bool {
	return p != "" && (p[0] == '/' || p[0] == '*')
}

// textPrefix returns the literal start of a coverText: the bytes before its
// first 0xFF.
func textPrefix(t string) string {
	if i := strings.IndexByte(t, 0xFF); i >= 0 {
		return t[:i]
	}
	return t
}

// coverText returns pattern p as a string that another pattern matches
// only if it matches every path p matches: each '*' of p, and its open end
// unless p ends in '$', become the byte 0xFF, which no pattern in wire form
// contains, so that only a '*' can absorb it.
func coverText(p string) string {
	anchored := strings.HasSuffix(p, "$")
	if anchored {
		p = p[:len(p)-1]
	}
	t := strings.ReplaceAll(p, "*", "\xFF")
	if !anchored {
		t += "\xFF"
	}
	return t
}
