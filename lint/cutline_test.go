package lint_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt/lint"
)

// A line the size limit cuts is described by the content-past-limit
// diagnostic alone (RFC 9309 section 2.5 lets a crawler stop at a limit;
// Google's documentation: 500 KiB): its fragment, "Disall", is not what
// the file says, so it is not also reported as a line that is not a
// directive. A cut at a line's start leaves the lines before it as they
// are.
func TestCutLineReportedOnce(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /a\nDisallow: /b\n")
	codes := func(r *lint.Report) []string {
		var out []string
		for _, d := range r.Diagnostics {
			out = append(out, string(d.Code)+"@"+string(rune('0'+d.Line)))
		}
		return out
	}
	if diff := cmp.Diff([]string{"content-past-limit@2"}, codes(lint.LintWith(body, lint.Options{MaxSize: 20}))); diff != "" {
		t.Errorf("cut within line 2 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"content-past-limit@3"}, codes(lint.LintWith(body, lint.Options{MaxSize: 27}))); diff != "" {
		t.Errorf("cut at line 3's start (-want +got):\n%s", diff)
	}
}
