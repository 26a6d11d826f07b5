package robotstxt

import (
	"strconv"

	"github.com/seed50c7eacc/robotstxt/internal/engine"
)

// AI usage preferences: what a robots.txt file says about the use of the
// content a crawler fetches, as opposed to whether it may fetch it.
//
// Two syntaxes are read, both as rules inside a group:
//
//   - Content-Usage, from the IETF AI Preferences working group's drafts
//     draft-ietf-aipref-attach-05 (19 August 2026, section 3) and
//     draft-ietf-aipref-vocab-08 (14 September 2026): "Content-Usage:
//     [path SP] train-ai=n, ai-use=n, search=y". Work in progress, not a
//     standard.
//   - Content-Signal, from Cloudflare's Content Signals Policy
//     (contentsignals.org, CC0): "Content-Signal: search=yes, ai-train=no".
//
// Both values are RFC 9651 structured-field dictionaries.
//
// Content-Signal is read per group, like Content-Usage, not file-wide.
// Cloudflare's managed robots.txt files, the largest source of the line,
// write it inside the "User-agent: *" group, followed by "Allow: /", and
// Cloudflare's own examples do the same; crawler-commons, which had first
// read it as file-wide, scoped it to its group in 2026 (pull request 604).
// Reading it file-wide would also hand a "*" group's signal to crawlers that
// RFC 9309 section 2.2.1 sends to a group of their own. A Content-Signal line
// before the first group therefore applies to no crawler; the linter says
// so (usage-outside-group), as writers who meant it file-wide exist.

// Preference is the answer for one category of use: the three outcomes of
// draft-ietf-aipref-vocab-08 section 5, "Applying Statements of
// Preference".
type Preference uint8

// The preferences a category of use can have.
const (
	// PreferenceUnknown: nothing applicable says yes or no. The drafts take
	// no position on what a crawler should assume.
	PreferenceUnknown Preference = iota
	// PreferenceAllow: the site allows the use ("y", or "yes" in a
	// Content-Signal).
	PreferenceAllow
	// PreferenceDisallow: the site does not allow the use ("n" or "no").
	PreferenceDisallow
)

var preferenceNames = [...]string{"unknown", "allow", "disallow"}

// String returns "unknown", "allow" or "disallow".
func (p Preference) String() string {
	if int(p) < len(preferenceNames) {
		return preferenceNames[p]
	}
	return "Preference(" + strconv.Itoa(int(p)) + ")"
}

// MarshalText encodes the preference as its String form, for JSON output.
func (p Preference) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// A Decision is the preference for one category of use and the line that
// decided it. Line is 0 when no line applies; a line can decide
// PreferenceUnknown (it applies but does not name the category, or names it
// with a value other than yes or no).
type Decision struct {
	Preference Preference `json:"preference"`
	Line       int        `json:"line"`
}

// A Label is one dictionary member of a preference as written: its key, and
// its value with any parameters in RFC 9651 serialization ("" for a bare
// key, which RFC 9651 reads as Boolean true). Labels the vocabulary does
// not define are ignored when preferences are assigned but kept for
// callers, since the drafts reserve them for extensions
// (draft-ietf-aipref-vocab-08 section 6.4, "Syntax Extensions").
type Label struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Line  int    `json:"line"`
}

// Usage is what a robots.txt file says about the use of one URL's content
// by one crawler, under the group that crawler obeys.
type Usage struct {
	// Fetchable is false when the group disallows the URL; then every
	// other field is zero, because preferences apply only to content the
	// crawler may fetch (draft-ietf-aipref-attach-05 section 3.1).
	Fetchable bool `json:"fetchable"`

	// TrainAI, AIUse and Search are the three categories of
	// draft-ietf-aipref-vocab-08, from the group's Content-Usage lines,
	// each as its label is written there:
	//
	//   - TrainAI, AI Training (section 4.1, label "train-ai"): training
	//     or fine-tuning a generative AI model on the content; a model
	//     that only classifies, ranks or scores is not generative (the
	//     term is defined in section 2).
	//   - AIUse, AI Use (section 4.2, label "ai-use", new in -08): the
	//     content fed to a generative AI model without the user having
	//     supplied it, as in retrieval or grounding; training is AI
	//     Training, not AI Use.
	//   - Search (section 4.3, label "search"): the content in an
	//     application that exists to find content and send users to it:
	//     results link to where it was fetched, excerpts only help judge
	//     relevance, and summaries are not search.
	//
	// Search overrides the other two (section 4.3): a use that qualifies
	// as search follows Search even where TrainAI or AIUse says otherwise,
	// so under "train-ai=n, ai-use=n, search=y" a search engine may still
	// train and run AI models for its results, as long as they serve only
	// the search. Only the user of the content knows whether its use
	// qualifies, so each field reports its own label as written and the
	// override is the caller's to apply: decide first whether the use is
	// search; if it is, read Search alone.
	TrainAI Decision `json:"train_ai"`
	AIUse   Decision `json:"ai_use"`
	Search  Decision `json:"search"`

	// Labels are the members of the deciding Content-Usage lines whose
	// keys vocab-08 does not define, in line and then written order.
	Labels []Label `json:"labels,omitempty"`

	// Signal is what the group's Content-Signal lines say.
	Signal ContentSignal `json:"signal"`
}

// ContentSignal is what Content-Signal lines say (Cloudflare's Content
// Signals Policy, contentsignals.org): the three uses it defines, and any
// other keys as written (such as "use", which Cloudflare's managed files
// emit).
type ContentSignal struct {
	Search  Decision `json:"search"`           // "search": building a search index and showing results
	AIInput Decision `json:"ai_input"`         // "ai-input": live input to AI models (grounding, RAG)
	AITrain Decision `json:"ai_train"`         // "ai-train": training or fine-tuning AI models
	Labels  []Label  `json:"labels,omitempty"` // other keys as written
}

// Usage returns what the file says about the use of url's content by the
// crawler agent: the Content-Usage lines (draft-ietf-aipref-attach-05 of
// 19 August 2026, vocabulary draft-ietf-aipref-vocab-08 of 14 September 2026)
// and Content-Signal lines (Cloudflare's Content Signals Policy,
// contentsignals.org, as published in September 2025) of the groups whose
// allow and disallow rules apply to agent, chosen and merged exactly as
// for Allowed. When agent may not fetch url the Usage is zero (Fetchable
// false): preferences apply only to content a crawler may fetch
// (draft-ietf-aipref-attach-05 section 3.1).
//
// Neither draft is a standard; RFC 9309 defines only fetching. Where the
// documents are silent this library decides as follows: Content-Signal
// lines belong to their group, like Content-Usage lines; a Content-Usage
// line without a path counts as the path "/"; several lines that apply
// combine so that the most restrictive answer wins.
//
// For tokens that control use rather than fetching, such as
// Google-Extended or Applebot-Extended, pass that token: the answer is
// what the groups naming it say.
func (r *Robots) Usage(agent, url string) Usage { return usageOf(r.rulesFor(agent).Usage(url)) }

// Usage returns what the file says about the use of url's content by this
// agent; see Robots.Usage. A nil Agent has no rules: every URL is
// fetchable and has no preference.
func (a *Agent) Usage(url string) Usage { return usageOf(a.ruleSet().Usage(url)) }

// usageOf returns the engine's answer as the API's.
func usageOf(u engine.Usage) Usage {
	return Usage{
		Fetchable: u.Fetchable,
		TrainAI:   decisionOf(u.TrainAI),
		AIUse:     decisionOf(u.AIUse),
		Search:    decisionOf(u.Search),
		Labels:    labelsOf(u.Labels),
		Signal: ContentSignal{
			Search:  decisionOf(u.Signal.Search),
			AIInput: decisionOf(u.Signal.AIInput),
			AITrain: decisionOf(u.Signal.AITrain),
			Labels:  labelsOf(u.Signal.Labels),
		},
	}
}

func decisionOf(d engine.Decision) Decision { return Decision{Preference(d.Preference), d.Line} }

func labelsOf(labels []engine.Label) []Label {
	return convertAll(labels, func(l engine.Label) Label { return Label(l) })
}
