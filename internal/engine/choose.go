package engine

// Allowed reports whether the crawler agent may fetch url: the verdict of
// the stream while the file is not compiled and few questions have been
// asked of it, else of a compiled rule set.
func (f *File) Allowed(agent, url string) bool {
	if !f.built.Load() {
		rs, v, answered := f.choose(agent, url)
		if answered {
			return v.Allowed
		}
		if rs != nil {
			return rs.Allowed(url)
		}
	}
	// lookup, not Rules: one call less on every compiled question.
	rs, _ := f.lookup(agent)
	return rs.Allowed(url)
}

// Explain returns the verdict for agent and url, with the rule that
// decided it, as Allowed finds it.
func (f *File) Explain(agent, url string) Verdict {
	if !f.built.Load() {
		rs, v, answered := f.choose(agent, url)
		if answered {
			return v
		}
		if rs != nil {
			return rs.Verdict(url)
		}
	}
	rs, _ := f.lookup(agent)
	return rs.Verdict(url)
}

// choose is the one place that chooses between the strategies, for a file
// not compiled yet. It answers a question (answered is true and v the
// verdict) by streaming over the file (stream.go) while fewer than
// streamedQuestions questions have been asked of it; then by compiling
// the rule set of the agent alone (scoped.go) and scanning it in file
// order, within a budget, as the next question does too. Later questions
// about that agent get its rule set (rs), sorted then, which
// answers through scan.go, or index.go for large sets (see
// RuleSet.decide). A file whose groups that apply are too large for a
// scoped set streams while it is compiled whole in parts
// (buildparts.go). When rs is nil and answered false, f is compiled
// whole, and its compiled form answers.
func (f *File) choose(agent, url string) (rs *RuleSet, v Verdict, answered bool) {
	body, ok := f.body()
	if !ok || f.disallowAll {
		f.compile()
		return nil, Verdict{}, false
	}
	if s := f.findScoped(agent); s != nil {
		if s.fileOrderLeft.Load() > 0 {
			if v, ok := s.fileOrderVerdict(url); ok {
				return nil, v, true
			}
		}
		rs := s.ruleSet()
		if s.scanning(rs) {
			if v, ok := rs.scanVerdict(url); ok {
				return nil, v, true
			}
		}
		return rs, Verdict{}, false
	}
	asked := f.asked.Add(1)
	if asked <= streamedQuestions {
		if v, ok := streamVerdict(body, agent, url); ok {
			return nil, v, true
		}
	}
	first := firstQuestion{url: url}
	if s := f.scope(body, agent, &first); s != nil {
		// The question that built the set scanned its rules in file
		// order, within a budget, rather than sort them or build their
		// index.
		if first.answered {
			return nil, first.v, true
		}
		return s.ruleSet(), Verdict{}, false
	}
	if f.tooLarge.Load() {
		// scope found the set too large, now or before.
		v, answered = f.largeQuestion(body, agent, url, asked)
		return nil, v, answered
	}
	f.compile()
	return nil, Verdict{}, false
}

// streamedQuestions is how many questions are answered by streaming over
// the file before the asked agent's rule set is compiled alone. On the
// corpus, compiling Googlebot's rule set alone costs 1.41 times a streamed
// question (125.0 against 88.5 million instructions a pass over the
// corpus, BenchmarkScopedCorpus), and every later question about it about
// a hundredth of one. Compiling it at once costs two fifths more than
// streaming for a file asked once, and 0.7 of streaming twice for a file
// asked twice, where streaming first would cost 2.41 streamed questions;
// it is the better choice from the second question on
// (BenchmarkParseCheckCorpus: 1.43 times main's instructions at one
// question, 0.75 at two, 0.26 at five).
const streamedQuestions = 0
