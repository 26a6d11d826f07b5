package tester

import "strings"

// A LineDiff marks the lines that differ between two versions of a file,
// for the compare view to mark in its editors: the old lines not kept in
// the new version (removed or changed) and the new lines not in the old
// one (added or changed), numbered from 1 as Google numbers lines. The
// verdict changes come from package diff (Compare); these marks are only
// the text's edits.
type LineDiff struct {
	Old []int `json:"old"`
	New []int `json:"new"`
	// Exact is false when the versions differ by more than maxEdits
	// lines: then every line between their common first and last lines
	// is marked, rather than spend time quadratic in the edits.
	Exact bool `json:"exact"`
}

// maxEdits bounds the edit script LineDiff looks for: the search costs
// time proportional to the lines times the edits, and memory to the
// edits squared (a few MB at 1,000).
const maxEdits = 1000

// splitLines returns text's lines as the page numbers them (a line ends
// at CR, LF or CR LF; no empty line after the last line end).
func splitLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Lines compares old and new line by line: a shortest edit script (the
// fewest lines removed and added) when the versions differ by at most
// maxEdits lines. Lists are empty, not nil.
func Lines(old, new string) LineDiff {
	return linesWithin(splitLines(old), splitLines(new), maxEdits)
}

func linesWithin(a, b []string, limit int) LineDiff {
	out := LineDiff{Old: []int{}, New: []int{}, Exact: true}
	// The common head and tail cost nothing to keep.
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	a, b = a[head:len(a)-tail], b[head:len(b)-tail]
	// Lines as numbers, compared in one step.
	ids := map[string]int32{}
	id := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			n, ok := ids[l]
			if !ok {
				n = int32(len(ids))
				ids[l] = n
			}
			out[i] = n
		}
		return out
	}
	x, y := id(a), id(b)
	removed, added, ok := shortestEdit(x, y, limit)
	if !ok {
		out.Exact = false
		removed, added = removed[:0], added[:0]
		for i := range x {
			removed = append(removed, i)
		}
		for j := range y {
			added = append(added, j)
		}
	}
	for _, i := range removed {
		out.Old = append(out.Old, head+i+1)
	}
	for _, j := range added {
		out.New = append(out.New, head+j+1)
	}
	return out
}

// shortestEdit finds a shortest edit script from a to b by Myers' greedy
// O(ND) search ("An O(ND) Difference Algorithm and Its Variations", 1986)
// and returns the indexes of a removed and of b added, in order; ok is
// false when it needs more than limit edits.
func shortestEdit(a, b []int32, limit int) (removed, added []int, ok bool) {
	n, m := len(a), len(b)
	maxD := min(n+m, limit)
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	// trace[d] holds v[k] for k in -d..d after step d: the furthest x
	// reached on diagonal k with d edits.
	var trace [][]int32
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1]) // down: an addition
			} else {
				x = int(v[off+k-1]) + 1 // right: a removal
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = int32(x)
		}
		trace = append(trace, append([]int32(nil), v[off-d:off+d+1]...))
		if reached(v, off, d, n, m) {
			removed, added = backtrack(trace, n, m)
			return removed, added, true
		}
	}
	return nil, nil, false
}

// reached reports whether some diagonal of step d got to (n, m).
func reached(v []int32, off, d, n, m int) bool {
	k := n - m
	return k >= -d && k <= d && (k+d)%2 == 0 && int(v[off+k]) >= n
}

// backtrack walks the trace back from (n, m) and returns the edits.
func backtrack(trace [][]int32, n, m int) (removed, added []int) {
	at := func(d, k int) int { return int(trace[d][k+d]) }
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		k := x - y
		var pk int
		if k == -d || (k != d && at(d-1, k-1) < at(d-1, k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		// Step d went from the end of diagonal pk's path, (px, py), by
		// one edit and then along equal lines to (x, y).
		px := at(d-1, pk)
		py := px - pk
		if pk == k+1 {
			added = append(added, py)
		} else {
			removed = append(removed, px)
		}
		x, y = px, py
	}
	reverse(removed)
	reverse(added)
	return removed, added
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
