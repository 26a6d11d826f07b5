package engine

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUsageRandomFiles checks the public API on random files of several
// groups against the slow twin usageSlow, and the property of
// draft-ietf-aipref-attach-05 section 3.1 that a path the crawler may not
// fetch never has a preference.
func TestUsageRandomFiles(t *testing.T) {
	rng := rand.New(rand.NewSource(1609))
	agents := []string{"*", "BotA", "botb", "BotA/2.0", "Other"}
	paths := []string{"/", "/a", "/a/", "/ab", "/a*", "/*b", "/a$", "/%61", "/\u00e4", "/b"}
	values := []string{"train-ai=y", "train-ai=n", "search=y, train-ai=n", "search=n", "x=1", "train-ai=?0", "(", "",
		"ai-use=n", "ai-use=y, search=n", "train-ai=n, ai-use=n, search=y", "ai-use=n, ai-use=y"}
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
		r := load([]byte(data))
		for _, agent := range []string{"BotA", "BotB", "Nobody"} {
			for _, url := range urls {
				got := r.usage(agent, url)
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

// FuzzUsage checks the Usage of a File (robotstxt.Robots.Usage) on any file and URL: no panic, nothing for
// a URL the agent may not fetch (draft-ietf-aipref-attach-05 section 3.1),
// and the slow twin's answer otherwise.
func FuzzUsage(f *testing.F) {
	f.Add("User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n", "/ai-ok/x")
	f.Add("User-agent: Bot\nDisallow: /p\nContent-Signal: search=yes, ai-train=no\nUser-agent: bot\nContent-Usage: /p* search=n\n", "/q")
	f.Add("User-agent: *\nContent-Usage: ai-use=n, search=y\nContent-Usage: /open/ ai-use=y\n", "/open/x")
	f.Fuzz(func(t *testing.T, data, url string) {
		r := load([]byte(data))
		got := r.usage("Bot", url)
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
