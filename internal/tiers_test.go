// Package internal_test checks the tiers of the module's internal
// packages, which their folders name: the packages directly under
// internal/ lie below the API (the root package imports them, and they
// import neither the root nor the tiers above); internal/app holds what
// the commands and the browser tester build on the API (they import the
// root); internal/testsupport holds what tests share (the reference
// model, the corpora). No non-test file of a tier imports a tier above
// it: below-API packages import no root, app or testsupport package, and
// app packages import no testsupport package.
package internal_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/seed50c7eacc/robotstxt"

// tierOf names the tier of a package path of the module.
func tierOf(path string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
	switch {
	case strings.HasPrefix(rel, "internal/app/"):
		return "app"
	case strings.HasPrefix(rel, "internal/testsupport/"):
		return "testsupport"
	case strings.HasPrefix(rel, "internal/"):
		return "below-api"
	}
	return "api" // the root and every public package
}

// forbidden lists, by tier, the tiers its non-test files may not import.
var forbidden = map[string][]string{
	"below-api": {"api", "app", "testsupport"},
	"app":       {"testsupport"},
}

func TestInternalTiers(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		from := tierOf(module + "/internal/" + filepath.ToSlash(filepath.Dir(path)))
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p != module && !strings.HasPrefix(p, module+"/") {
				continue
			}
			checked++
			to := tierOf(p)
			for _, bad := range forbidden[from] {
				if to == bad {
					t.Errorf("%s (tier %s) imports %s (tier %s)", path, from, p, to)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("only %d imports of the module's packages read: the walk is broken", checked)
	}
}
