package robotstxt

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/sfv"
)

// The labels of draft-ietf-aipref-vocab-07 section 6.1 and the keys of the
// Content Signals Policy.
const (
	labelTrainAI = "train-ai"
	labelSearch  = "search"

	signalSearch  = "search"
	signalAIInput = "ai-input"
	signalAITrain = "ai-train"
)

// A usageRule is one Content-Usage line of a group.
type usageRule struct {
	line    int
	path    string // as written; "" when the value has none
	pattern string // path in wire form, "/" when the value has none
	trainAI Preference
	search  Preference
	labels  []Label // members vocab-07 does not define
	err     error   // why the preference failed to parse: all unknown
}

// A signalRule is one Content-Signal line of a group.
type signalRule struct {
	line    int
	search  Preference
	aiInput Preference
	aiTrain Preference
	labels  []Label
	err     error
}

// ruleValue cuts a rule value the way draft-ietf-aipref-attach-05 section
// 3.2 reads it: it ends at the first CR, LF or '#', and white space (SP,
// HTAB) around it is not part of it.
func ruleValue(raw string) string {
	if i := strings.IndexAny(raw, "\r\n#"); i >= 0 {
		raw = raw[:i]
	}
	return strings.Trim(raw, " \t")
}

// splitUsageValue splits a Content-Usage value into its path and its
// statement of preference (draft-ietf-aipref-attach-05 section 3.2): a
// value that starts with '/' has a path, which ends at the first SP or
// HTAB; the rest, without the white space that separates it, is the
// preference. Any other value is all preference.
func splitUsageValue(raw string) (path, pref string) {
	v := ruleValue(raw)
	if !strings.HasPrefix(v, "/") {
		return "", v
	}
	end := strings.IndexAny(v, " \t")
	if end < 0 {
		return v, ""
	}
	return v[:end], strings.TrimLeft(v[end:], " \t")
}

// parseUsageRule parses the value of a Content-Usage line.
func parseUsageRule(line int, raw string) usageRule {
	path, pref := splitUsageValue(raw)
	r := usageRule{line: line, path: path, pattern: "/"}
	if path != "" {
		r.pattern = escapePattern(path)
	}
	dict, err := sfv.ParseDictionary(pref)
	if err != nil {
		// A failed parse leaves every category unknown
		// (draft-ietf-aipref-vocab-07 section 6.5.1).
		r.err = err
		return r
	}
	for _, m := range dict {
		switch m.Key {
		case labelTrainAI:
			r.trainAI = vocabPreference(m.Value)
		case labelSearch:
			r.search = vocabPreference(m.Value)
		default:
			r.labels = append(r.labels, labelOf(line, m))
		}
	}
	return r
}

// vocabPreference maps a dictionary member to a preference by
// draft-ietf-aipref-vocab-07 section 6.5: the Token y allows, the Token n
// disallows, and anything else (another token, a string, a boolean, an
// inner list) is unknown. Parameters are ignored.
func vocabPreference(m sfv.Member) Preference {
	return tokenPreference(m, "y", "n")
}

func tokenPreference(m sfv.Member, yes, no string) Preference {
	if m.IsInnerList || m.Item.Kind != sfv.Token {
		return PreferenceUnknown
	}
	switch m.Item.Str {
	case yes:
		return PreferenceAllow
	case no:
		return PreferenceDisallow
	}
	return PreferenceUnknown
}

// labelOf returns a member as written, for callers.
func labelOf(line int, m sfv.DictMember) Label {
	value := sfv.Dictionary{m}.String()[len(m.Key):]
	return Label{Key: m.Key, Value: strings.TrimPrefix(value, "="), Line: line}
}

// parseSignalRule parses the value of a Content-Signal line. The Content
// Signals Policy writes its values as comma-separated key=value pairs that
// are RFC 9651 dictionaries, with the tokens yes and no; this library
// reads them with the same dictionary parser and the same rules as
// Content-Usage values (a failed parse leaves every key unknown; a
// repeated key's last value wins). A Content-Signal value has no path.
func parseSignalRule(line int, raw string) signalRule {
	r := signalRule{line: line}
	dict, err := sfv.ParseDictionary(ruleValue(raw))
	if err != nil {
		r.err = err
		return r
	}
	for _, m := range dict {
		switch m.Key {
		case signalSearch:
			r.search = tokenPreference(m.Value, "yes", "no")
		case signalAIInput:
			r.aiInput = tokenPreference(m.Value, "yes", "no")
		case signalAITrain:
			r.aiTrain = tokenPreference(m.Value, "yes", "no")
		default:
			r.labels = append(r.labels, labelOf(line, m))
		}
	}
	return r
}
