package tester

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLines(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           LineDiff
	}{
		{"same", "a\nb\n", "a\nb", LineDiff{Old: []int{}, New: []int{}, Exact: true}},
		{"a line added", "User-agent: Googlebot\nDisallow: /a\n", "User-agent: Googlebot\nDisallow: /private/\nDisallow: /a\n",
			LineDiff{Old: []int{}, New: []int{2}, Exact: true}},
		{"a line changed", "a\nb\nc\n", "a\nB\nc\n", LineDiff{Old: []int{2}, New: []int{2}, Exact: true}},
		{"CR LF and CR end lines as LF does", "a\r\nb\rc", "a\nb\nc\nd", LineDiff{Old: []int{}, New: []int{4}, Exact: true}},
		{"from nothing", "", "a\nb\n", LineDiff{Old: []int{1}, New: []int{1, 2}, Exact: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, Lines(tt.old, tt.new)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestLinesBounded checks the fallback past the edit limit: the lines
// between the common head and tail are all marked.
func TestLinesBounded(t *testing.T) {
	a := []string{"head", "x1", "x2", "x3", "tail"}
	b := []string{"head", "y1", "y2", "tail"}
	want := LineDiff{Old: []int{2, 3, 4}, New: []int{2, 3}, Exact: false}
	if d := cmp.Diff(want, linesWithin(a, b, 2)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if got := linesWithin(a, b, 5); !got.Exact || len(got.Old)+len(got.New) != 5 {
		t.Errorf("within the limit: %+v", got)
	}
}

// lcs is the length of a longest common subsequence, by the textbook
// table: the slow twin of shortestEdit.
func lcs(a, b []string) int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t[0][0]
}

// TestLinesShortest checks random pairs against the slow twin: the lines
// left unmarked are the same lines in the same order in both versions (a
// common subsequence), and as many as a longest one has, so the marks
// are a shortest edit.
func TestLinesShortest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() []string {
		lines := make([]string, rng.IntN(12))
		for i := range lines {
			lines[i] = string(rune('a' + rng.IntN(3)))
		}
		return lines
	}
	for range 20000 {
		a, b := random(), random()
		got := Lines(strings.Join(a, "\n"), strings.Join(b, "\n"))
		if len(a) == 0 {
			a = []string{""} // an empty text is one empty line
		}
		if len(b) == 0 {
			b = []string{""}
		}
		kept := func(lines []string, marked []int) []string {
			var out []string
			for i, l := range lines {
				if !slices.Contains(marked, i+1) {
					out = append(out, l)
				}
			}
			return out
		}
		ka, kb := kept(a, got.Old), kept(b, got.New)
		if !got.Exact || !cmp.Equal(ka, kb) || len(ka) != lcs(a, b) {
			t.Fatalf("%q → %q: marks %+v keep %q and %q; a longest common subsequence has %d lines", a, b, got, ka, kb, lcs(a, b))
		}
	}
}
