package tester

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAudit checks the page's audit: the URLs as the page lists them, the
// licence URLs (RSL 1.0 License lines, global like Sitemap) and the cut.
func TestAudit(t *testing.T) {
	tests := []struct {
		name, robots, urls string
		wantURLs           []string
		wantLicenses       []string
		wantTruncated      bool
	}{
		{
			name:     "URLs trimmed, blank lines skipped",
			robots:   "User-agent: *\nAllow: /\n",
			urls:     "\n https://example.com/a \n\n/b\n",
			wantURLs: []string{"https://example.com/a", "/b"}, wantLicenses: []string{},
		},
		{
			name: "no URLs: the site root", robots: "", urls: " \n",
			wantURLs: []string{"/"}, wantLicenses: []string{},
		},
		{
			name:     "License lines in file order, in a group or not",
			robots:   "License: https://example.com/a.xml\nUser-agent: *\nLicense: https://example.com/b.xml\nDisallow: /x\n",
			wantURLs: []string{"/"}, wantLicenses: []string{"https://example.com/a.xml", "https://example.com/b.xml"},
		},
		{
			name:     "a file past the 500 KiB limit",
			robots:   "User-agent: *\nDisallow: /x\n" + strings.Repeat("# filler\n", 60000),
			wantURLs: []string{"/"}, wantLicenses: []string{}, wantTruncated: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Audit(tt.robots, tt.urls)
			if err != nil {
				t.Fatal(err)
			}
			got := []any{rep.URLs, rep.Licenses, rep.Truncated}
			want := []any{tt.wantURLs, tt.wantLicenses, tt.wantTruncated}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("URLs, licenses, truncated (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAuditVerdicts checks a file that blocks one AI crawler and states a
// training preference for the others.
func TestAuditVerdicts(t *testing.T) {
	rep, err := Audit("User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nDisallow: /\n", "https://example.com/a")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Allowed, Specific bool
		RuleLine, Train   int
	}
	got := map[string]answer{}
	for _, c := range rep.Crawlers {
		if c.Name == "GPTBot" || c.Name == "ClaudeBot" {
			r := c.Results[0]
			a := answer{Allowed: r.Allowed, Specific: c.Specific, Train: r.Usage.TrainAI.Line}
			if r.Rule != nil {
				a.RuleLine = r.Rule.Line
			}
			got[c.Name] = a
		}
	}
	want := map[string]answer{
		"GPTBot":    {Specific: true, RuleLine: 6},
		"ClaudeBot": {Allowed: true, RuleLine: 2, Train: 3},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAuditAIUse checks that the report the page reads (the JSON of
// Audit, as web/wasm hands it over) carries draft-ietf-aipref-vocab-08's
// AI Use category (section 4.2) as "ai_use", beside "train_ai" and
// "search", each as written: Search's override (section 4.3) depends on
// the crawler's use, which the page leaves to its reader.
func TestAuditAIUse(t *testing.T) {
	rep, err := Audit("User-agent: *\nAllow: /\nContent-Usage: train-ai=n, ai-use=n, search=y\n", "/")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Crawlers []struct {
			Name    string `json:"name"`
			Results []struct {
				Usage map[string]json.RawMessage `json:"usage"`
			} `json:"results"`
		} `json:"crawlers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Crawlers {
		if c.Name != "ChatGPT-User" {
			continue
		}
		u := c.Results[0].Usage
		got := map[string]string{"train_ai": string(u["train_ai"]), "ai_use": string(u["ai_use"]), "search": string(u["search"])}
		want := map[string]string{
			"train_ai": `{"preference":"disallow","line":3}`,
			"ai_use":   `{"preference":"disallow","line":3}`,
			"search":   `{"preference":"allow","line":3}`,
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ChatGPT-User's usage (-want +got):\n%s", diff)
		}
		return
	}
	t.Fatal("no ChatGPT-User in the report")
}
