package engine

import "github.com/seed50c7eacc/robotstxt/internal/parse"

// A file's group directory is what the first scoped pass over it learns
// of its groups, for the agents asked after it: the summary of every
// product token of its user-agent lines (scopedSet.agents), and where
// each group starts with a summary of its own tokens (scopedSet.groups,
// shared by the file's sets). A later agent that the summary rules out
// shares the set of the agents no group names; one that it does not rule
// out is looked for in the user-agent lines of the groups that may name
// it, and its set compiled from those groups alone if one does, else from
// the "*" groups alone (see regionCursor), not from another pass over the
// whole file.
//
// The files that name crawlers are the ones whose second agent costs a
// pass: lists of crawlers shut out, a group each. Over the corpus, 187 of
// 2,132 files name Googlebot or bingbot, and reading each of them again
// for the second was 9.1 M of parse + 2 questions' 64.5 M instructions.

// A groupEntry is one group of the file in its directory: 4 bytes.
type groupEntry struct {
	// gap is how far, in the file's copy, the key of the group's first
	// user-agent line is from the group's before, or from the start of
	// the file for the first group.
	gap uint16
	// tokens holds starGroup when a line of the group is "*", and two
	// bits (tokenBits) of each product token of its lines.
	tokens uint16
}

// A groupRead is a group as a pass reads it, before its directory is
// kept: where its first user-agent line's key is, and its tokens.
type groupRead struct {
	start  uint32
	tokens uint16
}

// starGroup marks a group with a "*" user-agent line in groupEntry.tokens.
const starGroup = 1

// tokenBits returns the bits of groupEntry.tokens that a product token
// whose agentHash is h sets: two of the 15 above starGroup, from the
// hash's high bits (a product's low bits depend on its factors' low bits
// alone). A group of one token shares both with another token's one time
// in 50 or so, and is then read for nothing.
func tokenBits(h uint32) uint16 {
	return (1<<(h>>28) | 1<<(h>>24&15)) &^ starGroup
}

// directoryOf returns the groups a file's first scoped pass read, as the
// file's sets keep them (see scopedSet.groups): nil when the plan keeps
// none (keepsDirectory), or when a group starts 64 KiB or more after the
// one before it.
func directoryOf(agents agentSummary, groups []groupRead, size int) *[]groupEntry {
	if !keepsDirectory(agents, len(groups), size) {
		return nil
	}
	list := directoryEntries(groups)
	if list == nil {
		return nil
	}
	return &list
}

// directoryEntries returns groups as a directory lists them, or nil when
// a group starts 64 KiB or more after the one before it.
func directoryEntries(groups []groupRead) []groupEntry {
	list, at := make([]groupEntry, len(groups)), uint32(0)
	for i, g := range groups {
		if g.start-at > 1<<16-1 {
			return nil
		}
		list[i] = groupEntry{gap: uint16(g.start - at), tokens: g.tokens}
		at = g.start
	}
	return list
}

// groupList returns the file's groups as s keeps them, or nil.
func (s *scopedSet) groupList() []groupEntry {
	if s == nil || s.groups == nil {
		return nil
	}
	return *s.groups
}

// namesAgent reports whether a user-agent line of body, the file's copy,
// names agent, as collectScoped finds it: reading the user-agent lines of
// the groups whose summary may hold it alone, or of the whole file when s
// does not list its groups.
func (s *scopedSet) namesAgent(body, agent string) bool {
	groups := s.groupList()
	if groups == nil {
		return namesAgentFrom(body, 0, agent)
	}
	bits, at := tokenBits(agentHash(agent)), 0
	for i, g := range groups {
		at += int(g.gap)
		if g.tokens&bits != bits {
			continue
		}
		end := len(body)
		if i+1 < len(groups) {
			end = at + int(groups[i+1].gap)
		}
		if namesAgentFrom(body[:end], at, agent) {
			return true
		}
	}
	return false
}

// A regionCursor steps through the parts of a file a scoped pass reads
// when the file's directory lists its groups: the runs of consecutive
// groups that may apply to an agent. Whether a group names the agent is
// known before the pass (scopedSet.namesAgent): if one does, those whose
// summary may hold its token, and no "*" group (none applies then);
// else the "*" groups alone. Every other group applies to it neither as
// named nor as one of the agents no group names, and a pass over the whole
// file reads nothing of it into the set (TestDirectoryMatchesFullPass).
type regionCursor struct {
	groups []groupEntry
	// A group is read when its tokens hold all of want: the agent's
	// bits when a group names it, else starGroup.
	want uint16
	next int // the index of the first group not yet stepped over
	at   int // where the group before it starts (0 for the first)
	// The run read: where it starts, and the number of the line before
	// it, once counted (-1 before).
	start, lineBase int
}

// newRegionCursor returns the cursor of a file's groups for agent, which
// some group names or not (named).
func newRegionCursor(groups []groupEntry, agent string, named bool) regionCursor {
	want := uint16(starGroup)
	if named {
		want = tokenBits(agentHash(agent))
	}
	return regionCursor{groups: groups, want: want}
}

// region returns the next run of groups that may apply, as the offsets
// of its start and end in a body of size bytes; ok is false when none is
// left.
func (c *regionCursor) region(size int) (start, end int, ok bool) {
	i, at := c.next, c.at
	for ; i < len(c.groups); i++ {
		at += int(c.groups[i].gap)
		if c.applies(i) {
			break
		}
	}
	if i == len(c.groups) {
		c.next, c.at = i, at
		return 0, 0, false
	}
	start = at
	for i++; i < len(c.groups); i++ {
		at += int(c.groups[i].gap)
		if !c.applies(i) {
			break
		}
	}
	// The run ends where group i, the first that does not apply, starts,
	// or with the file.
	if i == len(c.groups) {
		c.next, c.at = i, at
		return start, size, true
	}
	c.next, c.at = i+1, at
	return start, at, true
}

// startRegions points gr at the first run of groups of body that may
// apply to agent, of the file's groups, and reports false when none may.
//
//go:noinline
func (b *builder) startRegions(body, agent string, groups []groupEntry, named bool, gr *parse.Grouper) bool {
	b.regions = newRegionCursor(groups, agent, named)
	b.scopedAgents = true // the file has user-agent lines
	return b.nextRegion(body, gr)
}

// nextRegion points gr at the next run of groups of body that may apply
// (see regionCursor), and reports false when none is left. The Grouper
// reads the run alone, as if it were the file, from its first user-agent
// line: spans read, and the lines that can matter while no group is open
// (parse.AgentLines).
//
// Not inlined: it runs once a run, and collectScoped's loop is hot code
// that takes less room in the instruction cache without it.
//
//go:noinline
func (b *builder) nextRegion(body string, gr *parse.Grouper) bool {
	c := &b.regions
	start, end, ok := c.region(len(body))
	if !ok {
		return false
	}
	*gr = parse.NewGrouperAt(body[:end], start)
	gr.ReadSpans()
	gr.Filter(parse.AgentLines)
	c.start, c.lineBase = start, -1
	return true
}

// lineIn returns the number in body of the line numbered num from the
// start of the run read: the lines of a scoped set's fields are the
// file's (a content-usage label names its line).
//
//go:noinline
func (c *regionCursor) lineIn(body string, num int) int {
	if c.lineBase < 0 {
		c.lineBase = lineAt(body, uint32(c.start)) - 1
	}
	return c.lineBase + num
}

// applies reports whether group i may apply to the cursor's agent.
func (c *regionCursor) applies(i int) bool {
	return c.groups[i].tokens&c.want == c.want
}

// namesAgentFrom reports whether a user-agent line of body from pos on
// names agent, as collectScoped finds it, reading the user-agent lines
// alone. pos is 0, or the start of a group (see parse.NewGrouperAt).
func namesAgentFrom(body string, pos int, agent string) bool {
	gr := parse.NewGrouperAt(body, pos)
	gr.ReadSpans()
	gr.Filter(parse.AgentLines)
	var l parse.Grouped
	for gr.Next(&l) {
		if l.Role != parse.RoleAgent {
			continue
		}
		if value := l.ValueAt.In(body); !parse.IsGlobalAgent(value) && parse.EqualFold(parse.ProductToken(value), agent) {
			return true
		}
	}
	return false
}
