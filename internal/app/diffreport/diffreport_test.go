package diffreport

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seed50c7eacc/robotstxt/diff"
)

// TestOrder checks the order a site owner reads: search crawlers, then AI
// crawlers by purpose (training, input, search), then agents the crawler
// list does not know, by name, then every other crawler.
func TestOrder(t *testing.T) {
	var in []diff.Crawler
	for _, a := range []string{diff.Others, "zz-unknown", "PerplexityBot", "ChatGPT-User", "GPTBot", "aa-unknown", "Googlebot", "Bingbot"} {
		in = append(in, diff.Crawler{Agent: a})
	}
	var got []string
	for _, c := range Order(in) {
		got = append(got, c.Agent+":"+string(c.Purpose))
	}
	want := []string{"Bingbot:search", "Googlebot:search", "GPTBot:ai-training", "ChatGPT-User:ai-input",
		"PerplexityBot:ai-search", "aa-unknown:", "zz-unknown:", "*:"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
}

// TestJSON checks the shape of a report: lists empty rather than null,
// verdicts with their deciding rules in the command's rule shape.
func TestJSON(t *testing.T) {
	r := diff.Compare([]byte("User-agent: *\nDisallow: /a\n"), []byte("User-agent: *\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /private/\n"))
	data, err := json.Marshal(JSON([2]string{"old", "new"}, r, Order(r.Crawlers), nil))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	crawlers := got["crawlers"].([]any)
	delete(got, "crawlers")
	want := map[string]any{
		"old": "old", "new": "new", "verdict_changed": true, "undecided": []any{}, "usage_undecided": []any{},
		"sitemaps_added": []any{}, "sitemaps_removed": []any{}, "licenses_added": []any{}, "licenses_removed": []any{},
		"agents_named": []any{"Googlebot"}, "agents_unnamed": []any{}, "lines": []any{},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("report (-want +got):\n%s", d)
	}
	googlebot := crawlers[0].(map[string]any)
	wantBot := map[string]any{
		"agent": "Googlebot", "purpose": "search", "named_old": false, "named_new": true, "decided": true,
		"usage_decided": true, "usage": []any{},
		"changes": []any{
			map[string]any{
				"path": "/a", "describe": "paths matching /a", "matching": []any{"/a"}, "except": []any{},
				"old": map[string]any{"allowed": false, "verdict": "disallowed", "rule": map[string]any{"line": 2.0, "kind": "disallow", "pattern": "/a"}},
				"new": map[string]any{"allowed": true, "verdict": "allowed", "rule": nil},
			},
			map[string]any{
				"path": "/private/", "describe": "paths matching /private/", "matching": []any{"/private/"}, "except": []any{},
				"old": map[string]any{"allowed": true, "verdict": "allowed", "rule": nil},
				"new": map[string]any{"allowed": false, "verdict": "disallowed", "rule": map[string]any{"line": 5.0, "kind": "disallow", "pattern": "/private/"}},
			},
		},
	}
	if d := cmp.Diff(wantBot, googlebot); d != "" {
		t.Errorf("Googlebot (-want +got):\n%s", d)
	}
	if others := crawlers[len(crawlers)-1].(map[string]any); others["agent"] != diff.Others || len(others["changes"].([]any)) != 0 {
		t.Errorf("every other crawler: %v", others)
	}
}

// TestUsageJSON checks the shape of a usage change: the witness, the
// preferences of each version as robotstxt.Usage gives them, the change in
// words and the class by its Content-Usage patterns
// (draft-ietf-aipref-attach-05 section 3.1: the longest matching path
// applies).
func TestUsageJSON(t *testing.T) {
	r := diff.Compare([]byte("User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: /news/ train-ai=y\n"),
		[]byte("User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: /news/ train-ai=n\n"))
	data, err := json.Marshal(JSON([2]string{"old", "new"}, r, Order(r.Crawlers), nil))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Crawlers []struct {
			Agent        string `json:"agent"`
			UsageDecided bool   `json:"usage_decided"`
			Usage        []struct {
				Path     string         `json:"path"`
				Becomes  string         `json:"becomes"`
				Describe string         `json:"describe"`
				Matching []string       `json:"matching"`
				Except   []string       `json:"except"`
				New      map[string]any `json:"new"`
			} `json:"usage"`
		} `json:"crawlers"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Crawlers) != 1 || !got.Crawlers[0].UsageDecided || len(got.Crawlers[0].Usage) != 1 {
		t.Fatalf("crawlers: %+v", got.Crawlers)
	}
	u := got.Crawlers[0].Usage[0]
	want := []string{"/news/", "train-ai: allow → disallow", "paths matching /news/ that both versions let it fetch", "[/news/]", "[]"}
	gotFields := []string{u.Path, u.Becomes, u.Describe, fmt.Sprint(u.Matching), fmt.Sprint(u.Except)}
	if d := cmp.Diff(want, gotFields); d != "" {
		t.Errorf("usage change (-want +got):\n%s", d)
	}
	if ta := u.New["train_ai"].(map[string]any); ta["preference"] != "disallow" || ta["line"] != 3.0 {
		t.Errorf("new train_ai: %v", ta)
	}
}
