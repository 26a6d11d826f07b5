package diff_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/diff"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// A sitePair is two consecutive versions of one site's robots.txt file.
type sitePair struct {
	old, new         string // file names: host_YYYY-MM.txt
	oldData, newData []byte
}

// corpusPairs returns every consecutive pair of versions of one site in
// the 2025 corpus, whose files are named by host and month; it skips
// without the corpus (set ROBOTSTXT_CORPUS_2025 or put corpus-2025 in
// ../shared beside the repository).
func corpusPairs(tb testing.TB) []sitePair {
	names, files := corpus.Load2025(tb, 0)
	var pairs []sitePair
	host := func(name string) string { return name[:max(0, strings.LastIndexByte(name, '_'))] }
	for i := 1; i < len(names); i++ {
		if h := host(names[i]); h != "" && h == host(names[i-1]) {
			pairs = append(pairs, sitePair{names[i-1], names[i], files[i-1], files[i]})
		}
	}
	return pairs
}

// figureAgents are the crawlers the corpus figures count changes for.
var figureAgents = []string{"Googlebot", "GPTBot", "ClaudeBot", diff.Others}

// usageAgents are the crawlers and usage tokens the corpus figures count
// AI usage changes for.
var usageAgents = []string{"Googlebot", "GPTBot", "ClaudeBot", "Google-Extended", "Applebot-Extended", "CCBot", diff.Others}

// TestCorpus2025Pairs compares every consecutive pair of versions of a
// site: every witness differs on Parse of both versions. It logs how many
// pairs change a verdict for Googlebot, GPTBot, ClaudeBot and every other
// crawler, and how many pairs have a crawler class not decided within the
// default budget; and the same for AI usage preferences (every usage
// witness fetchable under both versions, its preferences different), for
// the usage agents.
func TestCorpus2025Pairs(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("the corpus pairs take minutes under the race detector or -short; the ordinary run compares them")
	}
	pairs := corpusPairs(t)
	sites := map[string]bool{}
	changed := make([]int, len(figureAgents))
	figureUndecided := 0
	usageChanged := make([]int, len(usageAgents))
	usagePairs, usageUndecided := 0, 0
	anyChange, undecided := 0, 0
	for _, p := range pairs {
		sites[p.old[:strings.LastIndexByte(p.old, '_')]] = true
		full := diff.Compare(p.oldData, p.newData)
		ro, rn := robotstxt.Parse(p.oldData), robotstxt.Parse(p.newData)
		for _, c := range full.Crawlers {
			agent := c.Agent
			if agent == diff.Others {
				agent = "zz-no-such-bot"
			}
			for _, ch := range c.Changes {
				url := "https://example.com" + ch.Path
				if ro.Allowed(agent, url) == rn.Allowed(agent, url) {
					t.Errorf("%s → %s: %s: witness %q does not differ", p.old, p.new, c.Agent, ch.Path)
				}
			}
			for _, u := range c.Usage {
				url := "https://example.com" + u.Path
				o, n := ro.Usage(agent, url), rn.Usage(agent, url)
				if !o.Fetchable || !n.Fetchable || usageKey(o) == usageKey(n) {
					t.Errorf("%s → %s: %s: usage witness %q is not genuine", p.old, p.new, c.Agent, u.Path)
				}
			}
		}
		if len(full.UsageUndecided()) > 0 {
			usageUndecided++
		}
		usage := diff.CompareWith(p.oldData, p.newData, diff.Options{Agents: usageAgents})
		anyUsage := false
		for i, c := range usage.Crawlers {
			if len(c.Usage) > 0 {
				usageChanged[i]++
				anyUsage = true
			}
		}
		if anyUsage {
			usagePairs++
			if testing.Verbose() {
				t.Logf("%s → %s: AI usage changes", p.old, p.new)
			}
		}
		if full.VerdictChanged() {
			anyChange++
		}
		if u := full.Undecided(); len(u) > 0 {
			undecided++
			if testing.Verbose() {
				t.Logf("%s → %s: not decided for %d of %d crawler classes", p.old, p.new, len(u), len(full.Crawlers))
			}
		}
		some := diff.CompareWith(p.oldData, p.newData, diff.Options{Agents: figureAgents})
		for i, c := range some.Crawlers {
			if c.Changed() {
				changed[i]++
			}
		}
		if len(some.Undecided()) > 0 {
			figureUndecided++
		}
	}
	var b strings.Builder
	for i, a := range figureAgents {
		if a == diff.Others {
			a = "every other crawler"
		}
		fmt.Fprintf(&b, " %s %d,", a, changed[i])
	}
	t.Logf("%d pairs over %d sites: %d change some crawler's verdicts; by crawler:%s; %d pairs not decided for some crawler class (%d for one of those four)",
		len(pairs), len(sites), anyChange, strings.TrimSuffix(b.String(), ","), undecided, figureUndecided)
	b.Reset()
	for i, a := range usageAgents {
		if a == diff.Others {
			a = "every other crawler"
		}
		fmt.Fprintf(&b, " %s %d,", a, usageChanged[i])
	}
	t.Logf("AI usage preferences: %d pairs change them for one of the usage agents; by agent:%s; %d pairs not decided for some crawler class",
		usagePairs, strings.TrimSuffix(b.String(), ","), usageUndecided)
}

// BenchmarkCorpus2025Pairs diffs every consecutive pair of the 2025
// corpus, all crawler classes, once per iteration; it reports the median
// and the largest time of one pair over all iterations, in wall time and,
// on Linux, in the CPU time of the thread (the goroutine is locked to it),
// which other work on a busy machine does not inflate.
func BenchmarkCorpus2025Pairs(b *testing.B) {
	pairs := corpusPairs(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var wall, cpu []time.Duration
	slowest := ""
	var worst time.Duration
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pairs {
			start := time.Now()
			c0, cpuOK := threadCPU()
			diff.Compare(p.oldData, p.newData)
			c1, _ := threadCPU()
			d := time.Since(start)
			wall = append(wall, d)
			if cpuOK {
				cpu = append(cpu, c1-c0)
				d = c1 - c0
			}
			if d > worst {
				worst, slowest = d, p.old+" → "+p.new
			}
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	slices.Sort(wall)
	b.ReportMetric(ms(wall[len(wall)/2]), "ms/pair-median")
	b.ReportMetric(ms(wall[len(wall)-1]), "ms/pair-max")
	if len(cpu) > 0 {
		slices.Sort(cpu)
		b.ReportMetric(ms(cpu[len(cpu)/2]), "cpu-ms/pair-median")
		b.ReportMetric(ms(cpu[len(cpu)-1]), "cpu-ms/pair-max")
	}
	b.ReportMetric(float64(len(pairs)), "pairs")
	b.Logf("slowest: %s (%v)", slowest, worst)
}

// hostileFile returns a file of about 500 KiB: n wildcard rules over a
// small alphabet, which keep many pattern positions alive in every
// state of the diff's automaton.
func hostileFile(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	const letters = "abcdefgh"
	for i := 0; i < n; i++ {
		kind := "Disallow"
		if rng.IntN(2) == 0 {
			kind = "Allow"
		}
		b.WriteString(kind + ": /")
		for j := 0; j < 3; j++ {
			b.WriteByte(letters[rng.IntN(len(letters))])
			b.WriteByte('*')
		}
		b.WriteByte(letters[rng.IntN(len(letters))])
		if rng.IntN(2) == 0 {
			b.WriteByte('$')
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// BenchmarkHostile diffs two 500 KiB files of 32,000 wildcard rules each:
// the budget runs out and the crawler class is reported not decided.
func BenchmarkHostile(b *testing.B) {
	old, new := hostileFile(1, 32000), hostileFile(2, 32000)
	b.ReportAllocs()
	for b.Loop() {
		r := diff.Compare(old, new)
		if len(r.Undecided()) == 0 {
			b.Fatal("hostile pair decided")
		}
	}
	b.ReportMetric(float64(len(old)+len(new))/2/1024, "KiB/file")
}

// hostileUsageFile returns a file of about 500 KiB: n Content-Usage lines
// with wildcard paths over a small alphabet, each with a label of its own,
// so that the usage comparison meets many lines of one length at once.
func hostileUsageFile(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 9))
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\n")
	const letters = "abcdefgh"
	for i := 0; i < n; i++ {
		b.WriteString("Content-Usage: /")
		for j := 0; j < 3; j++ {
			b.WriteByte(letters[rng.IntN(len(letters))])
			b.WriteByte('*')
		}
		b.WriteByte(letters[rng.IntN(len(letters))])
		fmt.Fprintf(&b, " train-ai=%c, l%d=%d\n", "yn"[rng.IntN(2)], i, rng.IntN(4))
	}
	return []byte(b.String())
}

// BenchmarkHostileUsage diffs two 500 KiB files of Content-Usage lines
// with wildcard paths: the usage budget runs out and the crawler class is
// reported with its usage not decided.
func BenchmarkHostileUsage(b *testing.B) {
	old, new := hostileUsageFile(1, 16000), hostileUsageFile(2, 16000)
	b.ReportAllocs()
	for b.Loop() {
		r := diff.Compare(old, new)
		if len(r.UsageUndecided()) == 0 {
			b.Fatal("hostile usage pair decided")
		}
	}
	b.ReportMetric(float64(len(old)+len(new))/2/1024, "KiB/file")
}
