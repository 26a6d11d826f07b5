package lint

import (
	"bytes"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNotRobotsTxtReportedAlone checks what the package documentation
// promises of a body that is not robots.txt (HTML, binary, gzip, UTF-16):
// it is reported alone, with no content-past-limit beside it when it is
// also longer than the size limit.
func TestNotRobotsTxtReportedAlone(t *testing.T) {
	tests := []struct {
		name string
		body []byte
		want Code
	}{
		{"binary", bytes.Repeat([]byte("\x00\x01ab"), 500), CodeBinary},
		{"html", []byte("<!DOCTYPE html>\n<html><body>" + strings.Repeat("<p>Disallow: /</p>\n", 100)), CodeLooksLikeHTML},
		{"gzip", append([]byte("\x1F\x8B\x08\x00"), bytes.Repeat([]byte("User-agent: *\nDisallow: /\n"), 20)...), CodeGzip},
		{"utf16", append([]byte("\xFF\xFE"), bytes.Repeat([]byte("U\x00:\x00\n\x00"), 300)...), CodeUTF16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.body) <= 100 {
				t.Fatalf("body of %d bytes is within the limit", len(tt.body))
			}
			rep := LintWith(tt.body, Options{MaxSize: 100})
			var got []Code
			for _, d := range rep.Diagnostics {
				got = append(got, d.Code)
			}
			if diff := cmp.Diff([]Code{tt.want}, got); diff != "" {
				t.Errorf("codes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGodocSpeaksToUsers checks that the package's documentation, as go
// doc shows it, names neither the module's internal packages nor its
// tests: a reader cannot look at either.
func TestGodocSpeaksToUsers(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := []*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/seed50c7eacc/robotstxt/lint")
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{p.Doc}
	addValues := func(vs []*doc.Value) {
		for _, v := range vs {
			texts = append(texts, v.Doc)
			for _, s := range v.Decl.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok {
					texts = append(texts, vs.Doc.Text(), vs.Comment.Text())
				}
			}
		}
	}
	addFuncs := func(fs []*doc.Func) {
		for _, f := range fs {
			texts = append(texts, f.Doc)
		}
	}
	addValues(p.Consts)
	addValues(p.Vars)
	addFuncs(p.Funcs)
	for _, ty := range p.Types {
		texts = append(texts, ty.Doc)
		for _, s := range ty.Decl.Specs {
			if ts, ok := s.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, f := range st.Fields.List {
						texts = append(texts, f.Doc.Text(), f.Comment.Text())
					}
				}
			}
		}
		addValues(ty.Consts)
		addValues(ty.Vars)
		addFuncs(ty.Funcs)
		addFuncs(ty.Methods)
	}
	internal := regexp.MustCompile(`internal/|\b(aipref|sfv|parse)\.|\bTest[A-Z]\w*|\bgrouper\b|\btokenizer\b`)
	for _, text := range texts {
		if m := internal.FindString(text); m != "" {
			t.Errorf("exported documentation names %q:\n%s", m, text)
		}
	}
}
