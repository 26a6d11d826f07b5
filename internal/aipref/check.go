package aipref

import (
	"errors"
	"strconv"
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/sfv"
)

// A Problem is something wrong with a Content-Usage or Content-Signal
// line. Package lint turns problems into diagnostics.
type Problem struct {
	Line int
	Code string // stable name of the check, one of the Problem constants
	Msg  string
}

// Codes of Problems found in one value on its own.
const (
	ProblemMalformed   = "usage-malformed"     // not an RFC 9651 dictionary: every category unknown
	ProblemEmpty       = "usage-empty"         // no preference at all
	ProblemUnknownKey  = "usage-unknown-label" // a label the vocabulary does not define
	ProblemBadValue    = "usage-bad-value"     // a known label with a value other than its two tokens
	ProblemRepeatedKey = "usage-repeated-key"  // only the last value counts
	ProblemPathNoSlash = "usage-path-no-slash" // looks like a path but does not start with '/'
	ProblemSignalPath  = "signal-path"         // Content-Signal values have no path
)

// CheckUsageValue checks a Content-Usage value against
// draft-ietf-aipref-attach-05 section 3 and draft-ietf-aipref-vocab-08
// section 6, "Exemplary Serialization Format": its labels are train-ai,
// ai-use and search (section 6.1), each with the values y and n.
func CheckUsageValue(line int, raw string) []Problem {
	path, pref := SplitUsageValue(raw)
	if path == "" && pref != "" {
		// "*.pdf train-ai=n" or "private/ train-ai=n": a path that lacks
		// its leading '/' is read as part of the preference, which then
		// fails to parse.
		if i := strings.IndexAny(pref, " \t"); i > 0 {
			if _, err := sfv.ParseDictionary(pref); err != nil {
				if _, err := sfv.ParseDictionary(strings.TrimLeft(pref[i:], " \t")); err == nil {
					return []Problem{{line, ProblemPathNoSlash,
						"the path " + strconv.Quote(pref[:i]) + " does not start with '/', so the whole value is read as a preference, which does not parse: every category is unknown"}}
				}
			}
		}
	}
	return checkDictionary(line, pref, "Content-Usage", map[string][2]string{
		LabelTrainAI: {"y", "n"},
		LabelAIUse:   {"y", "n"},
		LabelSearch:  {"y", "n"},
	})
}

// CheckSignalValue checks a Content-Signal value against the Content
// Signals Policy (contentsignals.org).
func CheckSignalValue(line int, raw string) []Problem {
	v := RuleValue(raw)
	if strings.HasPrefix(v, "/") {
		return []Problem{{line, ProblemSignalPath,
			"Content-Signal takes no path; the value does not parse and every signal is unknown"}}
	}
	return checkDictionary(line, v, "Content-Signal", map[string][2]string{
		SignalSearch:  {"yes", "no"},
		SignalAIInput: {"yes", "no"},
		SignalAITrain: {"yes", "no"},
	})
}

func checkDictionary(line int, v, directive string, known map[string][2]string) []Problem {
	if v == "" {
		return []Problem{{line, ProblemEmpty, directive + " has no preference"}}
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
		return []Problem{{line, ProblemMalformed, msg}}
	}
	var out []Problem
	seen := map[string]bool{}
	for _, m := range members {
		if seen[m.Key] {
			out = append(out, Problem{line, ProblemRepeatedKey,
				strconv.Quote(m.Key) + " is repeated; only its last value counts"})
		}
		seen[m.Key] = true
		values, ok := known[m.Key]
		if !ok {
			out = append(out, Problem{line, ProblemUnknownKey,
				strconv.Quote(m.Key) + " is not a " + directive + " label this library knows; it is ignored"})
			continue
		}
		if p := TokenPref(m.Value, values[0], values[1]); p == Unknown {
			out = append(out, Problem{line, ProblemBadValue,
				strconv.Quote(m.Key) + " must be " + values[0] + " or " + values[1] + "; its preference is unknown"})
		}
	}
	return out
}
