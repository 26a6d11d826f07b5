package diff

import (
	"strconv"
	"strings"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/pathdiff"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// A rule is one allow or disallow rule of a crawler class's effective rule
// list, with its pattern in wire form: what Google's matcher compares
// (RFC 9309 section 2.2.2; bytes >= 0x80 percent-encoded, escapes'
// hex digits upper-cased).
type rule struct {
	allow    bool
	wire     string // the pattern in wire form, '*' and a final '$' included
	priority int    // len(wire): the longest match decides, allow winning ties
	written  robotstxt.Rule
	derived  bool // the directory an "allow: .../index.htm" also allows
}

// ruleList is the effective rule list of one crawler class in one file,
// in file order: the rules of every group naming the class's product token,
// merged, or else those of every "*" group (RFC 9309 section 2.2.1; Google
// merges all groups naming an agent).
type ruleList []rule

// fileView is a parsed file and what the diff reads of it.
type fileView struct {
	robots *robotstxt.Robots
	groups []robotstxt.Group
	// named maps each lower-cased product token some group names to the
	// spelling first written.
	named map[string]string
}

func newFileView(data []byte) *fileView {
	r := robotstxt.Parse(data)
	v := &fileView{robots: r, groups: r.Groups(), named: map[string]string{}}
	for _, g := range v.groups {
		for _, a := range g.Agents {
			if parse.IsGlobalAgent(a) {
				continue
			}
			if tok := parse.ProductToken(a); tok != "" {
				key := parse.AgentToken(a)
				if _, ok := v.named[key]; !ok {
					v.named[key] = tok
				}
			}
		}
	}
	return v
}

// rulesFor returns the effective rule list for the lower-cased product
// token, or for the "*" groups when token is "" (a crawler no group names).
// Google's matcher reads a group's user-agent lines by their product
// token: the leading letters, '-' and '_', compared ignoring case.
func (v *fileView) rulesFor(token string) ruleList {
	var out ruleList
	for _, g := range v.groupsFor(token) {
		for _, r := range g.Rules {
			wire := pattern.Escape(r.Pattern)
			out = append(out, rule{allow: r.Allow, wire: wire, priority: len(wire), written: r})
			// Google's matcher also reads "allow: /dir/index.htm..." as
			// "allow: /dir/$", so that the directory is allowed too.
			if dir, ok := parse.IndexDirectory(wire); ok && r.Allow {
				d := dir + "$"
				out = append(out, rule{allow: true, wire: d, priority: len(d), written: r, derived: true})
			}
		}
	}
	return out
}

// groupsFor returns the groups whose lines apply to the lower-cased
// product token, or the "*" groups when token is "" or no group names it:
// Google merges every group naming an agent (RFC 9309 section 2.2.1).
func (v *fileView) groupsFor(token string) []*robotstxt.Group {
	specific := token != "" && v.named[token] != ""
	var out []*robotstxt.Group
	for i := range v.groups {
		g := &v.groups[i]
		for _, a := range g.Agents {
			if specific && !parse.IsGlobalAgent(a) && parse.AgentToken(a) == token || !specific && parse.IsGlobalAgent(a) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// pathRules returns the list as the path comparison reads it.
func (l ruleList) pathRules() []pathdiff.Rule {
	out := make([]pathdiff.Rule, len(l))
	for i, r := range l {
		out[i] = pathdiff.Rule{Allow: r.allow, Wire: r.wire}
	}
	return out
}

// signature identifies a rule list with its lines, for sharing the work
// between crawler classes whose lists are the same in both files.
func (l ruleList) signature() string {
	var b strings.Builder
	for _, r := range l {
		if r.allow {
			b.WriteByte('a')
		} else {
			b.WriteByte('d')
		}
		b.WriteString(r.wire)
		b.WriteByte(0)
		b.WriteString(strconv.Itoa(r.written.Line))
		b.WriteByte(0)
	}
	return b.String()
}
