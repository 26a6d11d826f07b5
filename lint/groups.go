package lint

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// Lint's checks of groups and rules as Google's matcher forms them (the
// groups come from the shared grouper, internal/parse): empty and joined
// groups, merged agents, and rules that can never decide.

// A groupJoin is a line inside a group, between its user-agent lines, that
// may look like the end of a group but is not one.
type groupJoin struct {
	group        int    // index of the group
	agents       int    // how many agents the group has before the line
	line         int    // the separating line
	blank        bool   // it is a blank line
	what         string // what the line is
	before, next int    // the user-agent lines around it
}

// separator is the first line after a user-agent line of a group that has
// no rules yet that may look like the end of the group.
type separator struct {
	line, agent int
	blank       bool
	what        string
}

// group adds a line to the groups, through the shared grouper's output,
// and notes the lines that seem to end a group but do not.
func (l *linter) group(gl *parse.Grouped) {
	l.groups.Add(gl)
	switch gl.Role {
	case parse.RoleAgent:
		if gl.NewGroup {
			l.sep = separator{}
		}
		if s := l.sep; s.line != 0 {
			// The agents before this line's (none if it is dropped: see
			// parse.Collector.Add).
			before := max(len(l.groups.Agents(gl.Group))-1, 0)
			l.joins = append(l.joins, groupJoin{group: gl.Group, agents: before, line: s.line, blank: s.blank, what: s.what, before: s.agent, next: gl.Num})
			l.sep = separator{}
		}
		return
	case parse.RoleRule:
		l.sep = separator{}
		return
	}
	if gl.Group < 0 || gl.GroupHasRules || gl.Flags&parse.LineIsComment != 0 {
		return
	}
	blank := gl.Flags&parse.LineEmpty != 0
	// A directive (sitemap, crawl-delay, ...) is a better explanation than a
	// blank line before it.
	if l.sep.line != 0 && !(l.sep.blank && !blank) {
		return
	}
	agents := l.groups.Agents(gl.Group)
	if len(agents) == 0 {
		return // dropped: see parse.Collector.Add
	}
	l.sep = separator{line: gl.Num, blank: blank, agent: int(agents[len(agents)-1].Line)}
	switch {
	case blank:
		l.sep.what = "a blank line"
	case gl.Flags&parse.LineHasDirective == 0:
		l.sep.what = "a line that is not a directive"
	case gl.Kind == parse.KeySitemap:
		l.sep.what = "a sitemap line"
	default:
		l.sep.what = "a " + quote(gl.Key) + " line"
	}
}

// An agentGroups is the groups whose rules Google merges for one agent
// token.
type agentGroups struct {
	name   string  // the quoted token
	groups []int32 // in file order, each once
	first  int32   // line of the first user-agent line naming it
}

// checkGroups runs the checks of the group structure, in passes.
func (l *linter) checkGroups() {
	l.groups.NumberTokens()
	l.checkJoins()
	global, agents := l.agentGroups()
	l.checkMerged(global, agents)
	l.checkEmptyOverrides(global, agents)
	l.checkShadowed(global, agents)
}

// checkJoins reports the lines inside groups that look like group ends.
func (l *linter) checkJoins() {
	for _, j := range l.joins {
		agents := l.groups.Agents(j.group)
		if len(l.groups.Rules(j.group)) == 0 || !agentsLeft(agents[:j.agents], agents[j.agents:]) {
			continue // no rules to get, or the same agents on both sides: joining changes nothing
		}
		l.add(j.line, CodeGroupsJoined, "%s between user-agent lines %d and %d does not end a group: the agents of both get the rules that follow", j.what, j.before, j.next)
	}
}

// agentGroups returns the global groups and, for each agent token in the
// order the file first names them (agents[t] is for the collector's token
// t), the groups that name it: the groups Google merges, as Parse merges
// them (parse.NextAgent). The lists of groups share one array, counted
// first.
func (l *linter) agentGroups() (global []int32, agents []agentGroups) {
	c := &l.groups
	count := make([]int32, len(c.Tokens))
	nGlobal, n := 0, 0
	for gi := range c.Groups {
		if c.Groups[gi].Global {
			nGlobal++
		}
		for _, a := range c.Agents(gi) {
			if !a.Global() {
				count[a.Token]++
				n++
			}
		}
	}
	agents = make([]agentGroups, len(c.Tokens))
	groups := make([]int32, nGlobal+n)
	global, groups = groups[:0:nGlobal], groups[nGlobal:]
	for t, k := range count {
		agents[t].groups, groups = groups[:0:k], groups[k:]
	}
	for gi := range c.Groups {
		if c.Groups[gi].Global {
			global = append(global, int32(gi))
		}
		for _, a := range c.Agents(gi) {
			if a.Global() {
				continue
			}
			ag := &agents[a.Token]
			if k := len(ag.groups); k == 0 {
				ag.first = a.Line
			} else if ag.groups[k-1] == int32(gi) {
				continue // the group names the token again
			}
			ag.groups = append(ag.groups, int32(gi))
		}
	}
	// The quoted names share one string. Tokens hold only letters, '-'
	// and '_', so quoting adds the quotes alone; the string is made once
	// the buffer is final.
	size := 0
	for _, t := range c.Tokens {
		size += len(t) + 2
	}
	buf := make([]byte, 0, size)
	for t := range agents {
		buf = strconv.AppendQuote(buf, c.Tokens[t])
		count[t] = int32(len(buf)) // now the end of t's name
	}
	all := swar.String(buf)
	start := int32(0)
	for t := range agents {
		agents[t].name, start = all[start:count[t]], count[t]
	}
	return global, agents
}

// checkMerged notes every group after the first that names an agent.
func (l *linter) checkMerged(global []int32, agents []agentGroups) {
	c := &l.groups
	for _, gi := range global[min(1, len(global)):] {
		for _, a := range c.Agents(int(gi)) {
			if a.Global() {
				l.add(int(a.Line), CodeGroupsMerged, "another group for \"*\" starts at line %d; Google merges the rules of all of them", c.Groups[global[0]].Line)
				break
			}
		}
	}
	for t, ag := range agents {
		for _, gi := range ag.groups[1:] {
			for _, a := range c.Agents(int(gi)) {
				if a.Token == int32(t) {
					b := append(l.msgBuf[:0], "another group for "...)
					b = append(b, ag.name...)
					b = append(b, " starts at line "...)
					b = strconv.AppendInt(b, int64(c.Groups[ag.groups[0]].Line), 10)
					l.msgBuf = append(b, "; Google merges the rules of all of them"...)
					l.addBuilt(int(a.Line), severityOf(CodeGroupsMerged), CodeGroupsMerged)
					break
				}
			}
		}
	}
}

// checkEmptyOverrides reports agents whose only group has no rules while
// the global groups have some: they escape the global rules.
func (l *linter) checkEmptyOverrides(global []int32, agents []agentGroups) {
	c := &l.groups
	globalRules := 0
	for _, gi := range global {
		for _, r := range c.Rules(int(gi)) {
			if r.Value != "" {
				globalRules = int(r.Line)
				break
			}
		}
		if globalRules != 0 {
			break
		}
	}
	// Only the last group can have no rules: any other ends at a
	// user-agent line after a rule.
	last := len(c.Groups) - 1
	if globalRules == 0 || last < 0 || len(c.Rules(last)) > 0 {
		return
	}
	var names []string
	at := 0
	for _, a := range c.Agents(last) {
		if a.Global() || c.Tokens[a.Token] == "" || len(agents[a.Token].groups) > 1 {
			continue // no crawler's name, or the agent has rules elsewhere
		}
		if name := agents[a.Token].name; !slices.Contains(names, name) {
			names = append(names, name)
			if at == 0 {
				at = int(a.Line)
			}
		}
	}
	if len(names) == 1 {
		l.add(at, CodeEmptyGroupOverrides, "the group for %s has no rules, so Google lets that crawler fetch everything: the \"*\" rules (from line %d) no longer apply to it", names[0], globalRules)
	} else if len(names) > 1 {
		l.add(at, CodeEmptyGroupOverrides, "the group for %s has no rules, so Google lets those crawlers fetch everything: the \"*\" rules (from line %d) no longer apply to them", agentList(names), globalRules)
	}
}

// An agentSet is the merged rules that decide for some agents: those of
// every group naming them.
type agentSet struct {
	groups []int32
	names  []string // the agents using this set: quoted tokens, and "*" quoted for the global set
}

// A setRule is a rule of an agent set, or the directory pattern Google
// derives from an index.htm allow. It is l.groups.Rules(group)[index].
type setRule struct {
	pattern      string // wire form
	group, index int32
	prefix       int32 // length of the pattern's literal prefix
	allow        bool
	derived      bool
}

type ruleKey struct{ group, index int }

// finding says why a rule never decides, or changes no verdict, within one
// agent set.
type finding struct {
	set   *agentSet
	by    setRule
	same  bool // by has the same pattern
	found bool // by is set
	code  Code // what the rule is: shadowed, a duplicate, redundant
	probe string
}

// agentSets returns the merged rule lists of the agents, one per distinct
// list of groups. The sets, and the names of all sets, share one array
// each, of the exact size.
func (l *linter) agentSets(global []int32, agents []agentGroups) []agentSet {
	// The candidates: "*" if there are global groups, then each agent.
	off := 0
	if len(global) > 0 {
		off = 1
	}
	n := off + len(agents)
	if n == 0 {
		return nil
	}
	groupsOf := func(k int) []int32 {
		if k < off {
			return global
		}
		return agents[k-off].groups
	}
	nameOf := func(k int) string {
		if k < off {
			return `"*"`
		}
		return agents[k-off].name
	}
	ints := make([]int32, 2*n)
	setOf := ints[:n] // each candidate's set
	first := ints[n:] // each set's first candidate
	var table hashIndex
	table.reset(n)
	nsets := int32(0)
	for k := range setOf {
		gs := groupsOf(k)
		// The bytes of the list of groups, hashed without a copy.
		x := table.hash(swar.Int32Bytes(gs))
		i := table.find(x, func(i int32) bool { return slices.Equal(groupsOf(int(first[i])), gs) })
		if i < 0 {
			i = nsets
			first[i] = int32(k)
			table.add(x, i, nil)
			nsets++
		}
		setOf[k] = i
	}
	sets := make([]agentSet, nsets)
	for i := range sets {
		sets[i].groups = groupsOf(int(first[i]))
	}
	count := first[:nsets] // now each set's candidates
	clear(count)
	for _, i := range setOf {
		count[i]++
	}
	names := make([]string, n)
	for i, k := range count {
		sets[i].names, names = names[:0:k], names[k:]
	}
	for k, i := range setOf {
		sets[i].names = append(sets[i].names, nameOf(k))
	}
	return sets
}

// setSize returns how many rules fill gives s: its groups' rules, and a
// derived pattern for each index.htm allow.
func (l *linter) setSize(s *agentSet) int {
	n := 0
	for _, gi := range s.groups {
		for _, r := range l.groups.Rules(int(gi)) {
			n++
			if _, ok := parse.IndexDirectory(r.Value); ok && r.Allow {
				n++
			}
		}
	}
	return n
}

// fill appends the rules of s's groups to dst, with the derived index.htm
// patterns, as Parse compiles them.
func (l *linter) fill(s *agentSet, dst []setRule) []setRule {
	for _, gi := range s.groups {
		for ri, r := range l.groups.Rules(int(gi)) {
			sr := setRule{allow: r.Allow, pattern: pattern.Escape(r.Value), group: gi, index: int32(ri)}
			sr.prefix = literalPrefixLen(sr.pattern)
			dst = append(dst, sr)
			if r.Allow {
				if dir, ok := parse.IndexDirectory(sr.pattern); ok {
					sr.pattern, sr.derived = dir+"$", true
					sr.prefix = literalPrefixLen(sr.pattern)
					dst = append(dst, sr)
				}
			}
		}
	}
	return dst
}

// checkShadowed reports the rules that never decide for some agent.
func (l *linter) checkShadowed(global []int32, agents []agentGroups) {
	sets := l.agentSets(global, agents)
	// The number of sets each group's rules are in.
	inSets := make([]int32, len(l.groups.Groups))
	for i := range sets {
		for _, gi := range sets[i].groups {
			inSets[gi]++
		}
	}
	// The sets that can have shadowed rules: only a rule of the other kind
	// can shadow one. They are checked in turn, with one array of rules
	// (of the largest size) and one index. Finding them costs what
	// checking them does before any comparison, within the same budget.
	check := make([]bool, len(sets))
	dead := make([]bool, len(sets))
	size := 0
	for i, budget := 0, shadowBudget; i < len(sets) && budget > 0; i++ {
		allows, disallows := false, false
		for _, gi := range sets[i].groups {
			rules := l.groups.Rules(int(gi))
			budget -= len(rules)
			for _, r := range rules {
				allows = allows || r.Allow
				disallows = disallows || !r.Allow && r.Value != "" && matchable(r.Value)
			}
		}
		check[i] = allows && disallows
		// Only a set with a disallow can have rules that matter, and so
		// rules that do not.
		if dead[i] = disallows; dead[i] {
			size = max(size, l.setSize(&sets[i]))
		}
	}
	findings := make(map[ruleKey][]finding)
	budget := shadowBudget
	var rs ruleSet
	var idx shadowIndex
	if size > 0 {
		rs.rules = make([]setRule, 0, size)
	}
	dc := deadCheck{budget: deadBudget + int64(deadBudgetPerByte*float64(l.size))}
	cover := map[ruleKey]finding{}
	for i := range sets {
		s := &sets[i]
		if budget <= 0 {
			break
		}
		for _, gi := range s.groups {
			budget -= len(l.groups.Rules(int(gi)))
		}
		if !dead[i] {
			continue
		}
		rs.rules = l.fill(s, rs.rules[:0])
		clear(cover)
		if check[i] {
			for _, kf := range shadowed(s, &rs, &idx, &budget) {
				cover[kf.k] = kf.f
			}
		}
		for _, dl := range dc.check(rs.rules, cover) {
			findings[dl.k] = append(findings[dl.k], dc.finding(s, dl, cover))
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
		rule := l.groups.Rules(k.group)[k.index]
		r := setRule{allow: rule.Allow, pattern: pattern.Escape(rule.Value)}
		f := fs[0]
		by := rule
		if f.found {
			by = l.groups.Rules(int(f.by.group))[f.by.index]
		}
		qual := ""
		if len(fs) < int(inSets[k.group]) {
			var names []string
			for _, f := range fs {
				names = append(names, f.set.names...)
			}
			qual = " for " + agentList(names)
		}
		rt := ruleString(rule.Allow, rule.Value)
		switch f.code {
		case CodeSamePattern:
			l.add(int(rule.Line), CodeSamePattern, "%s never applies%s: %s on line %d has the same pattern, and allow wins ties", rt, qual, ruleString(by.Allow, by.Value), by.Line)
		case CodeRuleShadowed:
			why := "a longer pattern"
			if len(f.by.pattern) == len(r.pattern) {
				why = "a pattern as long, and allow wins ties"
			}
			l.add(int(rule.Line), CodeRuleShadowed, "%s never decides%s: %s on line %d matches every path it matches and has %s", rt, qual, ruleString(by.Allow, by.Value), by.Line, why)
		case CodeRuleDuplicate:
			l.add(int(rule.Line), CodeRuleDuplicate, "%s changes no verdict%s: it repeats %s on line %d", rt, qual, ruleString(by.Allow, by.Value), by.Line)
		default:
			if f.found {
				l.add(int(rule.Line), CodeRuleRedundant, "%s changes no verdict%s: every path it matches has the same verdict without it (%s on line %d decides %s)", rt, qual, ruleString(by.Allow, by.Value), by.Line, strconv.Quote(f.probe))
			} else if f.probe != "" {
				l.add(int(rule.Line), CodeRuleRedundant, "%s changes no verdict%s: every path it matches has the same verdict without it (no other rule matches %s)", rt, qual, strconv.Quote(f.probe))
			} else {
				l.add(int(rule.Line), CodeRuleRedundant, "%s changes no verdict%s: every path it matches has the same verdict without it", rt, qual)
			}
		}
	}
}

// agentsLeft reports whether some agent of before is not named in after.
func agentsLeft(before, after []parse.Agent) bool {
	tokens := make(map[int32]bool, len(after)) // -1 for "*"
	for _, a := range after {
		tokens[a.Token] = true
	}
	for _, a := range before {
		if !tokens[a.Token] {
			return true
		}
	}
	return false
}

// ruleString formats a rule for a message, its pattern quoted and
// shortened.
func ruleString(allow bool, raw string) string {
	short, cut := shorten(raw)
	q := strconv.Quote(short)
	q = q[1 : len(q)-1]
	if cut {
		q += "..."
	}
	if allow {
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
