package reference

import "testing"

// A Matcher is what the comparisons check: robotstxt.Robots and
// engine.File, each seen through its Explain (the verdict and the line
// that decided it) and its Allowed.
type Matcher struct {
	Explain func(agent, url string) (allowed bool, line int)
	Allowed func(agent, url string) bool
}

// Compare fails t when m and the model of body disagree on a query.
func (rm *Model) Compare(t testing.TB, body []byte, m Matcher, agent, url string) {
	t.Helper()
	wantAllowed, wantLine := rm.Verdict(agent, url)
	if allowed, line := m.Explain(agent, url); allowed != wantAllowed || line != wantLine {
		t.Fatalf("Explain(%q, %q) = allowed %v line %d; reference says allowed %v line %d\nrobots.txt: %q",
			agent, url, allowed, line, wantAllowed, wantLine, body)
	}
	if a := m.Allowed(agent, url); a != wantAllowed {
		t.Fatalf("Allowed(%q, %q) = %v; reference says %v\nrobots.txt: %q", agent, url, a, wantAllowed, body)
	}
}

// CompareWithOracle fails t where m, a matcher of body, and Google's
// library, run as the oracle, answer one of qs differently, and returns
// how many questions the oracle could be asked (see Usable).
func CompareWithOracle(t testing.TB, name, oracle string, body []byte, m Matcher, qs []Query) int {
	t.Helper()
	var usable []Query
	for _, q := range qs {
		if Usable(q) {
			usable = append(usable, q)
		}
	}
	if len(usable) == 0 {
		return 0
	}
	for _, want := range AskOracle(t, oracle, body, usable) {
		if allowed, line := m.Explain(want.Agent, want.URL); allowed != want.Allowed || line != want.Line {
			t.Errorf("%s: Explain(%q, %q) = %v line %d; Google's library says %v line %d",
				name, want.Agent, want.URL, allowed, line, want.Allowed, want.Line)
		}
	}
	return len(usable)
}
