package engine

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// Hostile families answer as the slow scan does, on smaller files.
func TestHostileAgainstScan(t *testing.T) {
	for _, f := range reference.HostileFamilies(40 << 10) {
		r := load(f.File)
		rs, _ := r.Rules("x")
		for _, n := range []int{1, 50, 700, 5000} {
			for _, path := range []string{f.Path(n), f.Path(n) + "bcd", f.Path(n) + "hgfedcba", "/" + f.Path(n)} {
				want := scanDecide(rs.compiled, rs.text, path)
				for q := 0; q < 40; q++ { // past the queries answered before the index is built
					if got := rs.decide(path); got != want {
						t.Fatalf("%s, path of %d bytes, query %d: decided by %v, the scan by %v", f.Name, len(path), q, got, want)
					}
				}
			}
		}
	}
}

// The first question of a fresh hostile file is answered by scanning the
// rules, without building the index, unless a wildcard rule that the
// path's bytes and pairs admit (pathpairs.go) would cost more than a rule's
// share of the scan budget to match: the structure the first question
// pays for is what its path needs. The hostile families' rules are all
// ruled out that way, so their first questions scan, whatever the path.
func TestHostileFirstQuestionBuildsWhatItNeeds(t *testing.T) {
	builtFor := map[string]bool{}
	for _, f := range reference.HostileFamilies(40 << 10) {
		rs, _ := load(f.File).Rules("x")
		for _, n := range []int{100, 16 << 10} {
			fresh, _ := load(f.File).Rules("x")
			if fresh.index == nil {
				t.Fatalf("%s: %d rules and no index", f.Name, len(fresh.compiled))
			}
			path := f.Path(n)
			// The first rule in order that matches, or that the pairs
			// admit and whose match costs more than its share: the latter
			// builds the index.
			var pairs pathPairs
			pairs.reset(path)
			wantBuilt := false
			for i := range rs.compiled {
				c := &rs.compiled[i]
				if c.info&ruleWild != 0 && c.mayMatch(rs.text, prefixKey(path)) && pairs.admits(c.pattern(rs.text)) &&
					len(path)+int(c.n) > scanBytesPerRule {
					wantBuilt = true
					break
				}
				if c.matchesFully(rs.text, path) {
					break
				}
			}
			if got, want := fresh.decide(path), scanDecide(rs.compiled, rs.text, path); !sameRule(got, want) {
				t.Fatalf("%s, path of %d bytes: decided by %v, the scan by %v", f.Name, len(path), got, want)
			}
			built := fresh.index.ready()
			if built != wantBuilt {
				t.Errorf("%s, first question, path of %d bytes: index built %v, want %v (charged %d bytes of %d)", f.Name, len(path),
					built, wantBuilt, fresh.index.scanned.Load(), scanBytesPerRule*len(fresh.compiled))
			}
			if built {
				builtFor[fmt.Sprintf("%s/%d", f.Name, len(path))] = true
			}
		}
	}
	// Every family's rules are ruled out by their bytes, pairs or the
	// order of their pieces, so no first question builds the index.
	if want := map[string]bool{}; !maps.Equal(builtFor, want) {
		t.Errorf("first questions that built the index: %v, want %v", builtFor, want)
	}
}

// Goroutines asking a fresh hostile file at once share its lazy index
// (scanned, then built once) and the window scratch, and answer as the
// scan does.
func TestHostileConcurrentUse(t *testing.T) {
	for _, f := range reference.HostileFamilies(40 << 10) {
		paths := []string{f.Path(10), f.Path(3000), f.Path(3000) + "bcd", "/" + f.Path(200)}
		want := make([]bool, len(paths))
		rs, _ := load(f.File).Rules("x")
		for i, p := range paths {
			c := scanDecide(rs.compiled, rs.text, p)
			want[i] = c == nil || c.allows()
		}
		r := load(f.File)
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := 0; i < 10; i++ {
					k := (g + i) % len(paths)
					if r.Allowed("x", paths[k]) != want[k] {
						errs <- fmt.Sprintf("%s: wrong answer under concurrency for a path of %d bytes", f.Name, len(paths[k]))
						return
					}
				}
			}(g)
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	}
}

// BenchmarkIndexBuildHostile measures building the index of each hostile
// family's rule set, which the first question of a fresh hostile file
// pays for after the compile.
func BenchmarkIndexBuildHostile(b *testing.B) {
	for _, f := range reference.HostileFamilies(500 << 10) {
		rs, _ := load(f.File).Rules("x")
		b.Run(f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(f.File)))
			for i := 0; i < b.N; i++ {
				newRuleIndex(rs.compiled, rs.text)
			}
		})
	}
}

// largeHostileFamilies returns the hostile families of the given size
// whose rule sets have stepwiseRules rules or more (an index built apart
// or in parts), failing the test when fewer than five do.
func largeHostileFamilies(t *testing.T, size int) []reference.HostileFamily {
	t.Helper()
	var large []reference.HostileFamily
	for _, f := range reference.HostileFamilies(size) {
		if rs, _ := load(f.File).Rules("x"); rs.index != nil && len(rs.compiled) >= stepwiseRules {
			large = append(large, f)
		}
	}
	if len(large) < 5 {
		t.Fatalf("%d families of %d rules or more: too few to test", len(large), stepwiseRules)
	}
	return large
}

// With one goroutine running at a time and with four, a large hostile
// set's index is built in steps, one per question once the scans' budget
// is spent, each question answering as the slow scan does: the index is
// built within a bounded number of questions, and no question built it
// whole.
func TestHostileIndexBuiltInSteps(t *testing.T) {
	for _, procs := range []int{1, 4} {
		t.Run(fmt.Sprint("procs=", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			testHostileIndexBuiltInSteps(t)
		})
	}
}

func testHostileIndexBuiltInSteps(t *testing.T) {
	for _, f := range largeHostileFamilies(t, 200<<10) {
		rs, _ := load(f.File).Rules("x")
		// Parts the build takes: the start, the sort, the steps reading
		// the rules, the numbering and the parts writing the records.
		probe, parts := &lazyIndex{compiled: rs.compiled, text: rs.text}, 1
		for !probe.buildPart() {
			parts++
		}
		fresh, _ := load(f.File).Rules("x")
		builtAt, stepped := -1, false
		for q := 0; q < scanQueries+parts+8; q++ {
			path := f.Path(100 + 500*(q%4))
			if got, want := fresh.decide(path), scanDecide(rs.compiled, rs.text, path); !sameRule(got, want) {
				t.Fatalf("%s, question %d: decided by %v, the scan by %v", f.Name, q, got, want)
			}
			fresh.index.mu.Lock()
			stepped = stepped || fresh.index.steps != nil
			fresh.index.mu.Unlock()
			if builtAt < 0 && fresh.index.ready() {
				builtAt = q
			}
		}
		if builtAt < 0 || !stepped {
			t.Errorf("%s: %d rules, %d questions: index built at question %d, in steps %v; want built in %d parts", f.Name,
				len(rs.compiled), scanQueries+parts+8, builtAt, stepped, parts)
		}
		t.Logf("%s: %d rules, built at question %d in %d parts", f.Name, len(rs.compiled), builtAt+1, parts)
	}
}

// Large random rule sets (stepwiseRules and more), asked with one
// goroutine running at a time: every question, while the index is built
// a part at a time and after, answers as the slow scan does.
func TestLargeRandomIndexBuiltInSteps(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	rng := rand.New(rand.NewPCG(12, 34))
	for round := range 3 {
		var body strings.Builder
		body.WriteString("user-agent: *\n")
		for range stepwiseRules + rng.IntN(3000) {
			kind := "disallow"
			if rng.IntN(3) == 0 {
				kind = "allow"
			}
			body.WriteString(kind + ": /" + randomWord(rng, 4, "abc") + randomWord(rng, 6, "ab*c$/%é") + "\n")
		}
		rs, _ := load([]byte(body.String())).Rules("x")
		if rs.index == nil {
			t.Fatalf("round %d: %d rules and no index", round, len(rs.compiled))
		}
		fresh, _ := load([]byte(body.String())).Rules("x")
		stepped := false
		for q := range 4 * scanQueries {
			path := "/" + randomWord(rng, 12, "abc/é%") + randomWord(rng, 1+q*4, "abc")
			if got, want := fresh.decide(path), scanDecide(rs.compiled, rs.text, path); !sameRule(got, want) {
				t.Fatalf("round %d, question %d, path %q: decided by %v, the scan by %v", round, q, path, got, want)
			}
			fresh.index.mu.Lock()
			stepped = stepped || fresh.index.steps != nil
			fresh.index.mu.Unlock()
		}
		if !fresh.index.ready() || !stepped {
			t.Errorf("round %d: %d rules, %d questions: index built %v, in parts %v; want both", round, len(rs.compiled), 4*scanQueries,
				fresh.index.ready(), stepped)
		}
	}
}

// A building in parts writes the rules' literal prefixes touchWork bytes
// of them a part: the question that starts the index of a hostile set
// takes the page faults of a part of them, not of all (a fresh process
// took 190 at once for 32,000 rules, the slowest question of its file).
func TestIndexListsInParts(t *testing.T) {
	perPart := touchWork / int(unsafe.Sizeof(indexItem{}))
	checked := 0
	for _, f := range reference.HostileFamilies(500 << 10) {
		rs, _ := load(f.File).Rules("x")
		if len(rs.compiled) < 2*perPart {
			continue
		}
		checked++
		l := &lazyIndex{compiled: rs.compiled, text: rs.text}
		var listed []int
		for l.steps == nil || !l.steps.listed {
			if l.buildPart() {
				t.Fatalf("%s: built before its prefixes were listed", f.Name)
			}
			listed = append(listed, l.steps.listAt)
		}
		want := make([]int, 0, len(listed))
		for at := perPart; at < len(rs.compiled); at += perPart {
			want = append(want, at)
		}
		want = append(want, len(rs.compiled))
		if diff := cmp.Diff(want, listed); diff != "" {
			t.Errorf("%s, %d rules: items listed after each part (-want +got):\n%s", f.Name, len(rs.compiled), diff)
		}
	}
	if checked == 0 {
		t.Fatalf("no hostile family has %d rules or more", 2*perPart)
	}
}

// The index built in steps, of any size, is the index built at once: the
// same entries, keys, records and windows, on the hostile families and on
// random rule sets.
func TestIndexBuildInSteps(t *testing.T) {
	check := func(name string, compiled []compiledRule, text string) {
		t.Helper()
		want := newRuleIndex(compiled, text)
		for _, work := range []int64{1, ruleBuildWork, 1000, indexStepWork} {
			b := newIndexBuild(compiled, text)
			for lists := 1; !b.listStep(int(work)); lists++ {
				if lists > len(compiled) {
					t.Fatalf("%s: %d list steps of %d and not done", name, lists, work)
				}
			}
			steps := 0
			for !b.wired && !b.wireStep(work) {
				steps++
				if steps > 2*len(compiled)+2 {
					t.Fatalf("%s: %d wire steps of %d and not done", name, steps, work)
				}
			}
			b.prepare()
			// The pages of the tables written first, as a building in
			// parts does: the index must come out the same.
			tables := len(b.idx.windows.slots)*int(unsafe.Sizeof(windowSlot{})) + len(b.seen.slots)*int(unsafe.Sizeof(patternSlot{}))
			for touches := 0; !b.touchStep(int(max(work, 1))); touches++ {
				if touches > tables/pageBytes+1 {
					t.Fatalf("%s: %d touch steps of %d for %d bytes of tables and not done", name, touches, work, tables)
				}
			}
			if b.touched < tables {
				t.Fatalf("%s: touched %d bytes of %d", name, b.touched, tables)
			}
			for !b.step(work) {
				steps++
				if steps > 2*len(compiled)+2 {
					t.Fatalf("%s: %d steps of %d and not done", name, steps, work)
				}
			}
			b.compactWindows()
			b.number()
			for !b.writeRecords(work) {
				steps++
				if steps > 4*len(compiled)+4 {
					t.Fatalf("%s: %d steps of %d and the records not written", name, steps, work)
				}
			}
			got := b.idx
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(ruleIndex{}, prefixEntry{}, windowTable{}, windowSlot{}, recordLayout{}), cmpopts.IgnoreFields(windowTable{}, "pool")); diff != "" {
				t.Fatalf("%s, steps of %d: the index differs from the one built at once (-want +got):\n%s", name, work, diff)
			}
		}
	}
	for _, f := range reference.HostileFamilies(20 << 10) {
		rs, _ := load(f.File).Rules("x")
		check(f.Name, rs.compiled, rs.text)
	}
	rng := rand.New(rand.NewPCG(24, 9))
	for i := range raceShare(300) {
		// Prefixes shared by a few rules and by many, some with '%' or
		// bytes >= 0x80 (kept in compact form), some whole, some empty.
		rs, _ := randomIndexedRules(t, rng, 200, func() string {
			return randomWord(rng, 1, "*/") + randomWord(rng, 3, "ab%") + randomWord(rng, 8, "ab*a*b$/%41é")
		})
		check(fmt.Sprintf("random set %d", i), rs.compiled, rs.text)
		// Compact rules whose literal prefixes are all empty.
		rs, _ = randomIndexedRules(t, rng, 40, func() string {
			if rng.IntN(3) == 0 {
				return "*" + randomWord(rng, 6, "aé%41")
			}
			return "/" + randomWord(rng, 8, "ab*$")
		})
		check(fmt.Sprintf("random set %d with empty compact prefixes", i), rs.compiled, rs.text)
	}
}

// BenchmarkIndexBuildSteps measures the slowest part of a hostile index
// built in parts, as a question on one CPU pays for it (stepThenScan):
// listing the prefixes touchWork bytes at a time, each step of
// indexStepWork, compacting the windows, numbering them and finishing it.
// It reports the median over the iterations of each one's slowest part
// ("slowest-ms"), the parts, and the whole building ("total-ms").
func BenchmarkIndexBuildSteps(b *testing.B) {
	for _, f := range reference.HostileFamilies(500 << 10) {
		rs, _ := load(f.File).Rules("x")
		if len(rs.compiled) < stepwiseRules {
			continue
		}
		b.Run(f.Name, func(b *testing.B) {
			var slowest []time.Duration
			var total time.Duration
			parts := 0
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				ib := newIndexBuild(rs.compiled, rs.text)
				ib.listStep(touchWork)
				worst := time.Since(t0)
				parts = 1
				for !ib.listed {
					t1 := time.Now()
					ib.listStep(touchWork)
					worst = max(worst, time.Since(t1))
					parts++
				}
				for !ib.wired {
					t1 := time.Now()
					ib.wireStep(indexStepWork)
					worst = max(worst, time.Since(t1))
					parts++
				}
				t1 := time.Now()
				ib.prepare()
				worst = max(worst, time.Since(t1))
				parts++
				for done := false; !done; parts++ {
					t1 := time.Now()
					done = ib.step(indexStepWork)
					worst = max(worst, time.Since(t1))
				}
				t2 := time.Now()
				ib.compactWindows()
				worst = max(worst, time.Since(t2))
				t2 = time.Now()
				ib.number()
				worst = max(worst, time.Since(t2))
				parts += 2
				for done := false; !done; parts++ {
					t1 := time.Now()
					done = ib.writeRecords(indexStepWork)
					worst = max(worst, time.Since(t1))
				}
				slowest = append(slowest, worst)
				total += time.Since(t0)
			}
			slices.Sort(slowest)
			b.ReportMetric(float64(slowest[len(slowest)/2].Microseconds())/1000, "slowest-ms")
			b.ReportMetric(float64(parts), "parts")
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "total-ms")
		})
	}
}

// The build's sort of the rules' literal prefixes (by comparison for
// small sets, by the bytes of their keys for radixItems or more) puts them
// in the order of a slow twin: strings.Compare of the prefixes, in wire
// form, then position.
func TestIndexBuildSortsItems(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 77))
	for round := range 200 {
		extra := 2 * radixItems
		if round%2 == 0 {
			extra = radixItems / 4
		}
		// Prefixes that share 8 bytes and more, or differ early, some
		// with '%' or bytes >= 0x80 (compact form), of many lengths.
		shared := "/" + randomWord(rng, 12, "ab")
		rs, _ := randomIndexedRules(t, rng, extra, func() string {
			p := randomWord(rng, 6, "ab%41é")
			if rng.IntN(2) == 0 {
				p = shared + p
			}
			return "/" + p + randomWord(rng, 4, "ab*$")
		})
		b := newIndexBuild(rs.compiled, rs.text)
		b.prepare()
		type keyed struct {
			prefix string
			pos    int32
		}
		got := make([]keyed, len(b.items))
		for i := range b.items {
			got[i] = keyed{b.prefixOf(&b.items[i]), b.items[i].pos}
		}
		want := slices.Clone(got)
		slices.SortFunc(want, func(x, y keyed) int {
			if c := strings.Compare(x.prefix, y.prefix); c != 0 {
				return c
			}
			return int(x.pos - y.pos)
		})
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(keyed{})); diff != "" {
			t.Fatalf("round %d, %d rules: items out of order (-want +got):\n%s", round, len(b.items), diff)
		}
	}
}
