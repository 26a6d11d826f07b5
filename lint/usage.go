package lint

import (
	"github.com/seed50c7eacc/robotstxt/internal/aipref"
	"github.com/seed50c7eacc/robotstxt/internal/engine"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// Lint's checks of AI usage preference lines: Content-Usage
// (draft-ietf-aipref-attach-05 of 19 August 2026 and
// draft-ietf-aipref-vocab-08 of 14 September 2026) and Content-Signal
// (Cloudflare's Content Signals Policy). The
// checks themselves live in internal/aipref, shared with the parser's
// reading of the values; this file turns their problems into diagnostics.

// notePreference records the line for the grouping check and checks a
// preference value on its own.
func (l *linter) notePreference(gl *parse.Grouped) {
	if gl.Flags&parse.LineHasDirective == 0 {
		return
	}
	kind := aipref.LineOther
	switch gl.Kind {
	case parse.KeyUserAgent:
		kind = aipref.LineUserAgent
	case parse.KeyAllow, parse.KeyDisallow:
		kind = aipref.LineAllowance
	case parse.KeyUnknown:
		switch {
		case parse.IsKey(gl.Key, "content-usage"):
			kind = aipref.LinePreference
			l.addProblems(aipref.CheckUsageValue(gl.Num, gl.Value))
		case parse.IsKey(gl.Key, "content-signal"):
			kind = aipref.LinePreference
			l.addProblems(aipref.CheckSignalValue(gl.Num, gl.Value))
		}
	}
	if kind == aipref.LinePreference {
		l.hasPrefs = true
	}
	if kind != aipref.LineOther {
		if p, ok := l.prefGrouping.Next(aipref.Line{Kind: kind, Num: gl.Num}); ok {
			l.addProblems([]aipref.Problem{p})
		}
	}
}

// addProblems reports problems as diagnostics of the code of the same name.
func (l *linter) addProblems(ps []aipref.Problem) {
	for _, p := range ps {
		l.add(p.Line, Code(p.Code), "%s", p.Msg)
	}
}

// checkUsage runs the checks that need whole groups: Content-Usage paths
// the group disallows, and Content-Usage against Content-Signal.
func (l *linter) checkUsage() {
	if !l.hasPrefs {
		return
	}
	for gi := range l.groups.Groups {
		var usages []aipref.UsageLine
		var signals []aipref.SignalLine
		for _, o := range l.groups.Others(gi) {
			switch {
			case parse.IsKey(o.Key, "content-usage"):
				usages = append(usages, aipref.UsageLine{Num: int(o.Line), Usage: aipref.ParseUsage(o.Value)})
			case parse.IsKey(o.Key, "content-signal"):
				signals = append(signals, aipref.SignalLine{Num: int(o.Line), Signal: aipref.ParseSignal(o.Value)})
			}
		}
		if len(usages) == 0 {
			continue
		}
		l.addProblems(aipref.CheckDisallowedPaths(usages, groupVerdict(l.groups.Rules(gi))))
		l.addProblems(aipref.CheckContradictions(usages, signals))
	}
}

// groupVerdict returns the verdict of one group's own rules for a path, as
// Google's matcher gives it: the engine compiles the rules as it would
// compile the group.
func groupVerdict(rules []parse.Rule) func(path string) bool {
	return engine.CompileRules(rules).Allowed
}
