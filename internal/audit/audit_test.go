package audit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/corpus"
	"github.com/seed50c7eacc/robotstxt/internal/crawlers"
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
	if !gpt.Specific || gpt.Results[0].Allowed || gpt.Results[0].Rule.Line != 9 || gpt.Results[0].Usage.Fetchable {
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
