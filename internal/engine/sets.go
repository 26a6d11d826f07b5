package engine

import (
	"slices"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// A group is a run of user-agent lines and the lines that follow them, up to
// the next user-agent line that comes after a rule. This is the structure
// Google's streaming matcher implies: its flags accumulate over user-agent
// lines and reset at the first user-agent line after an allow or disallow
// line, and lines of any other kind (sitemap, unknown, invalid) leave them
// alone.
//
// A group's agents and fields are contiguous in the file, so the group
// holds index ranges into the File's file-order slices.
type group struct {
	line             int32 // line of the group's first user-agent line
	agentLo, agentHi int32 // f.agents()[agentLo:agentHi]
	fieldLo, fieldHi int32 // f.fields[fieldLo:fieldHi]
	global           bool  // some agent is "*"
	rules            []compiledRule
	index            *lazyIndex // for large rule lists
}

// setFor returns the index in f.sets of the rule set of the given groups,
// in file order, creating it; a single group's set is shared. scratch is
// a buffer for merging, which setFor may grow.
func (f *File) setFor(groups []int32, groupSet []int32, scratch *[]compiledRule) int32 {
	if len(groups) == 1 {
		gi := groups[0]
		if groupSet[gi] == 0 {
			g := &f.groups[gi]
			rs := RuleSet{compiled: g.rules, text: f.text, index: f.groupIndex(g)}
			var x setExtras
			x.crawlDelay, x.hasCrawlDelay = crawlDelay(f.fields[g.fieldLo:g.fieldHi])
			x.requestInterval, x.hasRequestRate = requestRate(f.fields[g.fieldLo:g.fieldHi])
			rs.setExtras(x)
			f.sets = append(f.sets, rs)
			groupSet[gi] = int32(len(f.sets))
		}
		return groupSet[gi] - 1
	}
	f.sets = append(f.sets, f.mergedRuleSet(groups, scratch))
	return int32(len(f.sets) - 1)
}

// groupIndex returns the index of a group's rules, shared by every agent
// of the group, or nil for a small group.
func (f *File) groupIndex(g *group) *lazyIndex {
	if g.index == nil && len(g.rules) >= indexMinRules {
		g.index = &lazyIndex{compiled: g.rules, text: f.text}
	}
	return g.index
}

// mergedRuleSet merges the rules of the given groups, which are in file
// order; the crawl delay is the first group's that sets one. scratch is
// a buffer for joining the groups' rules, which mergedRuleSet may grow.
func (f *File) mergedRuleSet(groups []int32, scratch *[]compiledRule) RuleSet {
	rs := RuleSet{text: f.text}
	if len(groups) == 1 {
		g := &f.groups[groups[0]]
		rs.compiled, rs.index = g.rules, f.groupIndex(g)
	} else {
		n := 0
		for _, gi := range groups {
			n += len(f.groups[gi].rules)
		}
		// Each group's rules are in compareRules order, and the groups
		// are in file order, so the rules that tie on length and kind
		// are already in file order: the stable sort on those alone
		// (linear, where a comparison sort took a third of compiling
		// on files naming an agent in many groups) orders them fully.
		joined := slices.Grow((*scratch)[:0], n)
		for _, gi := range groups {
			joined = append(joined, f.groups[gi].rules...)
		}
		*scratch = joined
		all := make([]compiledRule, n)
		sortRules(all, joined, f.text)
		rs.compiled = all
		if len(all) >= indexMinRules {
			rs.index = &lazyIndex{compiled: all, text: f.text}
		}
	}
	var x setExtras
	for _, gi := range groups {
		g := &f.groups[gi]
		if d, ok := crawlDelay(f.fields[g.fieldLo:g.fieldHi]); ok {
			x.crawlDelay, x.hasCrawlDelay = d, true
			break
		}
	}
	for _, gi := range groups {
		g := &f.groups[gi]
		if d, ok := requestRate(f.fields[g.fieldLo:g.fieldHi]); ok {
			x.requestInterval, x.hasRequestRate = d, true
			break
		}
	}
	rs.setExtras(x)
	return rs
}

// CompileRules returns the rule set of a list of allow and disallow rules,
// as a group of a file holding them would compile them (with the rules
// Google derives from index.htm allows, in deciding order): how the
// linter asks the engine about one group's own rules, without writing them
// back as a file to parse.
func CompileRules(rules []parse.Rule) *RuleSet {
	b := builders.Get().(*builder)
	for _, r := range rules {
		b.addRule(r.Allow, r.Value, int(r.Line), true)
	}
	b.groups = append(b.groups, groupDraft{line: 1, ruleHi: int32(len(b.rules)), global: true})
	var f File
	b.finish(&f)
	b.release()
	if f.globalSet == 0 {
		return &noRules
	}
	return &f.sets[f.globalSet-1]
}

// agentSets builds the per-agent rule sets from the groups. Most agents
// appear in one group and share its rule set; only agents named in several
// groups get a merged one.
func (b *builder) agentSets(f *File, str func(span) string) {
	b.names = b.names[:0]
	b.groupIDs = b.groupIDs[:0] // the "*" groups
	for gi := range b.groups {
		g := &b.groups[gi]
		if g.global {
			b.groupIDs = append(b.groupIDs, int32(gi))
		}
		for _, a := range b.agents[g.agentLo:g.agentHi] {
			if value := str(a.value); !parse.IsGlobalAgent(value) {
				b.names = append(b.names, parse.Naming{Token: str(a.token), Group: int32(gi)})
			}
		}
	}
	globalGroups := b.groupIDs
	// 1 + the index of each group's own set, once made.
	b.groupSet = slices.Grow(b.groupSet[:0], len(b.groups))[:len(b.groups)]
	clear(b.groupSet)
	f.sets = make([]RuleSet, 0, len(b.groups))
	parse.SortNamings(b.names)
	tokens := 0
	for i := range b.names {
		if i == 0 || b.names[i].Token != b.names[i-1].Token {
			tokens++
		}
	}
	if tokens > 0 {
		f.tokens = make([]agentToken, 0, tokens)
	}
	var groups []int32
	for i := 0; i < len(b.names); {
		var token string
		token, groups, i = parse.NextAgent(b.names, i, groups)
		f.tokens = append(f.tokens, agentToken{name: token, set: f.setFor(groups, b.groupSet, &b.compiled)})
	}
	f.indexTokens()
	if len(globalGroups) > 0 {
		f.globalSet = 1 + f.setFor(globalGroups, b.groupSet, &b.compiled)
	}
	if len(f.sets) < cap(f.sets) {
		// Sized for a set a group, and kept as long as the file: the
		// corpus's files fill 84 % of it (BenchmarkRetainedStates).
		f.sets = slices.Clip(slices.Clone(f.sets))
	}
	clear(b.names)
}
