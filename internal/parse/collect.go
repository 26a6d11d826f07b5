package parse

import "math"

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
	// (AgentToken of Value), the same for every agent with that token;
	// -1 for the global "*" (IsGlobalAgent(Value)).
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
// Presize, so that collecting a body allocates a fixed number of times,
// besides its distinct agent tokens.
type Collector struct {
	Groups []Group
	agents []Agent
	rules  []Rule
	others []Other
	// Tokens are the distinct agent tokens (AgentToken of the values) of
	// the non-global agents, in the order the body first names them.
	Tokens  []string
	tokenOf map[string]int32 // index in Tokens
	lower   []byte           // an upper-case token lower-cased, to look it up
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
			a.Token = c.token(l.Value)
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

// token returns the index in c.Tokens of the token of a non-global agent
// value, adding the token if it is new. Only a new token with upper-case
// letters allocates: its lower-cased copy.
func (c *Collector) token(value string) int32 {
	t := ProductToken(value)
	if !HasUpper(t) {
		if id, ok := c.tokenOf[t]; ok {
			return id
		}
		return c.addToken(t)
	}
	c.lower = append(c.lower[:0], t...)
	for i, b := range c.lower {
		c.lower[i] = LowerASCII(b)
	}
	if id, ok := c.tokenOf[string(c.lower)]; ok {
		return id
	}
	return c.addToken(string(c.lower))
}

func (c *Collector) addToken(t string) int32 {
	if c.tokenOf == nil {
		c.tokenOf = make(map[string]int32)
	}
	id := int32(len(c.Tokens))
	c.Tokens = append(c.Tokens, t)
	c.tokenOf[t] = id
	return id
}

// line32 returns line number n as an int32, math.MaxInt32 past it.
func line32(n int) int32 {
	return int32(min(n, math.MaxInt32))
}
