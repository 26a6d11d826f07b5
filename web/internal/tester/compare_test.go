package tester

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seed50c7eacc/robotstxt/diff"
	"github.com/seed50c7eacc/robotstxt/internal/app/audit"
)

// The example the e2e test loads too: a Disallow for Googlebot added.
const (
	compareOld = "User-agent: *\nDisallow: /tmp/\n\nUser-agent: Googlebot\nDisallow: /search\n"
	compareNew = "User-agent: *\nDisallow: /tmp/\n\nUser-agent: Googlebot\nDisallow: /search\nDisallow: /private/\n"
)

// TestCompare checks that the page's report is the command's: the change
// listed for Googlebot with its witness and deciding lines, none for the
// other crawlers.
func TestCompare(t *testing.T) {
	r := Compare(compareOld, compareNew, 0)
	var got []string
	for _, c := range r.Crawlers {
		for _, ch := range c.Changes {
			got = append(got, c.Agent+" "+ch.Path+" "+ch.Old.Verdict+" → "+ch.New.Verdict)
		}
		if !c.Decided {
			t.Errorf("%s not decided", c.Agent)
		}
	}
	if d := cmp.Diff([]string{"Googlebot /private/ allowed → disallowed"}, got); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	want := &audit.Rule{Line: 6, Kind: "disallow", Pattern: "/private/"}
	if d := cmp.Diff(want, r.Crawlers[0].Changes[0].New.Rule); d != "" || r.Crawlers[0].Purpose != "search" {
		t.Errorf("purpose %q, new rule (-want +got):\n%s", r.Crawlers[0].Purpose, d)
	}
	if r.Old != "old" || r.New != "new" || !r.VerdictChanged {
		t.Errorf("report %+v", r)
	}
}

// TestCompareBudget checks that a budget too small to decide says so.
func TestCompareBudget(t *testing.T) {
	var old, new strings.Builder
	old.WriteString("User-agent: *\n")
	new.WriteString("User-agent: *\n")
	for i := range 200 {
		old.WriteString("Disallow: /*a*b" + strings.Repeat("c", i%7) + "*d$\n")
		new.WriteString("Allow: /*b*a" + strings.Repeat("d", i%5) + "*c\n")
	}
	r := Compare(old.String(), new.String(), 10)
	if d := cmp.Diff([]string{diff.Others}, r.Undecided); d != "" {
		t.Errorf("undecided (-want +got):\n%s", d)
	}
}

// TestWitness checks a witness answered on both versions, with the
// deciding rules, as Check answers one URL; and every other crawler,
// which obeys the "*" groups.
func TestWitness(t *testing.T) {
	got := Witness(compareOld, compareNew, "Googlebot", "/private/")
	want := WitnessResult{
		Agent: "Googlebot", URL: "/private/",
		Old: WitnessSide{Verdict: Verdict{URL: "/private/", Allowed: true}, Specific: true},
		New: WitnessSide{Verdict: Verdict{URL: "/private/", Rule: &audit.Rule{Line: 6, Kind: "disallow", Pattern: "/private/"}, Says: "disallow: /private/"}, Specific: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	others := Witness(compareOld, "User-agent: *\nDisallow: /\n", diff.Others, "//tmp/")
	if !others.Old.Allowed || others.New.Allowed || others.Old.Specific || others.New.Rule.Line != 2 {
		t.Errorf("every other crawler, a path starting with //: %+v", others)
	}
}
