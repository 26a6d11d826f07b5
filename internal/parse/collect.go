package parse

// A Group is a group as the Grouper forms it, with its lines: what a
// consumer needs that does not compile rules as it reads, like the lint
// package.
type Group struct {
	Line   int // line of the group's first user-agent line
	Agents []Agent
	Global bool // some agent is "*"
	Rules  []Rule
	// Others are the group's other directives (crawl-delay,
	// content-usage, ...), in file order.
	Others []Other
}

// An Agent is a user-agent line of a group.
type Agent struct {
	Line   int
	Value  string // as written
	Token  string // AgentToken of Value; "" for the global "*"
	Global bool   // IsGlobalAgent(Value)
}

// A Rule is an allow or disallow line of a group.
type Rule struct {
	Allow bool
	Value string // as written, not escaped
	Line  int
}

// An Other is a directive of a group that is neither user-agent, allow,
// disallow nor sitemap.
type Other struct {
	Key, Value string // as written
	Line       int
}

// A Collector builds the groups of a body from its grouped lines. The
// agents, rules and others of all groups share three arrays, sized by
// Presize, so that collecting a body allocates a fixed number of times.
type Collector struct {
	Groups []Group
	agents []Agent
	rules  []Rule
	others []Other
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
// no group change nothing.
func (c *Collector) Add(l *Grouped) {
	switch l.Role {
	case RoleAgent:
		if l.NewGroup {
			c.Groups = append(c.Groups, Group{
				Line:   l.Num,
				Agents: c.agents[len(c.agents):len(c.agents)],
				Rules:  c.rules[len(c.rules):len(c.rules)],
				Others: c.others[len(c.others):len(c.others)],
			})
		}
		g := &c.Groups[len(c.Groups)-1]
		a := Agent{Line: l.Num, Value: l.Value, Global: IsGlobalAgent(l.Value)}
		if a.Global {
			g.Global = true
		} else {
			a.Token = AgentToken(l.Value)
		}
		c.agents = append(c.agents, a)
		g.Agents = extend(g.Agents, c.agents)
	case RoleRule:
		g := &c.Groups[len(c.Groups)-1]
		c.rules = append(c.rules, Rule{Allow: l.Kind == KeyAllow, Value: l.Value, Line: l.Num})
		g.Rules = extend(g.Rules, c.rules)
	case RoleOther:
		if l.Group >= 0 {
			g := &c.Groups[len(c.Groups)-1]
			c.others = append(c.others, Other{Key: l.Key, Value: l.Value, Line: l.Num})
			g.Others = extend(g.Others, c.others)
		}
	}
}

// extend returns the group's slice grown by the element just appended to
// all, the shared array it ends.
func extend[T any](mine, all []T) []T {
	return all[len(all)-len(mine)-1:]
}
