package robotstxt_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
)

// TestLicenses checks that License lines (RSL 1.0, "Adding RSL to
// robots.txt": one or more License directives, global, not tied to a user
// agent) are returned in file order wherever they stand, as written.
func TestLicenses(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []string
	}{
		{"none", "User-agent: *\nDisallow: /\n", nil},
		{"nil file", "", nil},
		{"before groups", "License: https://a.example/license.xml\nUser-agent: *\nDisallow: /\n", []string{"https://a.example/license.xml"}},
		{"in groups, file order, any case",
			"User-agent: GPTBot\nLICENSE: https://a.example/1.xml # terms\nDisallow: /\n\nUser-agent: *\nlicense:https://b.example/2.xml\nSitemap: https://a.example/s.xml\nLicense: /relative.xml\n",
			[]string{"https://a.example/1.xml", "https://b.example/2.xml", "/relative.xml"}},
		{"empty value skipped", "License:\nLicense: https://a.example/l.xml\n", []string{"https://a.example/l.xml"}},
		// Keys are compared in ASCII case only, as every other key
		// (the long s U+017F folds to 's' under Unicode case folding).
		{"non-ASCII look-alike key", "Licen\u017fe: https://a.example/l.xml\n", nil},
		{"other keys are not licences", "Licence: https://a.example/l.xml\nLicenses: https://a.example/m.xml\nX-License: https://a.example/n.xml\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := robotstxt.Parse([]byte(tt.file)).Licenses()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Licenses() (-want +got):\n%s", diff)
			}
		})
	}
	var nilRobots *robotstxt.Robots
	if got := nilRobots.Licenses(); got != nil {
		t.Errorf("nil Robots: Licenses() = %q, want nil", got)
	}
	// A License line changes no verdict: it is not a rule.
	r := robotstxt.Parse([]byte("User-agent: *\nLicense: https://a.example/l.xml\nDisallow: /x\n"))
	if !r.Allowed("GPTBot", "/") || r.Allowed("GPTBot", "/x") {
		t.Error("a License line inside a group changed the group's rules")
	}
}

func ExampleRobots_Licenses() {
	robots := robotstxt.Parse([]byte(`License: https://example.com/license.xml

User-agent: *
Disallow: /drafts/
`))
	fmt.Println(robots.Licenses())
	fmt.Println(robots.Allowed("GPTBot", "https://example.com/drafts/x"))
	// Output:
	// [https://example.com/license.xml]
	// false
}
