package lint

import (
	"slices"
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/pathdiff"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// Which rules change no verdict: a rule is dead for an agent when dropping
// it from the agent's merged rules leaves every path's verdict as it was
// (RFC 9309 section 2.2.2: the longest match decides, allow winning a tie;
// Google's matcher also lets "allow: /d/index.html" allow "/d/"). Lint
// proves it with the path automaton package diff uses (internal/pathdiff):
// the rule's list compared with the list without it, over every path the
// rule can match. Where the proof's budget runs out, only the sound cover
// check (shadow.go) may report the rule; a rule is never called dead
// without a proof.
//
// Each rule is judged alone: dropping any one rule reported changes no
// verdict, while dropping two that say the same thing ("disallow: /a/" and
// "disallow: /a/*") may; each message names the rule that decides instead.
// Of rules of one kind and pattern, only those after the first are
// reported, as repeating it, and of two rules that decide in each other's
// place, only the later (dropMutual). Two idioms are not reported: an empty rule
// ("disallow:" allows everything) and an allow of every path ("allow: /"),
// which say the default out loud.

// deadBudget bounds the work of the proofs of one Lint call, in the steps
// of pathdiff.Options.Budget (and a step per rule looked at, proofCost per
// automaton); a file of n bytes gets deadBudgetPerByte steps per byte
// besides, so that what the proofs allocate stays in proportion to the
// bytes read (TestLintMemoryBound).
const (
	deadBudget        = 1 << 16
	deadBudgetPerByte = 0.25
	// deadRuleBudget bounds the proof of one rule, so that one hard rule
	// leaves the others theirs.
	deadRuleBudget = 1 << 14
	// proofCost is charged for each automaton built, for what it
	// allocates (a few KiB).
	proofCost = 2048
	// maxProofRules bounds the rules of one proof: a rule that thousands
	// of others can meet (a "disallow: /*x" among 40,000 rules) is left to
	// the cover check, and the lists of a proof stay small.
	maxProofRules = 2048
	// findingCost is charged for each dead line found, for what its
	// finding and message allocate.
	findingCost = 2048
	// indexCost is charged per rule of a set indexed, for the sorting and
	// what the index allocates.
	indexCost = 32
)

// A lineState is what the proofs found for one line of a set.
type lineState uint8

const (
	lineUnknown lineState = iota // not proved either way
	lineLive                     // some path's verdict changes without it
	lineDead                     // proved: no path's verdict changes without it
)

// A deadCheck proves which rules of one agent set change no verdict.
type deadCheck struct {
	budget int64 // left for the file

	// per set, reused
	rules    []setRule
	order    []int32  // the entries by literal prefix
	compat   []int32  // scratch: the entries compatible with a line's
	mark     []uint32 // scratch: compat's membership, by generation
	gen      uint32
	old      []pathdiff.Rule
	new      []pathdiff.Rule
	text     []byte   // scratch: a coverText
	probe    []byte   // scratch: a probe path
	first    []byte   // the line's first probe path
	lengths  []int32  // the distinct literal prefix lengths, ascending
	prefixes []string // the literal prefixes in d.order's order
}

// A deadLine is a line of a set found dead, with the rule that decides its
// probe path without it (-1: none, or no probe path).
type deadLine struct {
	k     ruleKey
	first int // its first entry in the set's rules
	// takeover is the entry deciding the line's first probe path without
	// the line, -1 if none matches it or it has none.
	takeover int
	probe    string // the first probe path
	// byCover is set when the sound cover check is what proved the line
	// dead (the proof's budget ran out).
	byCover bool
}

// prefixOf returns the literal prefix of an entry's pattern.
func prefixOf(r *setRule) string { return r.pattern[:r.prefix] }

// check finds the dead lines of a set's rules (its entries, a line's
// adjacent). cover holds the cover check's finding for each line, which
// stands where the proof runs out of budget. It returns the dead lines,
// first line first.
func (d *deadCheck) check(rules []setRule, cover map[ruleKey]finding) []deadLine {
	// A set whose disallows are all empty allows every path: every rule of
	// it is dead, and none is worth a word (an "allow: /" alone, or
	// "disallow:", says what the site means).
	disallows := false
	for i := range rules {
		if !rules[i].allow && rules[i].pattern != "" && matchable(rules[i].pattern) {
			disallows = true
			break
		}
	}
	if !disallows {
		return nil
	}
	d.rules = rules
	// The index costs a few steps per rule and 30 bytes or so: a set too
	// large for what is left gets no proofs.
	if d.budget < indexCost*int64(len(rules)) {
		// No proofs: the cover check's findings alone.
		var dead []deadLine
		for k := range cover {
			dead = append(dead, deadLine{k: k, takeover: -1, byCover: true})
		}
		return dead
	}
	d.index()
	var dead []deadLine
	for end := len(rules); end > 0; {
		start := end - 1
		for start > 0 && rules[start-1].group == rules[end-1].group && rules[start-1].index == rules[end-1].index {
			start--
		}
		k := ruleKey{int(rules[start].group), int(rules[start].index)}
		_, covered := cover[k]
		state, takeover, probe := lineUnknown, -1, ""
		if d.budget > 0 {
			state, takeover, probe = d.line(start, end)
		}
		if state == lineDead {
			d.budget -= findingCost
			if !covered && d.repeatedLater(start, end) {
				end = start
				continue // the later copy is reported, as repeating this one
			}
			dead = append(dead, deadLine{k: k, first: start, takeover: takeover, probe: probe})
		} else if covered && state == lineUnknown {
			dead = append(dead, deadLine{k: k, first: start, takeover: -1, byCover: true})
		}
		end = start
	}
	slices.Reverse(dead)
	return d.dropMutual(dead, cover)
}

// dropMutual drops the earlier of two dead lines that each decide the
// other's probe path ("disallow: /a/" and "disallow: /a/*"): each changes
// no verdict alone, but not both, and the later one's message names the
// earlier, as a repeated rule's does.
func (d *deadCheck) dropMutual(dead []deadLine, cover map[ruleKey]finding) []deadLine {
	lineOf := func(entry int) ruleKey {
		r := &d.rules[entry]
		return ruleKey{int(r.group), int(r.index)}
	}
	takeover := map[ruleKey]ruleKey{}
	for _, dl := range dead {
		if _, ok := cover[dl.k]; !ok && !dl.byCover && dl.takeover >= 0 {
			takeover[dl.k] = lineOf(dl.takeover)
		}
	}
	out := dead[:0]
	for i, dl := range dead {
		if t, ok := takeover[dl.k]; ok {
			if back, ok := takeover[t]; ok && back == dl.k && t != dl.k && d.later(t, dl.k) {
				continue
			}
		}
		out = append(out, dead[i])
	}
	return out
}

// later reports whether line a comes after line b in the set's rules.
func (d *deadCheck) later(a, b ruleKey) bool {
	pos := func(k ruleKey) int {
		for i := range d.rules {
			if int(d.rules[i].group) == k.group && int(d.rules[i].index) == k.index {
				return i
			}
		}
		return -1
	}
	return pos(a) > pos(b)
}

// repeatedLater reports whether a rule after the line [start, end) has
// the kind and pattern of its first entry.
func (d *deadCheck) repeatedLater(start, end int) bool {
	r := &d.rules[start]
	for i := end; i < len(d.rules); i++ {
		if o := &d.rules[i]; !o.derived && o.allow == r.allow && o.pattern == r.pattern {
			return true
		}
	}
	return false
}

// matchesAll reports whether a pattern in wire form matches every path,
// which all start with '/'.
func matchesAll(p string) bool {
	return p == "" || p == "/" || p == "*" || p == "/*"
}

// index sorts the entries by literal prefix and maps each prefix to its
// entries.
func (d *deadCheck) index() {
	n := len(d.rules)
	d.budget -= indexCost * int64(n)
	d.order = slices.Grow(d.order[:0], n)[:n]
	for i := range d.order {
		d.order[i] = int32(i)
	}
	slices.SortFunc(d.order, func(a, b int32) int {
		return strings.Compare(prefixOf(&d.rules[a]), prefixOf(&d.rules[b]))
	})
	d.prefixes = slices.Grow(d.prefixes[:0], n)
	for _, i := range d.order {
		d.prefixes = append(d.prefixes, prefixOf(&d.rules[i]))
	}
	d.lengths = d.lengths[:0]
	for i := range d.rules {
		n := d.rules[i].prefix
		if k, found := slices.BinarySearch(d.lengths, n); !found {
			d.lengths = slices.Insert(d.lengths, k, n)
		}
	}
	if len(d.mark) < n {
		d.mark = make([]uint32, n)
		d.gen = 0
	}
}

// compatible collects in d.compat the entries not in
// [start, end), that can match some path an entry of the line matches:
// those whose literal prefix is a prefix of the entry's, or starts with
// it. Every other rule matches none of the line's paths, so it decides
// them alike with the line or without it. It reports false when there are
// more than maxProofRules.
func (d *deadCheck) compatible(start, end int) bool {
	d.gen++
	if d.gen == 0 {
		clear(d.mark)
		d.gen = 1
	}
	d.compat = d.compat[:0]
	add := func(i int) {
		if start <= i && i < end || d.mark[i] == d.gen {
			return
		}
		d.mark[i] = d.gen
		d.compat = append(d.compat, int32(i))
	}
	for e := start; e < end; e++ {
		p := prefixOf(&d.rules[e])
		// The rules whose prefix is p[:n], for each prefix length n <
		// len(p) some rule has.
		for _, n := range d.lengths {
			if int(n) >= len(p) {
				break
			}
			d.budget--
			for k := d.search(p[:n]); k < len(d.order) && d.prefixes[k] == p[:n]; k++ {
				add(int(d.order[k]))
			}
		}
		// Those whose prefix starts with p.
		for k := d.search(p); k < len(d.order) && strings.HasPrefix(d.prefixes[k], p); k++ {
			d.budget--
			add(int(d.order[k]))
			if len(d.compat) > maxProofRules {
				return false
			}
		}
	}
	if len(d.compat) > maxProofRules {
		return false
	}
	slices.Sort(d.compat) // file order: the first of equal rules decides
	return true
}

// search returns the first position in d.order of a prefix not less than p.
func (d *deadCheck) search(p string) int {
	k, _ := slices.BinarySearch(d.prefixes, p)
	return k
}

// line proves the line of entries [start, end) dead or live, within its
// budget, and returns the entry that decides its first probe path without
// it.
func (d *deadCheck) line(start, end int) (state lineState, takeover int, probe string) {
	for e := start; e < end; e++ {
		if !matchable(d.rules[e].pattern) {
			return lineUnknown, -1, "" // path-not-absolute says it
		}
	}
	if end-start == 1 && matchesAll(d.rules[start].pattern) && (d.rules[start].allow || d.rules[start].pattern == "") {
		return lineUnknown, -1, "" // an idiom: the default said out loud
	}
	if !d.compatible(start, end) {
		return lineUnknown, -1, ""
	}
	// Probe paths: the pattern with its '*' and final '$' removed (under
	// '/' if it starts with '*'), which it matches, and that path one byte
	// longer (past a rule ending in '$', or into a longer rule's
	// directory). Where dropping the line changes a probe's verdict, the
	// line is live, with no automaton.
	takeover = -1
	d.first = d.first[:0]
	for e := start; e < end; e++ {
		pat := d.rules[e].pattern
		q := d.probe[:0]
		if pat[0] != '/' {
			q = append(q, '/')
		}
		for i := 0; i < len(pat); i++ {
			if pat[i] != '*' && !(i == len(pat)-1 && pat[i] == '$') {
				q = append(q, pat[i])
			}
		}
		d.probe = q
		if !wirePath(swar.String(q)) {
			continue
		}
		anchored := strings.HasSuffix(pat, "$")
		for _, c := range [...]byte{0, '/', '-'} {
			if c != 0 {
				if anchored {
					break // an anchored rule matches only the path itself
				}
				q = append(q[:len(d.probe)], c)
			}
			differs, dec := d.differs(start, end, swar.String(q))
			if differs {
				return lineLive, -1, ""
			}
			if e == start && c == 0 {
				d.first, takeover = append(d.first[:0], q...), dec
			}
		}
	}
	if d.overridesNothing(start, end) || d.subsumed(start, end) {
		return lineDead, takeover, string(d.first)
	}
	d.new = d.new[:0]
	for _, i := range d.compat {
		r := &d.rules[i]
		d.new = append(d.new, pathdiff.Rule{Allow: r.allow, Wire: r.pattern})
	}
	d.old = append(d.old[:0], d.new...)
	for e := start; e < end; e++ {
		r := &d.rules[e]
		d.old = append(d.old, pathdiff.Rule{Allow: r.allow, Wire: r.pattern})
	}
	res := pathdiff.Compare(d.old, d.new, pathdiff.Options{Budget: min(d.budget, deadRuleBudget)})
	d.budget -= proofCost + 8*res.Work + int64(len(d.old)) // a step allocates a few bytes
	switch {
	case res.Changed():
		return lineLive, -1, ""
	case res.Decided:
		return lineDead, takeover, string(d.first)
	}
	return lineUnknown, -1, ""
}

// differs reports whether path q has another verdict with the line
// [start, end) than without it, and the entry that decides q without it
// (-1: none): one pass over the compatible rules, then the line's.
func (d *deadCheck) differs(start, end int, q string) (bool, int) {
	bestA, bestD, dec := -1, -1, -1
	decides := func(r *setRule) bool {
		n := len(r.pattern)
		if r.allow {
			return n > bestA && n >= bestD
		}
		return n > bestD && n > bestA
	}
	for _, i := range d.compat {
		r := &d.rules[i]
		d.budget--
		if !pattern.Match(r.pattern, q) {
			continue
		}
		if decides(r) {
			dec = int(i)
		}
		if r.allow {
			bestA = max(bestA, len(r.pattern))
		} else {
			bestD = max(bestD, len(r.pattern))
		}
	}
	without := !(bestD > 0 && bestD > bestA)
	for e := start; e < end; e++ {
		r := &d.rules[e]
		if !pattern.Match(r.pattern, q) {
			continue
		}
		if r.allow {
			bestA = max(bestA, len(r.pattern))
		} else {
			bestD = max(bestD, len(r.pattern))
		}
	}
	return without != !(bestD > 0 && bestD > bestA), dec
}

// overridesNothing proves an allow line dead without the automaton when
// no disallow that can meet it could lose to it: an allow decides against
// a disallow no longer than itself (allow wins a tie), and where no
// disallow matches, the path is allowed without it too.
func (d *deadCheck) overridesNothing(start, end int) bool {
	for e := start; e < end; e++ {
		r := &d.rules[e]
		if !r.allow {
			return false
		}
		for _, i := range d.compat {
			d.budget--
			if o := &d.rules[i]; !o.allow && o.pattern != "" && len(o.pattern) <= len(r.pattern) {
				return false
			}
		}
	}
	return true
}

// subsumed proves the line [start, end) dead without the automaton, in the
// common case of a rule inside another of its kind: for each entry e of
// priority r, a rule S of e's kind (not of the line) matches every path e
// matches (the cover check of shadow.go), with priority s, and no rule of
// the other kind that can meet e has a priority that lets it decide
// between them. Dropping e changes a path's verdict only where e decides
// and the best rule of the other kind then beats the best of e's kind
// left, which is at least S: for a disallow, an allow of priority in
// [s, r) (allow wins a tie); for an allow, a disallow in (s, r].
func (d *deadCheck) subsumed(start, end int) bool {
	for e := start; e < end; e++ {
		r := &d.rules[e]
		d.text = appendCoverText(d.text[:0], r.pattern)
		text := swar.String(d.text) // no copy: d.text is not written while text is used
		s := -1
		for _, i := range d.compat {
			o := &d.rules[i]
			d.budget--
			if o.allow != r.allow || !r.allow && o.pattern == "" || s >= len(o.pattern) {
				continue
			}
			if pattern.Match(o.pattern, text) {
				s = len(o.pattern)
			}
		}
		if s < 0 {
			return false
		}
		for _, i := range d.compat {
			o := &d.rules[i]
			if o.allow == r.allow {
				continue
			}
			if p := len(o.pattern); r.allow && s < p && p <= len(r.pattern) || !r.allow && s <= p && p < len(r.pattern) {
				return false
			}
		}
	}
	return true
}

// finding describes a dead line of set s for its message: the cover
// check's finding (shadowed, or an allow of the same pattern), a rule it
// repeats, or the rule that decides its probe path without it.
func (d *deadCheck) finding(s *agentSet, dl deadLine, cover map[ruleKey]finding) finding {
	if f, ok := cover[dl.k]; ok {
		f.code = CodeRuleShadowed
		if f.same {
			f.code = CodeSamePattern
		}
		return f
	}
	r := &d.rules[dl.first]
	lineEnd := dl.first + 1
	for lineEnd < len(d.rules) && d.rules[lineEnd].group == r.group && d.rules[lineEnd].index == r.index {
		lineEnd++
	}
	// A repeated rule is reported where it repeats: its first copy is not
	// a duplicate, and is reported only if it is dead for another reason.
	for i := range d.rules[:dl.first] {
		o := &d.rules[i]
		if (i < dl.first || i >= lineEnd) && !o.derived && o.allow == r.allow && o.pattern == r.pattern {
			return finding{set: s, by: *o, found: true, code: CodeRuleDuplicate}
		}
	}
	f := finding{set: s, code: CodeRuleRedundant, probe: dl.probe}
	if dl.takeover >= 0 {
		f.by, f.found = d.rules[dl.takeover], true
	}
	return f
}

// wirePath reports whether a path is in wire form as far as escapes go:
// every %xx escape has upper-case hex digits (a pattern in wire form has
// no byte >= 0x80, NUL or '#').
func wirePath(p string) bool {
	for i := 0; i+2 < len(p); i++ {
		if p[i] == '%' && pattern.IsHex(p[i+1]) && pattern.IsHex(p[i+2]) &&
			(pattern.IsLowerHex(p[i+1]) || pattern.IsLowerHex(p[i+2])) {
			return false
		}
	}
	return true
}
