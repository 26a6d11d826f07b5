package audit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
)

// The audit says what package guard does with each crawler: its own
// group, with the fallbacks the operator documents (Apple: Applebot obeys
// Googlebot's rules when the file names Applebot nowhere), where the
// verdict column asks by the token alone; a usage-only token, which no
// crawler sends, is never refused.
func TestGuardColumn(t *testing.T) {
	file := []byte("User-agent: Googlebot\nDisallow: /x\n\nUser-agent: *\nAllow: /\n")
	rep, err := Run(file, robotstxt.Options{}, []string{"/x", "/y"})
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Allowed, GuardRefuses bool }
	got := map[string][]row{}
	for _, c := range rep.Crawlers {
		switch c.Name {
		case "Googlebot", "Applebot", "GPTBot", "Google-Extended":
			for _, r := range c.Results {
				got[c.Name] = append(got[c.Name], row{r.Allowed, r.GuardRefuses})
			}
		}
	}
	want := map[string][]row{
		"Googlebot":       {{false, true}, {true, false}},
		"Applebot":        {{true, true}, {true, false}},
		"GPTBot":          {{true, false}, {true, false}},
		"Google-Extended": {{true, false}, {true, false}}, // asked alone: the "*" group
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts and the guard (-want +got):\n%s", diff)
	}
	var out bytes.Buffer
	if err := rep.WriteText(&out, "robots.txt", nil); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "the guard refuses it"); n != 1 {
		t.Errorf("the text names %d guard refusals of an allowed verdict, want 1 (Applebot at /x):\n%s", n, out.String())
	}
}
