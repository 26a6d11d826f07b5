package parse

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// collect returns the collector of body, filled.
func collect(body string) *Collector {
	c := new(Collector)
	c.Presize(Count(body))
	gr := NewGrouper(body)
	var l Grouped
	for gr.Next(&l) {
		c.Add(&l)
	}
	c.NumberTokens()
	return c
}

// A collectedGroup is a group with its records, for comparing.
type collectedGroup struct {
	Line   int32
	Global bool
	Agents []Agent
	Rules  []Rule
	Others []Other
}

func collectedGroups(c *Collector) []collectedGroup {
	var gs []collectedGroup
	for gi, g := range c.Groups {
		gs = append(gs, collectedGroup{g.Line, g.Global, c.Agents(gi), c.Rules(gi), c.Others(gi)})
	}
	return gs
}

// Google's grouping: user-agent lines accumulate until a rule; the first
// user-agent line after a rule starts a group; blank, unknown and sitemap
// lines end nothing; rules before any user-agent line belong to no group
// (Google's RobotsMatcher, robots.cc; RFC 9309 section 2.1). Other keyed
// lines inside a group (crawl-delay, content-usage, content-signal) come
// with the group, with their lines and raw values.
func TestCollectGroups(t *testing.T) {
	body := "Disallow: /orphan\n" + // 1
		"User-agent: A/1.0\n" + // 2
		"\n" + // 3
		"Content-Usage: train-ai=n\n" + // 4
		"user-agent: *\n" + // 5
		"Allow: /x\n" + // 6
		"Sitemap: https://e/s.xml\n" + // 7
		"Content-Signal: search=yes, ai-train=no\n" + // 8
		"Disallow: /y\n" + // 9
		"User-agent: b\n" + // 10
		"Crawl-delay: 5\n" // 11
	want := []collectedGroup{
		{
			Line:   2,
			Agents: []Agent{{Line: 2, Value: "A/1.0", Token: 0}, {Line: 5, Value: "*", Token: -1}},
			Global: true,
			Rules:  []Rule{{Allow: true, Value: "/x", Line: 6}, {Value: "/y", Line: 9}},
			Others: []Other{{Key: "Content-Usage", Value: "train-ai=n", Line: 4}, {Key: "Content-Signal", Value: "search=yes, ai-train=no", Line: 8}},
		},
		{
			Line:   10,
			Agents: []Agent{{Line: 10, Value: "b", Token: 1}},
			Rules:  []Rule{},
			Others: []Other{{Key: "Crawl-delay", Value: "5", Line: 11}},
		},
	}
	c := collect(body)
	if diff := cmp.Diff(want, collectedGroups(c)); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b"}, c.Tokens); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	if n := Count(body); n != (Counts{Lines: 12, Groups: 2, Agents: 3, Rules: 2, Others: 3}) {
		t.Errorf("Count = %+v", n)
	}
}

// Each line's role and group, as the grouper hands them to Parse and lint.
func TestGrouperRoles(t *testing.T) {
	body := "allow: /a\nuser-agent: x\nsitemap: s\nfoo: bar\ndisallow: /\nuser-agent: y\n# c\n"
	type role struct {
		Role     Role
		NewGroup bool
		Group    int
	}
	want := []role{{RoleOutside, false, -1}, {RoleAgent, true, 0}, {RoleSitemap, false, 0}, {RoleOther, false, 0}, {RoleRule, false, 0}, {RoleAgent, true, 1}, {RoleNone, false, 1}, {RoleNone, false, 1}}
	var got []role
	gr := NewGrouper(body)
	var l Grouped
	for gr.Next(&l) {
		got = append(got, role{l.Role, l.NewGroup, l.Group})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
}

// A rule line the caller leaves for the filter of user-agent lines to
// pass over, after RuleAhead, ends the group as a rule read by Next does:
// the next user-agent line starts a group of its own (a group is its
// user-agent lines and the lines up to the next user-agent line after a
// rule, RFC 9309 2.1). Without RuleAhead, passed over unread, it would
// not.
func TestGrouperRuleAhead(t *testing.T) {
	body := "user-agent: x\ndisallow: /abcdefghij\nuser-agent: y\nallow: /\n"
	for _, ahead := range []bool{true, false} {
		gr := NewGrouper(body)
		gr.ReadSpans()
		gr.Filter(AgentLines)
		var l Grouped
		if !gr.Next(&l) || l.Role != RoleAgent || !l.NewGroup {
			t.Fatalf("first line: %+v", l)
		}
		if _, pos, ok := gr.RuleRun(); !ok || !DisallowAt(body, pos) {
			t.Fatalf("the disallow line is not where RuleRun says")
		}
		if ahead {
			gr.RuleAhead()
		}
		if !gr.Next(&l) || l.Role != RoleAgent || l.ValueAt.In(body) != "y" {
			t.Fatalf("ahead %v: the line after the rule: %+v", ahead, l)
		}
		if l.NewGroup != ahead || l.Group != map[bool]int{true: 1, false: 0}[ahead] {
			t.Errorf("ahead %v: user-agent: y starts a group %v, group %d", ahead, l.NewGroup, l.Group)
		}
	}
}

// NextAgent hands each token once, in sorted order, with its groups in
// file order and without repeats: the groups Google merges for it.
func TestNextAgent(t *testing.T) {
	names := []Naming{{"b", 2}, {"a", 1}, {"b", 0}, {"a", 1}, {"", 3}, {"b", 2}}
	type agent struct {
		Token  string
		Groups []int32
	}
	var got []agent
	SortNamings(names)
	var groups []int32
	for i := 0; i < len(names); {
		var token string
		token, groups, i = NextAgent(names, i, groups)
		got = append(got, agent{token, append([]int32(nil), groups...)})
	}
	want := []agent{{"", []int32{3}}, {"a", []int32{1}}, {"b", []int32{0, 2}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	if AgentToken("GoogleBot/2.1") != "googlebot" || AgentToken("*") != "" || AgentToken("MJ12bot") != "mj" {
		t.Error("AgentToken")
	}
}

// The collector numbers agent tokens as Parse merges agents: two agents
// share a token exactly when their AgentTokens are equal (case and
// /version ignored, "" for a value with no token), the tokens in the order
// the body first names them; the global "*" has none.
func TestCollectTokens(t *testing.T) {
	values := []string{"GoogleBot/2.1", "googlebot", "MJ12bot", "*", "mj", "* x", "42", "*foo", "Bing-Bot", "bing-bot/3", "GOOGLEBOT"}
	var body strings.Builder
	for _, v := range values {
		body.WriteString("user-agent: " + v + "\ndisallow: /\n")
	}
	c := collect(body.String())
	if diff := cmp.Diff([]string{"googlebot", "mj", "", "bing-bot"}, c.Tokens); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	for gi := range c.Groups {
		for _, a := range c.Agents(gi) {
			if IsGlobalAgent(a.Value) != a.Global() || !a.Global() && c.Tokens[a.Token] != AgentToken(a.Value) {
				t.Errorf("agent %q: token %d", a.Value, a.Token)
			}
		}
	}
	// Numbering allocates at most four arrays of the exact size (the
	// compiler may keep some on the stack), however many agents and
	// tokens there are: not once per agent or token. It runs once. The
	// count is the process's, so the runtime's own work can add to one
	// reading (CI saw 8 under load, Go 1.25): the least of five is taken.
	fresh := func() *Collector {
		c := new(Collector)
		c.Presize(Count(body.String()))
		gr := NewGrouper(body.String())
		var l Grouped
		for gr.Next(&l) {
			c.Add(&l)
		}
		return c
	}
	least := uint64(math.MaxUint64)
	for range 5 {
		c = fresh()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c.NumberTokens()
		runtime.ReadMemStats(&after)
		least = min(least, after.Mallocs-before.Mallocs)
	}
	if least > 4 {
		t.Errorf("NumberTokens allocates %d times; want at most 4", least)
	}
	tokens := c.Tokens
	c.NumberTokens()
	if len(c.Tokens) != 4 || &c.Tokens[0] != &tokens[0] || c.Agents(0)[0].Token != 0 {
		t.Error("a second NumberTokens changed the tokens")
	}
}

// SortNamings orders names by token, then group, as a comparison sort by
// that order does, for few names (its insertion sort) and many, whatever
// order the names come in.
func TestSortNamingsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	tokens := []string{"", "a", "ab", "b", "ba", "bb", "googlebot", "google", "z", "a-b", "a_b"}
	for round := 0; round < 2000; round++ {
		names := make([]Naming, rng.IntN(40))
		for i := range names {
			names[i] = Naming{Token: tokens[rng.IntN(len(tokens))], Group: int32(rng.IntN(6))}
		}
		want := slices.Clone(names)
		slices.SortFunc(want, func(a, b Naming) int {
			if c := strings.Compare(a.Token, b.Token); c != 0 {
				return c
			}
			return int(a.Group - b.Group)
		})
		got := slices.Clone(names)
		SortNamings(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("SortNamings(%v) (-want +got):\n%s", names, diff)
		}
	}
}
