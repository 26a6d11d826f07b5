package engine

// usagePreferences are the parsed Content-Usage and Content-Signal lines of
// one group, in file order: what the grouper hands over for each group.
type usagePreferences struct {
	rules   []usageRule
	signals []signalRule
}

// usageForURL returns the Usage of url under p; fetchable is the verdict of
// the same group's allow and disallow rules for url. The URL's path is
// found and brought to wire form exactly as Allowed does.
func (p *usagePreferences) usageForURL(url string, fetchable bool) Usage {
	if !fetchable {
		return Usage{}
	}
	var buf [pathBufSize]byte
	return p.usage(wirePath(url, &buf), true)
}

// usage returns the Usage of a path in wire form (draft-ietf-aipref-attach-05
// section 3.1):
//
//   - Nothing when the group does not let the crawler fetch the path.
//   - Of the Content-Usage rules whose path matches, those with the longest
//     path in wire form apply, matched exactly as allow and disallow
//     patterns are ('*' wildcards and a final '$' included). Where several
//     apply, each category takes the most restrictive of their answers
//     (draft-ietf-aipref-vocab-08 section 5.1); the attach draft says so for
//     identical paths, and this library treats every path of the same
//     length as equally specific, as the length is the only priority the
//     draft defines.
//   - A rule without a path applies to every path, as "/" does; it counts
//     as the path "/" (length 1), so that "Content-Usage: train-ai=n" and
//     "Content-Usage: / train-ai=y" combine to the most restrictive answer
//     instead of one spelling of "everything" silently beating the other.
//     The draft does not say.
//   - Content-Signal lines have no path: every one in the group applies,
//     and each key takes the most restrictive answer among them.
//
// The deciding line of a category is the line whose answer was kept, the
// first in file order among equals.
func (p *usagePreferences) usage(path string, fetchable bool) Usage {
	if !fetchable {
		return Usage{}
	}
	if path == "" {
		path = "/"
	}
	u := Usage{Fetchable: true}
	best := -1
	for i := range p.rules {
		r := &p.rules[i]
		if len(r.pattern) < best || !matchPattern(r.pattern, path) {
			continue
		}
		if len(r.pattern) > best {
			best = len(r.pattern)
			u.TrainAI = Decision{r.trainAI, r.line}
			u.AIUse = Decision{r.aiUse, r.line}
			u.Search = Decision{r.search, r.line}
			u.Labels = append(u.Labels[:0], r.labels...)
			continue
		}
		u.TrainAI.add(r.trainAI, r.line)
		u.AIUse.add(r.aiUse, r.line)
		u.Search.add(r.search, r.line)
		u.Labels = append(u.Labels, r.labels...)
	}
	if len(u.Labels) == 0 {
		u.Labels = nil
	}
	for i, s := range p.signals {
		if i == 0 {
			u.Signal = ContentSignal{
				Search:  Decision{s.search, s.line},
				AIInput: Decision{s.aiInput, s.line},
				AITrain: Decision{s.aiTrain, s.line},
			}
		} else {
			u.Signal.Search.add(s.search, s.line)
			u.Signal.AIInput.add(s.aiInput, s.line)
			u.Signal.AITrain.add(s.aiTrain, s.line)
		}
		u.Signal.Labels = append(u.Signal.Labels, s.labels...)
	}
	return u
}
