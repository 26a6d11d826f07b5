package lint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// The shadowing proof on its own: coverText and matchPattern decide
// "q matches every path p matches".
func TestCovers(t *testing.T) {
	tests := []struct {
		q, p string
		want bool
	}{
		{"/a", "/a", true},
		{"/a*", "/a", true},
		{"/a", "/a*", true},
		{"/*a", "/a", true},
		{"/*a", "/ba", true},
		{"/a*", "/a$", true},
		{"/a$", "/a", false},
		{"/a$", "/a$", true},
		{"/a*$", "/a", true},
		{"/a*$", "/ab*", true},
		{"/ab", "/a", false},
		{"/a", "/*a", false},
		{"*", "/x*y$", true},
		{"/*.php", "/a.php", true},
		{"/*.php$", "/a.php", false},
		{"/*.php$", "/a.php$", true},
		{"/*.php$", "/*.php$", true},
		{"/x*y", "/x*z", false},
		{"/x*y", "/x*y*z", true},
		{"/a$b", "/a$b", true},
		{"/a$b", "/a$", false},
	}
	for _, tt := range tests {
		if got := pattern.Match(tt.q, coverText(tt.p)); got != tt.want {
			t.Errorf("%q covers %q: %v, want %v", tt.q, tt.p, got, tt.want)
		}
	}
}

// coverText is appendCoverText as a string.
func coverText(p string) string { return string(appendCoverText(nil, p)) }

// The shadow index (sorted arrays, a hash table of prefix starts) finds
// the same shadower as a slow twin that scans every rule, shortest literal
// prefix first and then in file order, on random rule sets, small ones and
// some of 300 rules (a fuller table, with longer probe runs), with one
// index reused for every set.
func TestShadowIndexMatchesSlowTwin(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2))
	pieces := []string{"/", "a", "b", "/a", "*", "$", "x/"}
	idx := new(shadowIndex) // reused, as for the agent sets of one file
	for round := 0; round < 2000; round++ {
		s := &ruleSet{}
		n := 1 + rng.IntN(12)
		if round%50 == 0 {
			n = 300
		}
		for i := range n {
			var p strings.Builder
			if rng.IntN(8) > 0 {
				p.WriteByte('/')
			}
			for range rng.IntN(5) {
				p.WriteString(pieces[rng.IntN(len(pieces))])
			}
			r := setRule{pattern: p.String(), index: int32(i), allow: rng.IntN(2) == 0}
			r.derived = r.allow && rng.IntN(4) == 0
			r.prefix = literalPrefixLen(r.pattern)
			s.rules = append(s.rules, r)
		}
		s.index(idx)
		for i := range s.rules {
			budget := shadowBudget
			got, gotSame, _ := s.coveredBy(i, idx, &budget, nil)
			want, wantSame := slowCoveredBy(s, i)
			if got != want || gotSame != wantSame {
				t.Fatalf("rules %+v, rule %d: coveredBy = %d, %v; slow twin = %d, %v", s.rules, i, got, gotSame, want, wantSame)
			}
		}
	}
}

// slowCoveredBy is coveredBy without an index.
func slowCoveredBy(s *ruleSet, i int) (int, bool) {
	r := s.rules[i]
	if !matchable(r.pattern) {
		return -1, false
	}
	if !r.allow && !r.derived {
		for j, o := range s.rules {
			if matchable(o.pattern) && o.allow && !o.derived && o.pattern == r.pattern {
				return j, true
			}
		}
	}
	text := coverText(r.pattern)
	t0 := textPrefix(text)
	var lengths []int
	for _, o := range s.rules {
		if matchable(o.pattern) {
			lengths = append(lengths, int(o.prefix))
		}
	}
	slices.Sort(lengths)
	lengths = slices.Compact(lengths)
	for _, n := range lengths {
		if n > len(t0) {
			break
		}
		for j, o := range s.rules {
			if !matchable(o.pattern) || o.pattern[:o.prefix] != t0[:n] {
				continue
			}
			if o.allow == r.allow || !(len(o.pattern) > len(r.pattern) || len(o.pattern) == len(r.pattern) && o.allow) {
				continue
			}
			if pattern.Match(o.pattern, text) {
				return j, false
			}
		}
	}
	return -1, false
}
