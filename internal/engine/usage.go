package engine

import "github.com/seed50c7eacc/robotstxt/internal/aipref"

// The answers about the use of content, as package robotstxt documents
// them (its Usage, Decision, Label and ContentSignal); usage_parse.go reads
// the lines, usage_build.go hands each rule set its groups' lines and
// usage_eval.go answers for a path.

// A Decision is the preference for one category and the line that
// decided it.
type Decision struct {
	Preference aipref.Pref
	Line       int
}

// A Label is one dictionary member of a preference as written.
type Label struct {
	Key   string
	Value string
	Line  int
}

// Usage is what a file says about the use of one URL's content by one
// crawler.
type Usage struct {
	Fetchable bool
	TrainAI   Decision
	AIUse     Decision
	Search    Decision
	Labels    []Label
	Signal    ContentSignal
}

// ContentSignal is what Content-Signal lines say.
type ContentSignal struct {
	Search  Decision
	AIInput Decision
	AITrain Decision
	Labels  []Label
}

// Usage returns the Usage of url under the rule set's preferences.
func (rs *RuleSet) Usage(url string) Usage {
	prefs := rs.preferences()
	if prefs == nil {
		return Usage{Fetchable: rs.Allowed(url)}
	}
	// One wire-form path serves both the fetch verdict and the preferences.
	var buf [pathBufSize]byte
	path := wirePath(url, &buf)
	return prefs.usage(path, rs.allowsPath(path))
}

// add combines one more applicable answer into d, the most restrictive
// winning (draft-ietf-aipref-vocab-08 section 5.1, "Combining
// Preferences"); d keeps its line unless the new answer changes the
// outcome.
func (d *Decision) add(p aipref.Pref, line int) {
	if c := aipref.Combine(d.Preference, p); c != d.Preference {
		*d = Decision{c, line}
	}
}
