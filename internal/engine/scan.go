package engine

// Strategy 2 of three (see choose.go): a compiled rule set tries its rules
// in deciding order, ruling most out with one comparison of their first
// bytes; a large set asks its index instead (index.go), which scans the
// same way for its first questions, until building it pays.

// decide returns the rule that decides for path, or nil when none
// matches: the one place a compiled rule set picks scan or index.
func (rs *RuleSet) decide(path string) *compiledRule {
	// Google keeps the longest match of each kind (the first one on ties)
	// and lets allow win ties; an empty pattern matches with priority 0,
	// which names a line but never disallows. The order of rs.compiled
	// makes the first matching rule exactly that answer.
	if rs.index != nil {
		if pos := rs.index.find(path); pos != noRule {
			return &rs.compiled[pos]
		}
		return nil
	}
	key := prefixKey(path)
	for i := range rs.compiled {
		// mayMatch is inlined here; matchesFully, which it mostly spares,
		// is not.
		if c := &rs.compiled[i]; c.mayMatch(rs.text, key) && c.matchesFully(rs.text, path) {
			return c
		}
	}
	return nil
}
