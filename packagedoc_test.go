package robotstxt_test

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// The package documentation points a crawler author to the packages that
// fetch the files (fetch, and the Redis store for a fleet), which go doc
// of this package would otherwise never name.
func TestPackageDocNamesFetch(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "robotstxt.go", nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	for _, want := range []string{"github.com/seed50c7eacc/robotstxt/fetch", "github.com/seed50c7eacc/robotstxt/fetch/redisstore", "client.Allowed(ctx, agent, url)"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the package documentation does not name %s", want)
		}
	}
}
