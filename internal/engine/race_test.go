//go:build race

package engine

// raceEnabled says the tests run under the race detector, which slows the
// engine's random and corpus twins about sixfold: there they check a
// share of their inputs (raceShare), since what the race detector looks
// for, concurrent access, does not grow with their number.
const raceEnabled = true
