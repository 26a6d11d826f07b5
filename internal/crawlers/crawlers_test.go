package crawlers_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/crawlers"
)

func TestList(t *testing.T) {
	list, src, err := crawlers.List()
	if err != nil {
		t.Fatal(err)
	}
	if src.License != "MIT" || src.Commit == "" || src.Date == "" || src.LicenseFile == "" {
		t.Errorf("source not recorded: %+v", src)
	}
	// Product tokens match case-insensitively (RFC 9309 section 2.2.1), so
	// names differing only in case are one token. The source lists three
	// such pairs (meta-externalagent, meta-externalfetcher,
	// webzio-extended); the audit must report each token once.
	seen := map[string]bool{}
	exact := map[string]bool{}
	var caseVariants []string
	fromSource := 0
	for _, e := range list {
		key := strings.ToLower(e.Name)
		if exact[e.Name] {
			t.Errorf("%q listed twice", e.Name)
		}
		if seen[key] {
			caseVariants = append(caseVariants, e.Name)
		}
		seen[key], exact[e.Name] = true, true
		switch e.Purpose {
		case crawlers.AITraining, crawlers.AISearch, crawlers.AIInput, crawlers.AIOther, crawlers.Search:
		default:
			t.Errorf("%q: unknown purpose %q", e.Name, e.Purpose)
		}
		if e.Kind != crawlers.Crawler && e.Kind != crawlers.UsageToken {
			t.Errorf("%q: unknown kind %q", e.Name, e.Kind)
		}
		if e.From == "ai.robots.txt" {
			fromSource++
		}
	}
	if diff := cmp.Diff([]string{"Meta-ExternalAgent", "Meta-ExternalFetcher", "webzio-extended"}, caseVariants); diff != "" {
		t.Errorf("names repeated in another case (-want +got):\n%s", diff)
	}
	// The snapshot of robots.json (ai.robots.txt commit 738c80d, 2026-08-22)
	// has 166 names.
	if fromSource != 166 {
		t.Errorf("%d names from ai.robots.txt, want 166", fromSource)
	}
	for _, name := range []string{"Googlebot", "Bingbot", "Applebot", "GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Applebot-Extended"} {
		if !seen[strings.ToLower(name)] {
			t.Errorf("%s missing", name)
		}
	}
	kinds := map[string]crawlers.Kind{}
	for _, e := range list {
		kinds[e.Name] = e.Kind
	}
	if kinds["Google-Extended"] != crawlers.UsageToken || kinds["Applebot-Extended"] != crawlers.UsageToken || kinds["GPTBot"] != crawlers.Crawler {
		t.Errorf("kinds: Google-Extended %q, Applebot-Extended %q, GPTBot %q", kinds["Google-Extended"], kinds["Applebot-Extended"], kinds["GPTBot"])
	}
}

// TestGoogleToken checks the token rule on the names the issue cites and
// counts the names of the list that Google reads differently from how they
// are written.
func TestGoogleToken(t *testing.T) {
	for name, want := range map[string]string{
		"AI2Bot": "AI", "Crawl4AI": "Crawl", "ChatGPT Agent": "ChatGPT", "MistralAI-User/1.0": "MistralAI-User",
		"iaskspider/2.0": "iaskspider", "bigsur.ai": "bigsur", "Googlebot": "Googlebot", "Google-Extended": "Google-Extended",
		"under_score": "under_score", "": "", "2bot": "",
	} {
		if got := crawlers.GoogleToken(name); got != want {
			t.Errorf("GoogleToken(%q) = %q, want %q", name, got, want)
		}
	}
	list, _, err := crawlers.List()
	if err != nil {
		t.Fatal(err)
	}
	var differ []string
	for _, e := range list {
		if e.From == "ai.robots.txt" && crawlers.GoogleToken(e.Name) != e.Name {
			differ = append(differ, e.Name)
		}
	}
	want := []string{"AI2Bot", "AI2Bot-DeepResearchEval", "Ai2Bot-Dolma", "bigsur.ai", "Brightbot 1.0", "Channel3Bot",
		"ChatGPT Agent", "Crawl4AI", "Datenbank Crawler", "Echobot Bot", "iaskspider/2.0", "img2dataset", "Kangaroo Bot",
		"Linguee Bot", "MistralAI-User/1.0", "netEstate Imprint Crawler", "panscient.com", "Poseidon Research Crawler",
		"quillbot.com", "Sidetrade indexer bot", "Terra Cotta"}
	if diff := cmp.Diff(want, differ); diff != "" {
		t.Errorf("names read differently (-want +got):\n%s", diff)
	}
	if len(differ) != 21 {
		t.Errorf("%d names read differently, want 21", len(differ))
	}
}

// TestGoogleTokenMatchesParser checks GoogleToken against the library's
// matcher, which follows Google's: a group written for a name applies to a
// crawler sending GoogleToken(name), and not to one sending the name as
// written when the two differ.
func TestGoogleTokenMatchesParser(t *testing.T) {
	list, _, err := crawlers.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		robots := robotstxt.Parse([]byte("User-agent: " + e.Name + "\nDisallow: /\n"))
		tok := crawlers.GoogleToken(e.Name)
		if tok != "" && robots.Allowed(tok, "https://example.com/x") {
			t.Errorf("group for %q does not apply to %q", e.Name, tok)
		}
		if tok != e.Name && robots.Allowed(tok+"x", "https://example.com/x") == false {
			t.Errorf("group for %q applies to %q", e.Name, tok+"x")
		}
	}
}
