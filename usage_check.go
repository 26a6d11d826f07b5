package robotstxt

import (
	"errors"
	"strconv"
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/sfv"
)

// A usageProblem is something wrong with one Content-Usage or
// Content-Signal value on its own, found without the group around it. The
// linter turns these into diagnostics; the checks that need the groups
// (outside any group, disallowed paths, grouping conflicts, contradictions
// between the two syntaxes) are the linter's.
type usageProblem struct {
	line int
	code string // stable name of the check
	msg  string
}

// Codes of usageProblem.
const (
	problemMalformed   = "usage-malformed"     // not an RFC 9651 dictionary: every category unknown
	problemEmpty       = "usage-empty"         // no preference at all
	problemUnknownKey  = "usage-unknown-label" // a label the vocabulary does not define
	problemBadValue    = "usage-bad-value"     // a known label with a value other than its two tokens
	problemRepeatedKey = "usage-repeated-key"  // only the last value counts
	problemPathNoSlash = "usage-path-no-slash" // looks like a path but does not start with '/'
	problemSignalPath  = "signal-path"         // Content-Signal values have no path
)

// checkUsageValue checks a Content-Usage value against
// draft-ietf-aipref-attach-05 section 3 and draft-ietf-aipref-vocab-07
// section 6.
func checkUsageValue(line int, raw string) []usageProblem {
	path, pref := splitUsageValue(raw)
	if path == "" && pref != "" {
		// "*.pdf train-ai=n" or "private/ train-ai=n": a path that lacks
		// its leading '/' is read as part of the preference, which then
		// fails to parse.
		if i := strings.IndexAny(pref, " \t"); i > 0 {
			if _, err := sfv.ParseDictionary(pref); err != nil {
				if _, err := sfv.ParseDictionary(strings.TrimLeft(pref[i:], " \t")); err == nil {
					return []usageProblem{{line, problemPathNoSlash,
						"the path " + strconv.Quote(pref[:i]) + " does not start with '/', so the whole value is read as a preference, which does not parse: every category is unknown"}}
				}
			}
		}
	}
	return checkDictionary(line, pref, "Content-Usage", map[string][2]string{
		labelTrainAI: {"y", "n"},
		labelSearch:  {"y", "n"},
	})
}

// checkSignalValue checks a Content-Signal value against the Content
// Signals Policy (contentsignals.org).
func checkSignalValue(line int, raw string) []usageProblem {
	v := ruleValue(raw)
	if strings.HasPrefix(v, "/") {
		return []usageProblem{{line, problemSignalPath,
			"Content-Signal takes no path; the value does not parse and every signal is unknown"}}
	}
	return checkDictionary(line, v, "Content-Signal", map[string][2]string{
		signalSearch:  {"yes", "no"},
		signalAIInput: {"yes", "no"},
		signalAITrain: {"yes", "no"},
	})
}

func checkDictionary(line int, v, directive string, known map[string][2]string) []usageProblem {
	if v == "" {
		return []usageProblem{{line, problemEmpty, directive + " has no preference"}}
	}
	members, err := sfv.ParseMembers(v)
	if err != nil {
		msg := directive + " value is not a structured-field dictionary (RFC 9651), so every category is unknown"
		var se *sfv.SyntaxError
		if errors.As(err, &se) {
			msg += ": at byte " + strconv.Itoa(se.Offset) + ", expected " + se.Reason
		}
		if strings.ToLower(v) != v {
			msg += " (keys and tokens are case-sensitive and lower-case)"
		}
		return []usageProblem{{line, problemMalformed, msg}}
	}
	var out []usageProblem
	seen := map[string]bool{}
	for _, m := range members {
		if seen[m.Key] {
			out = append(out, usageProblem{line, problemRepeatedKey,
				strconv.Quote(m.Key) + " is repeated; only its last value counts"})
		}
		seen[m.Key] = true
		values, ok := known[m.Key]
		if !ok {
			out = append(out, usageProblem{line, problemUnknownKey,
				strconv.Quote(m.Key) + " is not a " + directive + " label this library knows; it is ignored"})
			continue
		}
		if p := tokenPreference(m.Value, values[0], values[1]); p == PreferenceUnknown {
			out = append(out, usageProblem{line, problemBadValue,
				strconv.Quote(m.Key) + " must be " + values[0] + " or " + values[1] + "; its preference is unknown"})
		}
	}
	return out
}
