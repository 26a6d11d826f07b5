package diff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/aipref"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/pathdiff"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/sfv"
)

// AI usage preferences per path class. A crawler's preferences for a path
// (robotstxt.Robots.Usage) come from the Content-Usage and Content-Signal
// lines of the groups it obeys, chosen as for its allow and disallow rules:
// of the Content-Usage lines whose path pattern matches, those with the
// longest pattern apply, combined most restrictive first
// (draft-ietf-aipref-attach-05 section 3.1, draft-ietf-aipref-vocab-08
// section 5.1); Content-Signal lines hold no path and apply to every path.
// Preferences apply only to what the crawler may fetch (attach-05 section
// 3.1). So the preferences of a path depend, as its verdict does, only on
// which patterns match it and their lengths, and internal/pathdiff finds
// every class of paths both versions let the crawler fetch whose
// preferences differ, with a shortest witness.
//
// Two preferences are the same when each category (train-ai, ai-use,
// search; Content-Signal's ai-train, ai-input, search) has the same
// answer and the same other labels are written (as a set: their order and
// repetition, and the lines that state them, are not compared).

// A prefValue is a statement of preference reduced to what is compared:
// three categories' answers and the other labels.
type prefValue struct {
	a, b, c aipref.Pref
	labels  string // the sorted, distinct "key=value" labels, each ended by "\n"
}

// combine returns the answer of two statements that both apply.
func (p prefValue) combine(q prefValue) prefValue {
	return prefValue{aipref.Combine(p.a, q.a), aipref.Combine(p.b, q.b), aipref.Combine(p.c, q.c), mergeLabels(p.labels, q.labels)}
}

func mergeLabels(x, y string) string {
	if x == y || y == "" {
		return x
	}
	if x == "" {
		return y
	}
	all := strings.Split(strings.TrimSuffix(x+y, "\n"), "\n")
	slices.Sort(all)
	return strings.Join(slices.Compact(all), "\n") + "\n"
}

func labelSet(keyValues []string) string {
	keyValues = slices.DeleteFunc(keyValues, func(s string) bool { return s == "" })
	if len(keyValues) == 0 {
		return ""
	}
	slices.Sort(keyValues)
	return strings.Join(slices.Compact(keyValues), "\n") + "\n"
}

func memberLabels(ms []sfv.DictMember) string {
	var out []string
	for _, m := range ms {
		// As package robotstxt writes a Label: the member's value in
		// RFC 9651 serialization, "" for a bare key.
		v := strings.TrimPrefix(sfv.Dictionary{m}.String()[len(m.Key):], "=")
		out = append(out, m.Key+"="+v)
	}
	return labelSet(out)
}

func publicLabels(ls []robotstxt.Label) string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Key+"="+l.Value)
	}
	return labelSet(out)
}

// usageValue and signalValue reduce the library's answer for a path.
func usageValue(u robotstxt.Usage) prefValue {
	return prefValue{aipref.Pref(u.TrainAI.Preference), aipref.Pref(u.AIUse.Preference), aipref.Pref(u.Search.Preference), publicLabels(u.Labels)}
}

func signalValue(u robotstxt.Usage) prefValue {
	s := u.Signal
	return prefValue{aipref.Pref(s.AITrain.Preference), aipref.Pref(s.AIInput.Preference), aipref.Pref(s.Search.Preference), publicLabels(s.Labels)}
}

// prefTable interns the Content-Usage values of a comparison, so that the
// automaton compares identifiers: equal values, equal identifiers.
type prefTable struct {
	values []prefValue
	index  map[prefValue]int32
	combos map[[2]int32]int32
}

func newPrefTable() *prefTable {
	t := &prefTable{index: map[prefValue]int32{}, combos: map[[2]int32]int32{}}
	t.intern(prefValue{}) // 0: no line applies
	return t
}

func (t *prefTable) intern(v prefValue) int32 {
	if id, ok := t.index[v]; ok {
		return id
	}
	id := int32(len(t.values))
	t.values = append(t.values, v)
	t.index[v] = id
	return id
}

// combine returns the value of two statements that both apply, and its
// cost for the comparison's budget: a step, and a step per byte of labels
// of a value not met before, so that the budget bounds the memory the
// table holds.
func (t *prefTable) combine(a, b int32) (int32, int64) {
	if a == b {
		return a, 1
	}
	k := [2]int32{min(a, b), max(a, b)}
	if id, ok := t.combos[k]; ok {
		return id, 1
	}
	v := t.values[a].combine(t.values[b])
	id := t.intern(v)
	t.combos[k] = id
	return id, 1 + int64(len(v.labels))
}

// A usageRule is one Content-Usage line of a crawler class's groups.
type usageRule struct {
	wire  string // its path pattern in wire form; "/" when it has none
	value int32  // in the comparison's prefTable
	line  int
}

// usageList is what a crawler class's groups say about the use of content.
type usageList struct {
	rules  []usageRule
	signal prefValue // the Content-Signal lines combined
	sig    string    // the lines' signature, before merging
}

// usageFor returns the Content-Usage and Content-Signal lines of the groups
// the lower-cased product token obeys ("" for the "*" groups).
func (v *fileView) usageFor(token string, t *prefTable) usageList {
	var out usageList
	var signalLabels []string // each a label set
	var signalLines []int
	for _, g := range v.groupsFor(token) {
		for _, fd := range g.Fields {
			switch {
			case parse.IsKey(fd.Key, "content-usage"):
				u := aipref.ParseUsage(fd.Value)
				// A line without a path applies to every path, as "/".
				wire := "/"
				if u.Path != "" {
					wire = pattern.Escape(u.Path)
				}
				val := t.intern(prefValue{u.TrainAI, u.AIUse, u.Search, memberLabels(u.Others)})
				out.rules = append(out.rules, usageRule{wire, val, fd.Line})
			case parse.IsKey(fd.Key, "content-signal"):
				s := aipref.ParseSignal(fd.Value)
				signal := prefValue{s.AITrain, s.AIInput, s.Search, ""}
				out.signal = prefValue{aipref.Combine(out.signal.a, signal.a), aipref.Combine(out.signal.b, signal.b), aipref.Combine(out.signal.c, signal.c), ""}
				signalLabels = append(signalLabels, memberLabels(s.Others))
				signalLines = append(signalLines, fd.Line)
			}
		}
	}
	out.signal.labels = labelSet(strings.Split(strings.TrimSuffix(strings.Join(signalLabels, ""), "\n"), "\n"))
	// The lines stated on are part of the answers reported (Usage's
	// Decision and Label lines), so they are part of the signature.
	out.sig = out.signature(t) + "\x00" + fmt.Sprint(signalLines)
	out.rules = mergeSamePattern(out.rules, t)
	return out
}

func (l usageList) valueRules() []pathdiff.ValueRule {
	out := make([]pathdiff.ValueRule, len(l.rules))
	for i, r := range l.rules {
		out[i] = pathdiff.ValueRule{Wire: r.wire, Value: r.value}
	}
	return out
}

// mergeSamePattern returns the lines with those of one pattern merged into
// the first: lines of one pattern always apply together, and combine
// (attach-05 section 3.1), so one value stands for them all; it is built
// with one sort of their labels rather than a chain of combinations.
func mergeSamePattern(rules []usageRule, t *prefTable) []usageRule {
	first := map[string]int{}
	var out []usageRule
	var members [][]int32
	for _, r := range rules {
		i, ok := first[r.wire]
		if !ok {
			first[r.wire] = len(out)
			out = append(out, r)
			members = append(members, []int32{r.value})
			continue
		}
		members[i] = append(members[i], r.value)
	}
	for i, ms := range members {
		if len(ms) == 1 {
			continue
		}
		var v prefValue
		var labels []string
		for _, m := range ms {
			x := t.values[m]
			v.a, v.b, v.c = aipref.Combine(v.a, x.a), aipref.Combine(v.b, x.b), aipref.Combine(v.c, x.c)
			if x.labels != "" {
				labels = append(labels, strings.Split(strings.TrimSuffix(x.labels, "\n"), "\n")...)
			}
		}
		v.labels = labelSet(labels)
		out[i].value = t.intern(v)
	}
	return out
}

// signature identifies the lines, for sharing the work between crawler
// classes whose lines are the same.
func (l usageList) signature(t *prefTable) string {
	var b strings.Builder
	for _, r := range l.rules {
		b.WriteString(r.wire)
		b.WriteByte(0)
		v := t.values[r.value]
		b.WriteString(strconv.Itoa(int(v.a)*9 + int(v.b)*3 + int(v.c)))
		b.WriteString(v.labels)
		b.WriteByte(0)
		b.WriteString(strconv.Itoa(r.line))
		b.WriteByte(0)
	}
	s := l.signal
	b.WriteString(strconv.Itoa(int(s.a)*9 + int(s.b)*3 + int(s.c)))
	b.WriteString(s.labels)
	return b.String()
}

// A UsageChange is a class of paths that both versions let the crawler
// fetch and whose AI usage preferences differ: those for which the same
// Content-Usage lines decide in each version.
type UsageChange struct {
	// Path is a witness: the shortest path of the class found. Usage on
	// Parse(old) and Parse(new) answers it as Old and New say, both
	// fetchable and different; that was checked before reporting.
	Path string          `json:"path"`
	Old  robotstxt.Usage `json:"old"`
	New  robotstxt.Usage `json:"new"`
	// Matching are the path patterns (in wire form) of the Content-Usage
	// lines that decide for the class in either version, which every path
	// of the class matches; none when no line decides, or the deciding
	// lines apply to every path.
	Matching []string `json:"matching,omitempty"`
	// Except are patterns of Content-Usage lines that decide instead for
	// some paths the Matching patterns match.
	Except []string `json:"except,omitempty"`
}

// Describe describes the class of paths by patterns.
func (u UsageChange) Describe() string {
	return describeClass(u.Matching, u.Except) + " that both versions let it fetch"
}

// decidingLine returns the first of the longest Content-Usage lines of
// list whose pattern matches path, -1 for none.
func decidingLine(list []usageRule, path string) int32 {
	best := int32(-1)
	for i, r := range list {
		if pattern.Match(r.wire, path) && (best < 0 || len(r.wire) > len(list[best].wire)) {
			best = int32(i)
		}
	}
	return best
}

// maxExceptionProbes bounds the Content-Usage lines probed for exceptions,
// and maxExceptionWork the pattern matches spent on them per comparison.
const (
	maxExceptionProbes = 500
	maxExceptionWork   = 1 << 21
)

// A usageProbe is a path probed for exceptions and the lines deciding it.
type usageProbe struct {
	path string
	at   [2]int32
}

// usageProbes returns one probe per line, its pattern with '*' and a final
// '$' removed, with the lines that decide there in each version; nil when
// there are too many lines.
func usageProbes(u [2]usageList) []usageProbe {
	if len(u[0].rules)+len(u[1].rules) > maxExceptionProbes {
		return nil
	}
	var out []usageProbe
	for f := range u {
		for _, r := range u[f].rules {
			path := strings.TrimSuffix(strings.ReplaceAll(r.wire, "*", ""), "$")
			if strings.HasPrefix(path, "/") {
				out = append(out, usageProbe{path, [2]int32{decidingLine(u[0].rules, path), decidingLine(u[1].rules, path)}})
			}
		}
	}
	return out
}

// usageExceptions returns the patterns of lines that decide, in place of
// a class's deciding lines, on a probe the class's patterns match; work
// counts the pattern matches, and none are looked for past the bound.
func usageExceptions(u [2]usageList, probes []usageProbe, dec [2]int32, work *int) []string {
	var out []string
	for _, p := range probes {
		if *work += 2; *work > maxExceptionWork {
			return out
		}
		if p.at == dec {
			continue
		}
		in := true
		for g := range u {
			if d := dec[g]; d >= 0 && !pattern.Match(u[g].rules[d].wire, p.path) {
				in = false
			}
		}
		if !in {
			continue
		}
		for g := range p.at {
			if d := p.at[g]; d >= 0 && d != dec[g] {
				if w := u[g].rules[d].wire; !slices.Contains(out, w) && len(out) < 16 {
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// Becomes returns the preferences that changed, as "train-ai: unknown →
// disallow, signal ai-input: allow → disallow".
func (u UsageChange) Becomes() string {
	var parts []string
	add := func(name string, o, n robotstxt.Preference) {
		if o != n {
			parts = append(parts, name+": "+o.String()+" → "+n.String())
		}
	}
	add("train-ai", u.Old.TrainAI.Preference, u.New.TrainAI.Preference)
	add("ai-use", u.Old.AIUse.Preference, u.New.AIUse.Preference)
	add("search", u.Old.Search.Preference, u.New.Search.Preference)
	if o, n := publicLabels(u.Old.Labels), publicLabels(u.New.Labels); o != n {
		parts = append(parts, "labels: "+labelText(o)+" → "+labelText(n))
	}
	add("signal ai-train", u.Old.Signal.AITrain.Preference, u.New.Signal.AITrain.Preference)
	add("signal ai-input", u.Old.Signal.AIInput.Preference, u.New.Signal.AIInput.Preference)
	add("signal search", u.Old.Signal.Search.Preference, u.New.Signal.Search.Preference)
	if o, n := publicLabels(u.Old.Signal.Labels), publicLabels(u.New.Signal.Labels); o != n {
		parts = append(parts, "signal labels: "+labelText(o)+" → "+labelText(n))
	}
	return strings.Join(parts, ", ")
}

func labelText(set string) string {
	if set == "" {
		return "none"
	}
	return strings.ReplaceAll(strings.TrimSuffix(set, "\n"), "\n", ", ")
}

// compareUsage finds the classes of paths whose AI usage preferences
// differ for one crawler class, each witness checked with the public API.
func compareUsage(files [2]*fileView, token string, budget int64, cache map[string]usageResult) (res usageResult, spent int64) {
	t := newPrefTable()
	u := [2]usageList{files[0].usageFor(token, t), files[1].usageFor(token, t)}
	values := [2][]pathdiff.ValueRule{u[0].valueRules(), u[1].valueRules()}
	always := u[0].signal != u[1].signal
	if !always && pathdiff.SameValues(values[0], values[1]) {
		return usageResult{decided: true}, 0
	}
	lists := [2]ruleList{files[0].rulesFor(token), files[1].rulesFor(token)}
	agents := [2]*robotstxt.Agent{agentIn(files[0], token), agentIn(files[1], token)}
	key := lists[0].signature() + "\x01" + lists[1].signature() + "\x01" + u[0].sig + "\x01" + u[1].sig
	if prev, ok := cache[key]; ok {
		return prev, 0
	}
	defer func() { cache[key] = res }()
	out := pathdiff.CompareValues([2][]pathdiff.Rule{lists[0].pathRules(), lists[1].pathRules()}, values, pathdiff.ValueOptions{
		Budget:       budget,
		None:         0,
		Combine:      t.combine,
		AlwaysDiffer: always,
	})
	res.decided, spent = out.Decided, out.Work
	var probes []usageProbe
	exceptionWork := 0
	for _, c := range out.Classes {
		url := witnessBase + c.Witness
		ch := UsageChange{Path: c.Witness, Old: agents[0].Usage(url), New: agents[1].Usage(url)}
		genuine := ch.Old.Fetchable && ch.New.Fetchable &&
			usageValue(ch.Old) == t.values[c.Value[0]] && usageValue(ch.New) == t.values[c.Value[1]] &&
			signalValue(ch.Old) == u[0].signal && signalValue(ch.New) == u[1].signal
		if !genuine || sameUsage(ch.Old, ch.New) {
			// The automaton and the library disagree: never report what
			// was not checked, nor claim the class decided.
			res.decided = false
			continue
		}
		for f := range c.Decider {
			if d := c.Decider[f]; d >= 0 {
				if p := u[f].rules[d].wire; !matchesAll(p) && !slices.Contains(ch.Matching, p) {
					ch.Matching = append(ch.Matching, p)
				}
			}
		}
		if probes == nil {
			probes = usageProbes(u)
		}
		for _, p := range usageExceptions(u, probes, c.Decider, &exceptionWork) {
			if !slices.Contains(ch.Matching, p) {
				ch.Except = append(ch.Except, p)
			}
		}
		res.changes = append(res.changes, ch)
	}
	return res, spent
}

// A usageResult is the usage comparison of one crawler class.
type usageResult struct {
	decided bool
	changes []UsageChange
}

// sameUsage compares preferences, not the lines that state them, which
// move when a file is edited.
func sameUsage(a, b robotstxt.Usage) bool {
	return usageValue(a) == usageValue(b) && signalValue(a) == signalValue(b)
}
