package audit

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/crawlers"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/jsonkeys"
)

const sample = "User-agent: *\nAllow: /\nDisallow: /private/\nContent-Usage: train-ai=n\nContent-Signal: search=yes, ai-train=no\n\n" +
	"User-agent: GPTBot\nUser-agent: AI2Bot\nDisallow: /\n"

func find(t *testing.T, rep *Report, name string) Crawler {
	t.Helper()
	for _, c := range rep.Crawlers {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no crawler %q in the report", name)
	return Crawler{}
}

// TestRun checks the audit of a file with a "*" group carrying
// preferences and a group for two AI crawlers, one of which Google's
// product-token rule reads as "AI" (Google's robots.txt documentation:
// the user-agent is matched by its leading letters, '-' and '_').
func TestRun(t *testing.T) {
	rep, err := Run([]byte(sample), robotstxt.Options{}, []string{"/", "/private/x"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.PreferenceLines != 2 {
		t.Errorf("PreferenceLines = %d, want 2", rep.PreferenceLines)
	}
	seen := map[string]bool{}
	for _, c := range rep.Crawlers {
		if seen[strings.ToLower(c.Name)] {
			t.Errorf("%s reported twice", c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
		if len(c.Results) != 2 {
			t.Fatalf("%s: %d results, want 2", c.Name, len(c.Results))
		}
	}
	gpt := find(t, rep, "GPTBot")
	if !gpt.Specific || gpt.Results[0].Allowed || gpt.Results[0].Rule == nil || gpt.Results[0].Rule.Line != 9 || gpt.Results[0].Usage.Fetchable {
		t.Errorf("GPTBot = %+v, want its own group disallowing / on line 9, no usage", gpt)
	}
	ai2 := find(t, rep, "AI2Bot")
	if diff := cmp.Diff(Crawler{Name: "AI2Bot", Purpose: crawlers.AITraining, Kind: crawlers.Crawler, Token: "AI", ReadAs: "AI", NamedOnLines: []int{8}, Specific: true},
		ai2, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Results" }, cmp.Ignore())); diff != "" {
		t.Errorf("AI2Bot mismatch (-want +got):\n%s", diff)
	}
	// Another crawler whose name Google reads as "AI" gets the same group.
	if c := find(t, rep, "AI2Bot-DeepResearchEval"); c.Results[0].Allowed {
		t.Errorf("AI2Bot-DeepResearchEval is read as \"AI\" and should be disallowed by line 9")
	}
	claude := find(t, rep, "ClaudeBot")
	want := robotstxt.Usage{Fetchable: true,
		TrainAI: robotstxt.Decision{Preference: robotstxt.PreferenceDisallow, Line: 4},
		AIUse:   robotstxt.Decision{Line: 4},
		Search:  robotstxt.Decision{Line: 4},
		Signal: robotstxt.ContentSignal{Search: robotstxt.Decision{Preference: robotstxt.PreferenceAllow, Line: 5},
			AIInput: robotstxt.Decision{Line: 5}, AITrain: robotstxt.Decision{Preference: robotstxt.PreferenceDisallow, Line: 5}}}
	if diff := cmp.Diff(want, claude.Results[0].Usage); diff != "" {
		t.Errorf("ClaudeBot at / under the * group (-want +got):\n%s", diff)
	}
	if claude.Specific || claude.Results[1].Allowed || claude.Results[1].Usage.Fetchable {
		t.Errorf("ClaudeBot at /private/x: %+v, want disallowed by the * group with no preference", claude.Results[1])
	}
	if got := rep.Blocked(0, crawlers.AITraining); got == 0 || got >= rep.Blocked(0) {
		t.Errorf("Blocked(/, ai-training) = %d of %d", got, rep.Blocked(0))
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b, "robots.txt", nil); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"DISALLOWED GPTBot", "train-ai=disallow (line 4)", "AI2Bot as \"AI\" (named on line 8 of this file)", "Crawl4AI as \"Crawl\""} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("text report lacks %q", s)
		}
	}
}

// TestRunDefaultURL checks that the audit asks for the site root when no
// URL is given.
func TestRunDefaultURL(t *testing.T) {
	rep, err := Run([]byte("User-agent: GPTBot\nDisallow: /\n"), robotstxt.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/"}, rep.URLs); diff != "" {
		t.Errorf("URLs (-want +got):\n%s", diff)
	}
	if got := rep.Blocked(0); got != 1 {
		t.Errorf("Blocked = %d, want 1 (GPTBot)", got)
	}
}

// TestCorpus audits every file of the corpus and logs the counts the
// issue asks for: files with preference lines, how many of those the
// linter flags (see lint's TestCorpusUsage), and how many files block each
// of the top AI crawlers at "/".
func TestCorpus(t *testing.T) {
	names, files := corpus.Load(t, 0)
	top := []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Applebot-Extended", "PerplexityBot", "Bytespider", "meta-externalagent", "OAI-SearchBot", "ChatGPT-User", "anthropic-ai", "Amazonbot"}
	blocked := map[string]int{}
	withPrefs := 0
	for i, data := range files {
		if raceEnabled && i%20 != 0 {
			continue
		}
		rep, err := Run(data, robotstxt.Options{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		if err := rep.WriteText(&bytes.Buffer{}, names[i], nil); err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		if rep.PreferenceLines > 0 {
			withPrefs++
		}
		for _, c := range rep.Crawlers {
			for _, name := range top {
				if c.Name == name && !c.Results[0].Allowed {
					blocked[name]++
				}
			}
		}
	}
	t.Logf("%d files audited; %d with Content-Usage or Content-Signal lines", len(files), withPrefs)
	for _, name := range top {
		t.Logf("%-20s blocked at / by %d files", name, blocked[name])
	}
}

// TestReportJSON checks the report's JSON against the shape the robotstxt
// command and the browser tester share: a rule is null when none applied,
// else {line, kind, pattern}; every key is snake_case; the file's License
// lines (RSL 1.0) are listed, [] when none; a file cut at the size limit
// says so, with the limit.
func TestReportJSON(t *testing.T) {
	tests := []struct {
		name          string
		file          string
		opts          robotstxt.Options
		wantGPTBot    any // the JSON of GPTBot's rule at "/"
		wantLicenses  []any
		wantTruncated bool
		wantLimit     float64
	}{
		{"no rule is null", "User-agent: *\nDisallow: /private/\n", robotstxt.Options{},
			nil, []any{}, false, robotstxt.DefaultMaxSize},
		{"a disallow rule", "License: https://example.com/license.xml\nUser-agent: GPTBot\nDisallow: /\nLicense: https://example.com/2.xml\n", robotstxt.Options{},
			map[string]any{"line": 3.0, "kind": "disallow", "pattern": "/"}, []any{"https://example.com/license.xml", "https://example.com/2.xml"}, false, robotstxt.DefaultMaxSize},
		{"an allow rule, cut file", "User-agent: *\nAllow: /\nDisallow: /x\n", robotstxt.Options{MaxSize: 23},
			map[string]any{"line": 2.0, "kind": "allow", "pattern": "/"}, []any{}, true, 23},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run([]byte(tt.file), tt.opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			jsonkeys.CheckSnakeCase(t, "", doc)
			if diff := cmp.Diff(tt.wantLicenses, doc["licenses"]); diff != "" {
				t.Errorf("licenses (-want +got):\n%s", diff)
			}
			if doc["truncated"] != tt.wantTruncated || doc["limit"] != tt.wantLimit {
				t.Errorf("truncated, limit = %v, %v; want %v, %v", doc["truncated"], doc["limit"], tt.wantTruncated, tt.wantLimit)
			}
			for _, c := range doc["crawlers"].([]any) {
				c := c.(map[string]any)
				for _, key := range []string{"name", "purpose", "kind", "token", "specific", "results"} {
					if _, ok := c[key]; !ok {
						t.Fatalf("crawler %v lacks %q", c["name"], key)
					}
				}
				if c["name"] != "GPTBot" {
					continue
				}
				res := c["results"].([]any)[0].(map[string]any)
				rule, ok := res["rule"]
				if !ok {
					t.Fatalf("GPTBot's result has no rule key: %v", res)
				}
				if diff := cmp.Diff(tt.wantGPTBot, rule); diff != "" {
					t.Errorf("GPTBot's rule (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestAIUse checks that the audit reports vocab-08's AI Use category
// (draft-ietf-aipref-vocab-08 section 4.2, label ai-use) beside AI
// Training (section 4.1) and Search (section 4.3), in the JSON as "ai_use"
// and in the text as "ai-use", each as written: Search's override of the
// other two (section 4.3) depends on the crawler's use.
func TestAIUse(t *testing.T) {
	const file = "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, ai-use=n, search=y\nContent-Usage: /rag/ ai-use=y\n"
	rep, err := Run([]byte(file), robotstxt.Options{}, []string{"/", "/rag/x"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Crawlers []struct {
			Name    string `json:"name"`
			Results []struct {
				Usage map[string]any `json:"usage"`
			} `json:"results"`
		} `json:"crawlers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	decision := func(p string, line float64) map[string]any { return map[string]any{"preference": p, "line": line} }
	noSignal := map[string]any{"search": decision("unknown", 0), "ai_input": decision("unknown", 0), "ai_train": decision("unknown", 0)}
	want := []map[string]any{
		{"fetchable": true, "train_ai": decision("disallow", 3), "ai_use": decision("disallow", 3), "search": decision("allow", 3), "signal": noSignal},
		{"fetchable": true, "train_ai": decision("unknown", 4), "ai_use": decision("allow", 4), "search": decision("unknown", 4), "signal": noSignal},
	}
	found := false
	for _, c := range doc.Crawlers {
		if c.Name != "PerplexityBot" {
			continue
		}
		found = true
		var got []map[string]any
		for _, r := range c.Results {
			got = append(got, r.Usage)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("PerplexityBot's usage JSON (-want +got):\n%s", diff)
		}
	}
	if !found {
		t.Fatal("no PerplexityBot in the crawler list")
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text, "robots.txt", nil); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"train-ai=disallow (line 3), ai-use=disallow (line 3), search=allow (line 3)", "ai-use=allow (line 4)"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("text report lacks %q", s)
		}
	}
}

// TestPreferencesOutsideGroups checks that the audit points out Content-Usage
// and Content-Signal lines before the first user-agent line, which apply
// to no crawler: the decision the README's "AI usage preferences" argues
// (Cloudflare's Content Signals Policy writes the line inside a group,
// crawler-commons scopes it to its group since 2026-09, and
// draft-ietf-aipref-attach-05 section 3 makes Content-Usage a rule of a
// group).
func TestPreferencesOutsideGroups(t *testing.T) {
	tests := []struct {
		name, file string
		want       []int
		text       string
	}{
		{"none", "User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n", []int{}, ""},
		{"one", "Content-Signal: ai-train=no\n\nUser-agent: *\nAllow: /\n", []int{1},
			"Preference line 1 stands before the first user-agent line: in no group, so for no crawler (to mean every crawler, write it in the User-agent: * group)\n"},
		{"two", "# terms\ncontent-usage: train-ai=n\nCONTENT-SIGNAL: ai-train=no\nUser-agent: *\nContent-Signal: search=yes\n", []int{2, 3},
			"Preference lines 2, 3 stand before the first user-agent line"},
		// The engine reads keys in ASCII case only: a key with the long s
		// (U+017F, 's' under Unicode folding) is no preference line.
		{"non-ASCII look-alike", "Content-U\u017fage: train-ai=n\nUser-agent: *\nAllow: /\n", []int{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run([]byte(tt.file), robotstxt.Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, rep.PreferencesOutsideGroups); diff != "" {
				t.Errorf("PreferencesOutsideGroups (-want +got):\n%s", diff)
			}
			c := find(t, rep, "ClaudeBot")
			if u := c.Results[0].Usage; tt.name == "one" && u.Signal.AITrain.Preference != robotstxt.PreferenceUnknown {
				t.Errorf("a Content-Signal before any group applied to ClaudeBot: %+v", u.Signal)
			}
			var b bytes.Buffer
			if err := rep.WriteText(&b, "robots.txt", nil); err != nil {
				t.Fatal(err)
			}
			if tt.text == "" && strings.Contains(b.String(), "before the first user-agent line") || !strings.Contains(b.String(), tt.text) {
				t.Errorf("text report does not say %q:\n%.400s", tt.text, b.String())
			}
		})
	}
}

// A row is one crawler's line of a text report.
type row struct{ verdict, name, purpose, group, why string }

func (r row) String() string {
	return strings.Join([]string{r.verdict, r.name, r.purpose, r.group, r.why}, " ")
}

var rowRE = regexp.MustCompile(`^  (allowed|DISALLOWED) +(.+?) +(ai-training|ai-input|ai-search|ai-other|search) +(own group|group \*) +(.*)$`)

// rowsOf returns the crawler lines of the first URL of a text report.
func rowsOf(t *testing.T, text string) []row {
	t.Helper()
	blocks := strings.SplitN(text, "\n\n", 3)
	if len(blocks) < 2 {
		t.Fatalf("no URL block in:\n%.400s", text)
	}
	var rows []row
	for _, l := range strings.Split(blocks[1], "\n")[1:] {
		if l == "" {
			continue
		}
		m := rowRE.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("cannot read the row %q", l)
		}
		rows = append(rows, row{m[1], m[2], m[3], m[4], m[5]})
	}
	return rows
}

// TestWriteTextOrder checks that the text report lists crawlers as the
// browser tester's audit view does (web/internal/site/static/audit.js):
// those a group of the file names first, then by purpose (AI training,
// AI input, AI search, AI other, search), then by name ignoring case;
// and that the JSON keeps the crawler list's order.
func TestWriteTextOrder(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		wantFirst []string // the first rows of the text report, padding collapsed
	}{
		{"GPTBot and Bingbot first, then AI training",
			"User-agent: Bingbot\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n",
			[]string{
				"DISALLOWED GPTBot ai-training own group line 5: Disallow: /",
				"allowed Bingbot search own group line 2: Allow: /",
				"allowed AgentTimes ai-training group * no rule",
				"allowed AI2Bot ai-training group * no rule",
			}},
		{"no group of its own: AI training first, by name",
			"User-agent: *\nDisallow: /x\n",
			[]string{
				"allowed AgentTimes ai-training group * no rule",
				"allowed AI2Bot ai-training group * no rule",
				"allowed Ai2Bot-Dolma ai-training group * no rule",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run([]byte(tt.file), robotstxt.Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := rep.WriteText(&b, "robots.txt", nil); err != nil {
				t.Fatal(err)
			}
			rows := rowsOf(t, b.String())
			if len(rows) != len(rep.Crawlers) {
				t.Fatalf("%d rows for %d crawlers", len(rows), len(rep.Crawlers))
			}
			var first []string
			for _, r := range rows[:len(tt.wantFirst)] {
				first = append(first, r.String())
			}
			if diff := cmp.Diff(tt.wantFirst, first); diff != "" {
				t.Errorf("first rows (-want +got):\n%s", diff)
			}
			// Past the own groups, purposes never go back and names
			// ascend within a purpose.
			rank := map[string]int{"ai-training": 0, "ai-input": 1, "ai-search": 2, "ai-other": 3, "search": 4}
			for i := 1; i < len(rows); i++ {
				p, r := rows[i-1], rows[i]
				own, prevOwn := r.group == "own group", p.group == "own group"
				switch {
				case own && !prevOwn:
					t.Errorf("%s, in a group of its own, after %s", r.name, p.name)
				case own == prevOwn && (rank[p.purpose] > rank[r.purpose] || rank[p.purpose] == rank[r.purpose] && strings.ToLower(p.name) > strings.ToLower(r.name)):
					t.Errorf("%s (%s) before %s (%s)", p.name, p.purpose, r.name, r.purpose)
				}
			}
			// The JSON (Report.Crawlers) keeps the list's order.
			list, _, err := crawlers.List()
			if err != nil {
				t.Fatal(err)
			}
			if rep.Crawlers[0].Name != list[0].Name {
				t.Errorf("Crawlers[0] = %s, want the list's first, %s", rep.Crawlers[0].Name, list[0].Name)
			}
		})
	}
}

// TestWriteTextRuleAsWritten checks that a text report's cell shows the
// deciding rule as the file writes it (key and value, as the browser
// tester shows it), not the normalised "disallow: /Private".
func TestWriteTextRuleAsWritten(t *testing.T) {
	tests := []struct {
		name, file string
		want       string // GPTBot's row at /Private/x, padding collapsed
	}{
		{"key case", "User-agent: GPTBot\nDisallow: /Private\n",
			"DISALLOWED GPTBot ai-training own group line 2: Disallow: /Private"},
		{"spacing and comment", "User-agent: GPTBot\n  DISALLOW  :   /Private   # keep out\n",
			"DISALLOWED GPTBot ai-training own group line 2: DISALLOW: /Private"},
		{"no colon, allow", "User-agent: GPTBot\nDisallow: /\nALLOW /Private\n",
			"allowed GPTBot ai-training own group line 3: ALLOW: /Private"},
		{"accepted misspelling", "User-agent: GPTBot\nDissallow: /Private\n",
			"DISALLOWED GPTBot ai-training own group line 2: Dissallow: /Private"},
		{"the * group, written as normalised", "user-agent: *\ndisallow:/Private\n",
			"DISALLOWED GPTBot ai-training group * line 2: disallow: /Private"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run([]byte(tt.file), robotstxt.Options{}, []string{"/Private/x"})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := rep.WriteText(&b, "robots.txt", nil); err != nil {
				t.Fatal(err)
			}
			var got string
			for _, r := range rowsOf(t, b.String()) {
				if r.name == "GPTBot" {
					got = r.String()
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("GPTBot's row (-want +got):\n%s", diff)
			}
		})
	}
}
