//go:build race

package diff_test

// raceEnabled: the corpus pairs are compared without the race detector
// only, which makes them ten times slower; the ordinary run covers them.
const raceEnabled = true
