package engine

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// collected is what one scoped pass read: its rules and fields as spans
// of the file, whether a group names the agent, and whether it gave up.
type collected struct {
	Rules           []compiledRule
	Fields          []scopedField
	Named, Verbatim bool
	OK              bool
}

func collect(body, agent string, groups []groupEntry) collected {
	b := new(builder)
	// With a directory, the pass is told whether a group names the agent,
	// as scope finds it.
	agentNamed := false
	if groups != nil {
		s := scopedSet{groups: &groups}
		agentNamed = s.namesAgent(body, agent)
	}
	named, verbatim, ok := b.collectScoped(body, agent, groups, agentNamed)
	// The fields the set keeps, as scopedRules keeps them: a "*" group's
	// are dropped once a group names the agent, and a pass told so does
	// not read them.
	var fields []scopedField
	for _, fl := range b.fieldLines {
		if fl.keptIn(named) {
			fields = append(fields, fl)
		}
	}
	return collected{Rules: b.compiled, Fields: fields, Named: named, Verbatim: verbatim, OK: ok}
}

// A later agent's pass reads the groups its file's directory says may
// apply alone, and finds what a pass over the whole file finds: the same
// rules (where they are in the file, and how compiled), the same fields
// with their lines, the same answer to whether a group names the agent.
// Google's matcher reads the groups that name an agent, else the "*"
// groups (RFC 9309 2.2.1; developers.google.com/search/docs/crawling-
// indexing/robots/robots_txt, "Order of precedence for user agents"):
// every other group is one the directory may pass over. Random files of
// many groups, with the lines that change groups, fields between
// user-agent lines, indented keys, each line end, and names that share
// a summary's bits.
func TestDirectoryMatchesFullPass(t *testing.T) {
	lines := []string{
		"user-agent: *", "User-Agent: FOO", "user-agent: foo/2.0", "user-agent: bar", "user-agent: *foo", "useragent: foo",
		"user-agent: baz", "user-agent: qux", "  user-agent: Bar", "user-agent:", "user-agent: foo bar",
		"disallow: /a", "disallow: /a*b", "allow: /a/b", "allow: /a/index.html", "disallow:", "Disallow: /c$", "disallow: /é",
		"\tdisallow: /d", "disallow: /%41", "crawl-delay: 2", "request-rate: 1/10", "content-usage: train-ai=n",
		"content-signal: ai-train=no", "sitemap: /s.xml", "# comment", "", "  ", "host: example.com", "dissallow: /t",
	}
	agents := []string{"foo", "Bar", "baz", "", "qux", "nobody"}
	files := 3000
	if raceEnabled {
		files = 600 // the passes run on one goroutine: no race to find in more
	}
	reference.EachChooser(23, files, 96, func(i int, c *reference.Chooser) {
		var b strings.Builder
		if c.Pick(8) == 0 {
			b.WriteString("\xEF\xBB\xBF")
		}
		for n := 1 + c.Pick(48); n > 0; n-- {
			b.WriteString(c.From(lines))
			b.WriteString(c.From([]string{"\n", "\r\n", "\r"}))
		}
		var f File
		f.Load([]byte(b.String()))
		body, _ := f.body() // padded, as a pass reads it
		first := new(builder)
		first.collectScoped(body, c.From(agents), nil, false)
		groups := directoryEntries(first.groupStarts)
		for _, agent := range agents {
			want := collect(body, agent, nil)
			got := collect(body, agent, groups)
			if !want.OK {
				continue // a set too large: the file is compiled whole
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(compiledRule{}, scopedField{}, span{}), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("agent %q: pass over the directory's groups (-whole file +directory):\n%s\nrobots.txt: %q", agent, diff, body)
			}
		}
	})
}

// The directory's groups start at their first user-agent line, and each
// holds the bits of its product tokens: the region cursor never passes
// over a group that names the agent; of an agent that no group names, it
// reads the "*" groups alone, and of one that a group names, no group
// that is "*" alone (RFC 9309 2.2.1: the groups that name a crawler are
// the ones that apply to it, else the "*" groups).
func TestRegionCursorKeepsApplyingGroups(t *testing.T) {
	body := "user-agent: *\ndisallow: /a\n\nuser-agent: foo\nuser-agent: bar\ndisallow: /b\n" +
		"user-agent: baz\ndisallow: /c\nuser-agent: *\nuser-agent: qux\nallow: /d\n"
	var f File
	f.Load([]byte(body))
	body, _ = f.body()
	b := new(builder)
	b.collectScoped(body, "foo", nil, false)
	starts := make([]string, len(b.groupStarts))
	for i, g := range b.groupStarts {
		starts[i] = body[g.start:][:strings.IndexByte(body[g.start:], '\n')]
	}
	if diff := cmp.Diff([]string{"user-agent: *", "user-agent: foo", "user-agent: baz", "user-agent: *"}, starts); diff != "" {
		t.Fatalf("group starts (-want +got):\n%s", diff)
	}
	groups := directoryEntries(b.groupStarts)
	for _, tc := range []struct {
		agent   string
		named   bool
		want    []string // groups the runs hold
		notRead []string // groups no run may hold
	}{
		{"bar", true, []string{"user-agent: foo\nuser-agent: bar\ndisallow: /b\n"}, []string{"user-agent: *\ndisallow: /a"}},
		{"baz", true, []string{"user-agent: baz\ndisallow: /c\n"}, []string{"user-agent: *\ndisallow: /a"}},
		{"qux", true, []string{"user-agent: *\nuser-agent: qux\nallow: /d\n"}, []string{"user-agent: *\ndisallow: /a"}},
		{"nobody", false, []string{"user-agent: *\ndisallow: /a\n\n", "user-agent: *\nuser-agent: qux\nallow: /d\n"}, []string{"user-agent: foo", "user-agent: baz"}},
	} {
		c := newRegionCursor(groups, tc.agent, tc.named)
		var got []string
		for {
			start, end, ok := c.region(len(body))
			if !ok {
				break
			}
			got = append(got, body[start:end])
		}
		// A group whose summary shares the agent's bits is read too:
		// each run must hold those wanted, and no group is cut.
		for _, w := range tc.want {
			found := false
			for _, g := range got {
				found = found || strings.Contains(g, w)
			}
			if !found {
				t.Errorf("agent %q: runs %q miss %q", tc.agent, got, w)
			}
		}
		for _, w := range tc.notRead {
			for _, g := range got {
				if strings.Contains(g, w) {
					t.Errorf("agent %q: run %q holds %q, which cannot apply", tc.agent, g, w)
				}
			}
		}
	}
}
