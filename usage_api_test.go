package robotstxt

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	r := Parse([]byte(file))
	tests := []struct {
		agent, url string
		want       Usage
	}{
		{"OtherBot", "/", Usage{Fetchable: true, TrainAI: disallow(3), Search: unknown(3)}},
		{"BotA", "/docs/a", Usage{Fetchable: true, TrainAI: allow(7), Search: unknown(7),
			Signal: ContentSignal{Search: allow(14), AIInput: unknown(14), AITrain: disallow(14)}}},
		{"bota", "/other", Usage{Fetchable: true,
			Signal: ContentSignal{Search: allow(14), AIInput: unknown(14), AITrain: disallow(14)}}},
		{"BotA", "/x", Usage{}},                   // disallowed by the second BotA group
		{"BotB", "/page", Usage{Fetchable: true}}, // its group has no preference lines
		{"BotB", "/private/a", Usage{}},           // disallowed
		{"OtherBot", "https://example.com/", Usage{Fetchable: true, TrainAI: disallow(3), Search: unknown(3)}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, r.Usage(tt.agent, tt.url)); diff != "" {
			t.Errorf("Robots.Usage(%q, %q) mismatch (-want +got):\n%s", tt.agent, tt.url, diff)
		}
		if diff := cmp.Diff(tt.want, r.Agent(tt.agent).Usage(tt.url)); diff != "" {
			t.Errorf("Agent(%q).Usage(%q) mismatch (-want +got):\n%s", tt.agent, tt.url, diff)
		}
	}
	var nilRobots *Robots
	var nilAgent *Agent
	if got := nilRobots.Usage("Bot", "/"); !cmp.Equal(got, Usage{Fetchable: true}) {
		t.Errorf("nil Robots: Usage = %+v, want fetchable without preferences", got)
	}
	if got := nilAgent.Usage("/"); !cmp.Equal(got, Usage{Fetchable: true}) {
		t.Errorf("nil Agent: Usage = %+v, want fetchable without preferences", got)
	}
	if got := (&Robots{outcome: DisallowAll}).Usage("Bot", "/"); !cmp.Equal(got, Usage{}) {
		t.Errorf("blanket disallow: Usage = %+v, want zero", got)
	}
}

// TestUsageRandomFiles checks the public API on random files of several
// groups against the slow twin usageSlow, and the property of
// draft-ietf-aipref-attach-05 section 3.1 that a path the crawler may not
// fetch never has a preference.
func TestUsageRandomFiles(t *testing.T) {
	rng := rand.New(rand.NewSource(1609))
	agents := []string{"*", "BotA", "botb", "BotA/2.0", "Other"}
	paths := []string{"/", "/a", "/a/", "/ab", "/a*", "/*b", "/a$", "/%61", "/\u00e4", "/b"}
	values := []string{"train-ai=y", "train-ai=n", "search=y, train-ai=n", "search=n", "x=1", "train-ai=?0", "(", ""}
	signals := []string{"search=yes, ai-train=no", "ai-input=no", "ai-train=yes", "search=no, use=x", "bad value"}
	urls := []string{"/", "/a", "/a/b", "/ab", "/b", "/\u00e4", "/%c3%a4/x", "/a?x", "/x/b"}
	for iter := 0; iter < 1500; iter++ {
		var b strings.Builder
		for n := rng.Intn(12); n > 0; n-- {
			p := paths[rng.Intn(len(paths))]
			switch rng.Intn(6) {
			case 0:
				fmt.Fprintf(&b, "User-agent: %s\n", agents[rng.Intn(len(agents))])
			case 1:
				fmt.Fprintf(&b, "Allow: %s\n", p)
			case 2:
				fmt.Fprintf(&b, "Disallow: %s\n", p)
			case 3:
				fmt.Fprintf(&b, "Content-Usage: %s %s\n", p, values[rng.Intn(len(values))])
			case 4:
				fmt.Fprintf(&b, "content-usage: %s\n", values[rng.Intn(len(values))])
			default:
				fmt.Fprintf(&b, "Content-Signal: %s\n", signals[rng.Intn(len(signals))])
			}
		}
		data := b.String()
		r := Parse([]byte(data))
		for _, agent := range []string{"BotA", "BotB", "Nobody"} {
			for _, url := range urls {
				got := r.Usage(agent, url)
				if !r.Allowed(agent, url) {
					if diff := cmp.Diff(Usage{}, got); diff != "" {
						t.Fatalf("disallowed %q has a preference for %s in\n%s\n%s", url, agent, data, diff)
					}
					continue
				}
				if diff := cmp.Diff(usageSlow(data, agent, url), got); diff != "" {
					t.Fatalf("Usage(%q, %q) in\n%s\nmismatch (-slow twin +got):\n%s", agent, url, data, diff)
				}
			}
		}
	}
}

// FuzzUsage checks Robots.Usage on any file and URL: no panic, nothing for
// a URL the agent may not fetch (draft-ietf-aipref-attach-05 section 3.1),
// and the slow twin's answer otherwise.
func FuzzUsage(f *testing.F) {
	f.Add("User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n", "/ai-ok/x")
	f.Add("User-agent: Bot\nDisallow: /p\nContent-Signal: search=yes, ai-train=no\nUser-agent: bot\nContent-Usage: /p* search=n\n", "/q")
	f.Fuzz(func(t *testing.T, data, url string) {
		r := Parse([]byte(data))
		got := r.Usage("Bot", url)
		if !r.Allowed("Bot", url) {
			if !cmp.Equal(Usage{}, got) {
				t.Fatalf("disallowed %q has a preference: %+v", url, got)
			}
			return
		}
		if diff := cmp.Diff(usageSlow(data, "Bot", url), got); diff != "" {
			t.Fatalf("Usage(Bot, %q) in %q mismatch (-slow twin +got):\n%s", url, data, diff)
		}
	})
}
