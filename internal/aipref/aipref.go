// Package aipref reads Content-Usage values (draft-ietf-aipref-attach-05
// of 19 August 2026, the attachment draft current with
// draft-ietf-aipref-vocab-08 of 14 September 2026, which supersedes -07)
// and Content-Signal values (Cloudflare's Content Signals Policy) one line
// at a time, and checks them.
//
// The vocabulary is that of vocab-08, and section numbers below are
// vocab-08's, given with their titles: the three categories AI Training
// ("train-ai", section 4.1), AI Use ("ai-use", section 4.2, new in -08)
// and Search ("search", section 4.3), the values y and n ("Preference
// Labels", section 6.2), and the processing rules of section 6. Search
// overrides the other two for a use that qualifies as search (section
// 4.3); this package reports each category's preference as written, and
// says nothing about which category a use falls in, which only the user
// of the content knows. Package robotstxt evaluates the values per group;
// package lint reports the problems found here.
package aipref

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/sfv"
)

// Pref is the answer of one value for one category: the three outcomes of
// draft-ietf-aipref-vocab-08 section 5, "Applying Statements of
// Preference". Its values are those of robotstxt.Preference.
type Pref uint8

// The answers.
const (
	Unknown Pref = iota
	Allow
	Disallow
)

// The labels of draft-ietf-aipref-vocab-08 section 6.1, "Usage Category
// Labels" (categories AI Training, section 4.1; AI Use, section 4.2;
// Search, section 4.3), and the keys of the Content Signals Policy.
const (
	LabelTrainAI = "train-ai"
	LabelAIUse   = "ai-use"
	LabelSearch  = "search"

	SignalSearch  = "search"
	SignalAIInput = "ai-input"
	SignalAITrain = "ai-train"
)

// RuleValue cuts a rule value the way draft-ietf-aipref-attach-05 section
// 3.2 reads it: it ends at the first CR, LF or '#', and white space (SP,
// HTAB) around it is not part of it.
func RuleValue(raw string) string {
	if i := strings.IndexAny(raw, "\r\n#"); i >= 0 {
		raw = raw[:i]
	}
	return strings.Trim(raw, " \t")
}

// SplitUsageValue splits a Content-Usage value into its path and its
// statement of preference (draft-ietf-aipref-attach-05 section 3.2): a
// value that starts with '/' has a path, which ends at the first SP or
// HTAB; the rest, without the white space that separates it, is the
// preference. Any other value is all preference.
func SplitUsageValue(raw string) (path, pref string) {
	v := RuleValue(raw)
	if !strings.HasPrefix(v, "/") {
		return "", v
	}
	end := strings.IndexAny(v, " \t")
	if end < 0 {
		return v, ""
	}
	return v[:end], strings.TrimLeft(v[end:], " \t")
}

// TokenPref maps a dictionary member to an answer: the Token yes allows,
// the Token no disallows, and anything else (another token, a string, a
// boolean, an inner list) is unknown (draft-ietf-aipref-vocab-08 section
// 6.5, "Processing Algorithm"). Parameters are ignored (section 6.5.2).
func TokenPref(m sfv.Member, yes, no string) Pref {
	if m.IsInnerList || m.Item.Kind != sfv.Token {
		return Unknown
	}
	switch m.Item.Str {
	case yes:
		return Allow
	case no:
		return Disallow
	}
	return Unknown
}

// A Usage is one Content-Usage value.
type Usage struct {
	Path                   string // as written; "" when the value has none
	TrainAI, AIUse, Search Pref
	Others                 []sfv.DictMember // members vocab-08 does not define
	Err                    error            // why the preference failed to parse: all unknown
}

// ParseUsage reads a Content-Usage value. A failed parse leaves every
// category unknown, and a repeated key's last value counts
// (draft-ietf-aipref-vocab-08 section 6.5.1, "Multiple Preferences");
// labels vocab-08 does not define are ignored (section 6.4, "Syntax
// Extensions") and returned in Others.
func ParseUsage(raw string) Usage {
	path, pref := SplitUsageValue(raw)
	u := Usage{Path: path}
	u.Others, u.Err = readDictionary(pref, func(m sfv.DictMember) bool {
		switch m.Key {
		case LabelTrainAI:
			u.TrainAI = TokenPref(m.Value, "y", "n")
		case LabelAIUse:
			u.AIUse = TokenPref(m.Value, "y", "n")
		case LabelSearch:
			u.Search = TokenPref(m.Value, "y", "n")
		default:
			return false
		}
		return true
	})
	return u
}

// readDictionary parses value as an RFC 9651 dictionary and hands each
// member, in order, to read, which reports whether it knew the key; the
// members it did not know are returned. On a parse error read is never
// called, so that a failed value leaves every category unknown.
func readDictionary(value string, read func(sfv.DictMember) bool) (others []sfv.DictMember, err error) {
	dict, err := sfv.ParseDictionary(value)
	if err != nil {
		return nil, err
	}
	for _, m := range dict {
		if !read(m) {
			others = append(others, m)
		}
	}
	return others, nil
}

// A Signal is one Content-Signal value.
type Signal struct {
	Search, AIInput, AITrain Pref
	Others                   []sfv.DictMember
	Err                      error
}

// ParseSignal reads a Content-Signal value. The Content Signals Policy
// writes its values as comma-separated key=value pairs that are RFC 9651
// dictionaries, with the tokens yes and no; they are read with the same
// rules as Content-Usage values (a failed parse leaves every key unknown;
// a repeated key's last value counts). A Content-Signal value has no path.
func ParseSignal(raw string) Signal {
	var s Signal
	s.Others, s.Err = readDictionary(RuleValue(raw), func(m sfv.DictMember) bool {
		switch m.Key {
		case SignalSearch:
			s.Search = TokenPref(m.Value, "yes", "no")
		case SignalAIInput:
			s.AIInput = TokenPref(m.Value, "yes", "no")
		case SignalAITrain:
			s.AITrain = TokenPref(m.Value, "yes", "no")
		default:
			return false
		}
		return true
	})
	return s
}

// Combine returns the result of two statements about one category, the
// most restrictive winning (draft-ietf-aipref-vocab-08 section 5.1,
// "Combining Preferences"): disallow over allow over unknown.
func Combine(p, q Pref) Pref {
	return max(p, q)
}
