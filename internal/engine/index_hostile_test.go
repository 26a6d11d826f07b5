package engine

import (
	"fmt"
	"maps"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt/internal/reference"
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
			built := fresh.index.built.Load() != nil
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

// With two goroutines able to run at once, the index of a large hostile
// set is built by a goroutine of its own once the scans' budget is spent:
// every question meanwhile answers as the slow scan does, none waits for
// the building, and the index is built in the end (run with -race).
func TestHostileIndexBuiltApart(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	tested := 0
	for _, f := range reference.HostileFamilies(200 << 10) {
		rs, _ := load(f.File).Rules("x")
		if rs.index == nil || len(rs.compiled) < backgroundRules {
			continue
		}
		tested++
		fresh, _ := load(f.File).Rules("x")
		for q := 0; q < 3*scanQueries; q++ {
			path := f.Path(100 + 500*(q%4))
			if got, want := fresh.decide(path), scanDecide(rs.compiled, rs.text, path); !sameRule(got, want) {
				t.Fatalf("%s, question %d: decided by %v, the scan by %v", f.Name, q, got, want)
			}
		}
		if !fresh.index.building.Load() {
			t.Errorf("%s: %d rules, %d questions, and the index was not built apart", f.Name, len(rs.compiled), 3*scanQueries)
		}
		deadline := time.Now().Add(30 * time.Second)
		for fresh.index.built.Load() == nil && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if fresh.index.built.Load() == nil {
			t.Fatalf("%s: the index is not built 30 s after it was started", f.Name)
		}
	}
	if tested < 5 {
		t.Fatalf("%d families of %d rules or more: too few to test", tested, backgroundRules)
	}
}
