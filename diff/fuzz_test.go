package diff_test

import (
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/diff"
)

// FuzzDiff compares arbitrary pairs of files: the diff never panics, every
// witness it reports differs on robotstxt.Parse of both versions (a
// verdict, or the AI usage preferences of a path both let the crawler
// fetch), and a crawler it decided unchanged agrees on every probe path
// built from the files' rules and Content-Usage paths (each pattern with
// its '*' and '$' removed, and with 'x' appended).
func FuzzDiff(f *testing.F) {
	f.Add("User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /a$\n")
	f.Add("User-agent: a\nAllow: /x/index.html\nDisallow: /x\n", "User-agent: *\nDisallow: /x/\n")
	f.Add("User-agent: b\nUser-agent: *\nDisallow: /%61*b\n\nUser-agent: b\nAllow: /\n", "Disallow: /\n")
	// Content-Usage lines (draft-ietf-aipref-attach-05 section 3.2) and
	// Content-Signal lines, so that the usage comparison is exercised.
	f.Add("User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a/ train-ai=y\nDisallow: /b\n",
		"User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a/* train-ai=y, x=1\nContent-Signal: ai-train=no\n")
	f.Add("User-agent: a\nContent-Usage: /%61$ search=n\n\nUser-agent: *\nContent-Usage: /*a ai-use=n\n",
		"User-agent: a\nUser-agent: *\nContent-Usage: /a ai-use=n\nAllow: /a\nDisallow: /\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		if len(old)+len(new) > 4096 {
			return
		}
		report := diff.CompareWith([]byte(old), []byte(new), diff.Options{MaxWork: 8_000_000})
		ro, rn := robotstxt.Parse([]byte(old)), robotstxt.Parse([]byte(new))
		var probes []string
		for _, r := range []*robotstxt.Robots{ro, rn} {
			for _, g := range r.Groups() {
				for _, rule := range g.Rules {
					p := strings.NewReplacer("*", "", "$", "").Replace(rule.Pattern)
					probes = append(probes, p, p+"x", "/"+p)
				}
				for _, fd := range g.Fields {
					if strings.EqualFold(fd.Key, "content-usage") {
						path, _, _ := strings.Cut(fd.Value, " ")
						p := strings.NewReplacer("*", "", "$", "").Replace(path)
						probes = append(probes, p, p+"x", "/"+p)
					}
				}
			}
		}
		probes = append(probes, "/")
		for _, c := range report.Crawlers {
			agent := c.Agent
			if agent == diff.Others {
				agent = "zz-no-such-bot"
			}
			a, b := ro.Agent(agent), rn.Agent(agent)
			for _, ch := range c.Changes {
				url := "https://example.com" + ch.Path
				if a.Allowed(url) == b.Allowed(url) {
					t.Fatalf("%s: witness %q does not differ", c.Agent, ch.Path)
				}
			}
			for _, u := range c.Usage {
				url := "https://example.com" + u.Path
				o, n := a.Usage(url), b.Usage(url)
				if !o.Fetchable || !n.Fetchable || usageKey(o) == usageKey(n) {
					t.Fatalf("%s: usage witness %q is not genuine: %+v → %+v", c.Agent, u.Path, o, n)
				}
			}
			if c.UsageDecided && len(c.Usage) == 0 {
				for _, p := range probes {
					url := "https://example.com" + p
					if o, n := a.Usage(url), b.Usage(url); o.Fetchable && n.Fetchable && usageKey(o) != usageKey(n) {
						t.Fatalf("%s: AI usage decided unchanged, but %q differs", c.Agent, url)
					}
				}
			}
			if !c.Decided || c.Changed() {
				continue
			}
			for _, p := range probes {
				url := "https://example.com" + p
				if a.Allowed(url) != b.Allowed(url) {
					t.Fatalf("%s: decided unchanged, but %q differs", c.Agent, url)
				}
			}
		}
	})
}
