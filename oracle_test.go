package robotstxt_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// compareWithOracle fails t where the Robots of body and Google's library
// answer one of qs differently; see reference.CompareWithOracle.
func compareWithOracle(t *testing.T, name string, oracle string, body []byte, qs []reference.Query) int {
	t.Helper()
	m := matcherOf(robotstxt.Parse(body))
	explain := m.Explain
	// The one-question function answers each question too; what Explain
	// answers is compared with Google's library.
	m.Explain = func(agent, url string) (bool, int) {
		allowed, line := explain(agent, url)
		if once := robotstxt.Allowed(body, agent, url); once != allowed {
			t.Errorf("%s: robotstxt.Allowed(file, %q, %q) = %v; Explain: %v", name, agent, url, once, allowed)
		}
		return allowed, line
	}
	return reference.CompareWithOracle(t, name, oracle, body, m, qs)
}

// TestOracleCorpus compares every answer with Google's library on the
// real-world corpus and on generated files.
func TestOracleCorpus(t *testing.T) {
	oracle := os.Getenv(reference.OracleEnv)
	if oracle == "" {
		t.Skipf("%s is not set: no Google oracle to compare with", reference.OracleEnv)
	}
	names, files := loadCorpus(t)
	total := 0
	for i, f := range files {
		var qs []reference.Query
		for _, q := range crawlerQueries([][]byte{f}) {
			qs = append(qs, reference.Query{Agent: q.agent, URL: q.url})
		}
		total += compareWithOracle(t, names[i], oracle, f, qs)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	src := make([]byte, 2048)
	for i := 0; i < 3000; i++ {
		for j := range src {
			src[j] = byte(rng.Uint32())
		}
		c := reference.NewChooser(src)
		body := reference.GenRobots(c)
		var qs []reference.Query
		for k := 0; k < 16; k++ {
			qs = append(qs, reference.Query{Agent: c.From(reference.GenQAgent), URL: reference.GenURL(c)})
		}
		total += compareWithOracle(t, fmt.Sprintf("generated %d", i), oracle, body, qs)
	}
	t.Logf("%d queries compared with Google's library", total)
}

// TestOracleSpec runs Google's compliance cases and this package's own test
// tables through the oracle as well.
func TestOracleSpec(t *testing.T) {
	oracle := os.Getenv(reference.OracleEnv)
	if oracle == "" {
		t.Skipf("%s is not set", reference.OracleEnv)
	}
	for _, c := range loadSpecCases(t) {
		var qs []reference.Query
		for _, e := range c.expect {
			qs = append(qs, reference.Query{Agent: e.agent, URL: e.url})
		}
		compareWithOracle(t, fmt.Sprintf("%s case %d", c.file, c.num), oracle, []byte(c.robots), qs)
	}
}
