package robotstxt_test

import (
	"os"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// aiAgents are the crawlers the 2025 files write groups for most (GPTBot,
// ClaudeBot and CCBot are each named by over half of them), asked of every
// file of that corpus beside its own agents.
var aiAgents = []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "PerplexityBot", "OAI-SearchBot", "Applebot-Extended", "Bytespider", "meta-externalagent"}

// queries2025 returns the questions asked of a 2025 corpus file: those of
// corpus.Queries, the AI crawlers, and every other agent the file names
// (up to 24 agents in all), each about every URL.
func queries2025(f []byte) []reference.Query {
	agents, urls := corpus.Queries(f)
	seen := map[string]bool{}
	add := func(a string) {
		if k := parse.AgentToken(a); a != "" && !seen[k] && len(agents) < 24 {
			seen[k] = true
			agents = append(agents, a)
		}
	}
	named := agents
	agents = nil
	for _, a := range named {
		add(a)
	}
	for _, a := range aiAgents {
		add(a)
	}
	for _, g := range robotstxt.Parse(f).Groups() {
		for _, a := range g.Agents {
			add(parse.ProductToken(a))
		}
	}
	var qs []reference.Query
	for _, a := range agents {
		for _, u := range urls {
			qs = append(qs, reference.Query{Agent: a, URL: u})
		}
	}
	return qs
}

// TestReferenceCorpus2025 checks the files sites served in 2025 and early
// 2026, with their AI-crawler groups and Content-Signal lines, against the
// reference model: the verdict and the deciding line (RFC 9309 section
// 2.2.2; Google's robots.txt documentation, "Order of precedence for
// rules").
func TestReferenceCorpus2025(t *testing.T) {
	names, files := corpus.Load2025(t, robotstxt.DefaultMaxSize)
	queries := 0
	for i, f := range files {
		ref, r := reference.New(f), robotstxt.Parse(f)
		for _, q := range queries2025(f) {
			wantAllowed, wantLine := ref.Verdict(q.Agent, q.URL)
			if v := r.Explain(q.Agent, q.URL); v.Allowed != wantAllowed || v.Rule.Line != wantLine {
				t.Errorf("%s: Explain(%q, %q) = %v line %d; reference says %v line %d",
					names[i], q.Agent, q.URL, v.Allowed, v.Rule.Line, wantAllowed, wantLine)
			}
			if once := robotstxt.Allowed(f, q.Agent, q.URL); once != wantAllowed {
				t.Errorf("%s: robotstxt.Allowed(file, %q, %q) = %v; reference says %v", names[i], q.Agent, q.URL, once, wantAllowed)
			}
			queries++
		}
	}
	t.Logf("%d files, %d queries agree with the reference model", len(files), queries)
}

// TestOracleCorpus2025 asks Google's library the same questions.
func TestOracleCorpus2025(t *testing.T) {
	oracle := os.Getenv(reference.OracleEnv)
	if oracle == "" {
		t.Skipf("%s is not set: no Google oracle to compare with", reference.OracleEnv)
	}
	names, files := corpus.Load2025(t, robotstxt.DefaultMaxSize)
	total := 0
	for i, f := range files {
		total += compareWithOracle(t, names[i], oracle, f, queries2025(f))
	}
	t.Logf("%d queries of %d files compared with Google's library", total, len(files))
}
