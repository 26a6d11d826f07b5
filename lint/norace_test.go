//go:build !race

package lint_test

// raceEnabled says the tests run under the race detector.
const raceEnabled = false
