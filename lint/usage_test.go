package lint

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/aipref"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// TestUsageDiagnostics checks the AI usage preference codes on examples
// from draft-ietf-aipref-attach-05 section 3, draft-ietf-aipref-vocab-08
// section 6 and Cloudflare's Content Signals Policy, and on the mistakes
// each code names.
func TestUsageDiagnostics(t *testing.T) {
	type at struct {
		Line int
		Code Code
	}
	tests := []struct {
		name, data string
		want       []at
	}{
		{"attach-05 example is clean", "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n", nil},
		{"Cloudflare managed file is clean but for its use label", "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n", []at{{2, CodeUsageUnknownLabel}}},
		{"malformed", "User-agent: *\nAllow: /\nContent-Usage: Train-AI=n\n", []at{{3, CodeUsageMalformed}}},
		{"empty", "User-agent: *\nAllow: /\nContent-Signal:\n", []at{{3, CodeUsageEmpty}}},
		{"bad value and repeated key", "User-agent: *\nAllow: /\nContent-Usage: train-ai=no, train-ai=n\n", []at{{3, CodeUsageBadValue}, {3, CodeUsageRepeatedKey}}},
		{"path without slash", "User-agent: *\nAllow: /\nContent-Usage: private/ train-ai=n\n", []at{{3, CodeUsagePathNoSlash}}},
		{"signal with a path", "User-agent: *\nAllow: /\nContent-Signal: /blog/ ai-train=no\n", []at{{3, CodeSignalPath}}},
		{"outside any group", "Content-Signal: ai-train=no\nUser-agent: *\nAllow: /\n", []at{{1, CodeUsageOutsideGroup}}},
		{"grouping conflict", "User-agent: *\nContent-Signal: ai-train=no\n\nUser-agent: GPTBot\nDisallow: /\n", []at{{2, CodeGroupsJoined}, {4, CodeUsageGroupingConflict}}},
		{"disallowed path", "User-agent: *\nDisallow: /private/\nContent-Usage: /private/ train-ai=y\n", []at{{3, CodeUsageDisallowedPath}}},
		{"disallowed path of another group is not this group's", "User-agent: a\nDisallow: /private/\n\nUser-agent: b\nAllow: /\nContent-Usage: /private/ train-ai=y\n", nil},
		{"contradiction", "User-agent: *\nAllow: /\nContent-Usage: train-ai=y\nContent-Signal: ai-train=no\n", []at{{3, CodeUsageContradiction}}},
		{"agreement", "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\nContent-Signal: ai-train=no, search=yes\n", nil},
		{"vocab-08 section 6.1: ai-use is a label, not an unknown one", "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, ai-use=n, search=y\nContent-Usage: /rag/ ai-use=y\n", nil},
		{"vocab-08 section 6.2: ai-use takes y or n", "User-agent: *\nAllow: /\nContent-Usage: ai-use=no\n", []at{{3, CodeUsageBadValue}}},
		{"ai-use against Content-Signal ai-input", "User-agent: *\nAllow: /\nContent-Usage: ai-use=n\nContent-Signal: ai-input=yes\n", []at{{3, CodeUsageContradiction}}},
		{"ai-use agrees with ai-input", "User-agent: *\nAllow: /\nContent-Usage: ai-use=y, train-ai=n\nContent-Signal: ai-input=yes, ai-train=no\n", nil},
		{"Content-Signal's ai-input is not a vocab-08 label", "User-agent: *\nAllow: /\nContent-Usage: ai-input=n\n", []at{{3, CodeUsageUnknownLabel}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []at
			for _, d := range Lint([]byte(tt.data)).Diagnostics {
				if d.Code == CodeUnusedKey {
					continue // every preference line: Google ignores the key
				}
				if d.Message == "" || d.Severity != severityOf(d.Code) {
					t.Errorf("diagnostic %+v: no message or not its usual severity", d)
				}
				got = append(got, at{d.Line, d.Code})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUsageCodesMatch checks that every problem internal/aipref finds has
// a registered code of the same name.
func TestUsageCodesMatch(t *testing.T) {
	registered := map[Code]bool{}
	for _, c := range Codes() {
		registered[c.Code] = true
	}
	for _, name := range []string{aipref.ProblemMalformed, aipref.ProblemEmpty, aipref.ProblemUnknownKey, aipref.ProblemBadValue,
		aipref.ProblemRepeatedKey, aipref.ProblemPathNoSlash, aipref.ProblemSignalPath, aipref.ProblemOutsideGroup,
		aipref.ProblemGroupingConflict, aipref.ProblemDisallowedPath, aipref.ProblemContradiction} {
		if !registered[Code(name)] {
			t.Errorf("problem %q has no registered code", name)
		}
	}
}

// TestCorpusUsage lints every file of the corpus and logs how many carry
// Content-Usage or Content-Signal lines and how many of those get an AI
// usage preference diagnostic; no other file may get one.
func TestCorpusUsage(t *testing.T) {
	names, files := corpus.Load(t, 0)
	withPrefs, flagged := 0, 0
	for i, data := range files {
		has := false
		for _, l := range strings.Split(strings.ToLower(string(data)), "\n") {
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, "content-usage") || strings.HasPrefix(l, "content-signal") {
				has = true
				break
			}
		}
		usageCodes := 0
		for _, d := range Lint(data).Diagnostics {
			if strings.HasPrefix(string(d.Code), "usage-") || d.Code == CodeSignalPath {
				usageCodes++
			}
		}
		if has {
			withPrefs++
			if usageCodes > 0 {
				flagged++
			}
		} else if usageCodes > 0 {
			t.Errorf("%s: %d usage diagnostics without a preference line", names[i], usageCodes)
		}
	}
	t.Logf("%d files; %d with Content-Usage or Content-Signal lines; %d of those flagged", len(files), withPrefs, flagged)
}

// TestSignalBeforeFirstGroup checks the decision the README's "AI usage
// preferences" argues: a Content-Signal (or Content-Usage) line before the
// first user-agent line applies to no crawler, as the crawlers that honour
// it read it (Cloudflare's Content Signals Policy writes it inside a
// group; crawler-commons scopes it to its group since September 2026).
// The site owner meant the whole site, so it is an error, and the message
// says how to get that.
func TestSignalBeforeFirstGroup(t *testing.T) {
	const file = "Content-Signal: search=yes, ai-train=no\n\nUser-agent: *\nAllow: /\n"
	var found []Diagnostic
	for _, d := range Lint([]byte(file)).Diagnostics {
		if d.Code == CodeUsageOutsideGroup {
			found = append(found, d)
		}
	}
	if len(found) != 1 || found[0].Line != 1 || found[0].Severity != SeverityError {
		t.Fatalf("diagnostics %+v, want one usage-outside-group error on line 1", found)
	}
	for _, s := range []string{"applies to no crawler", "write it in the User-agent: * group"} {
		if !strings.Contains(found[0].Message, s) {
			t.Errorf("message %q does not say %q", found[0].Message, s)
		}
	}
	u := robotstxt.Parse([]byte(file)).Usage("ClaudeBot", "/")
	if u.Signal.AITrain.Preference != robotstxt.PreferenceUnknown || u.Signal.Search.Preference != robotstxt.PreferenceUnknown {
		t.Errorf("Usage = %+v: the line before any group reached a crawler", u.Signal)
	}
}
