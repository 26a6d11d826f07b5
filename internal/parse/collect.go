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

// Collect adds l to groups, the groups of the lines before it, and returns
// the result. Lines that belong to no group change nothing.
func Collect(groups []Group, l *Grouped) []Group {
	switch l.Role {
	case RoleAgent:
		if l.NewGroup {
			groups = append(groups, Group{Line: l.Num})
		}
		g := &groups[len(groups)-1]
		a := Agent{Line: l.Num, Value: l.Value, Global: IsGlobalAgent(l.Value)}
		if a.Global {
			g.Global = true
		} else {
			a.Token = AgentToken(l.Value)
		}
		g.Agents = append(g.Agents, a)
	case RoleRule:
		g := &groups[len(groups)-1]
		g.Rules = append(g.Rules, Rule{Allow: l.Kind == KeyAllow, Value: l.Value, Line: l.Num})
	case RoleOther:
		if l.Group >= 0 {
			g := &groups[len(groups)-1]
			g.Others = append(g.Others, Other{Key: l.Key, Value: l.Value, Line: l.Num})
		}
	}
	return groups
}
