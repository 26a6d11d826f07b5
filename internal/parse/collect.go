package parse

import (
	"cmp"
	"github.com/seed50c7eacc/robotstxt/internal/swar"
	"math"
	"slices"
)

// A Group is a group as the Grouper forms it, with its lines: what a
// consumer needs that does not compile rules as it reads, like the lint
// package. Its agents, rules and other directives are read with the
// Collector's Agents, Rules and Others.
//
// The records are small (20 bytes a group, 24 an agent or a rule), line
// numbers are int32 (numbers past 2^31-1, in a body of 2 GiB or more, are
// 2^31-1), and they refer to the body's bytes rather than copy them: a
// collector costs a few times the size of the body it reads.
type Group struct {
	Line   int32 // line of the group's first user-agent line
	Global bool  // some agent is "*"
	// The group's records start at these indices of the collector's
	// arrays, and end where the next group's start.
	agents, rules, others int32
}

// An Agent is a user-agent line of a group.
type Agent struct {
	Line int32
	// Token is the index in Collector.Tokens of the agent's token
	// (AgentToken of Value), the same for every agent with that token,
	// once Collector.NumberTokens has run (before, it holds the length of
	// the token in Value); -1 for the global "*" (IsGlobalAgent(Value)).
	Token int32
	Value string // as written
}

// Global reports whether a is the global agent "*".
func (a *Agent) Global() bool { return a.Token < 0 }

// A Rule is an allow or disallow line of a group.
type Rule struct {
	Line  int32
	Allow bool
	Value string // as written, not escaped
}

// An Other is a directive of a group that is neither user-agent, allow,
// disallow nor sitemap.
type Other struct {
	Line       int32
	Key, Value string // as written
}

// A Collector builds the groups of a body from its grouped lines. The
// agents, rules and others of all groups share three arrays, sized by
// Presize, so that collecting a body allocates a fixed number of times.
type Collector struct {
	Groups []Group
	agents []Agent
	rules  []Rule
	others []Other
	// Tokens are the distinct agent tokens (AgentToken of the values) of
	// the non-global agents, in the order the body first names them, once
	// NumberTokens has run.
	Tokens   []string
	numbered bool
}

// Agents returns the agents of group g, in file order.
func (c *Collector) Agents(g int) []Agent {
	end := len(c.agents)
	if g+1 < len(c.Groups) {
		end = int(c.Groups[g+1].agents)
	}
	return c.agents[c.Groups[g].agents:end]
}

// Rules returns the rules of group g, in file order.
func (c *Collector) Rules(g int) []Rule {
	end := len(c.rules)
	if g+1 < len(c.Groups) {
		end = int(c.Groups[g+1].rules)
	}
	return c.rules[c.Groups[g].rules:end]
}

// Others returns the other directives of group g (crawl-delay,
// content-usage, ...), in file order.
func (c *Collector) Others(g int) []Other {
	end := len(c.others)
	if g+1 < len(c.Groups) {
		end = int(c.Groups[g+1].others)
	}
	return c.others[c.Groups[g].others:end]
}

// Counts are the sizes of a body's group structure.
type Counts struct {
	Lines, Groups, Agents, Rules, Others int
}

// Count returns the sizes of body's group structure, in one pass that does
// not allocate.
func Count(body string) Counts {
	var n Counts
	gr := NewGrouper(body)
	var l Grouped
	for gr.Next(&l) {
		n.Lines++
		switch l.Role {
		case RoleAgent:
			n.Agents++
			if l.NewGroup {
				n.Groups++
			}
		case RoleRule:
			n.Rules++
		case RoleOther:
			if l.Group >= 0 {
				n.Others++
			}
		}
	}
	return n
}

// Presize makes room for a body of the given counts.
func (c *Collector) Presize(n Counts) {
	c.Groups = make([]Group, 0, n.Groups)
	c.agents = make([]Agent, 0, n.Agents)
	c.rules = make([]Rule, 0, n.Rules)
	c.others = make([]Other, 0, n.Others)
}

// Add adds the next line of the body to the groups. Lines that belong to
// no group change nothing. The records are indexed by int32: past 2^31-1
// records of a kind (in a body of 8 GiB or more, read whole), the rest of
// that kind is dropped.
func (c *Collector) Add(l *Grouped) {
	num := line32(l.Num)
	switch l.Role {
	case RoleAgent:
		if l.NewGroup {
			c.Groups = append(c.Groups, Group{
				Line:   num,
				agents: int32(len(c.agents)),
				rules:  int32(len(c.rules)),
				others: int32(len(c.others)),
			})
		}
		if len(c.agents) == math.MaxInt32 {
			return
		}
		a := Agent{Line: num, Token: -1, Value: l.Value}
		if IsGlobalAgent(l.Value) {
			c.Groups[len(c.Groups)-1].Global = true
		} else {
			// The length of the token, until NumberTokens numbers it.
			a.Token = int32(len(ProductToken(l.Value)))
		}
		c.agents = append(c.agents, a)
	case RoleRule:
		if len(c.rules) == math.MaxInt32 {
			return
		}
		c.rules = append(c.rules, Rule{Line: num, Allow: l.Kind == KeyAllow, Value: l.Value})
	case RoleOther:
		if l.Group >= 0 && len(c.others) < math.MaxInt32 {
			c.others = append(c.others, Other{Line: num, Key: l.Key, Value: l.Value})
		}
	}
}

// NumberTokens fills c.Tokens and sets the Token of every non-global
// agent, after the last Add; later calls do nothing. It sorts the agents
// by token rather than looking each up in a map as it comes: a few arrays
// of the exact size, and one string for all the lower-cased tokens.
func (c *Collector) NumberTokens() {
	if c.numbered {
		return
	}
	c.numbered = true
	byToken := make([]int32, 0, len(c.agents)) // the non-global agents
	for i := range c.agents {
		if c.agents[i].Token >= 0 {
			byToken = append(byToken, int32(i))
		}
	}
	token := func(i int32) string { return c.agents[i].Value[:c.agents[i].Token] }
	slices.SortFunc(byToken, func(a, b int32) int {
		if c := compareFold(token(a), token(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	// Each run of one token starts with the agent that first names it;
	// the tokens are numbered in the order of those agents.
	starts := func(k int) bool { return k == 0 || compareFold(token(byToken[k-1]), token(byToken[k])) != 0 }
	runs, size := 0, 0
	for k, i := range byToken {
		if starts(k) {
			runs++
			size += len(token(i))
		}
	}
	firsts := make([]int32, 0, runs)
	for k, i := range byToken {
		if starts(k) {
			firsts = append(firsts, i)
		}
	}
	slices.Sort(firsts)
	buf := make([]byte, 0, size)
	for _, i := range firsts {
		t := token(i)
		for j := 0; j < len(t); j++ {
			buf = append(buf, LowerASCII(t[j]))
		}
	}
	all := swar.String(buf)
	c.Tokens = make([]string, len(firsts))
	for id, i := range firsts {
		n := len(token(i))
		c.Tokens[id], all = all[:n], all[n:]
	}
	id, prev := 0, ""
	for k, i := range byToken {
		t := token(i)
		if k == 0 || compareFold(prev, t) != 0 {
			id, _ = slices.BinarySearch(firsts, i)
		}
		prev = t
		c.agents[i].Token = int32(id)
	}
}

// compareFold compares two product tokens as AgentToken lower-cases them.
func compareFold(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if x, y := LowerASCII(a[i]), LowerASCII(b[i]); x != y {
			return cmp.Compare(x, y)
		}
	}
	return cmp.Compare(len(a), len(b))
}

// line32 returns line number n as an int32, math.MaxInt32 past it.
func line32(n int) int32 {
	return int32(min(n, math.MaxInt32))
}
