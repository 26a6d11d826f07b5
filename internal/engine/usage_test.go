package engine

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/internal/aipref"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// usageOf returns the Usage as the public API finds it.
func usageOf(data, agent, url string) Usage {
	return load([]byte(data)).usage(agent, url)
}

// usageSlow is the slow twin of Robots.Usage: it takes the Content-Usage
// and Content-Signal fields of the groups that apply to agent (those
// naming its product token, else the "*" groups) from Groups, and the
// fetch verdict from Allowed.
func usageSlow(data, agent, url string) Usage {
	r := load([]byte(data))
	var specific, global usagePreferences
	for _, g := range r.Groups() {
		named, star := false, false
		for _, a := range g.Agents {
			tok := parse.ProductToken(a)
			named = named || tok != "" && strings.EqualFold(tok, agent)
			star = star || parse.IsGlobalAgent(a)
		}
		for _, dst := range []*usagePreferences{&specific, &global} {
			if dst == &specific && !named || dst == &global && !star {
				continue
			}
			for _, f := range g.Fields {
				switch strings.ToLower(f.Key) {
				case "content-usage":
					dst.rules = append(dst.rules, parseUsageRule(f.Line, f.Value))
				case "content-signal":
					dst.signals = append(dst.signals, parseSignalRule(f.Line, f.Value))
				}
			}
		}
	}
	prefs := &global
	if _, named := r.Rules(agent); named {
		prefs = &specific
	}
	return prefs.usageForURL(url, r.Allowed(agent, url))
}

func allow(line int) Decision    { return Decision{aipref.Allow, line} }
func disallow(line int) Decision { return Decision{aipref.Disallow, line} }
func unknown(line int) Decision  { return Decision{aipref.Unknown, line} }

// TestUsageDocumentExamples checks every robots.txt example of the drafts
// and of Cloudflare's Content Signals documentation, and the rules they
// state, through Parse, Groups and Allowed.
func TestUsageDocumentExamples(t *testing.T) {
	const attachExample = "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n"
	tests := []struct {
		name, data, agent, url string
		want                   Usage
	}{
		{"attach-05 section 1.2: robots.txt example", "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n", "AnyBot", "https://example.com/any",
			Usage{Fetchable: true, TrainAI: disallow(3), AIUse: unknown(3), Search: unknown(3)}},
		{"attach-05 section 3.4 table: /test", attachExample, "OtherBot", "https://example.com/test",
			Usage{Fetchable: true, TrainAI: disallow(4), AIUse: unknown(4), Search: unknown(4)}},
		{"attach-05 section 3.4 table: /never/test is not crawled, no preference", attachExample, "OtherBot", "https://example.com/never/test",
			Usage{}},
		{"attach-05 section 3.4 table: /ai-ok/test", attachExample, "OtherBot", "https://example.com/ai-ok/test",
			Usage{Fetchable: true, TrainAI: allow(5), AIUse: unknown(5), Search: unknown(5)}},
		{"attach-05 section 3.4: ExampleBot uses its own group", attachExample, "ExampleBot", "https://example.com/never/test",
			Usage{Fetchable: true, TrainAI: allow(9), AIUse: unknown(9), Search: unknown(9)}},
		{"vocab-08 section 6: train-ai=y, search=n", "User-agent: *\nContent-Usage: train-ai=y, search=n\n", "Bot", "/x",
			Usage{Fetchable: true, TrainAI: allow(2), AIUse: unknown(2), Search: disallow(2)}},
		{"vocab-08 section 6.5.1: repeated keys, last value not a token: all unknown", "User-agent: *\nContent-Usage: train-ai=y, train-ai, search=n, search=\"n\"\n", "Bot", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: unknown(2), Search: unknown(2)}},
		{"vocab-08 section 6.5.1: upper-case key fails the parse: all unknown", "User-agent: *\nContent-Usage: Train-AI=n, search=n\n", "Bot", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: unknown(2), Search: unknown(2)}},
		{"vocab-08 section 6.5.2: parameters of the overwritten member do not apply", "User-agent: *\nContent-Usage: train-ai;allow=n, train-ai=y\n", "Bot", "/x",
			Usage{Fetchable: true, TrainAI: allow(2), AIUse: unknown(2), Search: unknown(2)}},
		{"vocab-08 section 6.5.2: parameters on an unknown preference", "User-agent: *\nContent-Usage: train-ai;has;parameters=\"?\"\n", "Bot", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: unknown(2), Search: unknown(2)}},
		{"vocab-08 section 6.4: unknown labels ignored, kept for callers", "User-agent: *\nContent-Usage: train-ai=n, train-genai=y;x, tdm\n", "Bot", "/x",
			Usage{Fetchable: true, TrainAI: disallow(2), AIUse: unknown(2), Search: unknown(2), Labels: []Label{{"train-genai", "y;x", 2}, {"tdm", "", 2}}}},
		{"vocab-08 section 6.5: a token other than y or n is unknown", "User-agent: *\nContent-Usage: train-ai=yes, search=N\n", "Bot", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: unknown(2), Search: unknown(2)}},
		{"attach-05 section 3.1: identical paths combine, most restrictive wins", "User-agent: *\nContent-Usage: /a/ train-ai=y, search=y\nContent-Usage: /a/ train-ai=n\n", "Bot", "/a/b",
			Usage{Fetchable: true, TrainAI: disallow(3), AIUse: unknown(2), Search: allow(2)}},
		{"attach-05 section 3.1: identical once percent-encoded", "User-agent: *\nContent-Usage: /\u00e4 train-ai=y\nContent-Usage: /%c3%a4 train-ai=n\n", "Bot", "/%C3%A4x",
			Usage{Fetchable: true, TrainAI: disallow(3), AIUse: unknown(2), Search: unknown(2)}},
		{"attach-05 section 3.1: longest path in encoded bytes wins", "User-agent: *\nContent-Usage: /\u00e4 train-ai=n\nContent-Usage: /%c3%a4/ train-ai=y\n", "Bot", "/\u00e4/x",
			Usage{Fetchable: true, TrainAI: allow(3), AIUse: unknown(3), Search: unknown(3)}},
		{"attach-05 section 3.1: rule order carries no meaning", "User-agent: *\nContent-Usage: /a/b train-ai=y\nContent-Usage: /a train-ai=n\nDisallow: /z\n", "Bot", "/a/b",
			Usage{Fetchable: true, TrainAI: allow(2), AIUse: unknown(2), Search: unknown(2)}},
		{"attach-05 section 3.1: patterns match like allow and disallow", "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n", "Bot", "/doc/a.pdf",
			Usage{Fetchable: true, TrainAI: disallow(2), AIUse: unknown(2), Search: unknown(2)}},
		{"attach-05 section 3.1: a '$' pattern that does not match", "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n", "Bot", "/doc/a.pdf?x",
			Usage{Fetchable: true}},
		{"attach-05 section 3.2: HTAB ends the path", "User-agent: *\nContent-Usage: /a\ttrain-ai=n\n", "Bot", "/ab",
			Usage{Fetchable: true, TrainAI: disallow(2), AIUse: unknown(2), Search: unknown(2)}},
		{"attach-05 section 3.2: '#' ends the value", "User-agent: *\nContent-Usage: train-ai=n # search=n\n", "Bot", "/",
			Usage{Fetchable: true, TrainAI: disallow(2), AIUse: unknown(2), Search: unknown(2)}},
		{"attach-05 section 3.1: no preference for a disallowed path", "User-agent: *\nDisallow: /p\nContent-Usage: /p train-ai=y\n", "Bot", "/p/x",
			Usage{}},
		{"library decision: an absent path counts as /", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: / train-ai=y\n", "Bot", "/x",
			Usage{Fetchable: true, TrainAI: disallow(2), AIUse: unknown(2), Search: unknown(2)}},
		{"contentsignals.org: search=yes, ai-train=no in the * group", "User-Agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n", "Bot", "/x",
			Usage{Fetchable: true, Signal: ContentSignal{Search: allow(2), AIInput: unknown(2), AITrain: disallow(2)}}},
		{"Cloudflare managed robots.txt: use=reference kept as a label", "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n", "Bot", "/x",
			Usage{Fetchable: true, Signal: ContentSignal{Search: allow(2), AIInput: unknown(2), AITrain: disallow(2), Labels: []Label{{"use", "reference", 2}}}}},
		{"contentsignals.org: all three signals", "User-agent: *\nContent-Signal: ai-train=no, search=yes, ai-input=yes\n", "Bot", "/x",
			Usage{Fetchable: true, Signal: ContentSignal{Search: allow(2), AIInput: allow(2), AITrain: disallow(2)}}},
		{"Content-Signal: y and n are not its values", "User-agent: *\nContent-Signal: ai-train=n\n", "Bot", "/x",
			Usage{Fetchable: true, Signal: ContentSignal{AITrain: unknown(2), Search: unknown(2), AIInput: unknown(2)}}},
		{"Content-Signal is per group: a named group does not inherit the * group's", "User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nAllow: /\n", "GPTBot", "/x",
			Usage{Fetchable: true}},
		// Google's grouping ends a group only at a user-agent line after an
		// allow or disallow line, so without "Allow: /" above the two
		// user-agent lines form one group and GPTBot gets the signal; the
		// attach draft's grammar would end the group at the Content-Signal
		// line. The linter is to flag this.
		{"grouping conflict: Google's grouping joins the groups", "User-agent: *\nContent-Signal: ai-train=no\n\nUser-agent: GPTBot\nAllow: /\n", "GPTBot", "/x",
			Usage{Fetchable: true, Signal: ContentSignal{Search: unknown(2), AIInput: unknown(2), AITrain: disallow(2)}}},
		{"Content-Signal lines of one group combine, most restrictive wins", "User-agent: *\nContent-Signal: ai-train=yes, search=yes\nContent-Signal: ai-train=no\n", "Bot", "/x",
			Usage{Fetchable: true, Signal: ContentSignal{Search: allow(2), AIInput: unknown(2), AITrain: disallow(3)}}},
		{"no preference lines: fetchable, everything unknown", "User-agent: *\nDisallow: /p\n", "Bot", "/x", Usage{Fetchable: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := usageOf(tt.data, tt.agent, tt.url)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("usage of %q for %s in\n%s\nmismatch (-want +got):\n%s", tt.url, tt.agent, tt.data, diff)
			}
		})
	}
}

// TestParseUsageRuleErrors checks that a value that is not a dictionary
// leaves every category unknown and says why.
func TestParseUsageRuleErrors(t *testing.T) {
	for _, in := range []string{"Train-AI=n", "train-ai=n,", "ai-use=n,", "AI-Use=n", "ai-use=n search=n", "a/b train-ai=n", "train-ai=n search=n", "train-ai;has;parameters=\"?\";"} {
		r := parseUsageRule(1, in)
		if r.err == nil || r.trainAI != aipref.Unknown || r.aiUse != aipref.Unknown || r.search != aipref.Unknown || r.labels != nil {
			t.Errorf("parseUsageRule(%q) = %+v, want a parse error and nothing known", in, r)
		}
	}
	if r := parseSignalRule(1, "search=yes ai-train=no"); r.err == nil || r.search != aipref.Unknown {
		t.Errorf("parseSignalRule without commas = %+v, want a parse error", r)
	}
}

// TestUsageProperties checks on random files that a path the group
// disallows never has a preference (draft-ietf-aipref-attach-05 section
// 3.1), and that every other answer equals a slow twin built on the
// reference matcher: longest matching path in wire form, most restrictive
// answer among equals, first such line.
func TestUsageProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	paths := []string{"/", "/a", "/a/", "/ab", "/a*", "/*b", "/a$", "/%61", "/\u00e4", "/%C3%A4", "/a/b"}
	prefs := []struct {
		text                   string
		trainAI, aiUse, search aipref.Pref
	}{
		{"train-ai=y", aipref.Allow, aipref.Unknown, aipref.Unknown},
		{"train-ai=n", aipref.Disallow, aipref.Unknown, aipref.Unknown},
		{"search=y, train-ai=n", aipref.Disallow, aipref.Unknown, aipref.Allow},
		{"search=n", aipref.Unknown, aipref.Unknown, aipref.Disallow},
		{"train-ai=maybe", aipref.Unknown, aipref.Unknown, aipref.Unknown},
		{"Train-AI=y", aipref.Unknown, aipref.Unknown, aipref.Unknown},
		{"ai-use=n", aipref.Unknown, aipref.Disallow, aipref.Unknown},
		{"ai-use=y, search=y", aipref.Unknown, aipref.Allow, aipref.Allow},
		{"train-ai=y, ai-use=n, ai-use=y", aipref.Allow, aipref.Allow, aipref.Unknown},
		{"ai-use=n, ai-use", aipref.Unknown, aipref.Unknown, aipref.Unknown},
	}
	urls := []string{"/", "/a", "/a/b", "/ab", "/b", "/\u00e4", "/%c3%a4/x", "/a?x", "/x/b"}
	rank := func(p aipref.Pref) int { return []int{0, 1, 2}[p] }
	type line struct {
		num                    int
		path                   string // "" when absent
		trainAI, aiUse, search aipref.Pref
	}
	for iter := 0; iter < 3000; iter++ {
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		var lines []line
		num := 1
		for n := rng.Intn(6); n > 0; n-- {
			num++
			p := paths[rng.Intn(len(paths))]
			switch rng.Intn(3) {
			case 0:
				fmt.Fprintf(&b, "Allow: %s\n", p)
			case 1:
				fmt.Fprintf(&b, "Disallow: %s\n", p)
			default:
				pr := prefs[rng.Intn(len(prefs))]
				l := line{num: num, trainAI: pr.trainAI, aiUse: pr.aiUse, search: pr.search}
				if rng.Intn(4) > 0 {
					l.path = p
					fmt.Fprintf(&b, "Content-Usage: %s %s\n", p, pr.text)
				} else {
					fmt.Fprintf(&b, "Content-Usage: %s\n", pr.text)
				}
				lines = append(lines, l)
			}
		}
		data := b.String()
		for _, url := range urls {
			got := usageOf(data, "Bot", url)
			fetchable := load([]byte(data)).Allowed("Bot", url)
			if !fetchable {
				if diff := cmp.Diff(Usage{}, got); diff != "" {
					t.Fatalf("disallowed %q has a preference in\n%s\n%s", url, data, diff)
				}
				continue
			}
			// The slow twin.
			path := reference.Escape([]byte(reference.Path(url)))
			best := -1
			var applying []line
			for _, l := range lines {
				pattern := "/"
				if l.path != "" {
					pattern = reference.Escape([]byte(l.path))
				}
				if !reference.Match(pattern, path) || len(pattern) < best {
					continue
				}
				if len(pattern) > best {
					best, applying = len(pattern), nil
				}
				applying = append(applying, l)
			}
			want := Usage{Fetchable: true}
			decide := func(get func(line) aipref.Pref) Decision {
				if len(applying) == 0 {
					return Decision{}
				}
				d := Decision{get(applying[0]), applying[0].num}
				for _, l := range applying[1:] {
					if rank(get(l)) > rank(d.Preference) {
						d = Decision{get(l), l.num}
					}
				}
				return d
			}
			want.TrainAI = decide(func(l line) aipref.Pref { return l.trainAI })
			want.AIUse = decide(func(l line) aipref.Pref { return l.aiUse })
			want.Search = decide(func(l line) aipref.Pref { return l.search })
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("usage of %q in\n%s\nmismatch (-want +got):\n%s", url, data, diff)
			}
		}
	}
}

// FuzzUsageValue checks that any Content-Usage or Content-Signal value
// parses without panicking, that a failed parse leaves everything
// unknown, and that the split path never holds white space.
func FuzzUsageValue(f *testing.F) {
	for _, s := range []string{"train-ai=n", "/ai-ok/ train-ai=y", "/a\ttrain-ai=y, search=n;x=1", "search=yes, ai-train=no",
		"train-ai=n, ai-use=n, search=y", "ai-use=y, ai-use=n", "/x ai-use;p=1",
		"train-ai=y, train-ai, search=n, search=\"n\"", "/\u00e4 train-ai=n # c", "train-ai;has;parameters=\"?\";"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := parseUsageRule(3, s)
		if r.err != nil && (r.trainAI != aipref.Unknown || r.aiUse != aipref.Unknown || r.search != aipref.Unknown || r.labels != nil) {
			t.Fatalf("parseUsageRule(%q) failed but knows something: %+v", s, r)
		}
		prefs := usagePreferences{rules: []usageRule{r}, signals: []signalRule{parseSignalRule(4, s)}}
		u := prefs.usage("/x", true)
		if !u.Fetchable {
			t.Fatal("fetchable path reported unfetchable")
		}
		if u := prefs.usage("/x", false); u.Fetchable || u.TrainAI != (Decision{}) || u.AIUse != (Decision{}) || u.Signal.AITrain != (Decision{}) {
			t.Fatalf("unfetchable path has a preference: %+v", u)
		}
	})
}

// TestUsageAIUse checks the AI Use category that draft-ietf-aipref-vocab-08
// added (section 4.2, label "ai-use"): parsed as the other labels are
// (section 6.5), combined most restrictive first (section 5.1), scoped by
// path and merged across groups as train-ai and search are
// (draft-ietf-aipref-attach-05 section 3.1), and no longer kept among the
// labels the vocabulary does not define (section 6.4). Search's override
// of the other categories (section 4.3) depends on the use, which only the
// crawler knows, so each category is reported as written.
func TestUsageAIUse(t *testing.T) {
	const scoped = "User-agent: *\nDisallow: /private/\nContent-Usage: ai-use=n\nContent-Usage: /open/ ai-use=y\n"
	tests := []struct {
		name, data, url string
		want            Usage
	}{
		{"vocab-08 section 4.2: ai-use=n disallows AI Use only", "User-agent: *\nContent-Usage: ai-use=n\n", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: disallow(2), Search: unknown(2)}},
		{"vocab-08 section 6: the three labels in one value", "User-agent: *\nContent-Usage: train-ai=n, ai-use=y, search=n\n", "/x",
			Usage{Fetchable: true, TrainAI: disallow(2), AIUse: allow(2), Search: disallow(2)}},
		{"vocab-08 section 4.3: search=y with train-ai=n and ai-use=n, each as written", "User-agent: *\nContent-Usage: train-ai=n, ai-use=n, search=y\n", "/x",
			Usage{Fetchable: true, TrainAI: disallow(2), AIUse: disallow(2), Search: allow(2)}},
		{"vocab-08 section 6.5: a token other than y or n is unknown", "User-agent: *\nContent-Usage: ai-use=no, search=y\n", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: unknown(2), Search: allow(2)}},
		{"vocab-08 section 6.5: a string is not a token", "User-agent: *\nContent-Usage: ai-use=\"n\"\n", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: unknown(2), Search: unknown(2)}},
		{"vocab-08 section 6.5: a bare key is Boolean true, unknown", "User-agent: *\nContent-Usage: ai-use\n", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: unknown(2), Search: unknown(2)}},
		{"vocab-08 section 6.5.1: duplicate keys, the last wins", "User-agent: *\nContent-Usage: ai-use=n, train-ai=y, ai-use=y\n", "/x",
			Usage{Fetchable: true, TrainAI: allow(2), AIUse: allow(2), Search: unknown(2)}},
		{"vocab-08 section 6.5.1: duplicate keys, the last is not a token", "User-agent: *\nContent-Usage: ai-use=y, ai-use\n", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: unknown(2), Search: unknown(2)}},
		{"vocab-08 section 6.5.1: upper case fails the parse, all unknown", "User-agent: *\nContent-Usage: AI-Use=n, train-ai=n\n", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: unknown(2), Search: unknown(2)}},
		{"vocab-08 section 6.5.2: parameters ignored", "User-agent: *\nContent-Usage: ai-use=n;why=\"rag\"\n", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: disallow(2), Search: unknown(2)}},
		{"vocab-08 section 6.4: ai-use is known, other labels kept", "User-agent: *\nContent-Usage: ai-use=n, ai-input=n\n", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: disallow(2), Search: unknown(2), Labels: []Label{{"ai-input", "n", 2}}}},
		{"vocab-08 section 5.1: identical paths, most restrictive wins", "User-agent: *\nContent-Usage: /a/ ai-use=y, train-ai=y\nContent-Usage: /a/ ai-use=n\n", "/a/b",
			Usage{Fetchable: true, TrainAI: allow(2), AIUse: disallow(3), Search: unknown(2)}},
		{"vocab-08 section 5.1: disallow then allow, the disallow's line kept", "User-agent: *\nContent-Usage: ai-use=n\nContent-Usage: / ai-use=y\n", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: disallow(2), Search: unknown(2)}},
		{"attach-05 section 3.1: path-scoped, the longer path wins", scoped, "/open/x",
			Usage{Fetchable: true, TrainAI: unknown(4), AIUse: allow(4), Search: unknown(4)}},
		{"attach-05 section 3.1: path-scoped, elsewhere the rule without a path", scoped, "/x",
			Usage{Fetchable: true, TrainAI: unknown(3), AIUse: disallow(3), Search: unknown(3)}},
		{"attach-05 section 3.1: no preference for a disallowed path", scoped, "/private/x", Usage{}},
		{"groups naming the agent merge, most restrictive wins", "User-agent: Bot\nContent-Usage: ai-use=y\n\nUser-agent: bot\nContent-Usage: ai-use=n\n", "/x",
			Usage{Fetchable: true, TrainAI: unknown(2), AIUse: disallow(5), Search: unknown(2)}},
		{"Content-Signal ai-input is Cloudflare's, not AI Use", "User-agent: *\nContent-Signal: ai-input=no\n", "/x",
			Usage{Fetchable: true, Signal: ContentSignal{Search: unknown(2), AIInput: disallow(2), AITrain: unknown(2)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := usageOf(tt.data, "Bot", tt.url)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("usage of %q in\n%s\nmismatch (-want +got):\n%s", tt.url, tt.data, diff)
			}
			if slow := usageSlow(tt.data, "Bot", tt.url); !cmp.Equal(slow, got) {
				t.Errorf("slow twin disagrees:\n%s", cmp.Diff(slow, got))
			}
		})
	}
}
