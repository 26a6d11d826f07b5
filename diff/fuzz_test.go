package diff_test

import (
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/diff"
)

// FuzzDiff compares arbitrary pairs of files: the diff never panics, every
// witness it reports differs on robotstxt.Parse of both versions, and a
// crawler it decided unchanged agrees on every probe path built from the
// files' rules (each pattern with its '*' and '$' removed, and with 'x'
// appended).
func FuzzDiff(f *testing.F) {
	f.Add("User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /a$\n")
	f.Add("User-agent: a\nAllow: /x/index.html\nDisallow: /x\n", "User-agent: *\nDisallow: /x/\n")
	f.Add("User-agent: b\nUser-agent: *\nDisallow: /%61*b\n\nUser-agent: b\nAllow: /\n", "Disallow: /\n")
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
			}
		}
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
