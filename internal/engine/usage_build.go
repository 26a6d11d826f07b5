package engine

import (
	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// Content-Usage and Content-Signal keys, compared without regard to case
// like every robots.txt key.
const (
	keyContentUsage  = "content-usage"
	keyContentSignal = "content-signal"
)

// preferenceKey reports whether a field's key is Content-Usage or
// Content-Signal.
func preferenceKey(key string) bool {
	return parse.IsKey(key, keyContentUsage) || parse.IsKey(key, keyContentSignal)
}

// buildUsage reads the Content-Usage and Content-Signal lines of each
// group and hands every rule set the preferences of the groups it was made
// from: the groups naming the agent, merged across groups exactly as their
// rules are, or the "*" groups. A file without such lines costs one pass
// over its fields, which allocates nothing.
func (f *File) buildUsage() {
	any := false
	for i := range f.fields {
		if preferenceKey(f.fields[i].Key) {
			any = true
			break
		}
	}
	if !any {
		return
	}
	perGroup := make([]*usagePreferences, len(f.groups))
	var names []parse.Naming
	var globalGroups []int32
	for gi := range f.groups {
		g := &f.groups[gi]
		perGroup[gi] = groupPreferences(f.fields[g.fieldLo:g.fieldHi])
		if perGroup[gi] == nil {
			continue
		}
		if g.global {
			globalGroups = append(globalGroups, int32(gi))
		}
		for _, value := range f.agents()[g.agentLo:g.agentHi] {
			if !parse.IsGlobalAgent(value) {
				names = append(names, parse.Naming{Token: parse.AgentToken(value), Group: int32(gi)})
			}
		}
	}
	parse.SortNamings(names)
	var groups []int32
	for i := 0; i < len(names); {
		var token string
		token, groups, i = parse.NextAgent(names, i, groups)
		if rs, specific := f.lookup(token); specific {
			rs.setPreferences(mergePreferences(perGroup, groups))
		}
	}
	if len(globalGroups) > 0 && f.globalSet > 0 {
		f.sets[f.globalSet-1].setPreferences(mergePreferences(perGroup, globalGroups))
	}
}

// groupPreferences parses the preference lines among one group's fields,
// or returns nil when it has none.
func groupPreferences(fields []Field) *usagePreferences {
	var p *usagePreferences
	for _, f := range fields {
		switch {
		case parse.IsKey(f.Key, keyContentUsage):
			if p == nil {
				p = new(usagePreferences)
			}
			p.rules = append(p.rules, parseUsageRule(f.Line, f.Value))
		case parse.IsKey(f.Key, keyContentSignal):
			if p == nil {
				p = new(usagePreferences)
			}
			p.signals = append(p.signals, parseSignalRule(f.Line, f.Value))
		}
	}
	return p
}

// mergePreferences returns the preferences of the given groups (in file
// order) as one set; a single group's are shared. Groups that were merged
// for an agent but hold no preference lines add nothing.
func mergePreferences(perGroup []*usagePreferences, groups []int32) *usagePreferences {
	var only *usagePreferences
	n := 0
	for _, gi := range groups {
		if p := perGroup[gi]; p != nil {
			only = p
			n++
		}
	}
	if n <= 1 {
		return only
	}
	merged := new(usagePreferences)
	for _, gi := range groups {
		if p := perGroup[gi]; p != nil {
			merged.rules = append(merged.rules, p.rules...)
			merged.signals = append(merged.signals, p.signals...)
		}
	}
	return merged
}
