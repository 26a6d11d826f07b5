package robotstxt_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
)

// TestUsageAPI checks Robots.Usage and Agent.Usage on what the grouper
// hands them: groups naming the same agent merge their preferences as
// their rules merge (RFC 9309 section 2.2.1, Google's library), the "*"
// groups apply to agents no group names, and nil receivers answer as an
// empty file.
func TestUsageAPI(t *testing.T) {
	const file = "User-agent: *\nDisallow: /never\nContent-Usage: train-ai=n\n\n" +
		"User-agent: BotA\nAllow: /\nContent-Usage: /docs/ train-ai=y\n\n" +
		"User-agent: BotB\nDisallow: /private\n\n" +
		"User-agent: BotA\nDisallow: /x\nContent-Signal: search=yes, ai-train=no\n"
	r := robotstxt.Parse([]byte(file))
	tests := []struct {
		agent, url string
		want       robotstxt.Usage
	}{
		{"OtherBot", "/", robotstxt.Usage{Fetchable: true, TrainAI: disallow(3), AIUse: unknown(3), Search: unknown(3)}},
		{"BotA", "/docs/a", robotstxt.Usage{Fetchable: true, TrainAI: allow(7), AIUse: unknown(7), Search: unknown(7),
			Signal: robotstxt.ContentSignal{Search: allow(14), AIInput: unknown(14), AITrain: disallow(14)}}},
		{"bota", "/other", robotstxt.Usage{Fetchable: true,
			Signal: robotstxt.ContentSignal{Search: allow(14), AIInput: unknown(14), AITrain: disallow(14)}}},
		{"BotA", "/x", robotstxt.Usage{}},                   // disallowed by the second BotA group
		{"BotB", "/page", robotstxt.Usage{Fetchable: true}}, // its group has no preference lines
		{"BotB", "/private/a", robotstxt.Usage{}},           // disallowed
		{"OtherBot", "https://example.com/", robotstxt.Usage{Fetchable: true, TrainAI: disallow(3), AIUse: unknown(3), Search: unknown(3)}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, r.Usage(tt.agent, tt.url)); diff != "" {
			t.Errorf("Robots.Usage(%q, %q) mismatch (-want +got):\n%s", tt.agent, tt.url, diff)
		}
		if diff := cmp.Diff(tt.want, r.Agent(tt.agent).Usage(tt.url)); diff != "" {
			t.Errorf("Agent(%q).Usage(%q) mismatch (-want +got):\n%s", tt.agent, tt.url, diff)
		}
	}
	var nilRobots *robotstxt.Robots
	var nilAgent *robotstxt.Agent
	if got := nilRobots.Usage("Bot", "/"); !cmp.Equal(got, robotstxt.Usage{Fetchable: true}) {
		t.Errorf("nil Robots: Usage = %+v, want fetchable without preferences", got)
	}
	if got := nilAgent.Usage("/"); !cmp.Equal(got, robotstxt.Usage{Fetchable: true}) {
		t.Errorf("nil Agent: Usage = %+v, want fetchable without preferences", got)
	}
	if got := robotstxt.FromStatus(503, nil).Usage("Bot", "/"); !cmp.Equal(got, robotstxt.Usage{}) {
		t.Errorf("blanket disallow: Usage = %+v, want zero", got)
	}
}

// TestUsageVocab08 checks the categories of draft-ietf-aipref-vocab-08
// through the public API: AI Use (section 4.2, label "ai-use") is a field
// of its own beside AI Training (section 4.1) and Search (section 4.3),
// not an unknown label, and every category is reported as its label is
// written, Search's override of the other two (section 4.3) being the
// caller's to apply, since only the caller knows whether its use is
// search.
func TestUsageVocab08(t *testing.T) {
	const file = "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, ai-use=n, search=y\n" +
		"Content-Usage: /rag/ ai-use=y, x-future=1\nContent-Usage: /rag/ ai-use=n, ai-use=y\n" +
		"Content-Signal: ai-input=no\n"
	r := robotstxt.Parse([]byte(file))
	signal := robotstxt.ContentSignal{Search: unknown(6), AIInput: disallow(6), AITrain: unknown(6)}
	tests := []struct {
		name, url string
		want      robotstxt.Usage
	}{
		{"section 4.3: search=y leaves train-ai=n and ai-use=n as written", "/page",
			robotstxt.Usage{Fetchable: true, TrainAI: disallow(3), AIUse: disallow(3), Search: allow(3), Signal: signal}},
		{"section 4.2 on a path; section 6.5.1: last value wins; section 6.4: unknown label kept", "/rag/doc",
			robotstxt.Usage{Fetchable: true, TrainAI: unknown(4), AIUse: allow(4), Search: unknown(4),
				Labels: []robotstxt.Label{{Key: "x-future", Value: "1", Line: 4}}, Signal: signal}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, r.Usage("AnyBot", tt.url)); diff != "" {
				t.Errorf("Usage(AnyBot, %q) mismatch (-want +got):\n%s", tt.url, diff)
			}
		})
	}
}

// TestUsageJSON checks the JSON form of a Usage, which the robotstxt
// command's audit -json and the browser tester print: snake_case keys, the
// three vocab-08 categories (train_ai, ai_use, search) beside the signal.
func TestUsageJSON(t *testing.T) {
	u := robotstxt.Parse([]byte("User-agent: *\nContent-Usage: ai-use=n, search=y\n")).Usage("Bot", "/")
	data, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	decision := func(p string, line float64) map[string]any { return map[string]any{"preference": p, "line": line} }
	want := map[string]any{
		"fetchable": true,
		"train_ai":  decision("unknown", 2),
		"ai_use":    decision("disallow", 2),
		"search":    decision("allow", 2),
		"signal": map[string]any{
			"search": decision("unknown", 0), "ai_input": decision("unknown", 0), "ai_train": decision("unknown", 0),
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON of %s mismatch (-want +got):\n%s", data, diff)
	}
}

func allow(line int) robotstxt.Decision {
	return robotstxt.Decision{Preference: robotstxt.PreferenceAllow, Line: line}
}

func disallow(line int) robotstxt.Decision {
	return robotstxt.Decision{Preference: robotstxt.PreferenceDisallow, Line: line}
}

func unknown(line int) robotstxt.Decision {
	return robotstxt.Decision{Preference: robotstxt.PreferenceUnknown, Line: line}
}

func TestPreferenceString(t *testing.T) {
	got := []string{robotstxt.PreferenceUnknown.String(), robotstxt.PreferenceAllow.String(), robotstxt.PreferenceDisallow.String(), robotstxt.Preference(7).String()}
	want := []string{"unknown", "allow", "disallow", "Preference(7)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}
