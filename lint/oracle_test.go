package lint_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
	"github.com/seed50c7eacc/robotstxt/lint"
)

// reportOracleEnv names an external program that prints Google's per-line
// report (RobotsParsingReporter) of a robots.txt file given as its argument:
// one line per parsed line, "LINE TAG IS_TYPO IS_EMPTY HAS_COMMENT
// IS_COMMENT HAS_DIRECTIVE IS_ACCEPTABLE_TYPO IS_LINE_TOO_LONG
// IS_MISSING_COLON_SEPARATOR" as integers, then "valid=N unused=N last=N".
// Like oracleEnv, it is built outside this repository.
const reportOracleEnv = "ROBOTSTXT_REPORT_ORACLE"

// TestReportOracle compares Lint's per-line view and counts with Google's
// reporting library on every corpus file and on generated files.
func TestReportOracle(t *testing.T) {
	oracle := os.Getenv(reportOracleEnv)
	if oracle == "" {
		t.Skipf("%s is not set: no Google reporting oracle to compare with", reportOracleEnv)
	}
	has := func(l lint.LineReport, f lint.LineFlags) int {
		if l.Flags&f != 0 {
			return 1
		}
		return 0
	}
	compare := func(name string, body []byte) {
		f, err := os.CreateTemp(t.TempDir(), "robots-*.txt")
		if err != nil {
			t.Fatal(err)
		}
		f.Write(body)
		f.Close()
		out, err := exec.Command(oracle, f.Name()).Output()
		if err != nil {
			t.Fatalf("%s: oracle: %v", name, err)
		}
		rep := lint.LintWith(body, lint.Options{MaxSize: -1})
		var got strings.Builder
		for _, l := range rep.Lines {
			fmt.Fprintf(&got, "%d %d %d %d %d %d %d %d %d %d\n", l.Line, int(l.Tag), has(l, lint.LineTypo), has(l, lint.LineEmpty),
				has(l, lint.LineHasComment), has(l, lint.LineComment), has(l, lint.LineDirective), has(l, lint.LineTypo), has(l, lint.LineTooLong), has(l, lint.LineMissingColon))
		}
		fmt.Fprintf(&got, "valid=%d unused=%d last=%d\n", rep.ValidDirectives, rep.UnusedDirectives, rep.LastLine)
		if got.String() != string(out) {
			gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(out), "\n")
			for i := range wl {
				if i >= len(gl) || gl[i] != wl[i] {
					g := "(none)"
					if i < len(gl) {
						g = gl[i]
					}
					t.Errorf("%s: line %d of the report: got %q, Google's library %q", name, i+1, g, wl[i])
					return
				}
			}
			t.Errorf("%s: report has extra lines", name)
		}
	}
	names, files := corpus.Load(t, 0)
	for i, f := range files {
		compare(names[i], f)
	}
	// Generated files: random runs of the bytes and words lines are made of.
	pieces := []string{"\n", "\r", "\r\n", "\x00", "#", ":", " ", "\t", "\xEF\xBB\xBF", "user-agent", "useragent", "Disallow", "disalow", "allow", "sitemap", "site-map", "crawl-delay", "noindex", "/a", "*", "x"}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for j := rng.IntN(200); j > 0; j-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		compare(fmt.Sprintf("generated %d", i), []byte(b.String()))
	}
}
