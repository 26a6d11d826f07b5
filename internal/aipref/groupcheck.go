package aipref

import (
	"strconv"
	"strings"
)

// Checks that need the groups around the preference lines.

// Codes of the group-level checks.
const (
	ProblemOutsideGroup     = "usage-outside-group"     // before the first user-agent line: applies to no crawler
	ProblemGroupingConflict = "usage-grouping-conflict" // Google's grouping and the draft's grammar disagree
	ProblemDisallowedPath   = "usage-disallowed-path"   // the rule's path is disallowed: it never applies
	ProblemContradiction    = "usage-contradiction"     // Content-Usage and Content-Signal say opposite things
)

// A LineKind is what the grouping check needs to know of a line.
type LineKind uint8

// The kinds of lines.
const (
	LineOther      LineKind = iota // anything else (sitemap, crawl-delay, unknown, blank)
	LineUserAgent                  // user-agent
	LineAllowance                  // allow or disallow
	LinePreference                 // content-usage or content-signal
)

// A Line is one line of the file for the grouping check.
type Line struct {
	Kind LineKind
	Num  int
}

// CheckGrouping finds preference lines that no group holds, and
// user-agent lines that Google's grouping and the drafts' grammar read
// differently; see Grouping.
func CheckGrouping(lines []Line) []Problem {
	var out []Problem
	var g Grouping
	for _, l := range lines {
		if p, ok := g.Next(l); ok {
			out = append(out, p)
		}
	}
	return out
}

// A Grouping checks the lines of a file one at a time, without keeping
// them. Google's parser ends a group only at a user-agent line that
// follows an allow or disallow line, so a preference line between two
// user-agent lines leaves them in one group; RFC 9309's grammar, which
// draft-ietf-aipref-attach-05 section 3 extends with Content-Usage as a
// rule, ends the group at the first rule, so the second user-agent line
// starts a new group. Package robotstxt groups as Google does; the linter
// reports every place where the readings differ, and every preference
// line before the first user-agent line. The zero value is ready to use.
type Grouping struct {
	inGroup  bool
	ruleSeen bool // an allow or disallow line since the group began (Google's reading)
	prefLine int  // the first preference line since then, while ruleSeen is false
}

// Next reads the next line and reports the problem it shows, if any.
func (g *Grouping) Next(l Line) (Problem, bool) {
	switch l.Kind {
	case LineUserAgent:
		g.inGroup = true
		switch {
		case g.ruleSeen: // a new group in both readings
			g.ruleSeen, g.prefLine = false, 0
		case g.prefLine != 0:
			p := Problem{l.Num, ProblemGroupingConflict,
				"this user-agent line joins the group above it for Google, whose groups end only after an allow or disallow line, " +
					"but starts a new group under RFC 9309's grammar because of the preference on line " + strconv.Itoa(g.prefLine) +
					"; put an allow or disallow line before the preference, or start the new group after the old one's rules"}
			g.prefLine = 0
			return p, true
		}
	case LineAllowance:
		g.ruleSeen = true
	case LinePreference:
		if !g.inGroup {
			return Problem{l.Num, ProblemOutsideGroup, outsideGroupMsg}, true
		}
		if !g.ruleSeen && g.prefLine == 0 {
			g.prefLine = l.Num
		}
	}
	return Problem{}, false
}

// outsideGroupMsg explains a preference line before the first user-agent
// line. Site owners write Content-Signal there meaning the whole site, but
// the readers that honour it scope it to a group: Cloudflare's Content
// Signals Policy writes it inside "User-agent: *", crawler-commons reads
// it per group since September 2026 (pull request 604), and
// draft-ietf-aipref-attach-05 section 3 makes Content-Usage a rule of a
// group. So the line reaches no crawler, and the fix is to move it.
const outsideGroupMsg = "this preference comes before the first user-agent line, so it belongs to no group and applies to no crawler " +
	"(crawlers read Content-Usage and Content-Signal per group); to mean every crawler, write it in the User-agent: * group"

// A UsageLine is a Content-Usage line of a group, parsed.
type UsageLine struct {
	Num int
	Usage
}

// A SignalLine is a Content-Signal line of a group, parsed.
type SignalLine struct {
	Num int
	Signal
}

// CheckDisallowedPaths finds Content-Usage rules of a group whose own path
// allowed, the group's verdict for a path, refuses:
// draft-ietf-aipref-attach-05 section 3.1 gives no preference to a
// disallowed path, so the rule never applies there. The rule's path is
// tested up to its first '*' (and without a final '$'), which is the
// shortest path it can match; a rule whose wildcards reach fetchable paths
// may still be flagged, which the message says.
func CheckDisallowedPaths(usages []UsageLine, allowed func(path string) bool) []Problem {
	var out []Problem
	for _, r := range usages {
		if r.Path == "" {
			continue
		}
		probe := strings.TrimSuffix(r.Path, "$")
		if i := strings.IndexByte(probe, '*'); i >= 0 {
			probe = probe[:i]
		}
		if !allowed(probe) {
			out = append(out, Problem{r.Num, ProblemDisallowedPath,
				"the group disallows " + probe + ", and preferences do not apply to paths a crawler may not fetch"})
		}
	}
	return out
}

// CheckContradictions finds a group's Content-Usage rules that say the
// opposite of its Content-Signal lines about the same use: train-ai
// against ai-train, ai-use against ai-input (both name content used as
// input to a generative model that the user did not hand over), search
// against search. The group's Content-Signal lines combine, most
// restrictive winning. The message names the paths where both apply.
func CheckContradictions(usages []UsageLine, signals []SignalLine) []Problem {
	if len(signals) == 0 {
		return nil
	}
	type decided struct {
		pref Pref
		line int
	}
	combine := func(d *decided, p Pref, line int, first bool) {
		if first || Combine(d.pref, p) != d.pref {
			*d = decided{Combine(d.pref, p), line}
		}
	}
	var train, input, search decided
	for i, s := range signals {
		combine(&train, s.AITrain, s.Num, i == 0)
		combine(&input, s.AIInput, s.Num, i == 0)
		combine(&search, s.Search, s.Num, i == 0)
	}
	var out []Problem
	for _, r := range usages {
		for _, pair := range []struct {
			label, key string
			usage      Pref
			signal     decided
		}{
			{LabelTrainAI, SignalAITrain, r.TrainAI, train},
			{LabelAIUse, SignalAIInput, r.AIUse, input},
			{LabelSearch, SignalSearch, r.Search, search},
		} {
			if pair.usage == Unknown || pair.signal.pref == Unknown || pair.usage == pair.signal.pref {
				continue
			}
			where := "every path"
			if r.Path != "" {
				where = "paths matching " + r.Path
			}
			out = append(out, Problem{r.Num, ProblemContradiction,
				"Content-Usage " + pair.label + " says " + pair.usage.String() + " for " + where +
					" but the Content-Signal " + pair.key + " on line " + strconv.Itoa(pair.signal.line) + " says " + pair.signal.pref.String()})
		}
	}
	return out
}

// String returns "unknown", "allow" or "disallow".
func (p Pref) String() string {
	switch p {
	case Allow:
		return "allow"
	case Disallow:
		return "disallow"
	}
	return "unknown"
}
