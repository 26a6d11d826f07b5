package pathdiff

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// randomList returns a few rules over "/ab" with '*', '$' and an escape,
// some shared with base (as two versions of one file share most rules).
func randomList(rng *rand.Rand, base []Rule) []Rule {
	pieces := []string{"a", "b", "/", "*", "%61"}
	var out []Rule
	for _, r := range base {
		if rng.IntN(4) > 0 {
			out = append(out, r)
		}
	}
	for n := rng.IntN(4); n > 0; n-- {
		var b strings.Builder
		if rng.IntN(5) == 0 {
			b.WriteByte('*')
		} else {
			b.WriteByte('/')
		}
		for k := rng.IntN(4); k > 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if rng.IntN(4) == 0 {
			b.WriteByte('$')
		}
		out = append(out, Rule{Allow: rng.IntN(2) == 0, Wire: b.String()})
	}
	return out
}

// walk calls visit with every path "/" + s, len(s) < k, over alphabet.
func walk(k int, alphabet string, visit func(string)) {
	buf := []byte{'/'}
	var rec func()
	rec = func() {
		visit(string(buf))
		if len(buf) >= k {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			buf = append(buf, alphabet[i])
			rec()
			buf = buf[:len(buf)-1]
		}
	}
	rec()
}

// Leaving out the rules relevant finds irrelevant changes nothing: on
// every short path over the patterns' bytes and one other, the reduced
// lists answer as the full ones wherever the full ones differ, with the
// same deciding rules, and differ nowhere else. A slow twin of the
// reduction, checked on random pairs of lists.
func TestRelevantKeepsEveryDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 9309))
	reducedPairs := 0
	for round := 0; round < randomRounds(); round++ {
		old := randomList(rng, nil)
		new := randomList(rng, old)
		lists := [2][]Rule{old, new}
		keep, reduced := relevant(lists)
		if !reduced {
			continue
		}
		reducedPairs++
		var small [2][]Rule
		for f := range lists {
			for _, k := range keep[f] {
				small[f] = append(small[f], lists[f][k])
			}
		}
		walk(6, "ab/%61x", func(p string) {
			var full, part [2]int32
			for f := range lists {
				full[f] = Decides(lists[f], p)
				part[f] = Decides(small[f], p)
				if part[f] >= 0 {
					part[f] = keep[f][part[f]]
				}
			}
			fullDiffers := Allows(old, full[0]) != Allows(new, full[1])
			partDiffers := Allows(old, part[0]) != Allows(new, part[1])
			if fullDiffers != partDiffers || fullDiffers && full != part {
				t.Fatalf("old %v new %v, kept %v: path %q: full lists decide %v (differ %v), reduced %v (differ %v)", old, new, keep, p, full, fullDiffers, part, partDiffers)
			}
		})
	}
	if reducedPairs < 100 {
		t.Fatalf("only %d of the random pairs were reduced: the test checks little", reducedPairs)
	}
}

// Compare agrees with the enumeration on random pairs, with the package's
// own matcher: when some short path differs a class is reported, and
// every witness differs, decided by its class's rules (so a change is
// reported only with a proof). package diff's TestAgainstBruteForce holds
// the bound argument that makes the enumeration complete, with the
// library's matcher.
func TestCompareAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for round := 0; round < randomRounds(); round++ {
		old := randomList(rng, nil)
		new := randomList(rng, old)
		res := Compare(old, new, Options{Budget: 1 << 20})
		if !res.Decided {
			t.Fatalf("old %v new %v: not decided", old, new)
		}
		found := ""
		walk(6, "ab/%61x", func(p string) {
			if found == "" && Allows(old, Decides(old, p)) != Allows(new, Decides(new, p)) {
				found = p
			}
		})
		if found != "" && !res.Changed() {
			t.Fatalf("old %v new %v: enumeration found %q, Compare %d classes", old, new, found, len(res.Classes))
		}
		for _, c := range res.Classes {
			o, n := Decides(old, c.Witness), Decides(new, c.Witness)
			if Allows(old, o) == Allows(new, n) || [2]int32{o, n} != c.Decider {
				t.Fatalf("old %v new %v: witness %q decided by %d, %d; class says %v", old, new, c.Witness, o, n, c.Decider)
			}
		}
	}
}

// randomRounds is how many random pairs of lists a test checks: 3,000,
// and a quarter of them under the race detector.
func randomRounds() int {
	if raceEnabled {
		return 750
	}
	return 3000
}
