package robotstxt

import (
	"strconv"
	"strings"
)

// Checks that need the groups around the preference lines. The grouper
// hands them the kinds of the file's lines, or one group's parsed
// preferences and its allow/disallow verdict; they return usageProblems
// for the linter.

// Codes of the group-level checks.
const (
	problemOutsideGroup     = "usage-outside-group"     // before the first user-agent line: applies to no crawler
	problemGroupingConflict = "usage-grouping-conflict" // Google's grouping and the draft's grammar disagree
	problemDisallowedPath   = "usage-disallowed-path"   // the rule's path is disallowed: it never applies
	problemContradiction    = "usage-contradiction"     // Content-Usage and Content-Signal say opposite things
)

// A prefLineKind is what the group checks need to know of a line.
type prefLineKind uint8

const (
	prefLineOther      prefLineKind = iota // anything else (sitemap, crawl-delay, unknown, blank)
	prefLineUserAgent                      // user-agent
	prefLineAllowance                      // allow or disallow
	prefLinePreference                     // content-usage or content-signal
)

// A prefLine is one line of the file for the group checks.
type prefLine struct {
	kind prefLineKind
	num  int
}

// checkUsageGrouping finds preference lines that no group holds, and
// user-agent lines that Google's grouping and the drafts' grammar read
// differently. Google's parser ends a group only at a user-agent line that
// follows an allow or disallow line, so a preference line between two
// user-agent lines leaves them in one group; RFC 9309's grammar, which
// draft-ietf-aipref-attach-05 section 3 extends with Content-Usage as a
// rule, ends the group at the first rule, so the second user-agent line
// starts a new group. This library groups as Google does; the linter
// reports every place where the readings differ.
func checkUsageGrouping(lines []prefLine) []usageProblem {
	var out []usageProblem
	inGroup := false
	ruleSeen := false // an allow or disallow line since the group began (Google's reading)
	prefLine := 0     // the first preference line since then, while ruleSeen is false
	for _, l := range lines {
		switch l.kind {
		case prefLineUserAgent:
			switch {
			case ruleSeen: // a new group in both readings
				ruleSeen, prefLine = false, 0
			case prefLine != 0:
				out = append(out, usageProblem{l.num, problemGroupingConflict,
					"this user-agent line joins the group above it for Google, whose groups end only after an allow or disallow line, " +
						"but starts a new group under RFC 9309's grammar because of the preference on line " + strconv.Itoa(prefLine) +
						"; put an allow or disallow line before the preference, or start the new group after the old one's rules"})
				prefLine = 0
			}
			inGroup = true
		case prefLineAllowance:
			ruleSeen = true
		case prefLinePreference:
			if !inGroup {
				out = append(out, usageProblem{l.num, problemOutsideGroup,
					"this preference comes before the first user-agent line, so it belongs to no group and applies to no crawler"})
			} else if !ruleSeen && prefLine == 0 {
				prefLine = l.num
			}
		}
	}
	return out
}

// checkDisallowedPaths finds Content-Usage rules of a group whose own path
// the group disallows: draft-ietf-aipref-attach-05 section 3.1 gives no
// preference to a disallowed path, so the rule never applies there. The
// rule's path is tested up to its first '*' (and without a final '$'),
// which is the shortest path it can match; a rule whose wildcards reach
// fetchable paths may still be flagged, which the message says.
func (p *usagePreferences) checkDisallowedPaths(allowed func(path string) bool) []usageProblem {
	var out []usageProblem
	for _, r := range p.rules {
		if r.path == "" {
			continue
		}
		probe := strings.TrimSuffix(r.pattern, "$")
		if i := strings.IndexByte(probe, '*'); i >= 0 {
			probe = probe[:i]
		}
		if !allowed(probe) {
			out = append(out, usageProblem{r.line, problemDisallowedPath,
				"the group disallows " + probe + ", and preferences do not apply to paths a crawler may not fetch"})
		}
	}
	return out
}

// checkContradictions finds a group's Content-Usage rules that say the
// opposite of its Content-Signal lines about the same use: train-ai
// against ai-train, search against search. The message names the paths
// where both apply.
func (p *usagePreferences) checkContradictions() []usageProblem {
	if len(p.signals) == 0 {
		return nil
	}
	u := p.usage("/", true) // combined signals; they have no path
	var out []usageProblem
	for _, r := range p.rules {
		for _, pair := range []struct {
			label, key string
			usage      Preference
			signal     Decision
		}{
			{labelTrainAI, signalAITrain, r.trainAI, u.Signal.AITrain},
			{labelSearch, signalSearch, r.search, u.Signal.Search},
		} {
			if pair.usage == PreferenceUnknown || pair.signal.Preference == PreferenceUnknown || pair.usage == pair.signal.Preference {
				continue
			}
			where := "every path"
			if r.path != "" {
				where = "paths matching " + r.path
			}
			out = append(out, usageProblem{r.line, problemContradiction,
				"Content-Usage " + pair.label + " says " + pair.usage.String() + " for " + where +
					" but the Content-Signal " + pair.key + " on line " + strconv.Itoa(pair.signal.Line) + " says " + pair.signal.Preference.String()})
		}
	}
	return out
}
