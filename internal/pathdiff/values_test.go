package pathdiff

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// randomValues returns a few value rules over "/ab", some shared with base,
// with values that are sets of three bits (combined by union, which is
// commutative, associative and idempotent, as Options.Combine must be).
func randomValues(rng *rand.Rand, base []ValueRule) []ValueRule {
	var out []ValueRule
	for _, r := range base {
		if rng.IntN(4) > 0 {
			out = append(out, r)
		}
	}
	for _, r := range randomList(rng, nil) {
		out = append(out, ValueRule{Wire: r.Wire, Value: 1 << rng.IntN(3)})
	}
	return out
}

// slowValue is the value of a path under a list, straight from its
// definition (draft-ietf-aipref-attach-05 section 3.1: the longest
// matching path applies; equally long ones combine), and the first of the
// longest matching rules.
func slowValue(list []ValueRule, path string) (int32, int32) {
	best, dec, val := -1, int32(-1), int32(0)
	for i, r := range list {
		if !pattern.Match(r.Wire, path) {
			continue
		}
		switch {
		case len(r.Wire) > best:
			best, dec, val = len(r.Wire), int32(i), r.Value
		case len(r.Wire) == best:
			val |= r.Value
		}
	}
	return dec, val
}

// CompareValues agrees with the enumeration: every short path that both
// verdict lists allow and whose values differ lies in a class reported
// (the same first deciding rules and values), and every witness is such a
// path of its class. package diff's TestAgainstBruteForce checks the
// whole comparison against the library with a length bound.
func TestCompareValuesAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	or := func(a, b int32) (int32, int64) { return a | b, 1 }
	changed, rounds := 0, randomRounds()/2
	for round := 0; round < rounds; round++ {
		old := randomList(rng, nil)
		new := randomList(rng, old)
		if rng.IntN(3) == 0 {
			new = old
		}
		vo := randomValues(rng, nil)
		vn := randomValues(rng, vo)
		always := rng.IntN(8) == 0
		res := CompareValues([2][]Rule{old, new}, [2][]ValueRule{vo, vn}, ValueOptions{Budget: 1 << 20, Combine: or, AlwaysDiffer: always})
		if !res.Decided {
			t.Fatalf("not decided: %v %v %v %v", old, new, vo, vn)
		}
		classes := map[[4]int32]bool{}
		for _, c := range res.Classes {
			classes[[4]int32{c.Decider[0], c.Decider[1], c.Value[0], c.Value[1]}] = true
			d0, v0 := slowValue(vo, c.Witness)
			d1, v1 := slowValue(vn, c.Witness)
			if !Allows(old, Decides(old, c.Witness)) || !Allows(new, Decides(new, c.Witness)) ||
				!always && v0 == v1 || [2]int32{d0, d1} != c.Decider || [2]int32{v0, v1} != c.Value {
				t.Fatalf("witness %q: deciders %d %d values %d %d, class %+v\nverdicts %v %v\nvalues %v %v", c.Witness, d0, d1, v0, v1, c, old, new, vo, vn)
			}
		}
		if len(res.Classes) > 0 {
			changed++
		}
		walk(6, "ab/%61x", func(p string) {
			if !Allows(old, Decides(old, p)) || !Allows(new, Decides(new, p)) {
				return
			}
			d0, v0 := slowValue(vo, p)
			d1, v1 := slowValue(vn, p)
			if (always || v0 != v1) && !classes[[4]int32{d0, d1, v0, v1}] {
				t.Fatalf("path %q (deciders %d %d, values %d %d) in no class of %+v\nverdicts %v %v\nvalues %v %v", p, d0, d1, v0, v1, res.Classes, old, new, vo, vn)
			}
		})
	}
	if changed < rounds/10 {
		t.Fatalf("only %d of %d pairs change a value: the test checks little", changed, rounds)
	}
}

// A comparison that runs out of budget is not decided, and claims no
// class it has not found.
func TestCompareValuesBudget(t *testing.T) {
	var vo, vn []ValueRule
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.Reset()
		b.WriteString("/*")
		for j := 0; j < 8; j++ {
			b.WriteByte("ab"[(i>>j)&1])
			b.WriteByte('*')
		}
		vo = append(vo, ValueRule{Wire: b.String(), Value: 1})
		vn = append(vn, ValueRule{Wire: b.String(), Value: 2})
	}
	res := CompareValues([2][]Rule{}, [2][]ValueRule{vo, vn}, ValueOptions{Budget: 10_000, Combine: func(a, b int32) (int32, int64) { return a | b, 1 }})
	if res.Decided {
		t.Fatalf("decided within a tiny budget: %d classes, work %d", len(res.Classes), res.Work)
	}
	if res.Work > 10_000+100_000 {
		t.Fatalf("work %d far past the budget", res.Work)
	}
}

// implies is sound: when it says every path pattern q matches also matches
// r, no short path over the patterns' bytes matches q and not r (RFC 9309
// section 2.2.2 matching, '*' and a final '$' included). It must also say
// so often enough to matter.
func TestImpliesAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	said := 0
	for round := 0; round < randomRounds(); round++ {
		pats := randomList(rng, nil)
		if len(pats) < 2 {
			continue
		}
		q, r := pats[0].Wire, pats[1].Wire
		if rng.IntN(3) == 0 {
			r = strings.TrimSuffix(strings.Replace(q, "a", "*", 1), "$") // often implied
		}
		qs, rs := shapeOf(q), shapeOf(r)
		if !implies(q, r, &qs, &rs) {
			continue
		}
		said++
		walk(6, "ab/%61x", func(p string) {
			if pattern.Match(q, p) && !pattern.Match(r, p) {
				t.Fatalf("implies(%q, %q), but %q matches only the first", q, r, p)
			}
		})
	}
	if said < randomRounds()/10 {
		t.Fatalf("implies held for only %d pairs", said)
	}
}
