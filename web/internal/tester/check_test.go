package tester

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seed50c7eacc/robotstxt/internal/app/audit"
)

// TestCheck asks one file for several crawlers and URLs. The verdicts
// follow RFC 9309: a rule before any user-agent line belongs to no group
// (section 2.1), a crawler no group names obeys the * group (section
// 2.2.1), and the longest matching rule wins, allow on a tie (section
// 2.2.2).
func TestCheck(t *testing.T) {
	const robots = "Disallow: /nowhere/\nUser-agent: *\nDisallow: /private/\nAllow: /private/press/\nCrawl-delay: 2.5\nSitemap: https://example.com/s.xml\n\nUser-agent: FooBot\nDisallow: /foo/\n"
	tests := []struct {
		name, agent, urls string
		want              []Verdict
		specific          bool
	}{
		{
			name: "the * group", agent: "Googlebot",
			urls: "https://example.com/private/x\n\n  https://example.com/private/press/y  \nhttps://example.com/other\n",
			want: []Verdict{
				{URL: "https://example.com/private/x", Rule: &audit.Rule{Line: 3, Kind: "disallow", Pattern: "/private/"}, Says: "disallow: /private/"},
				{URL: "https://example.com/private/press/y", Allowed: true, Rule: &audit.Rule{Line: 4, Kind: "allow", Pattern: "/private/press/"}, Says: "allow: /private/press/"},
				{URL: "https://example.com/other", Allowed: true},
			},
		},
		{
			name: "a group of its own", agent: "FooBot", specific: true,
			urls: "/foo/bar\n/private/x",
			want: []Verdict{
				{URL: "/foo/bar", Rule: &audit.Rule{Line: 9, Kind: "disallow", Pattern: "/foo/"}, Says: "disallow: /foo/"},
				{URL: "/private/x", Allowed: true},
			},
		},
		{name: "no URLs", agent: "Googlebot", urls: " \n\n", want: []Verdict{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(robots, tt.agent, tt.urls)
			if diff := cmp.Diff(tt.want, got.Verdicts); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
			// Google numbers the empty line after the last line end too.
			if got.Agent != tt.agent || got.Specific != tt.specific || got.Lines != 10 {
				t.Errorf("agent %q, specific %v, lines %d; want %q, %v, 10", got.Agent, got.Specific, got.Lines, tt.agent, tt.specific)
			}
		})
	}
	got := Check(robots, "Googlebot", "/")
	if diff := cmp.Diff([]string{"https://example.com/s.xml"}, got.Sitemaps); diff != "" || got.CrawlDelay != 2.5 {
		t.Errorf("crawl delay %v, sitemaps (-want +got):\n%s", got.CrawlDelay, diff)
	}
	var codes []string
	for _, d := range got.Diagnostics {
		codes = append(codes, fmt.Sprintf("%d:%s", d.Line, d.Code))
	}
	if !slices.Contains(codes, "1:rule-outside-group") {
		t.Errorf("diagnostics %q lack 1:rule-outside-group", codes)
	}
}

// The page reads the result as JSON: the keys and the rule's shape are
// those of the robotstxt command's JSON (snake_case; a rule is null or
// {"line","kind","pattern"}).
func TestCheckJSON(t *testing.T) {
	got, err := json.Marshal(Check("User-agent: *\nDisallow: /a\nCrawl-delay: 1\n", "Googlebot/2.1", "/a\n/b"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"agent": "Googlebot/2.1", "specific": false, "crawl_delay": 1.0, "lines": 4.0, "truncated": false,
		"sitemaps":    []any{},
		"diagnostics": []any{map[string]any{"line": 3.0, "code": "unused-key", "severity": "info", "message": `Google ignores "crawl-delay"; other crawlers may use it`}},
		"verdicts": []any{
			map[string]any{"url": "/a", "allowed": false, "rule": map[string]any{"line": 2.0, "kind": "disallow", "pattern": "/a"}, "says": "disallow: /a"},
			map[string]any{"url": "/b", "allowed": true, "rule": nil},
		},
	}
	if _, ok := m["agent_warning"].(string); !ok {
		t.Errorf("no agent_warning for Googlebot/2.1 in %s", got)
	}
	delete(m, "agent_warning")
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
}

// Empty input gives empty lists, not JSON nulls, so the page need not check.
func TestCheckEmpty(t *testing.T) {
	got := Check("", "", "")
	if got.Verdicts == nil || got.Diagnostics == nil || got.Sitemaps == nil {
		t.Errorf("Check of nothing = %+v; want empty, non-nil lists", got)
	}
}

func TestCheckAgentWarning(t *testing.T) {
	robots := "User-agent: Googlebot\nDisallow: /\n"
	if got := Check(robots, "Googlebot", "/"); got.AgentWarning != "" || !got.Specific {
		t.Errorf("Googlebot: warning %q, specific %v", got.AgentWarning, got.Specific)
	}
	got := Check(robots, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/")
	if !strings.Contains(got.AgentWarning, `"Googlebot"`) || got.Specific || !got.Verdicts[0].Allowed {
		t.Errorf("a User-Agent header: warning %q, specific %v, verdicts %+v", got.AgentWarning, got.Specific, got.Verdicts)
	}
}

// Issue 15: the part past the 500 KiB limit, and a group there.
func TestCheckCut(t *testing.T) {
	filler := "# " + strings.Repeat("x", 97) + "\n" // 100 bytes a line
	robots := "User-agent: *\nDisallow: /private/\n" + strings.Repeat(filler, 5120) + "User-agent: Googlebot\nDisallow: /\n"
	got := Check(robots, "Googlebot", "/private/x\n/x")
	const head = 14 + 20 // the first two lines
	want := &Cut{Limit: 512000, Line: 2 + (512000-head)/100 + 1, Kept: filler[:(512000-head)%100], GroupLine: 2 + 5120 + 1}
	if diff := cmp.Diff(want, got.Cut); diff != "" {
		t.Errorf("cut (-want +got):\n%s", diff)
	}
	if got.Specific || got.Verdicts[0].Allowed || !got.Verdicts[1].Allowed {
		t.Errorf("the * group should answer: specific %v, verdicts %+v", got.Specific, got.Verdicts)
	}
	if got := Check("User-agent: *\nDisallow: /\n", "Googlebot", "/"); got.Cut != nil {
		t.Errorf("a short file has a cut: %+v", got.Cut)
	}
	// A group before the cut: no GroupLine.
	got = Check("User-agent: Googlebot\nDisallow: /a\n"+strings.Repeat(filler, 5200), "Googlebot", "/a")
	if got.Cut == nil || got.Cut.GroupLine != 0 || !got.Specific {
		t.Errorf("group before the cut: %+v", got.Cut)
	}
}
