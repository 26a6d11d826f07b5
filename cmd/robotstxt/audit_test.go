package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const auditSample = "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nDisallow: /\n"

func TestAudit(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantStatus int
		wantOut    []string // substrings of standard output
		wantErr    string   // a substring of standard error
	}{
		{"default URL is the root", []string{"audit", "-"}, exitAllowed,
			[]string{"<stdin>: ", "1 Content-Usage/Content-Signal lines", "\n/: 1 of ", "DISALLOWED GPTBot", "train-ai=disallow (line 3)", "Crawl4AI as \"Crawl\""}, ""},
		{"URLs and flags anywhere", []string{"audit", "-", "/a", "-max-size", "0", "https://example.com/b"}, exitAllowed,
			[]string{"\n/a: 1 of ", "\nhttps://example.com/b: 1 of "}, ""},
		{"control bytes in rules and URLs are quoted", []string{"audit", "-", "/\x1b[2J"}, exitAllowed,
			[]string{`"/\x1b[2J": `}, ""},
		{"no FILE", []string{"audit"}, exitError, nil, "audit: need a robots.txt FILE"},
		{"unknown flag", []string{"audit", "-x", "-"}, exitError, nil, "flag provided but not defined"},
		{"help", []string{"audit", "-h"}, exitAllowed, []string{"usage: robotstxt audit [-json] [-max-size N] [-crawler TEXT] [-purpose LIST] [-blocked] FILE [URL...]"}, ""},
		{"missing file", []string{"audit", "/nonexistent/robots.txt"}, exitError, nil, "nonexistent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tt.args, strings.NewReader(auditSample), &stdout, &stderr)
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d; stderr %q", status, tt.wantStatus, stderr.String())
			}
			for _, s := range tt.wantOut {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout.String())
				}
			}
			if tt.wantErr != "" && !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tt.wantErr)
			}
		})
	}
}

func TestAuditJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if status := run([]string{"audit", "-json", "-", "/x"}, strings.NewReader(auditSample), &stdout, &stderr); status != exitAllowed {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	var out struct {
		File            string   `json:"file"`
		URLs            []string `json:"urls"`
		PreferenceLines int      `json:"preference_lines"`
		Crawlers        []struct {
			Name    string `json:"name"`
			ReadAs  string `json:"read_as"`
			Results []struct {
				URL     string `json:"url"`
				Allowed bool   `json:"allowed"`
				Usage   struct {
					TrainAI struct {
						Preference string `json:"preference"`
						Line       int    `json:"line"`
					} `json:"train_ai"`
				} `json:"usage"`
			} `json:"results"`
		} `json:"crawlers"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%v in %s", err, stdout.String())
	}
	if out.File != "<stdin>" || len(out.URLs) != 1 || out.URLs[0] != "/x" || out.PreferenceLines != 1 {
		t.Errorf("header = %q %q %d", out.File, out.URLs, out.PreferenceLines)
	}
	found := 0
	for _, c := range out.Crawlers {
		switch c.Name {
		case "GPTBot":
			found++
			if c.Results[0].Allowed {
				t.Errorf("GPTBot allowed at /x")
			}
		case "ClaudeBot":
			found++
			if r := c.Results[0]; !r.Allowed || r.Usage.TrainAI.Preference != "disallow" || r.Usage.TrainAI.Line != 3 {
				t.Errorf("ClaudeBot at /x = %+v, want allowed with train-ai disallow from line 3", r)
			}
		case "AI2Bot":
			found++
			if c.ReadAs != "AI" {
				t.Errorf("AI2Bot read_as %q, want AI", c.ReadAs)
			}
		}
	}
	if found != 3 {
		t.Errorf("found %d of GPTBot, ClaudeBot, AI2Bot", found)
	}
}

// TestAuditAIUse checks that audit shows vocab-08's AI Use category
// (draft-ietf-aipref-vocab-08 section 4.2, label ai-use) beside train-ai
// and search, in its text and as "ai_use" in its JSON.
func TestAuditAIUse(t *testing.T) {
	const file = "User-agent: *\nAllow: /\nContent-Usage: ai-use=n, search=y\n"
	var stdout, stderr bytes.Buffer
	if status := run([]string{"audit", "-"}, strings.NewReader(file), &stdout, &stderr); status != exitAllowed {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	if want := "ai-use=disallow (line 3), search=allow (line 3)"; !strings.Contains(stdout.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, stdout.String())
	}
	stdout.Reset()
	if status := run([]string{"audit", "-json", "-"}, strings.NewReader(file), &stdout, &stderr); status != exitAllowed {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	var out struct {
		Crawlers []struct {
			Results []struct {
				Usage struct {
					AIUse struct {
						Preference string `json:"preference"`
						Line       int    `json:"line"`
					} `json:"ai_use"`
				} `json:"usage"`
			} `json:"results"`
		} `json:"crawlers"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Crawlers) == 0 {
		t.Fatal("no crawlers")
	}
	for _, c := range out.Crawlers {
		if u := c.Results[0].Usage.AIUse; u.Preference != "disallow" || u.Line != 3 {
			t.Fatalf("ai_use = %+v, want disallow from line 3", u)
		}
	}
	stdout.Reset()
	run([]string{"audit", "-h"}, nil, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "ai-use") {
		t.Errorf("audit -h does not name ai-use:\n%s", stdout.String())
	}
}

// TestAuditText checks the order and the cells of audit's text: crawlers
// named by a group of their own first, then by purpose (AI training, AI
// input, AI search, AI other, search) and name, as the browser tester
// shows them; each cell with the deciding rule as the file writes it.
func TestAuditText(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		url       string
		wantFirst []string // the first crawler lines, runs of spaces collapsed
	}{
		{"GPTBot and Bingbot first, then AI training",
			"User-agent: Bingbot\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n", "/",
			[]string{
				"DISALLOWED GPTBot ai-training own group line 5: Disallow: /",
				"allowed Bingbot search own group line 2: Allow: /",
				"allowed AgentTimes ai-training group * no rule",
			}},
		{"the rule as written",
			"user-agent: *\n  DISALLOW :  /Private  # keep out\n", "/Private/x",
			[]string{
				"DISALLOWED AgentTimes ai-training group * line 2: DISALLOW: /Private",
				"DISALLOWED AI2Bot ai-training group * line 2: DISALLOW: /Private",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if status := run([]string{"audit", "-", tt.url}, strings.NewReader(tt.file), &stdout, &stderr); status != exitAllowed {
				t.Fatalf("status %d: %s", status, stderr.String())
			}
			_, block, ok := strings.Cut(stdout.String(), "\n"+tt.url+": ")
			if !ok {
				t.Fatalf("no block for %s:\n%s", tt.url, stdout.String())
			}
			var got []string
			for _, l := range strings.Split(block, "\n")[1:] {
				if len(got) == len(tt.wantFirst) || !strings.HasPrefix(l, "  ") {
					break
				}
				got = append(got, strings.Join(strings.Fields(l), " "))
			}
			if diff := cmp.Diff(tt.wantFirst, got); diff != "" {
				t.Errorf("first crawler lines (-want +got):\n%s", diff)
			}
		})
	}
}

// audit's filters keep the crawlers the web page's filters keep: -crawler
// by name or product token in any case, -purpose by a list of purposes,
// -blocked those some URL is disallowed to; each checked against the
// unfiltered report.
func TestAuditFilters(t *testing.T) {
	const file = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /private\n"
	type crawler struct {
		Name, Token, Purpose string
		Results              []struct{ Allowed bool }
	}
	report := func(args ...string) []crawler {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if status := run(append(append([]string{"audit", "-json"}, args...), "-", "/", "/private/x"), strings.NewReader(file), &stdout, &stderr); status != 0 {
			t.Fatalf("audit %q: status %d: %s", args, status, stderr.String())
		}
		var rep struct{ Crawlers []crawler }
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		return rep.Crawlers
	}
	all := report()
	names := func(cs []crawler) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	keep := func(f func(c crawler) bool) []string {
		var out []string
		for _, c := range all {
			if f(c) {
				out = append(out, c.Name)
			}
		}
		return out
	}
	blocked := func(c crawler) bool {
		for _, r := range c.Results {
			if !r.Allowed {
				return true
			}
		}
		return false
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"-blocked"}, keep(blocked)},
		{[]string{"-crawler", "gptBOT"}, keep(func(c crawler) bool { return strings.Contains(strings.ToLower(c.Name+" "+c.Token), "gptbot") })},
		{[]string{"-purpose", "search,ai-input"}, keep(func(c crawler) bool { return c.Purpose == "search" || c.Purpose == "ai-input" })},
		{[]string{"-purpose", "ai-training", "-blocked"}, keep(func(c crawler) bool { return c.Purpose == "ai-training" && blocked(c) })},
	}
	for _, tt := range tests {
		got := names(report(tt.args...))
		if len(tt.want) == 0 || len(tt.want) == len(all) {
			t.Errorf("%q: the filter would keep %d of %d crawlers: a test that cannot fail", tt.args, len(tt.want), len(all))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("audit %q (-want +got):\n%s", tt.args, diff)
		}
	}
	if got := keep(blocked); !slices.Contains(got, "GPTBot") || !slices.Contains(got, "CCBot") {
		t.Errorf("blocked crawlers %q lack GPTBot or CCBot", got)
	}
	var stdout, stderr bytes.Buffer
	if status := run([]string{"audit", "-purpose", "nope", "-"}, strings.NewReader(file), &stdout, &stderr); status != exitError || !strings.Contains(stderr.String(), `"nope" is not a purpose`) {
		t.Errorf("-purpose nope: status %d, stderr %q", status, stderr.String())
	}
}
