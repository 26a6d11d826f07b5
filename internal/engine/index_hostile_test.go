package engine

import (
	"fmt"
	"sync"
	"testing"

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
// rules when the path is short, without building the index (the scan
// costs less), and builds the index at once when the path is long (the
// wildcard matches would cost more than building): the structure the
// first question pays for is what its path needs.
func TestHostileFirstQuestionBuildsWhatItNeeds(t *testing.T) {
	for _, f := range reference.HostileFamilies(40 << 10) {
		wild := false
		rs, _ := load(f.File).Rules("x")
		for i := range rs.compiled {
			wild = wild || rs.compiled[i].info&ruleWild != 0
		}
		for _, n := range []int{100, 16 << 10} {
			fresh, _ := load(f.File).Rules("x")
			if fresh.index == nil {
				t.Fatalf("%s: %d rules and no index", f.Name, len(fresh.compiled))
			}
			path := f.Path(n)
			if got, want := fresh.decide(path), scanDecide(rs.compiled, rs.text, path); !sameRule(got, want) {
				t.Fatalf("%s, path of %d bytes: decided by %v, the scan by %v", f.Name, len(path), got, want)
			}
			built := fresh.index.built.Load() != nil
			if wantBuilt := wild && len(path) > scanBytesPerRule; built != wantBuilt {
				t.Errorf("%s, first question, path of %d bytes: index built %v, want %v (charged %d bytes of %d)", f.Name, len(path),
					built, wantBuilt, fresh.index.scanned.Load(), scanBytesPerRule*len(fresh.compiled))
			}
		}
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
