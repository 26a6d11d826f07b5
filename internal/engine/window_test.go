package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// A window filter never rules out a pattern that matches, and verify
// answers as matchPattern does: checked on random patterns and paths, with
// the windows numbered as they are added and, every other round, by their
// hashes (windowTable.compact). The filter must also rule out most of the
// patterns that do not match.
func TestWindowFilterSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	ruledOut, misses := 0, 0
	for round := 0; round < 200; round++ {
		table := newWindowTable()
		type rule struct {
			pattern string
			prefix  int
			filter  windowFilter
		}
		var rules []rule
		for range 50 {
			pattern := "/" + randomWord(rng, 14, "abcab*$")
			if !strings.Contains(pattern, "*") && !strings.HasSuffix(pattern, "$") {
				continue // plain prefixes are not filtered
			}
			prefix, _ := literalPrefix(pattern)
			filter, _ := newWindowFilter(table, pattern, len(prefix))
			rules = append(rules, rule{pattern, len(prefix), filter})
		}
		if round%2 == 1 {
			// As the index does: number the windows by their hashes.
			renumber := table.compact()
			for i := range rules {
				f := &rules[i].filter
				for _, id := range []*int32{&f.first, &f.last, &f.mid} {
					if *id >= 0 {
						*id = renumber[*id]
					}
				}
			}
		}
		for range 100 {
			path := "/" + randomWord(rng, 60, "abcab/")
			occ := table.find(path)
			for _, r := range rules {
				if !strings.HasPrefix(path, r.pattern[:r.prefix]) {
					continue
				}
				may := r.filter.mayMatch(occ, r.pattern, path, r.prefix)
				match := matchPattern(r.pattern, path)
				if match && !may {
					t.Fatalf("pattern %q matches path %q, but its filter rules it out", r.pattern, path)
				}
				if got := table.verify(occ, r.pattern, path, r.prefix); got != match {
					t.Fatalf("pattern %q, path %q: verify says %v, matchPattern %v", r.pattern, path, got, match)
				}
				if !match {
					misses++
					if !may {
						ruledOut++
					}
				}
			}
			table.put(occ)
		}
	}
	if ruledOut*2 < misses {
		t.Errorf("the filters ruled out %d of %d patterns that do not match; want at least half", ruledOut, misses)
	}
}

// The index with its window filters decides as the scan does, on rule sets
// where many wildcard rules share their literal prefix and paths long
// enough to hold their pieces in any order.
func TestIndexFilterAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 29))
	for round := 0; round < 200; round++ {
		rs, body := randomIndexedRules(t, rng, 300, func() string {
			return "/" + randomWord(rng, 3, "ab") + "*" + randomWord(rng, 10, "abcd*$")
		})
		idx := rs.index.get()
		if round%2 == 1 {
			idx.layout.narrowIDs = false // as with over 2^19 windows
		}
		for q := 0; q < 100; q++ {
			path := "/" + randomWord(rng, 80, "abcd/")
			want := scanDecide(rs.compiled, rs.text, path)
			got := idx.find(rs.compiled, rs.text, path)
			if want == nil && got != noRule || want != nil && (got == noRule || &rs.compiled[got] != want) {
				t.Fatalf("round %d, path %q: index decides by rule %d, scan by %v\n%s", round, path, got, want, body)
			}
		}
	}
}

// The index with its window filters decides as the scan does on paths made
// from the rules themselves (each '*' replaced by a few bytes or none), so
// that most paths match some rule, often at the boundaries the filters
// compute: pieces that touch, an anchored piece right after the prefix.
// Twenty long rules that fail come first, so that every query reaches the
// filters.
func TestIndexFilterMatchingPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 53))
	for round := 0; round < 200; round++ {
		var patterns []string
		blockers := 0
		rs, body := randomIndexedRules(t, rng, 300, func() string {
			if blockers < filterAfter+4 {
				// Long patterns, tried first, that need the path's bytes
				// but never match it: the query reaches the filters.
				blockers++
				return "/*" + strings.Repeat("abcd", 10) + randomWord(rng, 8, "abcd")
			}
			p := "/" + randomWord(rng, 3, "ab") + "*" + randomWord(rng, 12, "abcdabcd**$")
			patterns = append(patterns, p)
			return p
		})
		if len(patterns) == 0 {
			continue // every rule a blocker
		}
		idx := rs.index.get()
		for q := 0; q < 100; q++ {
			pattern := patterns[rng.IntN(len(patterns))]
			var path strings.Builder
			for i := 0; i < len(pattern); i++ {
				switch c := pattern[i]; {
				case c == '*':
					path.WriteString(randomWord(rng, 3, "abcd/"))
				case c == '$' && i == len(pattern)-1:
				default:
					path.WriteByte(c)
				}
			}
			if rng.IntN(2) == 0 {
				path.WriteString(randomWord(rng, 4, "abcd"))
			}
			want := scanDecide(rs.compiled, rs.text, path.String())
			got := idx.find(rs.compiled, rs.text, path.String())
			if want == nil && got != noRule || want != nil && (got == noRule || &rs.compiled[got] != want) {
				t.Fatalf("round %d, path %q (from %q): index decides by rule %d, scan by %v\n%s", round, path.String(), pattern, got, want, body)
			}
		}
	}
}

// FuzzWindowVerify checks, for any pattern and path, that the window filter
// never rules out a match and that verify agrees with matchPattern, as the
// table is built and once it is complete, the filter stored as a record.
func FuzzWindowVerify(f *testing.F) {
	f.Add("/*a*bc*d$", "/xxaybcd")
	f.Add("/p*zz*aa", "/paazz")
	f.Add("/a*c**c*$", "/a/cc")
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if pattern == "" || pattern[0] != '/' || path == "" || path[0] != '/' ||
			strings.IndexByte(pattern, 0) >= 0 || strings.IndexByte(path, 0) >= 0 {
			return // patterns and paths as the matcher sees them
		}
		prefix, _ := literalPrefix(pattern)
		if !strings.HasPrefix(path, prefix) {
			return // the index only asks rules whose prefix starts the path
		}
		table := newWindowTable()
		filter, _ := newWindowFilter(table, pattern, len(prefix))
		occ := table.find(path)
		match := matchPattern(pattern, path)
		if match && !filter.mayMatch(occ, pattern, path, len(prefix)) {
			t.Fatalf("pattern %q matches path %q, but its filter rules it out", pattern, path)
		}
		if got := table.verify(occ, pattern, path, len(prefix)); got != match {
			t.Fatalf("pattern %q, path %q: verify says %v, matchPattern %v", pattern, path, got, match)
		}
		table.put(occ)
		// As the index keeps it: the table complete, the filter a record.
		renumber := table.compact()
		for _, id := range []*int32{&filter.first, &filter.last, &filter.mid} {
			if *id >= 0 {
				*id = renumber[*id]
			}
		}
		kind := filterKind(filter)
		layout := newRecordLayout(1, table.count, filter.span, filter.midOff, 0)
		var w recordWriter
		layout.putRecord(&w, 1, 0, false, kind, filter, 0)
		stored := layout.readFilter(w.finish(), uint64(layout.headBits), kind)
		occ = table.find(path)
		defer table.put(occ)
		if match && !stored.mayMatch(occ, pattern, path, len(prefix)) {
			t.Fatalf("pattern %q matches path %q, but its stored filter %+v rules it out", pattern, path, stored)
		}
		if got := table.verify(occ, pattern, path, len(prefix)); got != match {
			t.Fatalf("pattern %q, path %q: verify on the complete table says %v, matchPattern %v", pattern, path, got, match)
		}
	})
}

// mayMatch is mayMatch for a filter as a struct.
func (f *windowFilter) mayMatch(occ *occurrences, pattern, path string, n int) bool {
	return mayMatch(f.first, f.last, f.mid, int32(f.span), int32(f.midOff), occ, pattern, path, n)
}

// The occurrences find records, in either form (a map while few windows
// occur, arrays by window number once many do), tell where each window of
// the table first and last starts, as searching the path for it does; and
// put leaves nothing behind for the next path. Checked on random tables,
// small (dense from the start) and large, and on paths short and long.
func TestOccurrencesAgainstSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 29))
	forms := map[string]int{}
	for round := 0; round < 60; round++ {
		table := newWindowTable()
		alphabet := "abcdefgh/%"[:2+rng.IntN(9)]
		var windows []string
		for range rng.IntN(3000) + 1 {
			w := randomWord(rng, maxWindow, alphabet)
			if w == "" {
				continue
			}
			table.add(w)
			windows = append(windows, w)
		}
		if round%2 == 1 {
			table.compact()
		}
		for q := range 30 {
			path := randomWord(rng, []int{8, 100, 2000}[q%3], alphabet)
			occ := table.find(path)
			switch {
			case table.count <= denseWindows:
				forms["dense from the start"]++
			case occ.dense:
				forms["dense"]++
			default:
				forms["map"]++
			}
			for _, w := range windows {
				id := table.id(w)
				first, last := strings.Index(path, w), strings.LastIndex(path, w)
				if got := occ.has(id); got != (first >= 0) {
					t.Fatalf("window %q in path %q: has says %v, want %v", w, path, got, first >= 0)
				}
				if first >= 0 && (occ.first(id) != int32(first) || occ.last(id) != int32(last)) {
					t.Fatalf("window %q in path %q: first, last %d, %d; want %d, %d", w, path, occ.first(id), occ.last(id), first, last)
				}
			}
			table.put(occ)
		}
	}
	for _, form := range []string{"dense from the start", "dense", "map"} {
		if forms[form] == 0 {
			t.Errorf("no path used the form %q; got %v", form, forms)
		}
	}
}

// A complete window table numbers its windows 0 to count-1, one each, and
// finds every window it holds and none it does not, as a Go map does: on
// random tables, small and large, and on windows chosen so that their
// hashes crowd one bucket (searched by bisection).
func TestWindowTableAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(67, 71))
	inverse := uint32(0x9E3779B1) // of the hash's multiplier, by Newton's iteration
	for range 5 {
		inverse *= 2 - 0x9E3779B1*inverse
	}
	crowded := 0
	for round := 0; round < 100; round++ {
		table := newWindowTable()
		added := map[string]int32{}
		n := []int{1, 10, 300, 5000}[round%4]
		for range n {
			w := randomWord(rng, maxWindow, "abcdefgh/%\xff"[:2+rng.IntN(10)])
			if w == "" {
				continue
			}
			added[w] = table.add(w)
		}
		top := 0xFFFFFFFF * inverse // the window whose hash is the scans' sentinel
		topWindow := string([]byte{byte(top), byte(top >> 8), byte(top >> 16), byte(top >> 24)})
		if round%2 == 0 && !strings.Contains(topWindow, "\x00") {
			added[topWindow] = table.add(topWindow)
		}
		base := rng.Uint32()
		if round%3 == 0 {
			// Windows whose hashes are neighbours: one bucket holds them.
			for h := base; h < base+400; h++ {
				k := h * inverse
				w := string([]byte{byte(k), byte(k >> 8), byte(k >> 16), byte(k >> 24)})
				if !strings.Contains(w, "\x00") {
					added[w] = table.add(w)
				}
			}
		}
		for w, id := range added {
			if got := table.id(w); got != id {
				t.Fatalf("before compact, window %q: number %d, want %d", w, got, id)
			}
		}
		renumber := table.compact()
		seen := make([]bool, table.count)
		for w, id := range added {
			got := table.id(w)
			if got != renumber[id] || got < 0 || int(got) >= table.count || seen[got] {
				t.Fatalf("window %q: number %d (renumbered %d), of %d windows", w, got, renumber[id], table.count)
			}
			seen[got] = true
		}
		if table.crowded {
			crowded++
		}
		if _, ok := added[topWindow]; !ok && table.id(topWindow) != -1 {
			t.Fatalf("window %q, never added, has number %d", topWindow, table.id(topWindow))
		}
		for h := base - 50; round%3 == 0 && h != base; h++ {
			// Absent windows hashed into or next to the crowded bucket.
			k := (h + 450*(h&1)) * inverse
			w := string([]byte{byte(k), byte(k >> 8), byte(k >> 16), byte(k >> 24)})
			if _, ok := added[w]; !ok && table.id(w) != -1 {
				t.Fatalf("window %q, never added, has number %d", w, table.id(w))
			}
		}
		for range 2000 {
			w := randomWord(rng, maxWindow, "abcdefghij/%\xff")
			if _, ok := added[w]; !ok && w != "" && table.id(w) != -1 {
				t.Fatalf("window %q, never added, has number %d", w, table.id(w))
			}
		}
	}
	if crowded == 0 {
		t.Errorf("no table had a bucket of more than %d windows", crowdedBucket)
	}
}

// newWindowFilter, which reads a pattern once, makes the filter its slow
// twin makes, with the same windows (numbered apart) and the same
// signature, on random patterns with stars, anchors and long pieces.
func TestWindowFilterAgainstTwin(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 29))
	for range 20000 {
		pattern := "/" + randomWord(rng, 24, "abcdabcd**$/")
		prefix, whole := literalPrefix(pattern)
		if whole {
			continue
		}
		fast, slow := newWindowTable(), newWindowTable()
		got, gotCovered := newWindowFilter(fast, pattern, len(prefix))
		want, wantCovered := windowFilterTwin(slow, pattern, len(prefix))
		window := func(table *windowTable, id int32) string {
			if id < 0 {
				return fmt.Sprint(id)
			}
			for _, slot := range table.slots {
				if slot.key != 0 && slot.id == id {
					return fmt.Sprintf("%08x", slot.key)
				}
			}
			return "missing"
		}
		describe := func(table *windowTable, f windowFilter, covered uint32) string {
			return fmt.Sprintf("first %s last %s mid %s span %d midOff %d covered %08x windows %d",
				window(table, f.first), window(table, f.last), window(table, f.mid), f.span, f.midOff, covered, table.count)
		}
		if g, w := describe(fast, got, gotCovered), describe(slow, want, wantCovered); g != w {
			t.Fatalf("pattern %q:\n got  %s\n want %s", pattern, g, w)
		}
	}
}

// windowFilterTwin is the slow twin of newWindowFilter, which reads the
// pattern twice: it returns the filter of a wildcard pattern whose literal
// prefix is n bytes long, adding its windows to t, and the byteSignature of
// the bytes a path holds when the filter passes: those of its windows, and
// of an anchored last piece.
func windowFilterTwin(t *windowTable, pattern string, n int) (windowFilter, uint32) {
	rest, anchored := cutAnchor(pattern[n:])
	var q1, qk string
	count, total := 0, 0
	for rest != "" {
		p, after, _ := strings.Cut(rest, "*")
		if p != "" {
			if count == 0 {
				q1 = p
			}
			qk = p
			count++
			total += len(p)
		}
		rest = after
	}
	if count == 0 {
		return windowFilter{first: alwaysMatch, last: alwaysMatch, mid: noWindow}, 0
	}
	span := total - len(qk)
	f := windowFilter{first: noWindow, last: noWindow}
	var covered uint32
	if !anchored || count > 1 {
		f.first = t.add(q1[:min(len(q1), maxWindow)])
		covered |= byteSignature(q1[:min(len(q1), maxWindow)])
	} else {
		covered |= byteSignature(qk) // checked as a suffix
	}
	// The first window of every piece, for verify; an anchored last piece
	// is checked as a suffix instead.
	f.mid = noWindow
	longest, off, midOff, midWindow := 0, 0, 0, ""
	for i, rest := 0, strings.TrimSuffix(pattern[n:], "$"); rest != ""; {
		p, after, _ := strings.Cut(rest, "*")
		rest = after
		if p == "" {
			continue
		}
		if i++; i == count && anchored {
			break
		}
		id := t.add(p[:min(len(p), maxWindow)])
		if i > 1 && i < count && len(p) > longest {
			longest, f.mid, midOff, midWindow = len(p), id, off, p[:min(len(p), maxWindow)]
		}
		off += len(p)
	}
	if !anchored {
		if count == 1 {
			f.last = f.first // the same window: it must occur after the prefix
		} else {
			w := qk[max(len(qk)-maxWindow, 0):]
			f.last = t.add(w)
			covered |= byteSignature(w)
			span += len(qk) - len(w)
		}
	} else if count > 1 {
		covered |= byteSignature(qk) // checked as a suffix
	}
	covered |= byteSignature(midWindow)
	f.span = uint16(span)
	if f.mid != noWindow {
		f.midOff = uint16(midOff)
	}
	return f, covered
}
