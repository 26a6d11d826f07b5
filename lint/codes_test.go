package lint

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// registryTable renders the registry as the package documentation lists it.
func registryTable() []string {
	var out []string
	for _, c := range Codes() {
		out = append(out, fmt.Sprintf("%-29s %-8s %s", c.Code, c.Severity, c.Doc))
	}
	return out
}

// The package documentation lists every code of the registry, in order,
// with its severity and its one-line doc.
func TestDocTableMatchesRegistry(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(src), "\n") {
		if row, ok := strings.CutPrefix(line, "//\t"); ok && regexp.MustCompile(`^[a-z0-9-]+ +(error|warning|info) `).MatchString(row) {
			got = append(got, row)
		}
	}
	if diff := cmp.Diff(registryTable(), got); diff != "" {
		t.Errorf("doc.go's code table differs from the registry (-registry +doc.go):\n%s", diff)
	}
}

// docs/lint.md's table lists every code of the registry, in order, with its
// usual severity first in the severity column.
func TestDocsTableMatchesRegistry(t *testing.T) {
	src, err := os.ReadFile("../docs/lint.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\| (error|warning|info)\\b")
	var got, want []string
	for _, m := range row.FindAllStringSubmatch(string(src), -1) {
		got = append(got, m[1]+" "+m[2])
	}
	for _, c := range Codes() {
		want = append(want, string(c.Code)+" "+c.Severity.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docs/lint.md's code table differs from the registry (-registry +docs/lint.md):\n%s", diff)
	}
}

// Every code is registered once, and every diagnostic Lint reports on the
// test files carries a registered code.
func TestRegistryUnique(t *testing.T) {
	seen := map[Code]bool{}
	for _, c := range Codes() {
		if seen[c.Code] || c.Doc == "" {
			t.Errorf("code %q registered twice or without doc", c.Code)
		}
		seen[c.Code] = true
	}
	for _, body := range []string{reportSample, "<html>", "\xFF\xFE", "User-agent: *\nAllow: /a\nDisallow: /a\n"} {
		for _, d := range Lint([]byte(body)).Diagnostics {
			if !seen[d.Code] {
				t.Errorf("diagnostic with unregistered code %q", d.Code)
			}
		}
	}
}

// Every Code constant is in the registry: the linter stores a finding's
// code as its index there (codeIndex).
func TestEveryCodeRegistered(t *testing.T) {
	src, err := os.ReadFile("codes.go")
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^\s+Code\w+\s+Code = "([a-z0-9-]+)"`)
	registered := map[Code]bool{}
	for _, c := range Codes() {
		registered[c.Code] = true
	}
	found := decl.FindAllStringSubmatch(string(src), -1)
	if len(found) != len(Codes()) {
		t.Errorf("codes.go declares %d codes, the registry has %d", len(found), len(Codes()))
	}
	for _, m := range found {
		if !registered[Code(m[1])] {
			t.Errorf("code %q is not registered", m[1])
		}
	}
}
