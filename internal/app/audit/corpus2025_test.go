package audit

import (
	"bytes"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// topAICrawlers are the AI crawlers whose blocking the corpus counts.
var topAICrawlers = []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "PerplexityBot", "Bytespider",
	"Applebot-Extended", "meta-externalagent", "OAI-SearchBot", "ChatGPT-User", "anthropic-ai", "Amazonbot"}

// TestCorpus2025 audits every file of the 2025 corpus (robots.txt files
// that news, social and academic sites served from January 2025 to
// January 2026; ROBOTSTXT_CORPUS_2025) in text and JSON, and logs the
// counts the closing note of issue 25 gives: files with Content-Signal,
// Content-Usage and License lines, files with preference lines before any
// group, and files blocking each top AI crawler at "/". Every License
// value the audit reports is a License line of the file.
func TestCorpus2025(t *testing.T) {
	names, files := corpus.Load2025(t, 0)
	var withSignal, withUsage, withLicense, outside, cut int
	blocked := map[string]int{}
	for i, data := range files {
		rep, err := Run(data, robotstxt.Options{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		if err := rep.WriteText(&bytes.Buffer{}, names[i], nil); err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		signal, usage := false, false
		for _, f := range robotstxt.Parse(data).Fields() {
			switch {
			case isKey(f.Key, "content-signal"):
				signal = true
			case isKey(f.Key, "content-usage"):
				usage = true
			}
		}
		if signal {
			withSignal++
		}
		if usage {
			withUsage++
		}
		if len(rep.Licenses) > 0 {
			withLicense++
			for _, l := range rep.Licenses {
				if !bytes.Contains(data, []byte(l)) {
					t.Errorf("%s: licence %q is not in the file", names[i], l)
				}
			}
		}
		if len(rep.PreferencesOutsideGroups) > 0 {
			outside++
		}
		if rep.Truncated {
			cut++
		}
		for _, c := range rep.Crawlers {
			for _, name := range topAICrawlers {
				if c.Name == name && !c.Results[0].Allowed {
					blocked[name]++
				}
			}
		}
	}
	t.Logf("%d files audited; %d with Content-Signal, %d with Content-Usage, %d with License lines; %d with a preference line before any group; %d cut at 500 KiB",
		len(files), withSignal, withUsage, withLicense, outside, cut)
	for _, name := range topAICrawlers {
		t.Logf("%-20s blocked at / by %d files", name, blocked[name])
	}
}

func isKey(key, name string) bool {
	return len(key) == len(name) && bytes.EqualFold([]byte(key), []byte(name))
}

// BenchmarkAuditCorpus2025 audits every file of the 2025 corpus once per
// iteration, for "/".
func BenchmarkAuditCorpus2025(b *testing.B) {
	_, files := corpus.Load2025(b, 0)
	b.SetBytes(corpus.Size(files))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			if _, err := Run(f, robotstxt.Options{}, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}
