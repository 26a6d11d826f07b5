package parse

// A Role is what a line does in the group structure Google's matcher
// forms.
type Role uint8

const (
	// RoleNone: no directive (blank, comment, or text without a key).
	RoleNone Role = iota
	// RoleAgent: a user-agent line. Grouped.NewGroup says whether it
	// starts a group or joins the open one.
	RoleAgent
	// RoleRule: an allow or disallow line of the open group.
	RoleRule
	// RoleOutside: an allow or disallow line before any user-agent line;
	// it belongs to no group and Google ignores it.
	RoleOutside
	// RoleSitemap: a sitemap line; it belongs to the file, not to a group.
	RoleSitemap
	// RoleOther: any other directive (crawl-delay, content-usage, ...),
	// inside the open group when Grouped.Group >= 0.
	RoleOther
)

// A Grouped is a line with its place in the group structure.
type Grouped struct {
	Line
	Role     Role
	NewGroup bool // a user-agent line that starts a group
	Group    int  // index of the open group, -1 before the first user-agent line
	// GroupHasRules reports whether the open group had a rule before this
	// line.
	GroupHasRules bool
}

// A Grouper forms groups from the lines of a body as Google's matcher
// does: a group is a run of user-agent lines and the lines that follow
// them, up to the next user-agent line that comes after a rule. Google's
// matcher implies this structure: its flags accumulate over user-agent
// lines and reset at the first user-agent line after an allow or disallow
// line, and lines of any other kind (sitemap, unknown, invalid) leave them
// alone.
type Grouper struct {
	tok      Tokenizer
	group    int
	hasRules bool
}

// NewGrouper returns a Grouper of body.
func NewGrouper(body string) Grouper {
	return Grouper{tok: NewTokenizer(body), group: -1}
}

// NewGrouperAt returns a Grouper of body that starts reading at pos, the
// start of a user-agent line's key, as if the body began there with the
// group that line opens: a reader of some groups alone (see the engine's
// group directory) passes over the others. Spans stay offsets in body.
func NewGrouperAt(body string, pos int) Grouper {
	t := NewTokenizer(body)
	t.pos = max(pos, t.pos)
	return Grouper{tok: t, group: -1}
}

// Filter makes Next pass over lines the way Tokenizer.Filter does. The
// groups stay the same as long as the filter passes every line that can
// change them at that point: user-agent lines always, allow and disallow
// lines while a group is open and has no rule yet.
func (g *Grouper) Filter(set *FirstBytes) { g.tok.Filter(set) }

// ReadSpans is Tokenizer.ReadSpans.
func (g *Grouper) ReadSpans() { g.tok.ReadSpans() }

// PlainDisallow is Tokenizer.PlainDisallow, within an open group: a line
// it reports is a disallow line of that group.
func (g *Grouper) PlainDisallow() (rest string, offset int, ok bool) {
	if g.group < 0 {
		return "", 0, false
	}
	return g.tok.PlainDisallow()
}

// PlainAllow is Tokenizer.PlainAllow, within an open group: a line it
// reports is an allow line of that group.
func (g *Grouper) PlainAllow() (rest string, offset int, ok bool) {
	if g.group < 0 {
		return "", 0, false
	}
	return g.tok.PlainAllow()
}

// NextByte is Tokenizer.NextByte.
func (g *Grouper) NextByte() byte { return g.tok.NextByte() }

// PassRule passes over the next line, which PlainDisallow reported,
// without tokenizing it: the open group now has a rule.
func (g *Grouper) PassRule() {
	g.tok.PassLine()
	g.hasRules = true
}

// RuleAhead records that the open group has a rule, the next line,
// which DisallowAt reports, for a caller that lets a filter that
// rejects it pass over it: the line is not read twice.
func (g *Grouper) RuleAhead() { g.hasRules = true }

// PassRuleTo is PassRule for a line whose end the caller has found (see
// Tokenizer.PassLineTo).
func (g *Grouper) PassRuleTo(end int) {
	g.tok.PassLineTo(end)
	g.hasRules = true
}

// RuleRun returns the body and where its next line starts, for a caller
// that reads the disallow lines that follow itself, as PlainDisallow's
// callers do (see DisallowAt), and then passes over them with PassRules.
// ok is false while no group is open, when PlainDisallow reports false.
func (g *Grouper) RuleRun() (body string, pos int, ok bool) {
	return g.tok.body, g.tok.pos, g.group >= 0
}

// PassRules passes over the n lines from the next one up to pos, which
// the caller read after RuleRun, each a disallow line PlainDisallow would
// report, ending in LF, CR or CR LF (pos past the LF of a pair): the open
// group then has a rule, if n > 0.
func (g *Grouper) PassRules(pos, n int) {
	if n > 0 {
		g.tok.PassLinesTo(pos, n)
		g.hasRules = true
	}
}

// Body returns the body read, where a line's KeyAt and ValueAt are.
func (g *Grouper) Body() string { return g.tok.body }

// Offset returns where in the body the bytes not yet read start.
func (g *Grouper) Offset() int { return g.tok.pos }

// Rest returns the bytes not yet read.
func (g *Grouper) Rest() string { return g.tok.Rest() }

// Lines returns how many lines were read or passed over so far: the
// number of the last one.
func (g *Grouper) Lines() int { return g.tok.lines }

// Next reads the next line into l, every line of the body in turn. It
// reports false when the body is exhausted.
func (g *Grouper) Next(l *Grouped) bool {
	if !g.tok.Next(&l.Line) {
		return false
	}
	l.Role, l.NewGroup, l.GroupHasRules = RoleNone, false, g.hasRules
	if l.Flags&LineHasDirective != 0 {
		switch l.Kind {
		case KeyUserAgent:
			l.Role = RoleAgent
			if g.group < 0 || g.hasRules {
				g.group++
				g.hasRules = false
				l.NewGroup = true
			}
		case KeyAllow, KeyDisallow:
			l.Role = RoleOutside
			if g.group >= 0 {
				l.Role = RoleRule
				g.hasRules = true
			}
		case KeySitemap:
			l.Role = RoleSitemap
		default:
			l.Role = RoleOther
		}
	}
	l.Group = g.group
	return true
}
