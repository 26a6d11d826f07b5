package robotstxt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// prefLinesOf classifies the lines of a file for checkUsageGrouping, as the
// grouper will.
func prefLinesOf(data string) []prefLine {
	var out []prefLine
	for i, text := range strings.Split(data, "\n") {
		key, _, _ := strings.Cut(text, ":")
		kind := prefLineOther
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "user-agent":
			kind = prefLineUserAgent
		case "allow", "disallow":
			kind = prefLineAllowance
		case "content-usage", "content-signal":
			kind = prefLinePreference
		}
		out = append(out, prefLine{kind, i + 1})
	}
	return out
}

type problemAt struct {
	Line int
	Code string
}

func problemsAt(ps []usageProblem) []problemAt {
	var out []problemAt
	for _, p := range ps {
		out = append(out, problemAt{p.line, p.code})
	}
	return out
}

func TestCheckUsageGrouping(t *testing.T) {
	tests := []struct {
		name, data string
		want       []problemAt
	}{
		{"attach-05 section 3.4 example: no conflict", "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n", nil},
		{"Cloudflare managed file: signal then Allow: no conflict", "User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n", nil},
		{"preference between user-agent lines", "User-agent: *\nContent-Signal: ai-train=no\n\nUser-agent: GPTBot\nDisallow: /\n", []problemAt{{4, problemGroupingConflict}}},
		{"Content-Usage between user-agent lines, reported once per run", "User-agent: a\nContent-Usage: train-ai=n\nContent-Usage: search=n\nUser-agent: b\nUser-agent: c\nAllow: /\n", []problemAt{{4, problemGroupingConflict}}},
		{"preference after the rules: no conflict", "User-agent: a\nDisallow: /x\nContent-Usage: train-ai=n\nUser-agent: b\nAllow: /\n", nil},
		{"preference outside any group", "Content-Signal: ai-train=no\nUser-agent: *\nAllow: /\n", []problemAt{{1, problemOutsideGroup}}},
		{"Content-Usage outside any group", "# c\nContent-Usage: train-ai=n\n", []problemAt{{2, problemOutsideGroup}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := problemsAt(checkUsageGrouping(prefLinesOf(tt.data)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckDisallowedPathsAndContradictions(t *testing.T) {
	data := "User-agent: *\nDisallow: /private\nDisallow: /*.pdf$\nContent-Usage: /private/ train-ai=y\nContent-Usage: /docs/*.pdf$ train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\nContent-Usage: search=n\nContent-Signal: search=yes, ai-train=no\n"
	robots := Parse([]byte(data))
	var prefs usagePreferences
	for _, g := range robots.Groups() {
		for _, f := range g.Fields {
			switch strings.ToLower(f.Key) {
			case "content-usage":
				prefs.rules = append(prefs.rules, parseUsageRule(f.Line, f.Value))
			case "content-signal":
				prefs.signals = append(prefs.signals, parseSignalRule(f.Line, f.Value))
			}
		}
	}
	allowed := func(path string) bool { return robots.Allowed("Bot", "https://example.com"+path) }
	// "/docs/*.pdf$" is probed as "/docs/", which is allowed: the heuristic
	// does not flag it although every path it matches is disallowed.
	if diff := cmp.Diff([]problemAt{{4, problemDisallowedPath}}, problemsAt(prefs.checkDisallowedPaths(allowed))); diff != "" {
		t.Errorf("disallowed paths mismatch (-want +got):\n%s", diff)
	}
	want := []problemAt{{4, problemContradiction}, {6, problemContradiction}, {7, problemContradiction}}
	if diff := cmp.Diff(want, problemsAt(prefs.checkContradictions())); diff != "" {
		t.Errorf("contradictions mismatch (-want +got):\n%s", diff)
	}
}
