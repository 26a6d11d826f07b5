package reference

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// maxSize is robotstxt.DefaultMaxSize: the oracle reads what Parse reads.
const maxSize = 512000

// OracleEnv names an external program that answers robots.txt queries the
// way Google's C++ library does, for differential testing. It is not part of
// this repository: build one from google/robotstxt yourself. Protocol: the
// program takes the path of a robots.txt file as its argument, reads one
// query per line from standard input, "AGENT<TAB>URL", and answers each
// with a line "A N" (allowed) or "D N" (disallowed), where N is
// RobotsMatcher::matching_line() after RobotsMatcher::OneAgentAllowedByRobots.
const OracleEnv = "ROBOTSTXT_ORACLE"

// A Query is one question for the oracle.
type Query struct{ Agent, URL string }

// An Answer is the oracle's answer to a Query: the verdict and the line
// matching_line() reports (0 for none).
type Answer struct {
	Agent, URL string
	Allowed    bool
	Line       int
}

// AskOracle runs the oracle on one file. The URLs are sent in wire form
// (the package documentation), as the contract compares.
func AskOracle(t testing.TB, oracle string, body []byte, qs []Query) []Answer {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "robots-*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(body) > maxSize {
		body = body[:maxSize]
	}
	if _, err := f.Write(body); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var in bytes.Buffer
	for _, q := range qs {
		fmt.Fprintf(&in, "%s\t%s\n", q.Agent, wireForm(q.URL))
	}
	cmd := exec.Command(oracle, f.Name())
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	var answers []Answer
	sc := bufio.NewScanner(bytes.NewReader(out))
	for i := 0; sc.Scan(); i++ {
		var verdict string
		var line int
		if _, err := fmt.Sscanf(sc.Text(), "%s %d", &verdict, &line); err != nil || i >= len(qs) {
			t.Fatalf("oracle answer %q: %v", sc.Text(), err)
		}
		answers = append(answers, Answer{qs[i].Agent, qs[i].URL, verdict == "A", line})
	}
	if len(answers) != len(qs) {
		t.Fatalf("oracle answered %d of %d queries", len(answers), len(qs))
	}
	return answers
}

// wireForm is the URL as the contract hands it to Google's matcher.
func wireForm(url string) string {
	return string(pattern.AppendEscaped(nil, url))
}

// Usable reports whether the oracle protocol can carry q.
func Usable(q Query) bool {
	return !strings.ContainsAny(q.Agent, "\t\n\r") && !strings.ContainsAny(q.URL, "\n\r")
}
