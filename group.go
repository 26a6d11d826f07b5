package robotstxt

import "github.com/seed50c7eacc/robotstxt/internal/engine"

// A Group is a run of user-agent lines and the lines that follow them, up
// to the next user-agent line that follows a rule.
type Group struct {
	Line   int      // line of the first user-agent line
	Agents []string // the user-agent values as written
	Rules  []Rule
	Fields []Field // other directives within the group, such as crawl-delay
}

// A Field is a directive other than user-agent, allow, disallow and
// sitemap, such as crawl-delay or host.
type Field struct {
	Key   string // the key as written
	Value string // the value as written, trimmed and without comment
	Line  int    // 1-based line number in the file
}

// Groups returns the file's groups in file order: each is a run of
// user-agent lines with the rules and other fields that follow them. Groups
// are as written; groups naming the same agent are merged only when
// matching.
func (r *Robots) Groups() []Group {
	if r == nil {
		return nil
	}
	groups := r.file.Groups()
	out := make([]Group, len(groups))
	for i, g := range groups {
		out[i] = Group{Line: g.Line, Agents: g.Agents, Rules: rulesOf(g.Rules), Fields: fieldsOf(g.Fields)}
	}
	return out
}

// Fields returns every directive of the file that is not user-agent, allow,
// disallow or sitemap (crawl-delay, host, clean-param, ...), in file order,
// whether or not it stands in a group.
func (r *Robots) Fields() []Field {
	if r == nil {
		return nil
	}
	return fieldsOf(r.file.Fields())
}

// Sitemaps returns the values of the file's sitemap lines, in file order.
func (r *Robots) Sitemaps() []string {
	if r == nil {
		return nil
	}
	return r.file.Sitemaps()
}

// rulesOf returns the engine's rules as the API's.
func rulesOf(rules []engine.Rule) []Rule {
	return convertAll(rules, func(r engine.Rule) Rule { return Rule(r) })
}

// fieldsOf returns the engine's fields as the API's.
func fieldsOf(fields []engine.Field) []Field {
	return convertAll(fields, func(f engine.Field) Field { return Field(f) })
}

// convertAll returns the elements of s converted by conv, or nil for nil.
func convertAll[From, To any](s []From, conv func(From) To) []To {
	if s == nil {
		return nil
	}
	out := make([]To, len(s))
	for i, v := range s {
		out[i] = conv(v)
	}
	return out
}
