//go:build !race

package engine

// raceEnabled says the tests run under the race detector.
const raceEnabled = false
