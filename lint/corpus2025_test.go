package lint

import (
	"sort"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// TestCorpus2025 lints every file of the 2025 corpus (ROBOTSTXT_CORPUS_2025)
// and logs how many files each code flags, the new ones of issue 25
// (license-not-absolute, license-in-group, usage-outside-group and the
// not-robots.txt codes reported alone) first. A file that is not
// robots.txt must be reported alone.
func TestCorpus2025(t *testing.T) {
	names, files := corpus.Load2025(t, 0)
	flagged := map[Code]int{}
	for i, data := range files {
		rep := Lint(data)
		seen := map[Code]bool{}
		for _, d := range rep.Diagnostics {
			if !seen[d.Code] {
				seen[d.Code] = true
				flagged[d.Code]++
			}
			switch d.Code {
			case CodeLooksLikeHTML, CodeBinary, CodeGzip, CodeUTF16:
				if len(rep.Diagnostics) != 1 {
					t.Errorf("%s: %s reported beside %d other diagnostics", names[i], d.Code, len(rep.Diagnostics)-1)
				}
			}
		}
	}
	t.Logf("%d files linted", len(files))
	for _, c := range []Code{CodeLicenseNotAbsolute, CodeLicenseInGroup, CodeUsageOutsideGroup, CodeLooksLikeHTML, CodeBinary, CodeGzip, CodeUTF16, CodeContentPastLimit} {
		t.Logf("%-29s flags %d files", c, flagged[c])
	}
	var codes []string
	for c := range flagged {
		codes = append(codes, string(c))
	}
	sort.Strings(codes)
	for _, c := range codes {
		t.Logf("  %-29s %d", c, flagged[Code(c)])
	}
}

// BenchmarkLintCorpus2025 lints every file of the 2025 corpus once per
// iteration, beside BenchmarkLintCorpus.
func BenchmarkLintCorpus2025(b *testing.B) {
	_, files := corpus.Load2025(b, 0)
	b.SetBytes(corpus.Size(files))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			Lint(f)
		}
	}
}
