//go:build race

package lint_test

// raceEnabled says the tests run under the race detector, where the
// brute-force test lints a quarter of its files: what the detector looks
// for does not grow with their number, and the plain run lints them all.
const raceEnabled = true
