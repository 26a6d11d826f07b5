package robotstxt

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// oracleEnv names an external program that answers robots.txt queries the
// way Google's C++ library does, for differential testing. It is not part of
// this repository: build one from google/robotstxt yourself. Protocol: the
// program takes the path of a robots.txt file as its argument, reads one
// query per line from standard input, "AGENT<TAB>URL", and answers each
// with a line "A N" (allowed) or "D N" (disallowed), where N is
// RobotsMatcher::matching_line() after RobotsMatcher::OneAgentAllowedByRobots.
const oracleEnv = "ROBOTSTXT_ORACLE"

type oracleQuery struct{ agent, url string }

// askOracle runs the oracle on one file. The URLs are sent in wire form
// (SPEC 9.2), as the contract compares.
func askOracle(t *testing.T, oracle string, body []byte, qs []oracleQuery) []query {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "robots-*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(body) > DefaultMaxSize {
		body = body[:DefaultMaxSize]
	}
	if _, err := f.Write(body); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var in bytes.Buffer
	for _, q := range qs {
		fmt.Fprintf(&in, "%s\t%s\n", q.agent, wireForm(q.url))
	}
	cmd := exec.Command(oracle, f.Name())
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	var answers []query
	sc := bufio.NewScanner(bytes.NewReader(out))
	for i := 0; sc.Scan(); i++ {
		var verdict string
		var line int
		if _, err := fmt.Sscanf(sc.Text(), "%s %d", &verdict, &line); err != nil || i >= len(qs) {
			t.Fatalf("oracle answer %q: %v", sc.Text(), err)
		}
		answers = append(answers, query{qs[i].agent, qs[i].url, verdict == "A", line})
	}
	if len(answers) != len(qs) {
		t.Fatalf("oracle answered %d of %d queries", len(answers), len(qs))
	}
	return answers
}

// wireForm is the URL as the contract hands it to Google's matcher.
func wireForm(url string) string {
	return string(appendEscaped(nil, url))
}

// usableQuery reports whether the oracle protocol can carry q.
func usableQuery(q oracleQuery) bool {
	return !strings.ContainsAny(q.agent, "\t\n\r") && !strings.ContainsAny(q.url, "\n\r")
}

func compareWithOracle(t *testing.T, name string, oracle string, body []byte, qs []oracleQuery) int {
	t.Helper()
	var usable []oracleQuery
	for _, q := range qs {
		if usableQuery(q) {
			usable = append(usable, q)
		}
	}
	if len(usable) == 0 {
		return 0
	}
	r := Parse(body)
	for _, want := range askOracle(t, oracle, body, usable) {
		v := r.Explain(want.agent, want.url)
		if v.Allowed != want.allowed || v.Rule.Line != want.line {
			t.Errorf("%s: Explain(%q, %q) = %v line %d; Google's library says %v line %d",
				name, want.agent, want.url, v.Allowed, v.Rule.Line, want.allowed, want.line)
		}
	}
	return len(usable)
}

// TestOracleCorpus compares every answer with Google's library on the
// real-world corpus and on generated files.
func TestOracleCorpus(t *testing.T) {
	oracle := os.Getenv(oracleEnv)
	if oracle == "" {
		t.Skipf("%s is not set: no Google oracle to compare with", oracleEnv)
	}
	names, files := loadCorpus(t)
	total := 0
	for i, f := range files {
		var qs []oracleQuery
		for _, q := range crawlerQueries([][]byte{f}) {
			qs = append(qs, oracleQuery{q.agent, q.url})
		}
		total += compareWithOracle(t, names[i], oracle, f, qs)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	src := make([]byte, 2048)
	for i := 0; i < 3000; i++ {
		for j := range src {
			src[j] = byte(rng.Uint32())
		}
		c := &chooser{src: src}
		body := genRobots(c)
		var qs []oracleQuery
		for k := 0; k < 16; k++ {
			qs = append(qs, oracleQuery{c.from(genQAgent), genURL(c)})
		}
		total += compareWithOracle(t, fmt.Sprintf("generated %d", i), oracle, body, qs)
	}
	t.Logf("%d queries compared with Google's library", total)
}

// TestOracleSpec runs Google's compliance cases and this package's own test
// tables through the oracle as well.
func TestOracleSpec(t *testing.T) {
	oracle := os.Getenv(oracleEnv)
	if oracle == "" {
		t.Skipf("%s is not set", oracleEnv)
	}
	for _, c := range loadSpecCases(t) {
		var qs []oracleQuery
		for _, e := range c.expect {
			qs = append(qs, oracleQuery{e.agent, e.url})
		}
		compareWithOracle(t, fmt.Sprintf("%s case %d", c.file, c.num), oracle, []byte(c.robots), qs)
	}
}
