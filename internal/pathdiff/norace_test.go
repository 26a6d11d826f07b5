//go:build !race

package pathdiff

// raceEnabled says the tests run under the race detector.
const raceEnabled = false
