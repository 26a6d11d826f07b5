package engine

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/aipref"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/sfv"
)

// A usageRule is one Content-Usage line of a group.
type usageRule struct {
	line    int
	path    string // as written; "" when the value has none
	pattern string // path in wire form, "/" when the value has none
	trainAI aipref.Pref
	aiUse   aipref.Pref
	search  aipref.Pref
	labels  []Label // members vocab-08 does not define
	err     error   // why the preference failed to parse: all unknown
}

// A signalRule is one Content-Signal line of a group.
type signalRule struct {
	line    int
	search  aipref.Pref
	aiInput aipref.Pref
	aiTrain aipref.Pref
	labels  []Label
	err     error
}

// parseUsageRule parses the value of a Content-Usage line
// (draft-ietf-aipref-attach-05 section 3.2, draft-ietf-aipref-vocab-08
// section 6.5, "Processing Algorithm").
func parseUsageRule(line int, raw string) usageRule {
	u := aipref.ParseUsage(raw)
	r := usageRule{line: line, path: u.Path, pattern: "/", trainAI: u.TrainAI, aiUse: u.AIUse,
		search: u.Search, labels: labelsOf(line, u.Others), err: u.Err}
	if u.Path != "" {
		r.pattern = pattern.Escape(u.Path)
	}
	return r
}

// parseSignalRule parses the value of a Content-Signal line (Content
// Signals Policy).
func parseSignalRule(line int, raw string) signalRule {
	s := aipref.ParseSignal(raw)
	return signalRule{line: line, search: s.Search, aiInput: s.AIInput, aiTrain: s.AITrain,
		labels: labelsOf(line, s.Others), err: s.Err}
}

// labelsOf returns dictionary members as written, for callers.
func labelsOf(line int, members []sfv.DictMember) []Label {
	var out []Label
	for _, m := range members {
		value := sfv.Dictionary{m}.String()[len(m.Key):]
		out = append(out, Label{Key: m.Key, Value: strings.TrimPrefix(value, "="), Line: line})
	}
	return out
}
