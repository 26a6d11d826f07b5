package diff

// SetPaths chooses how classes are decided in tests: "automaton" (no
// pairwise check), "pairwise" (the automaton gets no budget) or "" (both,
// as in use).
func SetPaths(mode string) {
	noFallback, forceFallback = mode == "automaton", mode == "pairwise"
}
